package core_test

import (
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
)

// TestOutlineEqualsFull edits each sampled corpus program (coretest.Programs) (and a sample of the
// mutants) at random, a chain of edits each, asking for the outline after
// some of them (so that the types it keeps are carried over several
// edits, and some versions have their full analysis, the next queries'
// base), and compares each outline with a full analysis's of the same
// text.
//
//	go test -run OutlineEqualsFull -stress N ./core
func TestOutlineEqualsFull(t *testing.T) {
	core.PartialEverywhere(t)
	progs, edits, seed := featureChains(t, 17)
	asked, without := 0, 0
	for n, path := range slices.Sorted(maps.Keys(progs)) {
		rng := rand.New(rand.NewPCG(uint64(n), seed))
		ws, uri, s := core.OpenAnalysed(path, progs[path])
		if rng.IntN(2) == 0 {
			presentation.Outline(s)
		}
		for k := 0; k < edits; k++ {
			var e core.Edit
			s, e = core.ChangeAtRandom(t, ws, s, rng)
			s.Diagnostics() // as the server publishes them
			switch rng.IntN(6) {
			case 0, 1:
				continue // a version no one asked the outline of
			case 2:
				s.Analysis()
			}
			got := presentation.Outline(s)
			asked++
			if !s.Analysed() {
				without++
			}
			want := presentation.DocumentSymbols(core.FullAnalysisIn(ws, uri, s.Text))
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, edit %d ([%d,%d) ← %q): %s\ntext after:\n%s", path, k, e.Start, e.End, e.Text, core.Difference(got, want), s.Text)
			}
		}
	}
	t.Logf("%d programs; %d outlines compared, %d made without the full analysis", len(progs), asked, without)
	if without < asked/3 {
		t.Errorf("only %d of %d outlines were made without the full analysis", without, asked)
	}
}
