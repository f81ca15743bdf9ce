package core_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"wfl-lsp/core"
	"wfl-lsp/core/navigation"
	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

// TestTestsProgramWhileTyping types into the middle of a program of tests
// (benchdoc.Tests), whose every test writes the counts of passed and failed
// tests, one keystroke at a time: a line that displays a count, a longer
// increment of a count (which names a name not defined while it is typed),
// and then, pasted at once, a write of a count that is a type error and a
// write that retypes a count. After each edit the
// diagnostics equal a full analysis's; until the write that retypes, they
// are derived, and the hover at the edit, and at the last use of the count,
// is answered without the full analysis and as the full analysis answers.
// Before a write that keeps a variable's type was a name for the others,
// every edit of a test reached every other test and made a full analysis.
func TestTestsProgramWhileTyping(t *testing.T) {
	t.Parallel()
	text := benchdoc.Tests(1200)
	const uri = core.URI("file:///nowhere/tests.wfl")
	ws := core.NewWorkspace()
	s := ws.Open(uri, 1, text)
	s.Diagnostics()
	s.Analysis()
	last := strings.LastIndex(text, "with passed with") + len("with ") // the count's last use
	at := strings.Index(text, "change passed to passed plus 1\notherwise:\n    display \"FAIL: test 50 ")
	at += len("change passed to passed plus 1")
	type edit struct {
		e       core.Edit
		derived bool
	}
	var edits []edit
	typing := func(at int, text string) { // one keystroke a character
		for k := range len(text) {
			edits = append(edits, edit{core.Edit{Start: at + k, End: at + k, Text: text[k : k+1]}, true})
		}
	}
	// The editor closes the quote it opens.
	typing(at, "\n    display ")
	line := at + len("\n    display ")
	edits = append(edits, edit{core.Edit{Start: line, End: line, Text: `""`}, true})
	typing(line+1, "counted ")
	typing(line+len(`"counted "`), " with passed")
	typing(at, " plus value_c0") // names value_c, not defined, on the way
	at += len(" plus value_c0")
	edits = append(edits,
		edit{core.Edit{Start: at, End: at, Text: "\n    change failed to yes"}, true},      // Cannot assign
		edit{core.Edit{Start: at, End: at, Text: "\n    change failed to nothing"}, false}) // failed is nothing after it
	for k, ed := range edits {
		var err error
		if s, err = ws.Change(uri, s.Version+1, ed.e); err != nil {
			t.Fatal(err)
		}
		_, got := s.Diagnostics()
		a := core.NewSnapshot(uri, s.Version, s.Text).Analysis()
		if d := core.FirstDiff(core.SortedCopy(got), core.SortedCopy(a.Diagnostics)); d != "" {
			t.Fatalf("edit %d (%q): diagnostics differ from a full analysis: %s", k, ed.e.Text, d)
		}
		// The write of yes is an error until failed is nothing before it.
		wrong := slices.ContainsFunc(got, func(d diag.Diagnostic) bool { return strings.Contains(d.Message, "Cannot assign") })
		if want := strings.Contains(s.Text, "to yes") && !strings.Contains(s.Text, "to nothing"); wrong != want {
			t.Fatalf("edit %d (%q): a write found wrong is %v, want %v", k, ed.e.Text, wrong, want)
		}
		if !ed.derived {
			continue
		}
		if !s.Derived() {
			t.Fatalf("edit %d (%q) made a full analysis for the diagnostics", k, ed.e.Text)
		}
		cursor := ed.e.Start + len(ed.e.Text) - 1
		use := last + len(s.Text) - len(text)
		for _, off := range []int{cursor, use} {
			h := navigation.Hover(s.Query(token.Span{Start: off, End: off}), off)
			if s.Analysed() {
				t.Fatalf("edit %d (%q): the hover at %d made the full analysis", k, ed.e.Text, off)
			}
			if want := navigation.Hover(a, off); !reflect.DeepEqual(h, want) {
				t.Fatalf("edit %d (%q): the hover at %d is %+v, not %+v", k, ed.e.Text, off, h, want)
			}
		}
	}
}
