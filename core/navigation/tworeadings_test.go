package navigation

import (
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/lang/diag"
)

// TestTwoReadings checks the names of the statements read two ways
// (`write line NAME … to T`, `flush NAME`): when the merged name is the one
// bound, hover, references and rename find it there.
func TestTwoReadings(t *testing.T) {
	src := "store line path as \"/tmp/data.txt\"\nwrite line path with \"!\" to \"/tmp/out.txt\"\n"
	a := core.NewSnapshot("file:///two.wfl", 1, src).Analysis()
	at := strings.LastIndex(src, "path")
	h := Hover(a, at+1)
	if h == nil || h.Name != "line path" {
		t.Fatalf("hover on the write's name = %+v, want the variable 'line path'", h)
	}
	refs := References(a, at+1, true)
	if len(refs) != 2 || src[refs[1].Span.Start:refs[1].Span.End] != "line path" {
		t.Errorf("references = %v, want the declaration and the write's 'line path'", refs)
	}
	edits, err := Rename(a, at+1, "source path")
	if err != nil {
		t.Fatal(err)
	}
	out := src
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		out = out[:e.Start] + e.Text + out[e.End:]
	}
	if want := "store source path as \"/tmp/data.txt\"\nwrite source path with \"!\" to \"/tmp/out.txt\"\n"; out != want {
		t.Errorf("renamed:\n%s\nwant:\n%s", out, want)
	}
	for _, d := range core.NewSnapshot("file:///two.wfl", 2, out).Analysis().Diagnostics {
		if d.Severity == diag.Error {
			t.Errorf("renamed program: %s", d.Message)
		}
	}

	// An action named flush, which `flush (…)` calls: renamed, the
	// statement would flush a stream instead.
	src = "define action called flush:\n    display \"x\"\nend action\nstore n as 1\nflush (n)\n"
	a = core.NewSnapshot("file:///flush.wfl", 1, src).Analysis()
	if _, _, err := PrepareRename(a, strings.Index(src, "flush")); err == nil || !strings.Contains(err.Error(), "line 5") {
		t.Errorf("rename of the action flush: %v, want a refusal naming line 5", err)
	}
}
