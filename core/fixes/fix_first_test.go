package fixes

import (
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/core/internal/coretest"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

// TestFirstDiagnosticFixes counts, over the corpus's mutants, the first
// error shown that a quick fix is offered for, by category, and lists the
// parse messages most often left without one. That an offered fix adds no
// error is what TestFixSweep checks of every fix (every third mutant).
func TestFirstDiagnosticFixes(t *testing.T) {
	stride := 1
	if testing.Short() {
		stride = 10
	}
	progs := coretest.OrSkip(t, stride)
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(t.TempDir(), "none"))
	uri := core.FileURI(filepath.Join(t.TempDir(), "a.wfl"))
	type tally struct{ firsts, fixed int }
	byCat := map[diag.Category]*tally{}
	missing := map[string]int{}
	total := tally{}
	for _, path := range slices.Sorted(maps.Keys(progs)) {
		if !strings.Contains(path, "wfl-mutants") {
			continue
		}
		src := progs[path]
		s := core.NewSnapshot(uri, 1, src)
		_, shown := s.Diagnostics()
		i := slices.IndexFunc(shown, func(d diag.Diagnostic) bool { return d.Severity == diag.Error })
		if i < 0 {
			continue
		}
		d := shown[i]
		if byCat[d.Category] == nil {
			byCat[d.Category] = &tally{}
		}
		byCat[d.Category].firsts++
		total.firsts++
		fixed := slices.ContainsFunc(At(t.Context(), s, token.Span{Start: d.Span.Start, End: d.Span.End}), func(f Fix) bool {
			return f.Diagnostic.Span == d.Span && f.Diagnostic.Message == d.Message
		})
		if fixed {
			byCat[d.Category].fixed++
			total.fixed++
		} else if d.Category == diag.Parse {
			msg := d.Message
			if k := strings.Index(msg, ", found "); k >= 0 {
				msg = msg[:k]
			}
			missing[msg]++
		}
	}
	for c, n := range byCat {
		t.Logf("%-8s first errors %4d, with a fix %4d", c, n.firsts, n.fixed)
	}
	t.Logf("mutants' first errors: %d, with a fix %d", total.firsts, total.fixed)
	msgs := slices.Collect(func(yield func(string) bool) {
		for m := range missing {
			if !yield(m) {
				return
			}
		}
	})
	sort.Slice(msgs, func(i, j int) bool { return missing[msgs[i]] > missing[msgs[j]] })
	for _, m := range msgs[:min(len(msgs), 25)] {
		t.Logf("no fix %4d: %s", missing[m], m)
	}
}

// TestParseErrorWordFixes checks the fixes of parse errors that name a
// missing word or a wrong one: the preferred fix makes the program the
// user meant.
func TestParseErrorWordFixes(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"store x as 4\ncheck x is greater than 3:\n    display 1\nend check\n", "store x as 4\ncheck if x is greater than 3:\n    display 1\nend check\n"},
		{"for n in [1, 2]:\n    display n\nend for\n", "for each n in [1, 2]:\n    display n\nend for\n"},
		{"count 1 to 3:\n    display count\nend count\n", "count from 1 to 3:\n    display count\nend count\n"},
		{"store x 5\ndisplay x\n", "store x as 5\ndisplay x\n"},
		{"store x as 1\nadd 1 x\ndisplay x\n", "store x as 1\nadd 1 to x\ndisplay x\n"},
		{"store x as 1\nchange x 5\ndisplay x\n", "store x as 1\nchange x to 5\ndisplay x\n"},
		{"x as 5\ndisplay x\n", "store x as 5\ndisplay x\n"},
		{"store x as 1\nx to 5\ndisplay x\n", "store x as 1\nchange x to 5\ndisplay x\n"},
		{"store x as 4\ncheck iff x is 4:\n    display 1\nend check\n", "store x as 4\ncheck if x is 4:\n    display 1\nend check\n"},
	} {
		s := core.NewSnapshot(core.URI("file:///w/a.wfl"), 1, tt.src)
		var got []string
		done := false
		for _, f := range At(t.Context(), s, token.Span{Start: 0, End: len(tt.src)}) {
			if f.Diagnostic.Category != diag.Parse || !f.Preferred {
				continue
			}
			out, err := core.ApplyEdits(tt.src, f.Edits...)
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, f.Title+": "+out)
			done = done || out == tt.want
		}
		if !done {
			t.Errorf("%q: no preferred fix makes %q; got %q", tt.src, tt.want, got)
		}
	}
}
