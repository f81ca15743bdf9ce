package core

import (
	"path/filepath"
	"slices"
	"testing"

	"wfl-lsp/internal/testfiles"
)

// TestLoadKeepsUntilSomethingChanges holds that Workspace.Load gives the
// analysis it made of a file that is not open again while nothing it was
// made from changed, and a new one, that reads what changed, as soon as
// the file, a file it includes (directly or through another), or an open
// document in its place does.
func TestLoadKeepsUntilSomethingChanges(t *testing.T) {
	dir := t.TempDir()
	lib := testfiles.Write(t, dir, "lib.wfl", "store greeting as \"hi\"\n")
	testfiles.Write(t, dir, "mid.wfl", "include from \"lib.wfl\"\nstore mid as 1\n")
	main := testfiles.Write(t, dir, "main.wfl", "include from \"mid.wfl\"\ndisplay greeting\ndisplay mid\n")
	ws := NewWorkspace()

	// undeclared returns the names the analysis of main says are not
	// declared.
	undeclared := func(a *Analysis) []string {
		var out []string
		for _, d := range a.Diagnostics {
			if d.Kind.Undeclared() && len(d.Names) > 0 {
				out = append(out, d.Names[0])
			}
		}
		return out
	}
	load := func(want ...string) *Analysis {
		t.Helper()
		a, ok := ws.Load(main)
		if !ok {
			t.Fatal("main.wfl not loaded")
		}
		if got := undeclared(a); !slices.Equal(got, want) {
			t.Fatalf("undeclared names %q, want %q", got, want)
		}
		return a
	}
	same := func(a, b *Analysis, want bool) {
		t.Helper()
		if (a == b) != want {
			t.Fatalf("the same analysis given again: %v, want %v", a == b, want)
		}
	}

	first := load()
	same(load(), first, true)

	// The included file's included file changes on the disk.
	testfiles.Write(t, dir, "lib.wfl", "store salutation as \"hi\"\n")
	changed := load("greeting")
	same(changed, first, false)
	same(load("greeting"), changed, true)

	// An open document in its place wins, at each version.
	uri := FileURI(lib)
	ws.Open(uri, 1, "store greeting as 1\n")
	opened := load()
	if _, err := ws.Change(uri, 2, Edit{Start: 6, End: 14, Text: "welcome"}); err != nil {
		t.Fatal(err)
	}
	edited := load("greeting")
	same(edited, opened, false)
	ws.Close(uri)
	same(load("greeting"), edited, false)

	// The file itself changes.
	testfiles.Write(t, dir, "main.wfl", "include from \"mid.wfl\"\ndisplay mid\n")
	load()

	// A file that includes nothing is its own analysis.
	if a, ok := ws.Load(filepath.Join(dir, "lib.wfl")); !ok || a.File == nil {
		t.Fatal("lib.wfl not loaded")
	}
}

// TestLoadCacheBound holds that the loaded analyses kept stay within
// loadedBytes of text, the oldest dropped first.
func TestLoadCacheBound(t *testing.T) {
	var c loadCache
	half := int64(loadedBytes/2 + 1)
	c.store("a", &loaded{size: half})
	c.store("b", &loaded{size: half})
	if _, ok := c.files["a"]; ok {
		t.Error("the oldest kept past the bound")
	}
	if _, ok := c.files["b"]; !ok || c.bytes != half {
		t.Errorf("the newest not kept alone: %d bytes kept", c.bytes)
	}
	c.store("big", &loaded{size: 2 * loadedBytes})
	if _, ok := c.files["big"]; !ok || len(c.files) != 1 {
		t.Errorf("a file over the bound is kept alone: %d kept", len(c.files))
	}
}
