package check

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/types"
)

// TestTypeTable builds tables from maps of types for the expressions of the
// corpus programs and of long operator chains (typed nil keys included) and
// checks that each answers exactly as its map, and nil for expressions the
// map does not hold.
func TestTypeTable(t *testing.T) {
	srcs := []string{
		"store x as 1" + strings.Repeat(" plus 1", 500) + "\n",
		"store s as \"a\"" + strings.Repeat(" with \"b\"", 300) + "\n",
		"store l as [" + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "]\n",
	}
	filepath.WalkDir(filepath.Join("..", "..", "..", "shared", "corpus", "wfl"), func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".wfl") {
			if b, err := os.ReadFile(path); err == nil {
				srcs = append(srcs, string(b))
			}
		}
		return nil
	})
	kinds := []*types.Type{types.Number, types.Text, types.Boolean, types.Unknown, types.Nothing}
	rng := rand.New(rand.NewPCG(1, 2))
	for i, src := range srcs {
		f, _ := parser.Parse(src)
		var exprs []ast.Expr
		ast.Inspect(f, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok && e != nil {
				exprs = append(exprs, e)
			}
			return true
		})
		exprs = append(exprs, (*ast.Ident)(nil), (*ast.BasicLit)(nil))
		rng.Shuffle(len(exprs), func(a, b int) { exprs[a], exprs[b] = exprs[b], exprs[a] })
		want := map[ast.Expr]*types.Type{}
		for _, e := range exprs[:len(exprs)*3/4] {
			want[e] = kinds[rng.IntN(len(kinds))]
		}
		tt := newTypeTable(want)
		for _, e := range exprs {
			if got := tt.get(e); got != want[e] {
				t.Fatalf("source %d: get = %v, want %v", i, got, want[e])
			}
		}
		n := 0
		for e, typ := range tt.all {
			n++
			if want[e] != typ {
				t.Fatalf("source %d: all yields %v, want %v", i, typ, want[e])
			}
		}
		if n != len(want) || tt.n != len(want) {
			t.Fatalf("source %d: %d entries (n=%d), want %d", i, n, tt.n, len(want))
		}
		if tt.get(nil) != nil || tt.get(&ast.Ident{Name: "x"}) != nil {
			t.Fatalf("source %d: a type for a foreign expression", i)
		}
	}
	var empty typeTable
	if empty.get(&ast.Ident{}) != nil {
		t.Fatal("empty table answers")
	}
}
