//go:build unix

package core

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"wfl-lsp/internal/testfiles"
)

// guardFiles fails a test that a read blocks (on a named pipe) instead
// of hanging it; no test waits for time to pass.
const guardFiles = 20 * time.Second

// returns runs f, failing the test if it does not return.
func returns(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(guardFiles):
		t.Fatalf("%s did not return: it blocks", what)
	}
}

// specialFiles makes, in dir, a regular file, a named pipe, links to
// /dev/zero and to the pipe, a folder and a file over MaxFileSize.
func specialFiles(t *testing.T, dir string) {
	t.Helper()
	testfiles.Write(t, dir, "lib.wfl", "store shared as 1\n")
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.wfl"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"zero.wfl": "/dev/zero", "topipe.wfl": "pipe.wfl", "stdin.wfl": "/dev/stdin"} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	os.Mkdir(filepath.Join(dir, "folder.wfl"), 0o755)
	big, err := os.Create(filepath.Join(dir, "big.wfl"))
	if err != nil {
		t.Fatal(err)
	}
	big.Truncate(MaxFileSize + 1) // sparse
	big.Close()
}

func TestAnyFileReadsRegularFilesOnly(t *testing.T) {
	dir := t.TempDir()
	specialFiles(t, dir)
	tests := []struct {
		name string
		want error
		says string
	}{
		{"lib.wfl", nil, ""},
		{"pipe.wfl", ErrNotRegular, "is a named pipe (FIFO), not a regular file"},
		{"topipe.wfl", ErrNotRegular, "is a named pipe (FIFO), not a regular file"},
		{"zero.wfl", ErrNotRegular, "is a character device, not a regular file"},
		{"folder.wfl", ErrNotRegular, "is a folder, not a regular file"},
		{"big.wfl", ErrTooLarge, "is 16.0 MiB, more than the 16 MiB a file may have; it is not read"},
		{"missing.wfl", fs.ErrNotExist, "does not exist"},
	}
	for _, tt := range tests {
		var b []byte
		var err error
		returns(t, "reading "+tt.name, func() { b, err = AnyFile().ReadFile(filepath.Join(dir, tt.name)) })
		if tt.want == nil {
			if err != nil || string(b) != "store shared as 1\n" {
				t.Errorf("%s: %q, %v", tt.name, b, err)
			}
			continue
		}
		if !errors.Is(err, tt.want) || !strings.HasSuffix(err.Error(), tt.says) {
			t.Errorf("%s: error %v, want %v saying %q", tt.name, err, tt.want, tt.says)
		}
	}
}

func TestIncludesOfSpecialFilesAreReported(t *testing.T) {
	dir := t.TempDir()
	specialFiles(t, dir)
	text := `include from "lib.wfl"
include from "pipe.wfl"
include from "zero.wfl"
include from "/dev/zero"
include from "/dev/stdin"
include from "big.wfl"
display shared
`
	main := filepath.Join(dir, "main.wfl")
	var msgs []string
	returns(t, "the analysis", func() {
		for _, d := range NewSnapshot(FileURI(main), 0, text).Analysis().Diagnostics {
			msgs = append(msgs, d.Code+": "+d.Message)
		}
	})
	got := strings.Join(msgs, "\n")
	for _, want := range []string{
		"ANALYZE-INCLUDE: The included file cannot be followed: pipe.wfl is a named pipe (FIFO), not a regular file",
		"ANALYZE-INCLUDE: The included file cannot be followed: zero.wfl is a character device, not a regular file",
		"ANALYZE-INCLUDE: The included file cannot be followed: /dev/zero is a character device, not a regular file",
		"ANALYZE-INCLUDE: The included file cannot be followed: big.wfl is 16.0 MiB, more than the 16 MiB a file may have; it is not read",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	// /dev/stdin is whatever the test's input is (a pipe, a terminal, /dev/null):
	// never read, so it never hangs, and reported.
	if !strings.Contains(got, "/dev/stdin") {
		t.Errorf("the include of /dev/stdin is not reported:\n%s", got)
	}
	if strings.Contains(got, "'shared' is not defined") {
		t.Errorf("the regular file was not followed:\n%s", got)
	}
}

func TestWFLFilesSkipsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	specialFiles(t, dir)
	testfiles.Write(t, dir, "sub/b.wfl", "store b as 1\n")
	testfiles.Write(t, dir, ".git/c.wfl", "store c as 1\n")
	var got []string
	returns(t, "the scan", func() {
		err := AnyFile().WFLFiles(dir, func(p string, err error) bool {
			if err == nil {
				rel, _ := filepath.Rel(dir, p)
				got = append(got, filepath.ToSlash(rel))
			}
			return true
		})
		if err != nil {
			t.Error(err)
		}
	})
	// big.wfl is a regular file: a scan lists it, reading it reports its size.
	if strings.Join(got, " ") != "big.wfl lib.wfl sub/b.wfl" {
		t.Errorf("scan: %v, want big.wfl lib.wfl sub/b.wfl", got)
	}
}

