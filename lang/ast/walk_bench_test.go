package ast_test

import (
	"testing"

	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/parser"
)

// BenchmarkInspectCorpus walks the parsed corpus with Inspect and
// Preorder: the tree walk alone, which every pass of lang/check and
// lang/lint goes through.
func BenchmarkInspectCorpus(b *testing.B) {
	var files []*ast.File
	for _, src := range testcorpus.Programs(b) {
		f, _ := parser.Parse(src)
		files = append(files, f)
	}
	if len(files) == 0 {
		b.Skip("corpus not found")
	}
	nodes := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				if n != nil {
					nodes++
				}
				return true
			})
			ast.Preorder(f, func(ast.Node) { nodes++ })
		}
	}
	if nodes == 0 {
		b.Fatal("no nodes walked")
	}
}
