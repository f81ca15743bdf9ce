package check_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"wfl-lsp/internal/txtar"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

var update = flag.Bool("update", false, "rewrite the .want sections of testdata/check/*.txtar")

// render lists the semantic and type diagnostics of src, one a line.
func render(src string, diags []diag.Diagnostic) string {
	lines := token.NewLines(src)
	sort.SliceStable(diags, func(i, j int) bool { return diags[i].Span.Start < diags[j].Span.Start })
	var b strings.Builder
	for _, d := range diags {
		if d.Category != diag.Semantic && d.Category != diag.Type {
			continue
		}
		l, c := lines.OffsetPosition(d.Span.Start)
		fmt.Fprintf(&b, "%d:%d %s %s %s: %s\n", l, c, d.Severity, d.Category, d.Code, strings.ReplaceAll(d.Message, "\n", "\\n"))
	}
	return b.String()
}

func TestCases(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "check", "*.txtar"))
	if len(paths) == 0 {
		t.Fatal("no testdata")
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		ar := txtar.Parse(string(data))
		wants := map[string]int{}
		for i, f := range ar.Files {
			if strings.HasSuffix(f.Name, ".want") {
				wants[strings.TrimSuffix(f.Name, ".want")] = i
			}
		}
		var out []txtar.File
		for _, f := range ar.Files {
			if !strings.HasSuffix(f.Name, ".wfl") {
				continue
			}
			name := strings.TrimSuffix(f.Name, ".wfl")
			tree, pdiags := parser.Parse(f.Data)
			for _, d := range pdiags {
				if d.Severity == diag.Error {
					t.Errorf("%s/%s: parse error: %s", filepath.Base(path), name, d.Message)
				}
			}
			_, diags := check.Check(tree, f.Data)
			got := render(f.Data, diags)
			checkNaming(t, filepath.Base(path)+"/"+name, name, diags)
			out = append(out, f, txtar.File{Name: name + ".want", Data: got})
			if i, ok := wants[name]; ok {
				if want := ar.Files[i].Data; want != got && !*update {
					t.Errorf("%s/%s:\ngot:\n%swant:\n%s", filepath.Base(path), name, got, want)
				}
			} else if !*update {
				t.Errorf("%s/%s: no .want (run go test -update)", filepath.Base(path), name)
			}
		}
		if *update {
			ar.Files = out
			if err := os.WriteFile(path, []byte(ar.Format()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// checkNaming enforces the case naming convention: err-CODE-… must report an
// error with CODE, warn-CODE-… a warning with CODE (and no error), ok-… no
// semantic or type error.
func checkNaming(t *testing.T, label, name string, diags []diag.Diagnostic) {
	t.Helper()
	has := func(sev diag.Severity, code string) bool {
		for _, d := range diags {
			if d.Severity == sev && (code == "" || d.Code == code) && (d.Category == diag.Semantic || d.Category == diag.Type) {
				return true
			}
		}
		return false
	}
	code := func(rest string) string {
		// CODE is the longest prefix of upper-case words joined by '-'.
		parts := strings.Split(rest, "-")
		var c []string
		for _, p := range parts {
			if p == "" || strings.ToUpper(p) != p {
				break
			}
			c = append(c, p)
		}
		return strings.Join(c, "-")
	}
	switch {
	case strings.HasPrefix(name, "err-"):
		if c := code(name[4:]); !has(diag.Error, c) {
			t.Errorf("%s: want an error with code %s", label, c)
		}
	case strings.HasPrefix(name, "warn-"):
		if c := code(name[5:]); !has(diag.Warning, c) || has(diag.Error, "") {
			t.Errorf("%s: want a warning with code %s and no error", label, c)
		}
	case strings.HasPrefix(name, "ok-"):
		if has(diag.Error, "") {
			t.Errorf("%s: want no error", label)
		}
	default:
		t.Errorf("%s: case names start with err-, warn- or ok-", label)
	}
}
