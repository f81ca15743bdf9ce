package navigation

import (
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/internal/testfiles"
)

// TestIncludeHover: a hover on an include's path shows the names the file
// declares, as their own hovers spell them; on the keyword, the keyword's;
// on a path that names no file, nothing.
func TestIncludeHover(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, "lib/util.wfl", "// Greets.\ndefine action called greet with name:\n    display \"hi \" with name\nend action\nstore answer as 42\ncreate container Box:\n    property size: Number\nend\n")
	testfiles.Write(t, dir, "empty.wfl", "display 1\n")
	base := filepath.Join(dir, "main.wfl")
	src := "include from \"lib/util.wfl\"\ninclude from \"empty.wfl\"\ninclude from \"none.wfl\"\ncall greet with \"x\"\n"
	ws := core.NewWorkspace()
	a := ws.Open(core.FileURI(base), 1, src).Analysis()
	for _, tc := range []struct {
		at   string // the hover is at its first byte
		want string // the plain text, "" for none
	}{
		{"lib/util", "action greet with name\nvariable answer: Number\ncontainer Box\n\nThe names `util.wfl` declares at its top level, which this file reads."},
		{"util.wfl\"", "action greet with name\nvariable answer: Number\ncontainer Box\n\nThe names `util.wfl` declares at its top level, which this file reads."},
		{"empty.wfl", "`empty.wfl` declares no names at its top level."},
		{"none.wfl", ""},
	} {
		h := HoverAcross(a, strings.Index(src, tc.at), base, ws.Load)
		got := ""
		if h != nil {
			got = h.PlainText()
		}
		if got != tc.want {
			t.Errorf("at %q:\n%s\nwant:\n%s", tc.at, got, tc.want)
		}
	}
	if h := HoverAcross(a, 2, base, ws.Load); h == nil || h.Kind != "keyword" {
		t.Errorf("on the keyword: %+v", h)
	}
}

// TestIncludeDefinition: the definition of an include's path is the start
// of the file it names; of a path that names no file, none.
func TestIncludeDefinition(t *testing.T) {
	dir := t.TempDir()
	lib := testfiles.Write(t, dir, "lib/util.wfl", "store answer as 42\n")
	base := filepath.Join(dir, "main.wfl")
	src := "include from \"lib/util.wfl\"\ninclude from \"none.wfl\"\ndisplay answer\n"
	ws := core.NewWorkspace()
	a := ws.Open(core.FileURI(base), 1, src).Analysis()
	defs := IncludedDefinition(a, strings.Index(src, "util"), base, ws.Load)
	if len(defs) != 1 || defs[0].Path != lib || defs[0].Span.Start != 0 || defs[0].Span.End != 0 {
		t.Errorf("definition of the path: %+v, want the start of %s", defs, lib)
	}
	if defs := IncludedDefinition(a, strings.Index(src, "none"), base, ws.Load); len(defs) != 0 {
		t.Errorf("definition of a path naming no file: %+v", defs)
	}
	if defs := IncludedDefinition(a, strings.Index(src, "answer\n"), base, ws.Load); len(defs) != 1 || defs[0].Path != lib {
		t.Errorf("definition of a name the file declares: %+v", defs)
	}
}

// TestIncludeHoverNotFollowed: no hover or definition for the path of an
// include whose quote is left open (the analysis reads it closed on its
// line, a character short), nor in a document that is no file, whose
// includes the checker does not follow, not even by an absolute path.
func TestIncludeHoverNotFollowed(t *testing.T) {
	dir := t.TempDir()
	lib := testfiles.Write(t, dir, "lib/util.wfl", "store answer as 42\n")
	ws := core.NewWorkspace()
	base := filepath.Join(dir, "main.wfl")
	for _, tc := range []struct {
		uri       core.URI
		base, src string
	}{
		{core.FileURI(base), base, "include from \"lib/util.wfll"},
		{core.FileURI(base), base, "include from \"lib/util.wfl\ndisplay 1\n"},
		{"untitled:Untitled-1", "", "include from \"" + filepath.ToSlash(lib) + "\"\n"},
	} {
		a := ws.Open(tc.uri, 1, tc.src).Analysis()
		at := strings.Index(tc.src, "util")
		if h := HoverAcross(a, at, tc.base, ws.Load); h != nil && h.Kind == "file" {
			t.Errorf("%q: hover %q", tc.src, h.PlainText())
		}
		if defs := IncludedDefinition(a, at, tc.base, ws.Load); len(defs) != 0 {
			t.Errorf("%q: definition %+v", tc.src, defs)
		}
	}
}
