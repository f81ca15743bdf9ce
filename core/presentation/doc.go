// Package presentation answers how a document is shown: its outline
// (document and workspace symbols), semantic tokens, inlay hints, folding
// ranges, document links, selection ranges, formatting and the block
// closer typed after Enter. It reads a [core.Snapshot], its syntax tree
// ([core.Syntax]) or an analysis.
//
// Start with symbols.go (DocumentSymbols) and semtok.go (SemanticTokens).
// After an edit, the answers of a whole document or of the visible range
// are built from an earlier version's, the units of the text unchanged
// since moved (semtok_since.go: TokensSince, TokensIn, HintsIn;
// symbols_since.go: Outline), through what core's state tells of them
// (core/since.go). ontype.go closes a block (CloseBlock), format.go
// formats, wsymbols.go matches workspace symbols.
//
// presentation imports core and no other feature package.
package presentation
