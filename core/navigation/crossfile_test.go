package navigation

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/core/internal/coretest"
	"wfl-lsp/core/internal/featuretest"
	"wfl-lsp/core/presentation"
	"wfl-lsp/internal/benchdoc"
)

// TestIncludedMemberDefinitionIsCurrent: the definition of a member of a
// container an included file declares is where the member is now, not
// where it was when the includer was checked (an edit that only moves it
// does not refresh the includer).
func TestIncludedMemberDefinitionIsCurrent(t *testing.T) {
	dir := t.TempDir()
	libURI, mainURI := core.FileURI(filepath.Join(dir, "lib.wfl")), core.FileURI(filepath.Join(dir, "main.wfl"))
	lib := "create container Person:\n    property name: Text\nend container\n"
	main := "include from \"lib.wfl\"\ncreate new Person as p:\n    name is \"Ada\"\nend\ndisplay p.name\n"
	ws := core.NewWorkspace()
	l := ws.Open(libURI, 1, lib)
	m := ws.Open(mainURI, 1, main)
	a := m.Analysis()
	if _, err := ws.Change(libURI, 2, core.Edit{Start: 0, Text: "display 1\n\n"}); err != nil {
		t.Fatal(err)
	}
	if ref := ws.Refresh(libURI, l); len(ref) != 0 {
		t.Fatalf("a line above the container refreshed %d includers", len(ref))
	}
	off := strings.LastIndex(main, "name")
	defs := IncludedDefinition(a, off, mainURI.Path(), ws.Load)
	if len(defs) != 1 {
		t.Fatalf("got %d definitions, want 1", len(defs))
	}
	now, _ := ws.Snapshot(libURI)
	if got, want := defs[0].Span.Start, strings.Index(now.Text, "name"); got != want {
		t.Errorf("the definition is at %d, want %d (where name is now)", got, want)
	}
}

// typedIncluder opens lib, as lib.wfl, and main, as main.wfl, in a new
// workspace, main's diagnostics, analysis and outline made as an editor
// has them, and types a blank at the end of a line in main's middle. It
// returns the workspace, lib's snapshot and main's after the keystroke.
func typedIncluder(t *testing.T, lib, main string) (*core.Workspace, *core.Snapshot, *core.Snapshot) {
	t.Helper()
	dir := t.TempDir()
	ws := core.NewWorkspace()
	l := ws.Open(core.FileURI(filepath.Join(dir, "lib.wfl")), 1, lib)
	s := ws.Open(core.FileURI(filepath.Join(dir, "main.wfl")), 1, main)
	s.Diagnostics()
	s.Analysis()
	presentation.Outline(s)
	at := len(main) / 2
	at += strings.Index(main[at:], "\n")
	s, err := ws.Change(s.URI, 2, core.Edit{Start: at, End: at, Text: " "})
	if err != nil {
		t.Fatal(err)
	}
	s.Diagnostics()
	return ws, l, s
}

// TestIncludedNameHighlightsWithoutAnalysis: after a keystroke in a file that
// includes another, the highlights and references of a name the included
// file declares come from a partial analysis that holds every statement
// naming it, not from the full analysis, and equal the full analysis's.
// An editor asks for the highlights at the cursor after every keystroke.
func TestIncludedNameHighlightsWithoutAnalysis(t *testing.T) {
	main := "include from \"lib.wfl\"\nchange shared_total to shared_total plus 1\n" + benchdoc.Clean(600) + "display shared_total\n"
	ws, _, s := typedIncluder(t, "store shared_total as 0\n", main)
	off := strings.LastIndex(s.Text, "shared_total")
	a := s.QueryName(off)
	if s.Analysed() {
		t.Fatal("the highlights of an included name made the full analysis")
	}
	full := core.NewSnapshot(s.URI, s.Version, s.Text).Analysis()
	got, _ := referencesAcross(a, off, s.URI.Path(), ws)
	want, _ := referencesAcross(full, off, s.URI.Path(), ws)
	if len(want) != 4 {
		t.Fatalf("the full analysis finds %d places of shared_total, want 4 (its declaration and three uses)", len(want))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("places of shared_total: %+v, want %+v", got, want)
	}
}

// TestIncluderOutlineWithoutAnalysis: the outline of a file that includes
// another comes from its tree after a keystroke, with the types kept from
// the last outline, not from the full analysis, and equals the full
// analysis's; so does it after an edit of the included file renames the
// container the includer creates an instance of.
func TestIncluderOutlineWithoutAnalysis(t *testing.T) {
	main := "include from \"lib.wfl\"\ncreate new Box as bx:\n    size is 1\nend\nstore copied as bx\n" + benchdoc.Clean(600)
	ws, l, s := typedIncluder(t, "create container Box:\n    property size: Number\nend container\n", main)
	// sameOutline compares s's outline with a full analysis's of its text.
	sameOutline := func(when string) {
		t.Helper()
		got := presentation.Outline(s)
		full := core.NewSnapshot(s.URI, s.Version, s.Text).Analysis()
		if want := presentation.DocumentSymbols(full); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s, the outline differs from the full analysis's: %s", when, coretest.Difference(got, want))
		}
	}
	sameOutline("after a keystroke")
	if s.Analysed() {
		t.Fatal("the outline of an includer made the full analysis")
	}
	if _, err := ws.Change(l.URI, 2, core.Edit{Start: len("create container "), End: len("create container Box"), Text: "Crate"}); err != nil {
		t.Fatal(err)
	}
	refreshed := ws.Refresh(l.URI, l)
	if len(refreshed) != 1 {
		t.Fatalf("Refresh returned %d includers, want 1", len(refreshed))
	}
	s = refreshed[0]
	s.Diagnostics()
	sameOutline("after the included file's edit")
}

// referencesAcross is ReferencesAcross of a, the analysis of the document at
// path, with the other files loaded from ws.
func referencesAcross(a *core.Analysis, offset int, path string, ws *core.Workspace) ([]FileRef, bool) {
	load := featuretest.LoadWith(a, path, ws)
	return ReferencesAcross(a, offset, path, nil, featuretest.IncludesOf(load), load)
}
