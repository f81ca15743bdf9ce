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

// deepNesting returns a program of blocks nested depth deep, each a check,
// a loop (repeat until among them, which asks whether its body leaves it
// early) or a websocket handler declaring a name of its own, and the
// innermost block changing the outermost block's name to text.
func deepNesting(depth int) string {
	var b strings.Builder
	b.WriteString("listen for websockets on port 8080 as hub\nstore flag as yes\n")
	for i := range depth {
		switch i % 6 {
		case 0:
			b.WriteString("check if flag:\n")
		case 1:
			b.WriteString("repeat while flag:\n")
		case 2:
			fmt.Fprintf(&b, "count from 1 to 2 as c%d:\n", i)
		case 3:
			fmt.Fprintf(&b, "for each item%d in [1, 2]:\n", i)
		case 4:
			fmt.Fprintf(&b, "on websocket message from hub as event%d:\n", i)
		case 5:
			b.WriteString("repeat until flag is no:\n")
		}
		fmt.Fprintf(&b, "store v%d as %d\n", i, i)
	}
	fmt.Fprintf(&b, "display v%d plus 1\nchange v0 to \"text\"\n", depth-1)
	for i := depth - 1; i >= 0; i-- {
		b.WriteString([]string{"end check\n", "end repeat\n", "end count\n", "end for\n", "end on\n", "end repeat\n"}[i%6])
	}
	return b.String()
}

// TestDeepNesting checks a program of blocks nested a thousand deep, each
// declaring a name: the innermost block sees every name of the blocks
// around it with its type (the one change of the outermost name to text is
// the one finding). The names a block declares are dropped from the types
// when it ends (BenchmarkCheckDeepNesting: joined into the blocks around,
// they made the check cost the cube of the depth).
func TestDeepNesting(t *testing.T) {
	src := deepNesting(1000)
	f, pdiags := parser.Parse(src)
	if len(pdiags) > 0 {
		t.Fatalf("parse: %v", pdiags[0])
	}
	_, diags := check.Check(f, src)
	var got []string
	for _, d := range diags {
		if d.Category == diag.Semantic || d.Category == diag.Type {
			got = append(got, d.Code+": "+d.Message)
		}
	}
	want := "TYPE-ASSIGN: Cannot assign value of incompatible type to variable 'v0' - Expected Number but found Text"
	if len(got) != 1 || got[0] != want {
		t.Errorf("findings %q, want only %q", got, want)
	}
}
