package core

import (
	"fmt"
	"strings"
	"testing"

	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/lang/token"
)

// benchChunk is 12 lines of typical WFL; %[1]d makes its names unique.
// benchText is the dense generated document (internal/benchdoc).
func benchText(lines int) string { return benchdoc.Dense(lines) }

// BenchmarkQueries measures the position queries on an analysed document
// (the analysis and the index are built before timing starts), at a use of a
// variable in a different chunk each time.
func BenchmarkQueries(b *testing.B) {
	for _, lines := range []int{1000, 10000} {
		text := benchText(lines)
		a := NewSnapshot("file:///bench.wfl", 1, text).Analysis()
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
		a.References(offsets[0], true)
		a.SemanticTokens(token.Span{Start: 0, End: 1})
		queries := []struct {
			name string
			run  func(off int) bool
		}{
			{"Hover", func(off int) bool { return a.Hover(off) != nil }},
			{"Definition", func(off int) bool { return len(a.Definition(off)) == 1 }},
			{"References", func(off int) bool { return len(a.References(off, true)) == 6 }},
			{"Highlights", func(off int) bool { return len(a.Highlights(off)) == 6 }},
			{"Completion", func(off int) bool { _, items := a.Completion(off, CompletionOptions{}); return len(items) > 0 }},
			{"SignatureHelp", func(off int) bool {
				// The same chunk's `call sum numbers … with total c… and 1`.
				call := strings.Index(text[off:], "and 1")
				return a.SignatureHelp(off+call) != nil
			}},
			{"SelectionRange", func(off int) bool { return len(a.SelectionRange(off)) > 2 }},
			{"SemanticTokens", func(int) bool { return len(a.SemanticTokens(token.Span{Start: 0, End: len(text)})) > 0 }},
			{"DocumentSymbols", func(int) bool { return len(a.DocumentSymbols()) > 0 }},
			{"FoldingRanges", func(int) bool { return len(a.FoldingRanges()) > 0 }},
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

// BenchmarkAnalysis measures what a text change costs the core: a new
// snapshot's analysis (lex, parse, check, lint) and the query index.
func BenchmarkAnalysis(b *testing.B) {
	for _, lines := range []int{1000, 10000} {
		text := benchText(lines)
		b.Run(fmt.Sprintf("lines=%d", lines), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for i := 0; i < b.N; i++ {
				a := NewSnapshot("file:///bench.wfl", int32(i), text).Analysis()
				a.IdentAt(0)
			}
		})
	}
}
