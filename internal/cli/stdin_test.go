package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCheckCLI(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Check(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

// TestCheckStdin checks `check -`, as an editor's linter pipes an unsaved
// buffer into it: the text on stdin is checked under the name
// "<standard input>" (or --stdin-name's), its includes found from the
// current folder (or --stdin-name's).
func TestCheckStdin(t *testing.T) {
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(t.TempDir(), "none"))
	dir := t.TempDir()
	lib := "define action called greet:\n    display \"hi\"\nend action\n"
	if err := os.WriteFile(filepath.Join(dir, "lib.wfl"), []byte(lib), 0o644); err != nil {
		t.Fatal(err)
	}
	const usesLib = "include from \"lib.wfl\"\ncall greet\n"
	t.Chdir(t.TempDir()) // no lib.wfl here

	for _, tt := range []struct {
		name, stdin string
		args        []string
		code        int
		out, errOut string // what stdout and stderr hold ("" for stderr: nothing)
		notOut      string // what stdout must not hold
	}{
		{"an error", "display totl\n", []string{"-"}, 1, "<standard input>:1:9: error: Variable 'totl' is not defined", "", ""},
		{"json", "display totl\n", []string{"--json", "-"}, 1, `"file":"<standard input>","line":1,"column":9`, "", ""},
		{"clean", "display 1\n", []string{"-"}, 0, "", "", "error"},
		{"named twice", "display totl\n", []string{"-", "-"}, 1, "totl", "", ""},
		{"the include not found from here", usesLib, []string{"-"}, 0, "<standard input>:1:14: information: The included file cannot be followed: there is no file lib.wfl", "", ""},
		{"the include found from --stdin-name's folder", usesLib,
			[]string{"--stdin-name", filepath.Join(dir, "main.wfl"), "-"}, 0, "", "", "greet"},
		{"--stdin-name names it in the output", "display totl\n",
			[]string{"--stdin-name", "buffer.wfl", "-"}, 1, "buffer.wfl:1:9:", "", "<standard input>"},
		{"--stdin-name without -", "", []string{"--stdin-name", "a.wfl", filepath.Join(dir, "lib.wfl")}, 2, "", "give - among the paths", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := runCheckCLI(t, tt.stdin, tt.args...)
			if code != tt.code || !strings.Contains(out, tt.out) || tt.notOut != "" && strings.Contains(out, tt.notOut) ||
				tt.errOut == "" && errOut != "" || !strings.Contains(errOut, tt.errOut) {
				t.Errorf("check %v: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
					tt.args, code, out, errOut, tt.code, tt.out, tt.errOut)
			}
			if tt.name == "named twice" && strings.Count(out, "totl") != 1 {
				t.Errorf("standard input named twice was checked %d times: %q", strings.Count(out, "totl"), out)
			}
		})
	}
}

// TestCheckWarnsOfConfig checks that check says on stderr, once, what is
// wrong in a .wflcfg that applies (a mistyped value changes what the
// linter reports), without changing its exit status; fmt did, check kept
// silent.
func TestCheckWarnsOfConfig(t *testing.T) {
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(t.TempDir(), "none"))
	dir := t.TempDir()
	for name, text := range map[string]string{
		".wflcfg": "max_line_length = x\n",
		"a.wfl":   "display 1\n",
		"b.wfl":   "display 2\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errOut, code := runCheckCLI(t, "display 3\n", "--stdin-name", filepath.Join(dir, "c.wfl"), dir, "-")
	const want = ".wflcfg:1: max_line_length: expected a whole number"
	if code != 0 || out != "" || strings.Count(errOut, want) != 1 || !strings.HasPrefix(errOut, "wfl-lsp check: warning: ") {
		t.Errorf("check with a mistyped .wflcfg: exit %d, stdout %q, stderr %q; want exit 0 and one warning %q", code, out, errOut, want)
	}
}

// TestFmtStdinName checks `fmt -` and --stdin-name: the .wflcfg of the
// file standard input stands for sets the indentation.
func TestFmtStdinName(t *testing.T) {
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(t.TempDir(), "none"))
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".wflcfg"), []byte("indent_size = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	const messy = "check if 1 is 1:\ndisplay   1  \nend check\n"
	if out, errOut, code := runFmtCLI(t, messy, "-"); code != 0 || out != "check if 1 is 1:\n    display 1\nend check\n" {
		t.Errorf("fmt -: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if out, errOut, code := runFmtCLI(t, messy, "--stdin-name", filepath.Join(dir, "a.wfl"), "-"); code != 0 || out != "check if 1 is 1:\n  display 1\nend check\n" {
		t.Errorf("fmt --stdin-name with indent_size 2 there: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if out, errOut, code := runFmtCLI(t, messy, "-l", "--stdin-name", filepath.Join(dir, "a.wfl")); code != 0 || out != filepath.Join(dir, "a.wfl")+"\n" {
		t.Errorf("fmt -l --stdin-name with no PATH: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if _, errOut, code := runFmtCLI(t, messy, "-w", "-"); code != 2 || !strings.Contains(errOut, "-w") {
		t.Errorf("fmt -w -: exit %d, stderr %q", code, errOut)
	}
}
