package parser

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
)

// corpusDir returns ../shared/corpus relative to the repository root, or
// skips the test when it is absent (see testcorpus.Dir).
func corpusDir(t testing.TB) string {
	t.Helper()
	return testcorpus.Dir(t)
}

// sexpr prints an expression the way the corpus's expression files print
// the reference parser's tree: a name or literal as itself, a list in
// brackets, any other node as a parenthesised list, its operator first.
func sexpr(x ast.Expr) string {
	var b strings.Builder
	writeSexpr(&b, x)
	return b.String()
}

func name(s string) string { return strings.ReplaceAll(s, " ", "_") }

func writeArgs(b *strings.Builder, args []*ast.Arg) {
	if len(args) == 0 {
		b.WriteByte(' ') // the reference prints an empty argument list as one space
	}
	for _, a := range args {
		b.WriteByte(' ')
		if a.Name != nil {
			b.WriteString(name(a.Name.Name) + ":")
		}
		writeSexpr(b, a.Value)
	}
}

func writeSexpr(b *strings.Builder, x ast.Expr) {
	bin := func(op string, l, r ast.Expr) {
		b.WriteString("(" + op + " ")
		writeSexpr(b, l)
		b.WriteByte(' ')
		writeSexpr(b, r)
		b.WriteByte(')')
	}
	switch x := x.(type) {
	case *ast.Ident:
		b.WriteString(name(x.Name))
	case *ast.BasicLit:
		switch x.Kind {
		case ast.LitString:
			b.WriteString(strconv.Quote(x.Value))
		case ast.LitFloat:
			f, _ := strconv.ParseFloat(x.Value, 64)
			b.WriteString(strconv.FormatFloat(f, 'f', -1, 64))
		default:
			b.WriteString(x.Value)
		}
	case *ast.ListLit:
		b.WriteByte('[')
		for i, e := range x.Elems {
			if i > 0 {
				b.WriteByte(' ')
			}
			writeSexpr(b, e)
		}
		b.WriteByte(']')
	case *ast.ParenExpr:
		writeSexpr(b, x.X)
	case *ast.BinaryExpr:
		bin(x.Op.String(), x.X, x.Y)
	case *ast.BetweenExpr:
		b.WriteString("(And ")
		bin("GreaterThanOrEqual", x.X, x.Lo)
		b.WriteByte(' ')
		bin("LessThanOrEqual", x.X, x.Hi)
		b.WriteByte(')')
	case *ast.UnaryExpr:
		b.WriteString("(" + x.Op.String() + "1 ")
		writeSexpr(b, x.X)
		b.WriteByte(')')
	case *ast.ConcatExpr:
		bin("cat", x.X, x.Y)
	case *ast.CallExpr:
		b.WriteString("(of ")
		writeSexpr(b, x.Fun)
		writeArgs(b, x.Args)
		b.WriteByte(')')
	case *ast.ActionCallExpr:
		b.WriteString("(call " + name(x.Name.Name))
		writeArgs(b, x.Args)
		b.WriteByte(')')
	case *ast.IndexExpr:
		bin("idx", x.X, x.Index)
	case *ast.PropertyExpr:
		b.WriteString("(prop ")
		writeSexpr(b, x.X)
		b.WriteString(" " + name(x.Prop.Name) + ")")
	case *ast.MethodCallExpr:
		b.WriteString("(method ")
		writeSexpr(b, x.X)
		b.WriteString(" " + name(x.Method.Name))
		writeArgs(b, x.Args)
		b.WriteByte(')')
	case *ast.MatchesExpr:
		bin("matches", x.X, x.Pattern)
	case *ast.SplitExpr:
		if x.OnPattern {
			b.WriteString("<PatternSplit>")
			return
		}
		bin("split", x.Text, x.Delim)
	case *ast.FindExpr:
		b.WriteString("<PatternFind>")
	case *ast.ReplaceExpr:
		b.WriteString("<PatternReplace>")
	case *ast.FileExistsExpr:
		if x.Dir {
			b.WriteString("<DirectoryExists>")
		} else {
			b.WriteString("<FileExists>")
		}
	case *ast.CurrentTimeExpr:
		if x.Format == nil {
			b.WriteString("<CurrentTimeMilliseconds>")
		} else {
			b.WriteString("<CurrentTimeFormatted>")
		}
	case *ast.StaticMemberExpr:
		b.WriteString("<StaticMemberAccess>")
	case *ast.PatternLit:
		b.WriteString("<Pattern>")
	case *ast.HeaderExpr:
		b.WriteString("<HeaderAccess>")
	case *ast.FileSizeExpr:
		b.WriteString("<FileSizeOf>")
	case *ast.ListFilesExpr:
		b.WriteString("<ListFiles>")
	case *ast.ReadContentExpr:
		b.WriteString("<ReadContent>")
	case *ast.ProcessRunningExpr:
		b.WriteString("<ProcessRunning>")
	default:
		b.WriteString("<?>")
	}
}

// stmtSexpr prints a one-statement program in the corpus format.
func stmtSexpr(src string) string {
	f, diags := Parse(src)
	for _, d := range diags {
		if d.Severity == diag.Error {
			return "PARSE ERROR"
		}
	}
	var out []string
	for _, st := range f.Stmts {
		switch st := st.(type) {
		case *ast.VarDecl:
			out = append(out, "store "+name(st.Name.Name)+" "+sexpr(st.Value))
		case *ast.DisplayStmt:
			// Juxtaposed values fold right-nested, like `with`.
			v := sexpr(st.Values[len(st.Values)-1])
			for i := len(st.Values) - 2; i >= 0; i-- {
				v = "(cat " + sexpr(st.Values[i]) + " " + v + ")"
			}
			out = append(out, "display "+v)
		default:
			out = append(out, "<stmt>")
		}
	}
	return strings.Join(out, " ; ")
}

// knownDifferences lists expression-file lines where our tree differs from
// the reference's on purpose, with the reason. Empty: we agree everywhere.
var knownDifferences = map[string]string{}

func TestExpressionTrees(t *testing.T) {
	dir := corpusDir(t)
	for _, file := range []string{"wfl-expressions.tsv", "wfl-expressions-synthetic.tsv"} {
		t.Run(file, func(t *testing.T) {
			fh, err := os.Open(filepath.Join(dir, file))
			if err != nil {
				t.Fatal(err)
			}
			defer fh.Close()
			sc := bufio.NewScanner(fh)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			total, agree := 0, 0
			for n := 0; sc.Scan(); n++ {
				if n == 0 {
					continue // header
				}
				src, want, ok := strings.Cut(sc.Text(), "\t")
				if !ok {
					continue
				}
				total++
				got := stmtSexpr(src)
				if got == want {
					agree++
					continue
				}
				if _, known := knownDifferences[src]; known {
					continue
				}
				t.Errorf("%s\n got  %s\n want %s", src, got, want)
			}
			t.Logf("%s: %d/%d trees agree with the reference", file, agree, total)
		})
	}
}
