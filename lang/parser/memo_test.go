package parser

import (
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestMemoTable puts, forgets by stretch and forgets the latest kept
// statements in a memoTable at random, and marks, rolls back and releases
// (as describes one inside another read their members past their layout
// end), beside a map doing each by reading all its entries (as the parser
// did before the table) and copies of it for the marks: both must hold
// the same statements after each step, and the table's keys stay sorted.
func TestMemoTable(t *testing.T) {
	for seed := range 20 {
		rng := rand.New(rand.NewPCG(uint64(seed), 13))
		var tab memoTable
		want := map[int]memoStmt{}
		type mark struct {
			at   int
			want map[int]memoStmt
		}
		var marks []mark
		gen := 0
		for step := range 2000 {
			switch rng.IntN(5) {
			case 4:
				switch {
				case len(marks) < 4 && rng.IntN(2) == 0:
					marks = append(marks, mark{tab.mark(), maps.Clone(want)})
				case len(marks) > 0 && rng.IntN(2) == 0:
					m := marks[len(marks)-1]
					marks = marks[:len(marks)-1]
					tab.rollback(m.at)
					want = m.want
				case len(marks) > 0:
					marks = marks[:len(marks)-1]
					tab.release()
				}
			case 0, 1:
				at := rng.IntN(300)
				gen++
				m := memoStmt{end: at + 1 + rng.IntN(5)}
				if rng.IntN(2) == 0 {
					m.kept = &keptAhead{gen: gen}
				}
				tab.put(at, m)
				want[at] = m
			case 2:
				from := rng.IntN(300)
				to := from + rng.IntN(40)
				if rng.IntN(8) == 0 {
					to = 1 << 62
				}
				tab.forgetRange(from, to)
				for k := range want {
					if k >= from && k < to {
						delete(want, k)
					}
				}
			case 3:
				g := gen - rng.IntN(30)
				tab.forgetKeptSince(g)
				for k, m := range want {
					if m.kept != nil && m.kept.gen > g {
						delete(want, k)
					}
				}
			}
			if !maps.EqualFunc(tab.m, want, func(x, y memoStmt) bool { return x.end == y.end && x.kept == y.kept }) ||
				!slices.Equal(tab.keys, slices.Sorted(maps.Keys(want))) {
				t.Fatalf("seed %d, step %d: the table holds %v (keys %v), want %v", seed, step, tab.m, tab.keys, want)
			}
		}
	}
}
