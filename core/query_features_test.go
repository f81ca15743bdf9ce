package core_test

import (
	"strings"
	"testing"
	"wfl-lsp/core"
	"wfl-lsp/core/completion"
	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/lang/token"
)

// BenchmarkQuery times the analysis a query needs right after an edit of
// a 10,000-line document: partial (what Query does) and full (what the
// server did before). Each edit retypes one digit in the middle chunk; the
// query is a completion at the edit.
//
//	go test -run '^$' -bench Query ./core
func BenchmarkQuery(b *testing.B) {
	for _, doc := range []string{"lines=10000", "clean/lines=10000"} {
		text := core.BenchText(10000)
		if strings.HasPrefix(doc, "clean") {
			text = benchdoc.Clean(10000)
		}
		at := strings.Index(text, "c417 as 0\n") + len("c417 as ")
		for _, mode := range []string{"partial", "full"} {
			b.Run(mode+"/"+doc, func(b *testing.B) {
				ws := core.NewWorkspace()
				uri := core.URI("file:///bench/query.wfl")
				s := ws.Open(uri, 1, text)
				s.Diagnostics()
				s.Analysis()
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					s, _ = ws.Change(uri, s.Version+1, core.Edit{Start: at, End: at + 1, Text: string(rune('1' + i%9))})
					s.Diagnostics() // the publisher's part
					a := s.Query(token.Span{Start: at + 1, End: at + 1})
					if mode == "full" {
						a = s.Analysis()
					} else if !a.Partial() {
						b.Fatal("the query fell back to the full analysis")
					}
					completion.List(a, at+1, completion.Options{})
				}
			})
		}
	}
}
