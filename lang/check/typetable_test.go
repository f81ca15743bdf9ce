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
// not hold; that it holds no slot for a literal of its kind's type or an
// operator of its usual type.
func TestTypeTable(t *testing.T) {
	srcs := []string{
		"store x as 1" + strings.Repeat(" plus 1", 500) + "\n",
		"store s as \"a\"" + strings.Repeat(" with \"b\"", 300) + "\n",
		"store l as [" + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "]\n",
		"store b as 1 is 2 and 3 is greater than 4 or \"a\" with 5 contains \"b\"" + strings.Repeat(" times 2 minus 1", 200) + "\n",
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
	held := func(e ast.Expr, t *types.Type) bool {
		u, _ := operatorType(e)
		return !literal(e, t) && u != t
	}
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
		tt := newTypeTable([][]typeRec{recs[:len(recs)/3], recs[len(recs)/3:]}, operatorType)
		slots := 0 // the entries the table holds a slot for
		for e, typ := range want {
			if held(e, typ) {
				slots++
			}
		}
		for _, e := range exprs {
			exp := want[e]
			if lit, ok := e.(*ast.BasicLit); ok && lit != nil && exp == nil {
				exp = litType(lit.Kind) // a literal has its kind's type
			}
			if got := tt.get(e, operatorType); got != exp {
				t.Fatalf("source %d: get = %v, want %v", i, got, exp)
			}
		}
		n := 0
		for e, typ := range tt.all {
			n++
			if want[e] != typ || !held(e, typ) {
				t.Fatalf("source %d: all yields %v, want %v", i, typ, want[e])
			}
		}
		if slots > 0 && len(tt.slots) != slots+slots/4+1 {
			t.Fatalf("source %d: %d slots for %d entries", i, len(tt.slots), slots)
		}
		if n != slots || tt.n != slots {
			t.Fatalf("source %d: %d entries (n=%d), want %d", i, n, tt.n, slots)
		}
		if tt.get(nil, operatorType) != nil || tt.get(&ast.Ident{Name: "x"}, operatorType) != nil {
			t.Fatalf("source %d: a type for a foreign expression", i)
		}
	}
	var empty typeTable
	if empty.get(&ast.Ident{}, operatorType) != nil {
		t.Fatal("empty table answers")
	}
}

// TestTypesOfLargeFiles checks each corpus program as it is and made
// large (a long comment after it, which changes no statement), and asks
// both for the type of every expression: a large file keeps its types in
// a typeTable, a small one in a map, and the two answer the same (but for
// literals, which a large file answers with their kind's type whether they
// were checked or not, as TestTypeTable checks).
func TestTypesOfLargeFiles(t *testing.T) {
	srcs := []string{
		"store x as 1" + strings.Repeat(" plus 1", 200) + "\ndisplay x\n",
		"define action called f with a:\n    return a plus 1 is 2 with a\nend action\nstore y as f of 1 times 2\n",
		"count from 1 to 3:\n    store s as count is 2 or count is 3\n    display \"a\" with s\nend count\n",
	}
	dir, _ := testcorpus.Optional(t)
	filepath.WalkDir(filepath.Join(dir, "wfl"), func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".wfl") {
			if b, err := os.ReadFile(path); err == nil && len(b) < compactMin/2 {
				srcs = append(srcs, string(b))
			}
		}
		return nil
	})
	exprs := func(f *ast.File) []ast.Expr {
		var es []ast.Expr
		ast.Inspect(f, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok {
				es = append(es, e)
			}
			return true
		})
		return es
	}
	for i, src := range srcs {
		large := src + "\n// " + strings.Repeat("x", compactMin) + "\n"
		fs, _ := parser.Parse(src)
		fl, _ := parser.Parse(large)
		is, _ := Check(fs, src)
		il, _ := Check(fl, large)
		if is.typeMap == nil || il.typeMap != nil {
			t.Fatalf("source %d: the small file's types are not in a map or the large one's are", i)
		}
		es, el := exprs(fs), exprs(fl)
		if len(es) != len(el) {
			t.Fatalf("source %d: %d expressions, %d once large", i, len(es), len(el))
		}
		for j := range es {
			if _, ok := es[j].(*ast.BasicLit); ok {
				continue
			}
			if a, b := is.TypeOf(es[j]), il.TypeOf(el[j]); (a == nil) != (b == nil) || a != nil && !types.Identical(a, b) {
				t.Fatalf("source %d: %T at %d has type %v, %v once large", i, es[j], es[j].Pos(), a, b)
			}
		}
	}
}
