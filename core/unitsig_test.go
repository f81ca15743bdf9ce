package core

import (
	"fmt"
	"strings"
	"testing"

	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/lang/token"
)

// TestRecheckedUnitsKeepTheirRoot types, into the last line of the
// middle chunk of the generated document, a name another chunk declares:
// that chunk's units are checked again, finding nothing new, and the
// partial analyses of the queries after it must not take them in (they
// did, and kept doing so at every later keystroke, until the next full
// analysis: three times as many units to parse and check while typing).
func TestRecheckedUnitsKeepTheirRoot(t *testing.T) {
	text := benchdoc.Clean(2000)
	const chunk = 2000 / 12 / 2
	call := fmt.Sprintf("display call sum_numbers_c%[1]d with total_c%[1]d and 1", chunk)
	cursor := strings.Index(text, call) + len(call)
	typed := "+total_c4" // chunk 4's variable: chunk 4's units are checked again
	ws, uri, s := openAnalysed("/bench/roots.wfl", text)
	for k := range typed {
		var err error
		if s, err = ws.Change(uri, s.Version+1, Edit{Start: cursor + k, End: cursor + k, Text: typed[k : k+1]}); err != nil {
			t.Fatal(err)
		}
		s.Diagnostics()
		at := cursor + k + 1
		s.Query(token.Span{Start: at, End: at})
		q := s.query()
		if q == nil {
			t.Fatalf("keystroke %d: no partial analysis", k)
		}
		// The edited unit, the one before (parsed again) and the one after
		// (its doc comment lies in the edited one).
		if len(q.seeds) > 3 {
			var units []string
			for _, i := range q.seeds {
				units = append(units, fmt.Sprintf("%q", firstLine(q.st.text[q.st.starts[i]:])))
			}
			t.Fatalf("after %q: %d units taken by every partial analysis, want 3 at most:\n%s", typed[:k+1], len(q.seeds), strings.Join(units, "\n"))
		}
	}
	// The far chunk was checked again: its units are new, with the same root.
	far := strings.Index(text, "store total_c4 as 0")
	st := s.diagState()
	u := st.units[unitAt(st.starts, far)]
	if u.origin == nil {
		t.Errorf("chunk 4's variable's unit was not checked again, or lost its root")
	}
}

// TestRecheckedUnitsChangedAreSeeds deletes an action whose result a
// variable stores, a few units below: that unit is checked again (the name
// it calls is gone) and declares the same name, but not the same symbol
// (its type is no longer known), and no unit that is new declares the
// name, so only the unit's own change can make the queries take it in
// again. Completion in a unit further down lists the variable with its
// type.
func TestRecheckedUnitsChangedAreSeeds(t *testing.T) {
	partialEverywhere(t)
	// Without parameters: their words are the file's context, and a
	// change of them makes a full analysis.
	action := "define action called make_value:\n    return \"one\"\nend action\n"
	text := action +
		"store first as 3\n" +
		"store second as 4\n" +
		"store total as call make_value\n" +
		"store other as 5\n" +
		"display other\n"
	ws, uri, s := openAnalysed("/bench/changed.wfl", text)
	s, err := ws.Change(uri, s.Version+1, Edit{Start: 0, End: len(action)})
	if err != nil {
		t.Fatal(err)
	}
	s.Diagnostics()
	st := s.diagState()
	u := st.units[unitAt(st.starts, strings.Index(s.Text, "store total"))]
	if u.origin != nil {
		t.Fatalf("the unit storing the action's result kept its root though its variable's type changed")
	}
	full := (&Snapshot{URI: uri, Text: s.Text, src: ws}).Analysis()
	var c queryCounts
	for off := strings.Index(s.Text, "display other"); off <= len(s.Text); off++ {
		if d := compareQueries(s, full, off, ws, &c); d != "" {
			t.Fatalf("at %d: %s", off, d)
		}
	}
	if c.partial == 0 {
		t.Fatalf("no answer came from a partial analysis")
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