// confinedTree makes a workspace folder and a folder outside it.
func confinedTree(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "ws"), filepath.Join(base, "outside")
	testfiles.Write(t, root, "app.wfl", "store app as 1\n")
	testfiles.Write(t, root, "lib/util.wfl", "store util as 1\n")
	testfiles.Write(t, root, ".env", "API_KEY=secret\n")
	testfiles.Write(t, root, ".git/config.wfl", "store hidden as 1\n")
	testfiles.Write(t, root, "notes.txt", "notes\n")
	testfiles.Write(t, root, ".wflcfg", "max_line_length = 80\n")
	testfiles.Write(t, outside, "secret.wfl", "store secret as 1\n")
	testfiles.Write(t, outside, "other.wfl", "store other as 1\n")
	links := map[string]string{
		"inner.wfl":        "lib/util.wfl",
		"abs.wfl":          filepath.Join(outside, "secret.wfl"),
		"rel.wfl":          "../outside/secret.wfl",
		"dangling.wfl":     "../outside/none.wfl",
		"env.wfl":          ".env",
		"lib/up.wfl":       "../app.wfl",
		"outdir":           outside,
		"special/zero.wfl": "/dev/zero",
	}
	for link, target := range links {
		os.MkdirAll(filepath.Dir(filepath.Join(root, link)), 0o755)
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root, outside
}

func TestConfinedReadsWFLFilesInside(t *testing.T) {
	root, outside := confinedTree(t)
	fa, err := Confine(root)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want error // nil: read
	}{
		{"app.wfl", nil},
		{"lib/util.wfl", nil},
		{"inner.wfl", nil},
		{"lib/up.wfl", nil},
		{".wflcfg", nil},
		{"lib/../app.wfl", nil},
		{"../outside/secret.wfl", ErrOutside},
		{filepath.Join(outside, "secret.wfl"), ErrOutside},
		{filepath.Join(outside, "none.wfl"), ErrOutside},
		{"abs.wfl", ErrOutside},
		{"rel.wfl", ErrOutside},
		{"dangling.wfl", ErrOutside},
		{"outdir/secret.wfl", ErrOutside},
		{"env.wfl", ErrNotWFL},
		{".env", ErrNotWFL},
		{"notes.txt", ErrNotWFL},
		{".git/config.wfl", ErrHidden},
		{"special/zero.wfl", ErrOutside},
		{"missing.wfl", fs.ErrNotExist},
	}
	for _, tt := range tests {
		p := tt.path
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		b, err := fa.ReadFile(p)
		if tt.want == nil {
			if err != nil || len(b) == 0 {
				t.Errorf("%s: %v", tt.path, err)
			}
			continue
		}
		if !errors.Is(err, tt.want) {
			t.Errorf("%s: %q, %v; want %v", tt.path, b, err, tt.want)
		}
		if strings.Contains(string(b), "secret") {
			t.Errorf("%s: read the outside file", tt.path)
		}
	}
}

func TestConfinedIncludes(t *testing.T) {
	root, outside := confinedTree(t)
	fa, err := Confine(root)
	if err != nil {
		t.Fatal(err)
	}
	text := `include from "lib/util.wfl"
include from "../outside/secret.wfl"
include from "../outside/none.wfl"
include from "` + filepath.Join(outside, "other.wfl") + `"
include from "rel.wfl"
include from "notes.txt"
include from ".git/config.wfl"
display util
display secret
`
	a := fa.NewSnapshot(FileURI(filepath.Join(root, "main.wfl")), 0, text).Analysis()
	var msgs []string
	for _, d := range a.Diagnostics {
		msgs = append(msgs, d.Message)
	}
	got := strings.Join(msgs, "\n")
	for _, want := range []string{
		"cannot be followed: ../outside/secret.wfl is outside the workspace",
		"cannot be followed: ../outside/none.wfl is outside the workspace",
		"cannot be followed: " + filepath.Join(outside, "other.wfl") + " is outside the workspace",
		"cannot be followed: rel.wfl is outside the workspace",
		"cannot be followed: notes.txt is not a WFL file",
		"cannot be followed: .git/config.wfl is in a hidden folder",
		"'secret'", // undefined: nothing of the outside file is known
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "'util' is not defined") {
		t.Errorf("the file inside was not followed:\n%s", got)
	}
	if strings.Contains(got, "there is no file") {
		t.Errorf("an outside path's existence is told:\n%s", got)
	}
}

