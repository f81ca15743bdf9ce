package parser

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/parser")

// A golden file is a txtar archive: "-- input.wfl --" holds a program,
// "-- diagnostics --" what Parse reports (line:col-line:col severity code
// message, columns in characters), "-- tree --" every node with its extent.
// Regenerate with: go test ./lang/parser -run TestGolden -update

type section struct {
	name string
	body string
}

func readTxtar(data string) []section {
	var out []section
	lines := strings.SplitAfter(data, "\n")
	cur := -1
	for _, l := range lines {
		t := strings.TrimRight(l, "\r\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			out = append(out, section{name: t[3 : len(t)-3]})
			cur = len(out) - 1
			continue
		}
		if cur >= 0 {
			out[cur].body += l
		}
	}
	return out
}

func writeTxtar(secs []section) string {
	var b strings.Builder
	for _, s := range secs {
		b.WriteString("-- " + s.name + " --\n")
		b.WriteString(s.body)
		if s.body != "" && !strings.HasSuffix(s.body, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

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
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "parser", "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no golden files")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			secs := readTxtar(string(data))
			var src string
			for _, s := range secs {
				if s.name == "input.wfl" {
					src = s.body
				}
			}
			f, diags := Parse(src)
			checkTree(t, src, f)
			lines := token.NewLines(src)
			var db strings.Builder
			for _, d := range diags {
				l1, c1 := lines.OffsetPosition(d.Span.Start)
				l2, c2 := lines.OffsetPosition(d.Span.End)
				fmt.Fprintf(&db, "%d:%d-%d:%d %s %s %s\n", l1, c1, l2, c2, d.Severity, d.Code, d.Message)
			}
			got := []section{{"input.wfl", src}, {"diagnostics", db.String()}, {"tree", dumpTree(src, f)}}
			if *update {
				if err := os.WriteFile(file, []byte(writeTxtar(got)), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want := map[string]string{}
			for _, s := range secs {
				want[s.name] = s.body
			}
			for _, s := range got[1:] {
				if strings.TrimRight(want[s.name], "\n") != strings.TrimRight(s.body, "\n") {
					t.Errorf("%s differs (run with -update to accept):\n--- got\n%s--- want\n%s", s.name, s.body, want[s.name])
				}
			}
		})
	}
}
