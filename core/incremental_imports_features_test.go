package core_test

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"wfl-lsp/core"
	"wfl-lsp/core/completion"
)

// TestRefreshCompletionOfIncludedName checks that completion in the value
// of `store NAME as`, where an included file declares NAME too, does not
// depend on where that file declares it: an included symbol's declaration
// is a span of the included file, which Refresh does not read again when
// only it moves (exportKey), so an answer that read it would be the one
// of a full analysis of the includer only until the included file's lines
// move. The included NAME is offered; the includer's own, being declared
// there, is not.
func TestRefreshCompletionOfIncludedName(t *testing.T) {
	dir := t.TempDir()
	libURI, mainURI := core.FileURI(filepath.Join(dir, "lib.wfl")), core.FileURI(filepath.Join(dir, "main.wfl"))
	main := "include from \"lib.wfl\"\nstore value as 2\n"
	at := strings.Index(main, "as ") + len("as ")
	ws := core.NewWorkspace()
	l := ws.Open(libURI, 1, "store value as 1\n")
	m := ws.Open(mainURI, 1, main)
	m.Diagnostics()
	m.Analysis()
	// Blank lines above the declaration move it, in the includer's line
	// table, onto the line of the cursor, before it.
	if _, err := ws.Change(libURI, 2, core.Edit{Text: strings.Repeat("\n", 22)}); err != nil {
		t.Fatal(err)
	}
	if ref := ws.Refresh(libURI, l); len(ref) != 0 {
		t.Fatalf("Refresh returned %d snapshots, want none: the included file gives the same names", len(ref))
	}
	opts := completion.Options{Snippets: true, Path: mainURI.Path()}
	_, got := completion.List(m.Analysis(), at, opts)
	_, want := completion.List(core.FullAnalysisIn(ws, mainURI, main), at, opts)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("completion differs from a full analysis's: %s", core.Difference(got, want))
	}
	if !slices.ContainsFunc(want, func(it completion.Item) bool { return it.Label == "value" }) {
		t.Errorf("the included file's value is not offered: %+v", want)
	}
}
