package cli

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
)

func runFmtCLI(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Fmt(args, strings.NewReader(stdin), &out, &errb)
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
	diff := presentation.UnifiedDiff("f", text, []core.Edit{{Start: s2, End: e2, Text: "a\nb\n"}, {Start: s18, End: e18, Text: "c\n"}})
	for _, want := range []string{"@@ -1,5 +1,6 @@\n", "@@ -15,6 +16,6 @@\n"} {
		if !strings.Contains(diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, diff)
		}
	}
}

// TestFmtWriteReplaces holds `fmt -w` to its promise: the formatted text
// replaces the file through a new file renamed over it (a new inode, the
// old mode), through a symbolic link the target is replaced and the link
// stays, and when the new file cannot be made or written the original is
// left byte for byte, no temporary file stays behind, and the command
// exits 2 naming the file and the cause.
func TestFmtWriteReplaces(t *testing.T) {
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(t.TempDir(), "none"))
	const messy = "check if 1 is 1:\ndisplay   1  \nend check\n"
	const tidy = "check if 1 is 1:\n    display 1\nend check\n"
	readOnlyFS := func(dir, pattern string) (*os.File, error) {
		return nil, &fs.PathError{Op: "open", Path: filepath.Join(dir, pattern), Err: syscall.EROFS}
	}
	diskFull := func(f *os.File, b []byte) (int, error) {
		n, _ := f.Write(b[:len(b)/2])
		return n, syscall.ENOSPC
	}
	tests := []struct {
		name        string
		mode        fs.FileMode
		link        bool // format through a symbolic link in another folder
		readOnlyDir bool // the file's folder is read-only
		createTemp  func(dir, pattern string) (*os.File, error)
		writeTemp   func(*os.File, []byte) (int, error)
		wantErr     string // the cause, in a message that names the file; "" for success
	}{
		{name: "plain file", mode: 0o644},
		{name: "executable mode kept", mode: 0o751},
		{name: "private mode kept", mode: 0o600},
		{name: "through a symlink", mode: 0o640, link: true},
		{name: "read-only folder", mode: 0o644, readOnlyDir: true, wantErr: "permission denied"},
		{name: "read-only file system", mode: 0o644, createTemp: readOnlyFS, wantErr: "read-only file system"},
		{name: "disk full while writing", mode: 0o640, writeTemp: diskFull, wantErr: "no space left on device"},
		{name: "disk full through a symlink", mode: 0o644, link: true, writeTemp: diskFull, wantErr: "no space left on device"},
		// gofmt does not write a read-only file; nor does fmt, though
		// replacing it needs only the folder's permission.
		{name: "read-only file", mode: 0o444, wantErr: "is read-only (mode 0444)"},
		{name: "read-only file through a symlink", mode: 0o400, link: true, wantErr: "is read-only (mode 0400)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "prog.wfl")
			if err := os.WriteFile(file, []byte(messy), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(file, tt.mode); err != nil { // not subject to the umask
				t.Fatal(err)
			}
			arg, linkDir := file, ""
			if tt.link {
				linkDir = t.TempDir()
				arg = filepath.Join(linkDir, "link.wfl")
				if err := os.Symlink(file, arg); err != nil {
					t.Skipf("no symbolic links here: %v", err)
				}
			}
			if tt.readOnlyDir {
				if err := os.Chmod(dir, 0o555); err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { os.Chmod(dir, 0o755) })
				if f, err := os.CreateTemp(dir, "probe"); err == nil {
					f.Close()
					os.Remove(f.Name())
					t.Skip("this user writes into a read-only folder anyway (root): the injected failures cover the failing path")
				}
			}
			if tt.createTemp != nil {
				createTemp = tt.createTemp
				t.Cleanup(func() { createTemp = os.CreateTemp })
			}
			if tt.writeTemp != nil {
				writeTemp = tt.writeTemp
				t.Cleanup(func() { writeTemp = (*os.File).Write })
			}
			before, err := os.Stat(file)
			if err != nil {
				t.Fatal(err)
			}

			out, errOut, code := runFmtCLI(t, "", "-w", arg)

			after, err := os.Stat(file)
			if err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(file)
			if tt.wantErr == "" {
				if code != 0 || out != "" || errOut != "" {
					t.Fatalf("code %d, stdout %q, stderr %q; want 0 and no output", code, out, errOut)
				}
				if string(data) != tidy {
					t.Errorf("file after -w: %q, want %q", data, tidy)
				}
				if os.SameFile(before, after) {
					t.Errorf("the file was written in place (same inode), not replaced")
				}
			} else {
				if code != 2 || out != "" {
					t.Errorf("code %d, stdout %q; want 2 and no output", code, out)
				}
				if !strings.Contains(errOut, arg) || !strings.Contains(errOut, tt.wantErr) {
					t.Errorf("stderr %q does not name the file %s and the cause %q", errOut, arg, tt.wantErr)
				}
				if string(data) != messy {
					t.Errorf("the original changed: %q, want %q byte for byte", data, messy)
				}
				if !os.SameFile(before, after) {
					t.Errorf("the original was replaced although the write failed")
				}
			}
			if after.Mode() != tt.mode {
				t.Errorf("mode after -w: %v, want %v", after.Mode(), tt.mode)
			}
			if tt.link {
				if fi, err := os.Lstat(arg); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
					t.Errorf("%s is no longer a symbolic link (%v, %v)", arg, fi, err)
				}
				if to, _ := os.Readlink(arg); to != file {
					t.Errorf("the link points to %q, want %q", to, file)
				}
			}
			for d, want := range map[string]string{dir: "prog.wfl", linkDir: "link.wfl"} {
				if d == "" {
					continue
				}
				entries, _ := os.ReadDir(d)
				var names []string
				for _, e := range entries {
					names = append(names, e.Name())
				}
				if strings.Join(names, " ") != want {
					t.Errorf("folder %s holds %q, want only %s (a temporary file left behind?)", d, names, want)
				}
			}
		})
	}
}
