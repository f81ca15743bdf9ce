package check

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/types"
)

// TestTypeTable builds tables from records of types for the expressions of
// the corpus programs and of long operator chains (typed nil keys included)
// and checks that each answers exactly as a map of the records would, a literal's kind's type for a
// literal the map does not hold, and nil for the other expressions it does
// not hold.
func TestTypeTable(t *testing.T) {
	srcs := []string{
		"store x as 1" + strings.Repeat(" plus 1", 500) + "\n",
		"store s as \"a\"" + strings.Repeat(" with \"b\"", 300) + "\n",
		"store l as [" + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "]\n",
	}
	dir, _ := testcorpus.Optional(t)
	filepath.WalkDir(filepath.Join(dir, "wfl"), func(path string, d os.DirEntry, err error) error {
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
		// Records as the type checker makes them: a quarter of the
		// expressions recorded again later (the last record wins), a
		// literal always with the same type.
		want := map[ast.Expr]*types.Type{}
		var recs []typeRec
		some := exprs[:len(exprs)*3/4]
		for pass, es := range [][]ast.Expr{some, some[:len(some)/4]} {
			for _, e := range es {
				t := kinds[rng.IntN(len(kinds))]
				if _, lit := e.(*ast.BasicLit); lit && pass > 0 {
					t = want[e]
				}
				want[e] = t
				recs = append(recs, typeRec{e, t})
			}
		}
		tt := newTypeTable([][]typeRec{recs[:len(recs)/3], recs[len(recs)/3:]})
		held := 0 // the entries the table holds: not the literals of their kind's type
		for e, typ := range want {
			if !literal(e, typ) {
				held++
			}
		}
		for _, e := range exprs {
			exp := want[e]
			if lit, ok := e.(*ast.BasicLit); ok && lit != nil && exp == nil {
				exp = litType(lit.Kind) // a literal has its kind's type
			}
			if got := tt.get(e); got != exp {
				t.Fatalf("source %d: get = %v, want %v", i, got, exp)
			}
		}
		n := 0
		for e, typ := range tt.all {
			n++
			if want[e] != typ || literal(e, typ) {
				t.Fatalf("source %d: all yields %v, want %v", i, typ, want[e])
			}
		}
		if held > 0 && len(tt.slots) != held+held/4+1 {
			t.Fatalf("source %d: %d slots for %d entries", i, len(tt.slots), held)
		}
		if n != held || tt.n != held {
			t.Fatalf("source %d: %d entries (n=%d), want %d", i, n, tt.n, held)
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
