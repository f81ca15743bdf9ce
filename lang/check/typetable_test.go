package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/parser"
)

// TestTypeTable checks that the compact table answers exactly what the
// checker's map held, for every expression of the corpus programs and of
// long operator chains (many expressions sharing a start or an end), and nil
// for expressions that were not checked.
func TestTypeTable(t *testing.T) {
	srcs := []string{
		"store x as 1" + strings.Repeat(" plus 1", 500) + "\n",
		"store s as \"a\"" + strings.Repeat(" with \"b\"", 300) + "\n",
		"store l as [" + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "]\n",
	}
	var files []string
	filepath.WalkDir(filepath.Join("..", "..", "..", "shared", "corpus", "wfl"), func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".wfl") {
			files = append(files, path)
		}
		return nil
	})
	if len(files) == 0 {
		t.Skip("corpus not found")
	}
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(b))
	}
	for i, src := range srcs {
		f, _ := parser.Parse(src)
		info := &Info{Defs: map[*ast.Ident]*Symbol{}, Uses: map[*ast.Ident]*Symbol{},
			Scopes: map[ast.Node]*Scope{}, Containers: map[string]*Symbol{}, index: &identIndex{}}
		a := newAnalyzer(f, src, info)
		a.run()
		tc := newTypeChecker(a)
		tc.run()
		tt := newTypeTable(tc.types)
		n := 0
		for e, typ := range tt.all {
			n++
			if tc.types[e] != typ {
				t.Fatalf("source %d: table holds %v for an expression the checker typed %v", i, typ, tc.types[e])
			}
		}
		if n != len(tc.types) {
			t.Fatalf("source %d: table holds %d expressions, the checker typed %d", i, n, len(tc.types))
		}
		for e, typ := range tc.types {
			if got := tt.get(e); got != typ {
				t.Fatalf("source %d: get = %v, want %v", i, got, typ)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if e, ok := n.(ast.Expr); ok && e != nil {
				if _, typed := tc.types[e]; !typed && tt.get(e) != nil {
					t.Fatalf("source %d: a type for an unchecked expression", i)
				}
			}
			return true
		})
		if tt.get(&ast.Ident{Name: "x"}) != nil || tt.get(nil) != nil {
			t.Fatalf("source %d: a type for a foreign expression", i)
		}
	}
	var empty typeTable
	if empty.get(&ast.Ident{}) != nil {
		t.Fatal("empty table answers")
	}
}
