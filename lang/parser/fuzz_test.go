package parser

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
)

// checkTree verifies the tree invariants: Pos <= End everywhere, every
// child inside its parent (doc comments, which precede their declaration,
// excepted), everything inside the file, no nil children.
func checkTree(t *testing.T, src string, f *ast.File) {
	t.Helper()
	if f == nil {
		t.Fatal("nil file")
	}
	var walk func(n ast.Node, parent ast.Node, depth int)
	walk = func(n ast.Node, parent ast.Node, depth int) {
		if n.Pos() > n.End() {
			t.Fatalf("%T: Pos %d > End %d", n, n.Pos(), n.End())
		}
		if n.Pos() < 0 || n.End() > len(src) {
			t.Fatalf("%T [%d,%d) outside the source (len %d)", n, n.Pos(), n.End(), len(src))
		}
		if parent != nil {
			if _, doc := n.(*ast.CommentGroup); !doc && (n.Pos() < parent.Pos() || n.End() > parent.End()) {
				t.Fatalf("%T [%d,%d) not inside its parent %T [%d,%d) in %q", n, n.Pos(), n.End(), parent, parent.Pos(), parent.End(), src)
			}
		}
		if id, ok := n.(*ast.Ident); ok && !sugarFun(parent, id) {
			if got := wordsOf(src[id.Pos():id.End()]); got != id.Name {
				t.Fatalf("Ident %q spans %q in %q: a rename there would change other words", id.Name, src[id.Pos():id.End()], src)
			}
		}
		ast.Children(n, func(c ast.Node) {
			if c == nil {
				t.Fatalf("nil child of %T", n)
			}
			walk(c, n, depth+1)
		})
	}
	walk(f, nil, 0)
}

// sugarFun reports whether id is the function a phrase stands for
// (`p starts with "a"` calls starts_with): a name no text spells.
func sugarFun(parent ast.Node, id *ast.Ident) bool {
	c, ok := parent.(*ast.CallExpr)
	return ok && c.Sugar && c.Fun == ast.Expr(id)
}

// wordsOf returns the words of a name's text joined by one space, as the
// lexer joins them: characters it drops separate nothing but are skipped,
// and an underscore that starts no word is glued to the name (`A _0` is
// the name `A_`, then 0). A quoted stretch inside a name is a string the
// lexer dropped whole (a bad escape: `A"\1"A0` is the name `A A0`).
func wordsOf(text string) string {
	var out []byte
	letter := func(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '"':
			if j := strings.IndexByte(text[i+1:], '"'); j >= 0 {
				i += j + 2
				continue
			}
			i++
		case letter(c):
			j := i + 1
			for j < len(text) && (letter(text[j]) || text[j] >= '0' && text[j] <= '9' || text[j] == '_') {
				j++
			}
			if len(out) > 0 {
				out = append(out, ' ')
			}
			out = append(out, text[i:j]...)
			i = j
		case c == '_':
			out = append(out, '_')
			i++
		default:
			i++
		}
	}
	return string(out)
}

func FuzzParse(f *testing.F) {
	// Seeds: the committed set under testdata/fuzz plus every corpus program.
	if dir, ok := testcorpus.Optional(f); ok {
		filepath.WalkDir(filepath.Join(dir, "wfl"), func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".wfl") {
				if b, err := os.ReadFile(path); err == nil {
					f.Add(string(b))
				}
			}
			return nil
		})
	}
	for _, s := range []string{"", "end", "display", "check if x:\n", strings.Repeat("(", 5000), strings.Repeat("not ", 5000) + "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		file, diags := Parse(src)
		checkTree(t, src, file)
		checkFrom(t, src)
		for _, d := range diags {
			if d.Span.Start < 0 || d.Span.End > len(src) || d.Span.Start > d.Span.End {
				t.Fatalf("diagnostic span %v outside the source: %s", d.Span, d.Message)
			}
			if d.Code == "" || d.Message == "" {
				t.Fatalf("diagnostic without code or message: %+v", d)
			}
			if !utf8.ValidString(d.Message) {
				t.Fatalf("diagnostic message is not UTF-8: %q", d.Message)
			}
		}
	})
}

// checkFrom verifies UnitsFrom: src parsed after lines of other text
// (which end with a line break) is src parsed alone, every position moved
// by the length of those lines.
func checkFrom(t *testing.T, src string) {
	t.Helper()
	const before = "store before as 1\n// a comment\n\n"
	want := unitsShape(Units(src))
	got := unitsShape(UnitsFrom(before+src, len(before)))
	for i := range want {
		want[i].from += len(before)
		want[i].to += len(before)
	}
	if len(got) != len(want) {
		t.Fatalf("UnitsFrom: %d elements, Units: %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("UnitsFrom: element %d is %+v, Units' moved: %+v", i, got[i], want[i])
		}
	}
}

