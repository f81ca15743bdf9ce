package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/lang/format"
)

func runFmtCLI(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(append([]string{"fmt"}, args...), strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

func TestFmt(t *testing.T) {
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(t.TempDir(), "none"))
	const messy = "check if 1 is 1:\ndisplay   1  \nend check\n"
	const tidy = "check if 1 is 1:\n    display 1\nend check\n"
	const broken = "store x as\n"
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}

	// Standard input to standard output.
	if out, errOut, code := runFmtCLI(t, messy); code != 0 || out != tidy {
		t.Errorf("stdin: code %d, out %q, stderr %q; want 0 and %q", code, out, errOut, tidy)
	}
	// A text that does not parse is refused with exit 1 and a position.
	if out, errOut, code := runFmtCLI(t, broken); code != 1 || out != "" || !strings.Contains(errOut, "<standard input>:") {
		t.Errorf("broken stdin: code %d, out %q, stderr %q", code, out, errOut)
	}
	// -w needs files.
	if _, errOut, code := runFmtCLI(t, messy, "-w"); code != 2 || !strings.Contains(errOut, "-w") {
		t.Errorf("-w on stdin: code %d, stderr %q", code, errOut)
	}
	// A missing file is an I/O error.
	if _, _, code := runFmtCLI(t, "", filepath.Join(dir, "missing.wfl")); code != 2 {
		t.Errorf("missing file: code %d, want 2", code)
	}

	a := write("a.wfl", messy)
	b := write("b.wfl", tidy)
	c := write("c.wfl", broken)

	// -l lists only the file whose form differs.
	out, _, code := runFmtCLI(t, "", "-l", a, b)
	if code != 0 || out != a+"\n" {
		t.Errorf("-l: code %d, out %q; want %q", code, out, a+"\n")
	}
	// -d prints a unified diff.
	out, _, _ = runFmtCLI(t, "", "-d", a)
	for _, want := range []string{"--- " + a + ".orig\n", "+++ " + a + "\n", "@@ -1,3 +1,3 @@\n", "-display   1  \n", "+    display 1\n", " end check\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("-d output lacks %q:\n%s", want, out)
		}
	}
	// A folder: every file; the broken one makes the exit code 1 and stays as it was.
	out, errOut, code := runFmtCLI(t, "", "-w", dir)
	if code != 1 || out != "" || !strings.Contains(errOut, "c.wfl:1:") {
		t.Errorf("-w folder: code %d, out %q, stderr %q", code, out, errOut)
	}
	for path, want := range map[string]string{a: tidy, b: tidy, c: broken} {
		if data, _ := os.ReadFile(path); string(data) != want {
			t.Errorf("%s after -w: %q, want %q", path, data, want)
		}
	}
	// indent_size from the nearest .wflcfg; its problems are warnings.
	write(".wflcfg", "indent_size = 2\nmax_line_length = x\n")
	d := write("d.wfl", messy)
	out, errOut, code = runFmtCLI(t, "", d)
	if code != 0 || out != strings.Replace(tidy, "    ", "  ", 1) {
		t.Errorf("indent_size 2: code %d, out %q", code, out)
	}
	if !strings.Contains(errOut, ".wflcfg:2: max_line_length: expected a whole number") {
		t.Errorf("configuration problem not reported: %q", errOut)
	}
}

func TestUnifiedDiffHunks(t *testing.T) {
	// Two changes far apart make two hunks; the second's new start accounts
	// for the lines the first added.
	var old strings.Builder
	for i := 1; i <= 20; i++ {
		old.WriteString("line\n")
	}
	text := old.String()
	// Replace line 2 with two lines and line 18 with one.
	s2, e2 := 5, 10
	s18, e18 := 5*17, 5*18
	diff := unifiedDiff("f", text, []format.Edit{{Start: s2, End: e2, Text: "a\nb\n"}, {Start: s18, End: e18, Text: "c\n"}})
	for _, want := range []string{"@@ -1,5 +1,6 @@\n", "@@ -15,6 +16,6 @@\n"} {
		if !strings.Contains(diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, diff)
		}
	}
}
