package core_test

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"wfl-lsp/core"
	"wfl-lsp/core/completion"
	"wfl-lsp/core/navigation"
	"wfl-lsp/lang/token"
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

// TestRefreshDefinitionOfIncludedName checks that definition, type
// definition and hover of a name an included file declares, asked in the
// includer, do not depend on where that file declared it when the
// includer was last checked.
// Where the included file's quote left open pairs with no other, the
// reference drops it and reads the declaration after it, which the
// includer's checker sees; the features of the included file read the
// text with the quote closed on its line, where the declaration is inside
// a string. A line added above it moves it, which Refresh does not read
// again (exportKey): definition must lead to where it is now.
func TestRefreshDefinitionOfIncludedName(t *testing.T) {
	tests := []struct {
		name      string
		lib, main string
		at        string // the name asked about: its last occurrence in main
		typed     string // a variable of main whose type lib declares as at, or ""
	}{
		{"a variable declared after a quote left open",
			"store other as 1\n\"store total as 4\n",
			"include from \"lib.wfl\"\ndisplay total\n",
			"total", ""},
		{"a property of a container declared after a quote left open",
			"\"create container Box:\n    property size: Number\nend container\n",
			"include from \"lib.wfl\"\ncreate new Box as b:\n    size is 3\nend\ndisplay b.size\n",
			"size", ""},
		{"a container declared after a quote left open",
			"\"create container Box:\n    property size: Number\nend container\n",
			"include from \"lib.wfl\"\ncreate new Box as b:\n    size is 3\nend\ndisplay b.size\n",
			"Box", "b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			libURI, mainURI := core.FileURI(filepath.Join(dir, "lib.wfl")), core.FileURI(filepath.Join(dir, "main.wfl"))
			ws := core.NewWorkspace()
			l := ws.Open(libURI, 1, tt.lib)
			m := ws.Open(mainURI, 1, tt.main)
			m.Diagnostics()
			m.Analysis()
			above := "display \"a line above\"\n"
			if _, err := ws.Change(libURI, 2, core.Edit{Text: above}); err != nil {
				t.Fatal(err)
			}
			if ref := ws.Refresh(libURI, l); len(ref) != 0 {
				t.Fatalf("Refresh returned %d snapshots, want none: the included file gives the same names", len(ref))
			}
			load := func(p string) (*core.Analysis, bool) { return ws.Load(p) }
			at := strings.LastIndex(tt.main, tt.at) + 1
			got := navigation.IncludedDefinition(m.Analysis(), at, mainURI.Path(), load)
			full := core.FullAnalysisIn(ws, mainURI, tt.main)
			want := navigation.IncludedDefinition(full, at, mainURI.Path(), load)
			decl := len(above) + strings.Index(tt.lib, tt.at)
			if len(want) != 1 || want[0].Span != (token.Span{Start: decl, End: decl + len(tt.at)}) {
				t.Fatalf("a full analysis's definition is %+v, want %q at %d in lib.wfl", want, tt.at, decl)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("definition differs from a full analysis's: %s", core.Difference(got, want))
			}
			if tt.typed != "" {
				files := navigation.Files{Base: mainURI.Path(), Load: load}
				typed := strings.LastIndex(tt.main, tt.typed)
				got, want := navigation.TypeDefinition(m.Analysis(), typed, files), navigation.TypeDefinition(full, typed, files)
				if len(want) != 1 || want[0].Span.Start != decl {
					t.Fatalf("a full analysis's type definition is %+v, want %q at %d in lib.wfl", want, tt.at, decl)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("type definition differs from a full analysis's: %s", core.Difference(got, want))
				}
			}
			got2, want2 := navigation.HoverAcross(m.Analysis(), at, mainURI.Path(), load), navigation.HoverAcross(full, at, mainURI.Path(), load)
			if !reflect.DeepEqual(got2, want2) {
				t.Errorf("hover differs from a full analysis's: %s", core.Difference(got2, want2))
			}
			// What the includer's checker imported, not what the included
			// file's features read at its place (the quote closed there).
			if h := navigation.Hover(full, at); want2 == nil || h == nil || want2.Kind != h.Kind || want2.Name != h.Name {
				t.Errorf("hover across is %+v, want a %s %s", want2, h.Kind, h.Name)
			}
		})
	}
}

// TestRefreshWhileAQuoteIsOpen checks that while a string is typed in an
// includer (its quote left open, so that the editor's list is the one of
// the text with the quote closed, derived from the last version's), the
// names of an included file that changed meanwhile are read again: the
// name the included file no longer declares is reported, and the one it
// now declares is not.
func TestRefreshWhileAQuoteIsOpen(t *testing.T) {
	dir := t.TempDir()
	libURI, mainURI := core.FileURI(filepath.Join(dir, "lib.wfl")), core.FileURI(filepath.Join(dir, "main.wfl"))
	main := "include from \"lib.wfl\"\ndisplay greeting\ndisplay \"Hel\n"
	ws := core.NewWorkspace()
	l := ws.Open(libURI, 1, "store greeting as \"hi\"\n")
	m := ws.Open(mainURI, 1, main)
	notDefined := func(s *core.Snapshot) []string {
		_, ds := s.Tolerant()
		var out []string
		for _, d := range ds {
			if strings.Contains(d.Message, "greeting") || strings.Contains(d.Message, "salutation") {
				out = append(out, d.Message)
			}
		}
		return out
	}
	if got := notDefined(m); len(got) != 0 {
		t.Fatalf("before the included file changed: %q", got)
	}
	if _, err := ws.Change(libURI, 2, core.Edit{Start: 6, End: 14, Text: "salutation"}); err != nil {
		t.Fatal(err)
	}
	ref := ws.Refresh(libURI, l)
	if len(ref) != 1 {
		t.Fatalf("Refresh returned %d snapshots, want the includer's", len(ref))
	}
	// The editor's list as the server publishes it again, then after the
	// next keystroke in the string.
	m, err := ws.Change(mainURI, 2, core.Edit{Start: len(main) - 1, End: len(main) - 1, Text: "l"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*core.Snapshot{ref[0], m} {
		if got := notDefined(s); len(got) != 1 || !strings.Contains(got[0], "'greeting'") {
			t.Errorf("version %d, after the included file renamed greeting: the includer's list says %q, want greeting undefined", s.Version, got)
		}
	}
}
