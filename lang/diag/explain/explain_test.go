package explain

import (
	"go/ast"
	goparser "go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// codeLit matches a diagnostic code written as a Go string literal.
var codeLit = regexp.MustCompile(`"((?:PARSE|ANALYZE|TYPE|LINT)-[A-Z][A-Z-]*[A-Z])"`)

// declaredCodes returns the code constants lang/diag declares in its
// non-test files: the value of each, by name.
func declaredCodes(t *testing.T) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join("..", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(fset, path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, name := range vs.Names {
					if i >= len(vs.Values) {
						continue
					}
					lit, ok := vs.Values[i].(*ast.BasicLit)
					if !ok || lit.Kind != token.STRING || !codeLit.MatchString(lit.Value) {
						continue
					}
					v, _ := strconv.Unquote(lit.Value)
					out[name.Name] = v
				}
			}
		}
	}
	return out
}

// TestEveryCodeExplained: every code constant of lang/diag has a complete
// explanation, of the category its family says, and every explanation is
// of a code constant.
func TestEveryCodeExplained(t *testing.T) {
	declared := declaredCodes(t)
	if len(declared) < 30 {
		t.Fatalf("found only %d code constants in lang/diag: %v", len(declared), declared)
	}
	var values []string
	cases := 0
	for name, code := range declared {
		values = append(values, code)
		e, ok := Of(code)
		if !ok {
			t.Errorf("diag.%s (%s) has no explanation", name, code)
			continue
		}
		if e.Code != code || e.Title == "" || e.Meaning == "" || e.Fix == "" || len(e.Cases) == 0 {
			t.Errorf("%s: incomplete explanation %+v", code, e)
		}
		prefix, _, _ := strings.Cut(code, "-")
		if want := map[string]string{"PARSE": "parse", "ANALYZE": "semantic", "TYPE": "type", "LINT": "lint"}[prefix]; e.Category != want {
			t.Errorf("%s: category %q, want %q", code, e.Category, want)
		}
		for _, c := range e.Cases {
			if c.Message == "" || c.Meaning == "" || c.Fix == "" || c.Example == "" || c.Fixed == "" {
				t.Errorf("%s: incomplete case %+v", code, c)
			}
		}
		cases += len(e.Cases)
	}
	for _, code := range Codes() {
		if !slices.Contains(values, code) {
			t.Errorf("%s is explained but is no code constant of lang/diag", code)
		}
	}
	if !slices.IsSorted(Codes()) {
		t.Errorf("Codes() is not sorted: %v", Codes())
	}
	if _, ok := Of("NOPE"); ok {
		t.Error("an unknown code has an explanation")
	}
	t.Logf("%d code constants, %d cases", len(declared), cases)
}

// TestEveryCodeReported: every code constant of lang/diag is named by a
// stage of the front end (a non-test file of lang outside lang/diag), and
// no such file writes a code as a literal instead of naming its constant.
func TestEveryCodeReported(t *testing.T) {
	declared := declaredCodes(t)
	named := map[string]bool{}
	ref := regexp.MustCompile(`\bdiag\.([A-Z]\w*)`)
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path == filepath.Join(root, "diag") || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range ref.FindAllStringSubmatch(string(src), -1) {
			named[m[1]] = true
		}
		for _, m := range codeLit.FindAllString(string(src), -1) {
			t.Errorf("%s writes the code %s: name its constant in lang/diag", path, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for name, code := range declared {
		if !named[name] {
			t.Errorf("diag.%s (%s) is declared but no stage of lang reports it", name, code)
		}
	}
}

// TestCaseOf: a message has a case's form when it starts like it, `…`
// standing for any text; the first such case is the message's.
func TestCaseOf(t *testing.T) {
	for _, tt := range []struct{ code, message, want string }{
		{"PARSE-EXPECTED", "expected 'as' after the variable name, found number 5", "expected 'as' after …"},
		{"PARSE-EXPECTED", "expected 'check' after 'end', found 'if'", "expected '…' after 'end', found …"},
		{"PARSE-EXPECTED", "expected a name", "expected …"},
		{"PARSE-UNEXPECTED", "expected an expression, found end of line", "expected an expression, found end of line"},
		{"PARSE-UNEXPECTED", "expected an expression, found 'each'", "expected an expression, found …"},
		{"TYPE-CONTAINER", "Container 'Box' does not satisfy interface 'Shape': missing required action 'area'", ""},
		{"PARSE-RESERVED", "something else entirely", "-"},
	} {
		e, ok := Of(tt.code)
		if !ok {
			t.Fatalf("%s: no explanation", tt.code)
		}
		c, ok := e.CaseOf(tt.message)
		switch {
		case tt.want == "-":
			if ok {
				t.Errorf("%s %q: case %q, want none", tt.code, tt.message, c.Message)
			}
		case !ok:
			t.Errorf("%s %q: no case", tt.code, tt.message)
		case tt.want != "" && c.Message != tt.want:
			t.Errorf("%s %q: case %q, want %q", tt.code, tt.message, c.Message, tt.want)
		}
	}
}