// TestConfinedSwapNeverReadsOutside swaps a workspace file between a
// regular file and a link to a file outside while reading it through a
// confined access: every read is the inside text or a refusal.
func TestConfinedSwapNeverReadsOutside(t *testing.T) {
	root, outside := confinedTree(t)
	fa, err := Confine(root)
	if err != nil {
		t.Fatal(err)
	}
	// Ready-made entries renamed over the name in turn: the name is always
	// one or the other.
	regular, link := filepath.Join(root, "lib", "r.tmp"), filepath.Join(root, "lib", "l.tmp")
	target := filepath.Join(root, "lib", "swap.wfl")
	stop := make(chan struct{})
	swapped := make(chan int)
	go func() {
		n := 0
		defer func() { swapped <- n }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			os.WriteFile(regular, []byte("store inside as 1\n"), 0o644)
			os.Rename(regular, target)
			os.Remove(link)
			os.Symlink(filepath.Join(outside, "secret.wfl"), link)
			os.Rename(link, target)
			n++
		}
	}()
	reads, refused := 0, 0
	for range 5000 {
		b, err := fa.ReadFile(target)
		if strings.Contains(string(b), "secret") {
			close(stop)
			<-swapped
			t.Fatalf("read the outside file through the swapped name: %q", b)
		}
		if err != nil {
			refused++
		} else {
			reads++
		}
	}
	close(stop)
	n := <-swapped
	t.Logf("%d swaps, %d reads of the inside text, %d refused", n, reads, refused)
}

// TestIncludesPastTheBound includes a chain of files one longer than the
// files a document's includes may reach (maxIncluded): the include says
// that the names past the bound are not read, and the names of the files
// within it are known.
func TestIncludesPastTheBound(t *testing.T) {
	dir := t.TempDir()
	for i := 0; i <= maxIncluded; i++ {
		text := fmt.Sprintf("define action called act%d:\n    display %d\nend action\n", i, i)
		if i < maxIncluded {
			text = fmt.Sprintf("include from \"c%d.wfl\"\n", i+1) + text
		}
		testfiles.Write(t, dir, fmt.Sprintf("c%d.wfl", i), text)
	}
	text := "include from \"c0.wfl\"\ncall act0\ncall act" + strconv.Itoa(maxIncluded-2) + "\n"
	var msgs []string
	returns(t, "the analysis", func() {
		for _, d := range NewSnapshot(FileURI(filepath.Join(dir, "main.wfl")), 0, text).Analysis().Diagnostics {
			msgs = append(msgs, d.Code+": "+d.Message)
		}
	})
	want := "ANALYZE-INCLUDE: The included file cannot be followed: the includes reach more than " + strconv.Itoa(maxIncluded-1) + " files; only the names of the first " + strconv.Itoa(maxIncluded-1) + " are read"
	if len(msgs) != 1 || !strings.HasPrefix(msgs[0], want) {
		t.Errorf("got %q, want one finding, %q…", msgs, want)
	}
}

// TestIncludeOfEmptyPath: `include from ""` says that its path is empty,
// as the other includes that cannot be followed say why; it said nothing.
func TestIncludeOfEmptyPath(t *testing.T) {
	dir := t.TempDir()
	var msgs []string
	returns(t, "the analysis", func() {
		for _, d := range NewSnapshot(FileURI(filepath.Join(dir, "main.wfl")), 0, "include from \"\"\ndisplay 1\n").Analysis().Diagnostics {
			msgs = append(msgs, d.Code+": "+d.Message)
		}
	})
	if want := "ANALYZE-INCLUDE: The included file cannot be followed: the path is empty"; len(msgs) != 1 || msgs[0] != want {
		t.Errorf("got %q, want %q", msgs, want)
	}
}
