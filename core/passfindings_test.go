package core

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
)

// TestHiddenEqualsCheckPasses: the findings a fix is checked against, the
// reported ones and those every pass of the checker finds behind an error
// (Snapshot.PassFindings, read from the diagnostics' state when the text
// parses), are those of the passes run over a parse of the whole text, in
// each sampled corpus program (coretest.Programs) and a sample of the mutants, edited at random as
// an editor does (the diagnostics derived edit by edit).
//
//	go test -run HiddenEqualsCheckPasses -stress N ./core
func TestHiddenEqualsCheckPasses(t *testing.T) {
	t.Parallel()
	stride, edits, seed := 3, 8, uint64(9)
	if testing.Short() {
		stride, edits = 30, 4
	}
	if *stress > 0 {
		stride, edits, seed = 1, 24, uint64(*stress)
	}
	progs := corpusOrSkip(t, stride)
	compared, parsing, hidden := 0, 0, 0
	for n, path := range slices.Sorted(mapsKeys(progs)) {
		rng := rand.New(rand.NewPCG(uint64(n), seed))
		ws, _, s := openAnalysed(path, progs[path])
		for k := 0; k <= edits; k++ {
			if k > 0 {
				s, _ = changeAtRandom(t, ws, s, rng)
			}
			_, reported := s.Diagnostics()
			got := withPassFindings(s, reported)
			want := hiddenByCheck(s, reported)
			compared++
			hidden += len(want) - len(reported)
			if !slices.ContainsFunc(reported, func(d diag.Diagnostic) bool { return d.Category == diag.Parse && d.Severity == diag.Error }) {
				parsing++
			}
			if g, w := findingSet(got), findingSet(want); !slices.Equal(g, w) {
				t.Fatalf("%s after %d edits: %d findings, want %d\n got %q\nwant %q\ntext:\n%s", path, k, len(g), len(w), g, w, s.Text)
			}
		}
	}
	t.Logf("%d texts compared (%d of them parse, whose findings come from the state), %d findings held back in all", compared, parsing, hidden)
	if hidden == 0 {
		t.Error("no text had a finding held back: the test compares nothing")
	}
}

// withPassFindings is diags and the findings of s.PassFindings they do
// not hold, as the quick fixes count them (fixes.fixer.withHidden).
func withPassFindings(s *Snapshot, diags []diag.Diagnostic) []diag.Diagnostic {
	parses := !slices.ContainsFunc(diags, func(d diag.Diagnostic) bool { return d.Category == diag.Parse && d.Severity == diag.Error })
	out := slices.Clone(diags)
	for d := range s.PassFindings(parses, nil) {
		if !slices.ContainsFunc(diags, func(r diag.Diagnostic) bool {
			return r.Span == d.Span && r.Code == d.Code && r.Message == d.Message
		}) {
			out = append(out, d)
		}
	}
	return out
}

// hiddenByCheck is what Snapshot.PassFindings adds to diags, made by running every
// pass of the checker over a parse of the snapshot's whole text.
func hiddenByCheck(s *Snapshot, diags []diag.Diagnostic) []diag.Diagnostic {
	f, _ := parser.Parse(s.Text)
	ctx := check.FileContext(f) // as analyze makes it: with the names of the included files
	ctx.Imports, ctx.Unfollowed = imports(f, s.URI.Path(), s.src)
	_, passes := check.CheckPasses(f, s.Text, ctx)
	out := slices.Clone(diags)
	for _, d := range slices.Concat(passes.Analyzer, passes.Static, passes.Type) {
		if !slices.ContainsFunc(diags, func(r diag.Diagnostic) bool {
			return r.Span == d.Span && r.Code == d.Code && r.Message == d.Message
		}) {
			out = append(out, d)
		}
	}
	return out
}

// findingSet describes findings, sorted.
func findingSet(ds []diag.Diagnostic) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = fmt.Sprintf("%d-%d %v %s %s", d.Span.Start, d.Span.End, d.Severity, d.Code, d.Message)
	}
	slices.Sort(out)
	return out
}
