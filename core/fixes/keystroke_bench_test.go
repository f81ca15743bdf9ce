package fixes

import (
	"strings"
	"testing"
	"wfl-lsp/core"
	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/lang/token"
)

// BenchmarkKeystrokeFixes times, in the process, a keystroke of a line
// typed into the middle of the clean 10,000-line document (Enter, then the
// line, then deleted), its diagnostics, and the quick fixes at the cursor,
// as an editor asks for the code actions there after each keystroke: while
// the line is being typed, a finding (a parse error, an undefined name) is
// nearly always at the cursor, and each candidate fix is checked on a copy
// of the text. The lines: a name being typed (display totl), a statement
// that does not parse until its last word (add 3 to total_c1), and a call
// with its arguments.
//
//	go test -run '^$' -bench KeystrokeFixes -benchtime 60x ./core/fixes
func BenchmarkKeystrokeFixes(b *testing.B) {
	text := benchdoc.Clean(10000)
	at := strings.Index(text[len(text)/2:], "\ndisplay call") + len(text)/2 // the end of a line
	for _, line := range []string{"display totl", "add 3 to total_c1", "display call sum_numbers_c3 with 1 and 2"} {
		b.Run(strings.ReplaceAll(line, " ", "_"), func(b *testing.B) {
			typed := "\n" + line
			ws := core.NewWorkspace()
			uri := core.URI("file:///bench/fixes.wfl")
			s := ws.Open(uri, 1, text)
			s.Diagnostics()
			s.Analysis()
			fixes, analyses := 0, 0
			for i := 0; b.Loop(); i++ {
				var e core.Edit
				var cursor int
				if k := i % (2 * len(typed)); k < len(typed) {
					e, cursor = core.Edit{Start: at + k, End: at + k, Text: typed[k : k+1]}, at+k+1
				} else { // deleting it again
					j := 2*len(typed) - k
					e, cursor = core.Edit{Start: at + j - 1, End: at + j}, at+j-1
				}
				var err error
				if s, err = ws.Change(uri, s.Version+1, e); err != nil {
					b.Fatal(err)
				}
				s.Diagnostics()
				fixes += len(At(b.Context(), s, token.Span{Start: cursor, End: cursor}))
				if s.Analysed() {
					analyses++
				}
			}
			b.ReportMetric(float64(fixes)/float64(b.N), "fixes/op")
			b.ReportMetric(float64(analyses)/float64(b.N), "full-analyses/op")
		})
	}
}
