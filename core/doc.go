// Package core is the state of the language core that both protocol front
// doors stand on: a [Workspace] of immutable document [Snapshot]s, their
// analyses, and the partial analyses that answer position queries after an
// edit, in plain data (byte offsets, spans, strings), never in protocol
// types. The features that read the state are packages under it, which
// core never imports: completion (completion and signature help),
// navigation (hover, definition, references, rename, hierarchies, code
// lenses), presentation (outline, semantic tokens, inlay hints, folding,
// formatting) and fixes (quick fixes, explanations of diagnostic codes).
//
// Start with [Workspace]: Open, Change and Close build new snapshots and swap
// them in; readers call [Workspace.Snapshot] and never lock. A snapshot's
// [Analysis] (parse, check, diagnostics) is computed once, on first use.
// [Snapshot.Diagnostics] is what editors are sent after each keystroke: it is
// derived from the previous version's when that equals a full analysis,
// after an edit of the document (incremental.go explains how) or of a file
// it includes (incremental_imports.go), so it costs a fraction of one; and
// [Snapshot.Query] answers the position queries of an edited version from a
// partial analysis of the statements they reach (query.go).
//
// Invariants:
//   - core imports lang and the standard library only; it knows nothing of LSP,
//     MCP or JSON, nor of its feature packages.
//   - A Snapshot is never mutated after it is published.
//   - Positions are byte offsets into the snapshot's text.
package core
