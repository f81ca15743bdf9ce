package core_test

import (
	"fmt"
	"strings"
	"testing"
	"wfl-lsp/core"
	"wfl-lsp/core/completion"
	"wfl-lsp/core/navigation"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/token"
)

// BenchmarkQueries measures the position queries on an analysed document
// (the analysis and the index are built before timing starts), at a use of a
// variable in a different chunk each time.
func BenchmarkQueries(b *testing.B) {
	for _, lines := range []int{1000, 10000} {
		text := core.BenchText(lines)
		a := core.NewSnapshot("file:///bench.wfl", 1, text).Analysis()
		var offsets []int
		for i := 0; ; {
			j := strings.Index(text[i:], "with total c")
			if j < 0 {
				break
			}
			offsets = append(offsets, i+j+len("with total c")-2)
			i += j + 1
		}
		a.IdentAt(0)
		navigation.References(a, offsets[0], true)
		presentation.SemanticTokens(a, token.Span{Start: 0, End: 1})
		queries := []struct {
			name string
			run  func(off int) bool
		}{
			{"Hover", func(off int) bool { return navigation.Hover(a, off) != nil }},
			{"Definition", func(off int) bool { return len(navigation.Definition(a, off)) == 1 }},
			{"References", func(off int) bool { return len(navigation.References(a, off, true)) == 6 }},
			{"Highlights", func(off int) bool { return len(navigation.Highlights(a, off)) == 6 }},
			{"Completion", func(off int) bool { _, items := completion.List(a, off, completion.Options{}); return len(items) > 0 }},
			{"SignatureHelp", func(off int) bool {
				// The same chunk's `call sum numbers … with total c… and 1`.
				call := strings.Index(text[off:], "and 1")
				return completion.SignatureHelp(a, off+call) != nil
			}},
			{"SelectionRange", func(off int) bool { return len(presentation.SelectionRange(&a.Syntax, off)) > 2 }},
			{"SemanticTokens", func(int) bool { return len(presentation.SemanticTokens(a, token.Span{Start: 0, End: len(text)})) > 0 }},
			{"DocumentSymbols", func(int) bool { return len(presentation.DocumentSymbols(a)) > 0 }},
			{"FoldingRanges", func(int) bool { return len(presentation.FoldingRanges(&a.Syntax)) > 0 }},
		}
		for _, q := range queries {
			b.Run(fmt.Sprintf("%s/lines=%d", q.name, lines), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					if !q.run(offsets[(i*37)%len(offsets)]) {
						b.Fatalf("%s: unexpected answer", q.name)
					}
				}
			})
		}
	}
}
