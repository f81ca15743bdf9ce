package check_test

import (
	"strings"
	"testing"

	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/parser"
)

// BenchmarkCheckLarge checks files large enough that their types are kept
// in the compact table (ordinary code, and lines of long operator
// chains), and asks for the type of each of their expressions: what an
// open document costs to check and what its queries cost.
func BenchmarkCheckLarge(b *testing.B) {
	for _, doc := range []struct{ name, src string }{
		{"code", benchdoc.Dense(4000)},
		{"chains", strings.Repeat("store x as 1"+strings.Repeat(" plus 1", 300)+"\ndisplay x\n", 60)},
	} {
		f, _ := parser.Parse(doc.src)
		var exprs []ast.Expr
		ast.Inspect(f, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok {
				exprs = append(exprs, e)
			}
			return true
		})
		b.Run(doc.name+"/check", func(b *testing.B) {
			b.SetBytes(int64(len(doc.src)))
			b.ReportAllocs()
			for b.Loop() {
				check.Check(f, doc.src)
			}
		})
		info, _ := check.Check(f, doc.src)
		b.Run(doc.name+"/typeof", func(b *testing.B) {
			for b.Loop() {
				for _, e := range exprs {
					info.TypeOf(e)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(exprs)), "ns/expr")
		})
	}
}
