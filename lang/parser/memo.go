package parser

// This file holds the table of the statements parsed ahead of a body's
// layout end (layout.go: keep), which the statement lists that go on
// there take as they are.

import (
	"slices"
	"sort"
)

// A memoTable holds the statements parsed ahead (memoStmt) by the index
// of their first token. Besides the map for the lookups it keeps the keys
// in order, so that forgetting the statements of a stretch reads only
// theirs, and the statements that read the blocks around them in the
// order they were kept, so that forgetting the latest of them reads only
// those: a mangled file keeps thousands of statements, and reading all of
// them at each statement parsed again made its parse quadratic.
type memoTable struct {
	m    map[int]memoStmt
	keys []int     // the keys of m, ascending
	kept []keptKey // the entries kept with m.kept set, by increasing gen; some forgotten since
	// undo logs each change to m while a describe reads its members past
	// its layout end (marks, one inside another), so that the describe
	// the layout then cuts puts back what m held before (rollback).
	undo  []memoUndo
	marks int
}

// A memoUndo is what the entry at index at was before a change: m, or
// none when had is false.
type memoUndo struct {
	at  int
	m   memoStmt
	had bool
}

// A keptKey is the key and the gen of an entry kept with m.kept set.
type keptKey struct{ at, gen int }

// used reports whether any statement was ever kept.
func (t *memoTable) used() bool { return t.m != nil }

// get returns the statement kept at token index at, if any.
func (t *memoTable) get(at int) (memoStmt, bool) {
	m, ok := t.m[at]
	return m, ok
}

// put keeps m at token index at.
func (t *memoTable) put(at int, m memoStmt) {
	if t.m == nil {
		t.m = make(map[int]memoStmt)
	}
	t.log(at)
	if _, ok := t.m[at]; !ok {
		i := sort.SearchInts(t.keys, at)
		t.keys = slices.Insert(t.keys, i, at)
	}
	t.m[at] = m
	if m.kept != nil {
		t.kept = append(t.kept, keptKey{at, m.kept.gen})
	}
}

// forgetRange forgets the statements starting at a token index in [from, to).
func (t *memoTable) forgetRange(from, to int) {
	lo := sort.SearchInts(t.keys, from)
	hi := lo
	for hi < len(t.keys) && t.keys[hi] < to {
		t.log(t.keys[hi])
		delete(t.m, t.keys[hi])
		hi++
	}
	t.keys = slices.Delete(t.keys, lo, hi)
}

// forgetKeptSince forgets the statements kept with m.kept set whose gen is
// after gen.
func (t *memoTable) forgetKeptSince(gen int) {
	for n := len(t.kept); n > 0 && t.kept[n-1].gen > gen; n = len(t.kept) {
		k := t.kept[n-1]
		t.kept = t.kept[:n-1]
		if m, ok := t.m[k.at]; ok && m.kept != nil && m.kept.gen == k.gen {
			t.forgetRange(k.at, k.at+1)
		}
	}
}

// log notes, while a mark is set, what the entry at index at is before a
// change.
func (t *memoTable) log(at int) {
	if t.marks > 0 {
		m, had := t.m[at]
		t.undo = append(t.undo, memoUndo{at, m, had})
	}
}

// mark starts logging the changes (undo) and returns where rollback goes
// back to; release or rollback ends it.
func (t *memoTable) mark() int {
	t.marks++
	return len(t.undo)
}

// release ends a mark, keeping the changes since.
func (t *memoTable) release() {
	if t.marks--; t.marks == 0 {
		clear(t.undo)
		t.undo = t.undo[:0]
	}
}

// rollback puts back what the table held at mark, and ends it.
func (t *memoTable) rollback(mark int) {
	for n := len(t.undo); n > mark; n = len(t.undo) {
		u := t.undo[n-1]
		t.undo[n-1] = memoUndo{}
		t.undo = t.undo[:n-1]
		if !u.had {
			delete(t.m, u.at)
			if i := sort.SearchInts(t.keys, u.at); i < len(t.keys) && t.keys[i] == u.at {
				t.keys = slices.Delete(t.keys, i, i+1)
			}
			continue
		}
		if _, ok := t.m[u.at]; !ok {
			i := sort.SearchInts(t.keys, u.at)
			t.keys = slices.Insert(t.keys, i, u.at)
		}
		t.m[u.at] = u.m
		if k := u.m.kept; k != nil {
			// Back among the kept, in the order of their gen, unless it
			// is there still (forgetRange leaves it).
			i := sort.Search(len(t.kept), func(i int) bool { return t.kept[i].gen >= k.gen })
			if i == len(t.kept) || t.kept[i] != (keptKey{u.at, k.gen}) {
				t.kept = slices.Insert(t.kept, i, keptKey{u.at, k.gen})
			}
		}
	}
	t.release()
}
