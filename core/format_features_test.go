package core_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/format"
)

func TestFormatEdits(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	if err := os.WriteFile(filepath.Join(dir, core.ConfigFileName), []byte("indent_size = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := "check if 1 is 1:\ndisplay  1\n\n\n\ndisplay 2\nend check\n"
	s := core.NewSnapshot(core.FileURI(filepath.Join(dir, "a.wfl")), 1, src)

	edits, err := presentation.FormatLines(s, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < len(edits); i++ {
		if edits[i].End > edits[i-1].Start {
			t.Fatalf("edits not last-first and disjoint: %+v", edits)
		}
	}
	got, err := core.ApplyEdits(src, edits...)
	if err != nil {
		t.Fatal(err)
	}
	want := "check if 1 is 1:\n  display 1\n\n  display 2\nend check\n"
	if got != want {
		t.Errorf("formatted with the folder's indent_size 2:\n%q\nwant\n%q", got, want)
	}
	if whole, err := presentation.Format(s); err != nil || whole != want {
		t.Errorf("Format() = %q, %v", whole, err)
	}

	// A range: only line 5 (0-based) changes.
	edits, _ = presentation.FormatLines(s, 5, 5)
	got, _ = core.ApplyEdits(src, edits...)
	if want := "check if 1 is 1:\ndisplay  1\n\n\n\n  display 2\nend check\n"; got != want {
		t.Errorf("range format:\n%q\nwant\n%q", got, want)
	}

	// A text that does not parse is refused.
	_, err = presentation.FormatLines(core.NewSnapshot(s.URI, 2, "store x as\n"), 0, -1)
	var se *format.SyntaxError
	if !errors.As(err, &se) {
		t.Errorf("err = %v, want a *format.SyntaxError", err)
	}
}
