package parser

import (
	"flag"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"wfl-lsp/internal/txtar"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/parser")

// A golden file is a txtar archive: "-- input.wfl --" holds a program,
// "-- diagnostics --" what Parse reports (line:col-line:col severity code
// message, columns in characters), "-- tree --" every node with its extent.
// Regenerate with: go test ./lang/parser -run TestGolden -update

func dumpTree(src string, f *ast.File) string {
	lines := token.NewLines(src)
	pos := func(off int) string {
		l, c := lines.OffsetPosition(off)
		return fmt.Sprintf("%d:%d", l, c)
	}
	var b strings.Builder
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		name := reflect.TypeOf(n).Elem().Name()
		extra := ""
		switch n := n.(type) {
		case *ast.Ident:
			extra = " " + quoteText(n.Name)
		case *ast.BasicLit:
			extra = " " + n.Kind.String() + " " + quoteText(n.Value)
		case *ast.BinaryExpr:
			extra = " " + n.Op.String()
		case *ast.CommentGroup:
			return
		}
		fmt.Fprintf(&b, "%s%s %s-%s%s\n", strings.Repeat("  ", depth), name, pos(n.Pos()), pos(n.End()), extra)
		ast.Children(n, func(c ast.Node) { walk(c, depth+1) })
	}
	for _, st := range f.Stmts {
		walk(st, 0)
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	txtar.Run(t, filepath.Join("..", "..", "testdata", "parser", "*.txtar"), *update, func(t *testing.T, ar *txtar.Archive) {
		src, _ := ar.Get("input.wfl")
		f, diags := Parse(src)
		checkTree(t, src, f)
		lines := token.NewLines(src)
		var db strings.Builder
		for _, d := range diags {
			l1, c1 := lines.OffsetPosition(d.Span.Start)
			l2, c2 := lines.OffsetPosition(d.Span.End)
			fmt.Fprintf(&db, "%d:%d-%d:%d %s %s %s\n", l1, c1, l2, c2, d.Severity, d.Code, d.Message)
		}
		got := &txtar.Archive{Comment: ar.Comment, Files: []txtar.File{
			{Name: "input.wfl", Data: src}, {Name: "diagnostics", Data: db.String()}, {Name: "tree", Data: dumpTree(src, f)}}}
		if *update {
			ar.Files = got.Files
			return
		}
		for _, g := range got.Files[1:] {
			if want, _ := ar.Get(g.Name); strings.TrimRight(want, "\n") != strings.TrimRight(g.Data, "\n") {
				t.Errorf("%s differs (run with -update to accept):\n--- got\n%s--- want\n%s", g.Name, g.Data, want)
			}
		}
	})
}