// shapeOf is one element of a parse: a node, a unit, a comment or a
// diagnostic, with its extent.
type shapeOf struct {
	what     string
	from, to int
}

func unitsShape(f *ast.File, units []Unit, dropped []diag.Diagnostic) []shapeOf {
	var out []shapeOf
	ast.Inspect(f, func(n ast.Node) bool {
		if n != nil {
			if _, ok := n.(*ast.File); !ok {
				out = append(out, shapeOf{fmt.Sprintf("%T", n), n.Pos(), n.End()})
			}
		}
		return true
	})
	for _, g := range f.Comments {
		out = append(out, shapeOf{"comments", g.From, g.To})
	}
	for _, u := range units {
		out = append(out, shapeOf{"unit", u.Start, u.Start})
		for _, d := range u.Diags {
			out = append(out, shapeOf{d.Code + " " + d.Message, d.Span.Start, d.Span.End})
		}
	}
	for _, d := range dropped {
		out = append(out, shapeOf{d.Code + " " + d.Message, d.Span.Start, d.Span.End})
	}
	return out
}

// TestParseCorpusInvariants runs the tree checks over every corpus program
// and mutant (a sample under the race detector: corpusTexts), so the
// invariants are checked on each `go test`.
func TestParseCorpusInvariants(t *testing.T) {
	t.Parallel()
	programs, mutants := corpusTexts(t, 1)
	for _, src := range append(programs, mutants...) {
		file, _ := Parse(src)
		checkTree(t, src, file)
		checkFrom(t, src)
	}
	if n := len(programs) + len(mutants); n < 375/testcorpus.RaceStride(16) {
		t.Errorf("only %d corpus files parsed", n)
	}
}

// TestDeepNesting parses texts nested deeper than MaxDepth, by the
// parser's recursion or by a chain of operators, which it parses in a loop
// but whose tree is as deep as the chain is long: each is reported, and
// the tree is no deeper than MaxDepth below the file (checkTree walks it
// by recursion, as the passes after the parser do). A chain of 291,000
// operators crashed the linter's walk with a stack overflow.
func TestDeepNesting(t *testing.T) {
	for _, src := range []string{
		strings.Repeat("(", 100000),
		"display " + strings.Repeat("not ", 100000) + "x",
		"display " + strings.Repeat("-", 100000) + "x",
		strings.Repeat("check if x:\n", 20000),
		strings.Repeat("check if x:\n", MaxDepth/2+1) + strings.Repeat("end check\n", MaxDepth/2+1),
		"display " + strings.Repeat("[", 50000),
		"display " + strings.Repeat("a with ", 50000) + "b",
		"store x as 1" + strings.Repeat(" + 1", 291000) + "\n",
		"store x as 1" + strings.Repeat(" plus 1", MaxDepth) + "\n",
		"check if a" + strings.Repeat(" and a", MaxDepth) + ":\n    display 1\nend check\n",
		"display x" + strings.Repeat("[0]", MaxDepth) + "\n",
		"display x" + strings.Repeat(" 1", MaxDepth) + "\n",
		"display " + strings.Repeat("length of ", MaxDepth) + "x\n",
		"display " + strings.Repeat("file size of ", MaxDepth) + "x\n",
		"create pattern p:\n    " + strings.Repeat("one or more of ", MaxDepth) + "digit\nend pattern\n",
		"create pattern p:\n    " + strings.Repeat("(", MaxDepth) + "digit" + strings.Repeat(")", MaxDepth) + "\nend pattern\n",
		"define action called f:\n    store y as 1" + strings.Repeat(" times 2", MaxDepth) + "\nend action\n",
	} {
		file, diags := Parse(src)
		checkTree(t, src, file)
		if deep := ast.Deeper(file, MaxDepth+1); deep != nil {
			t.Errorf("%.20q…: a %T deeper than MaxDepth below the file", src, deep)
		}
		found := false
		for _, d := range diags {
			found = found || d.Code == CodeDepth
		}
		if !found {
			t.Errorf("no %s diagnostic for deep nesting %.20q…: %v", CodeDepth, src, diags)
		}
	}
	// Up to the limit, a chain is a chain: the statement, MaxDepth-2
	// operators and the first operand make MaxDepth levels.
	for _, src := range []string{
		"store x as 1" + strings.Repeat(" + 1", MaxDepth-2) + "\ndisplay x\n",
		"store x as " + strings.Repeat("-", MaxDepth-2) + "1\ndisplay x\n",
		"define action called f:\n    return 1" + strings.Repeat(" + 1", MaxDepth-5) + "\nend action\n",
	} {
		if file, diags := Parse(src); len(diags) > 0 {
			t.Errorf("%.20q…: %v", src, diags)
		} else {
			checkTree(t, src, file)
		}
	}
}

func ExampleParse() {
	f, diags := Parse("store total as 2 plus 3\ndisplay total with \"!\"\n")
	fmt.Println(len(f.Stmts), len(diags))
	// Output: 2 0
}
