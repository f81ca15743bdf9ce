package core

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// TestOutlineEqualsFull edits every corpus program (and a sample of the
// mutants) at random, a chain of edits each, asking for the outline after
// some of them (so that the types it keeps are carried over several
// edits, and some versions have their full analysis, the next queries'
// base), and compares each outline with a full analysis's of the same
// text.
//
//	go test -run OutlineEqualsFull -stress N ./core
func TestOutlineEqualsFull(t *testing.T) {
	partialEverywhere(t)
	stride, edits, seed := 6, 10, uint64(17)
	if testing.Short() {
		stride, edits = 60, 6
	}
	if *stress > 0 {
		stride, edits, seed = 1, 40, uint64(*stress)
	}
	progs := corpusOrSkip(t, stride)
	asked, without := 0, 0
	for n, path := range slices.Sorted(mapsKeys(progs)) {
		rng := rand.New(rand.NewPCG(uint64(n), seed))
		ws, uri, s := openAnalysed(path, progs[path])
		if rng.IntN(2) == 0 {
			s.DocumentSymbols()
		}
		for k := 0; k < edits; k++ {
			var e Edit
			s, e = changeAtRandom(t, ws, s, rng)
			s.Diagnostics() // as the server publishes them
			switch rng.IntN(6) {
			case 0, 1:
				continue // a version no one asked the outline of
			case 2:
				s.Analysis()
			}
			got := s.DocumentSymbols()
			asked++
			if !s.Analysed() {
				without++
			}
			want := (&Snapshot{URI: uri, Text: s.Text, src: ws}).Analysis().DocumentSymbols()
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, edit %d ([%d,%d) ← %q): %s\ntext after:\n%s", path, k, e.Start, e.End, e.Text, difference(got, want), s.Text)
			}
		}
	}
	t.Logf("%d programs; %d outlines compared, %d made without the full analysis", len(progs), asked, without)
	if without < asked/3 {
		t.Errorf("only %d of %d outlines were made without the full analysis", without, asked)
	}
}

func TestClusters(t *testing.T) {
	for _, c := range []struct {
		at   []int
		want [][2]int
	}{
		{nil, nil},
		{[]int{3}, [][2]int{{3, 3}}},
		{[]int{0, 5, 7, 40}, [][2]int{{0, 7}, {40, 40}}}, // 5 and 7 are near 0
		{[]int{0, 10, 20, 30, 40}, [][2]int{{0, 40}}},    // more than 4 stretches: one
		{[]int{1, 100, 200, 300}, [][2]int{{1, 1}, {100, 100}, {200, 200}, {300, 300}}},
	} {
		if got := clusters(c.at, 8, 4); !reflect.DeepEqual(got, c.want) {
			t.Errorf("clusters(%v) = %v, want %v", c.at, got, c.want)
		}
	}
}
