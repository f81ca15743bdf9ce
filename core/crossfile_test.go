package core

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestIncludedMemberDefinitionIsCurrent: the definition of a member of a
// container an included file declares is where the member is now, not
// where it was when the includer was checked (an edit that only moves it
// does not refresh the includer).
func TestIncludedMemberDefinitionIsCurrent(t *testing.T) {
	dir := t.TempDir()
	libURI, mainURI := FileURI(filepath.Join(dir, "lib.wfl")), FileURI(filepath.Join(dir, "main.wfl"))
	lib := "create container Person:\n    property name: Text\nend container\n"
	main := "include from \"lib.wfl\"\ncreate new Person as p:\n    name is \"Ada\"\nend\ndisplay p.name\n"
	ws := NewWorkspace()
	l := ws.Open(libURI, 1, lib)
	m := ws.Open(mainURI, 1, main)
	a := m.Analysis()
	if _, err := ws.Change(libURI, 2, Edit{Start: 0, Text: "display 1\n\n"}); err != nil {
		t.Fatal(err)
	}
	if ref := ws.Refresh(libURI, l); len(ref) != 0 {
		t.Fatalf("a line above the container refreshed %d includers", len(ref))
	}
	off := strings.LastIndex(main, "name")
	defs := a.IncludedDefinition(off, mainURI.Path(), ws.Load)
	if len(defs) != 1 {
		t.Fatalf("got %d definitions, want 1", len(defs))
	}
	now, _ := ws.Snapshot(libURI)
	if got, want := defs[0].Span.Start, strings.Index(now.Text, "name"); got != want {
		t.Errorf("the definition is at %d, want %d (where name is now)", got, want)
	}
}
