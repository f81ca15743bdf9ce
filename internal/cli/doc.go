// Package cli implements the subcommands of the wfl-lsp command line that
// work on files and exit: check (Check, in check.go) reports diagnostics
// like a compiler, plain or as the JSON lines other tools read
// (jsonDiagnostic), and fmt (Fmt, in fmt.go) prints, writes, lists or
// diffs the canonical form as gofmt does. A user's file is written only
// through replaceFile (replace.go), which cannot leave it half written.
// GrowPipe widens the pipe the servers speak over.
//
// main.go parses the global flags and chooses the mode; it hands the
// subcommands their arguments here. Start with Check.
package cli
