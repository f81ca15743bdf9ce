package core

import (
	"slices"
	"strings"
	"testing"
)

// TestOneFindingPerFactWhileEditing: an undefined signal handler is one
// finding, the type checker's, while the type checker's findings are
// shown; while an error of the analysis holds them back, the analyzer's
// warning says it. The lists the editor gets after an edit (derived
// incrementally, and the tolerant one) agree with a full analysis.
func TestOneFindingPerFactWhileEditing(t *testing.T) {
	const clean = "register signal handler for SIGINT as on_stop\ndisplay 1\n"
	messages := func(s *Snapshot) []string {
		_, ds := s.Diagnostics()
		var out []string
		for _, d := range ds {
			if strings.Contains(d.Message, "on_stop") {
				out = append(out, d.Severity.String()+" "+d.Code)
			}
		}
		return out
	}
	ws := NewWorkspace()
	uri := URI("file:///w/a.wfl")
	s := ws.Open(uri, 1, clean)
	if got, want := messages(s), []string{"error TYPE-SIGNAL"}; !slices.Equal(got, want) {
		t.Fatalf("clean: %q, want %q", got, want)
	}
	at := strings.Index(clean, "1\n")
	s, err := ws.Change(uri, 2, Edit{Start: at, End: at + 1, Text: "missing_name"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"warning ANALYZE-SEMANTIC"}
	if got := messages(s); !slices.Equal(got, want) {
		t.Errorf("held back, after an edit: %q, want %q", got, want)
	}
	if got := messages(NewSnapshot(uri, 1, s.Text)); !slices.Equal(got, want) {
		t.Errorf("held back, analysed whole: %q, want %q", got, want)
	}
	_, tol := s.Tolerant()
	n := 0
	for _, d := range tol {
		if strings.Contains(d.Message, "on_stop") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("held back, the tolerant list: %d findings of on_stop, want 1", n)
	}
}
