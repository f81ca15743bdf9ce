// Package completion answers what may be typed at the cursor: the
// completion list and signature help, over a [core.Analysis] (a partial
// one after an edit, see core.Snapshot.Query).
//
// Start with [List] (completion.go): it reads what the cursor is in
// (completion_context.go: the statement or clause being typed, the call
// whose arguments are being typed), gathers the candidates light and cuts
// them before their items are made (candidates.go), and adds the keywords
// a place takes (keywords.go, which also documents them for hover).
// [SignatureHelp] (signature.go) reads the call being typed.
//
// completion imports core and no other feature package.
package completion
