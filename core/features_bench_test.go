package core

import (
	"fmt"
	"testing"

	"wfl-lsp/internal/benchdoc"
)

// benchChunk is 12 lines of typical WFL; %[1]d makes its names unique.
// benchText is the dense generated document (internal/benchdoc).
func benchText(lines int) string { return benchdoc.Dense(lines) }

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
