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

// TestTypeTable records types for the expressions of the corpus programs
// and of long operator chains, in random order with overwrites and typed nil
// keys, in a typeTable and in a map, and checks that the table answers as
// the map before and after compact, and nil for expressions never recorded.
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
		recorded := exprs[:len(exprs)*3/4]
		tt := newTypeTable(rng.IntN(len(src)/30 + 1))
		want := map[ast.Expr]*types.Type{}
		for k := 0; k < 2*len(recorded); k++ {
			e, typ := recorded[rng.IntN(len(recorded))], kinds[rng.IntN(len(kinds))]
			tt.set(e, typ)
			want[e] = typ
		}
		tt.set(nil, types.Number)
		same := func(stage string) {
			t.Helper()
			for _, e := range exprs {
				if got := tt.get(e); got != want[e] {
					t.Fatalf("source %d, %s: get = %v, want %v", i, stage, got, want[e])
				}
			}
			n := 0
			for e, typ := range tt.all {
				n++
				if want[e] != typ {
					t.Fatalf("source %d, %s: all yields %v, want %v", i, stage, typ, want[e])
				}
			}
			if n != len(want) || tt.n != len(want) {
				t.Fatalf("source %d, %s: %d entries (n=%d), want %d", i, stage, n, tt.n, len(want))
			}
			if tt.get(nil) != nil || tt.get(&ast.Ident{Name: "x"}) != nil {
				t.Fatalf("source %d, %s: a type for a foreign expression", i, stage)
			}
		}
		same("filled")
		tt.compact()
		same("compacted")
		if 2*tt.n < len(tt.slots) {
			t.Fatalf("source %d: %d entries in %d slots after compact", i, tt.n, len(tt.slots))
		}
	}
	var empty typeTable
	if empty.get(&ast.Ident{}) != nil {
		t.Fatal("empty table answers")
	}
}
