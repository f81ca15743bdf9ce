package completion

// This file holds completion's list while it is gathered: each proposal is
// a light candidate (its label, its weight and what makes its item), the
// first of each label is kept, and filter orders those that match the
// prefix by weight and label and keeps the first Max before any item of a
// name is made. A large file offers thousands of names, and a client shows
// a few hundred at most.

import (
	"cmp"
	"hash/maphash"
	"slices"
	"strings"
	"sync"

	"wfl-lsp/core"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
)

// A candidate is a proposal before the list is cut: what it is ordered by,
// and what makes its item.
type candidate struct {
	label  string
	weight int           // the order offered in: its group's (groupName, …) plus its rank in the group
	item   *Item         // the item, made already (a word, a builtin, a member), or nil
	sym    *check.Symbol // when item is nil: the name's symbol, whose item finish makes
	kind   Kind          // when item is nil: the kind of the name's item
	call   string        // when item is nil: the joiner of the name's call snippet ("of", "with"), or ""
}

// A candidateList is the list one completion gathers. Lists are pooled:
// the list of a large scope holds thousands of candidates.
type candidateList struct {
	keep  nameFilter  // the prefixes the candidates may start with; the zero filter keeps every one
	cands []candidate // in the order offered, one of each label (unless every)
	every bool        // keep the candidates of a label offered before too (for a test of filter)

	labels stringSet // the labels of cands
	keys   stringSet // the names the pass over names under way has offered, as its tables spell them (see offered)
	order  []int32   // filter's answer: indices in cands
}

// maxPooled is the most candidates of a list put back in the pool.
const maxPooled = 1 << 15

var candidateLists = sync.Pool{New: func() any { return new(candidateList) }}

// newCandidateList returns an empty list, which keeps every candidate.
func newCandidateList() *candidateList { return candidateLists.Get().(*candidateList) }

// release empties l, which must not keep the symbols of an analysis (or
// the text their names are cut from) alive, and puts it back in the pool.
func (l *candidateList) release() {
	clear(l.cands)
	l.cands = l.cands[:0]
	l.labels.reset()
	l.keys.reset()
	l.order = l.order[:0]
	l.keep, l.every = nameFilter{}, false
	if cap(l.cands) <= maxPooled {
		candidateLists.Put(l)
	}
}

// add appends c, unless a candidate of its label came first: the first
// offered of each label is the one shown.
func (l *candidateList) add(c candidate) {
	if l.every || l.labels.add(c.label) {
		l.cands = append(l.cands, c)
	}
}

// items adds those of its whose label l keeps, weighted weight; the items
// must not change while l is in use.
func (l *candidateList) items(weight int, its []Item) {
	for i := range its {
		if l.keep.keep(its[i].Label) {
			l.add(candidate{label: its[i].Label, weight: weight, item: &its[i]})
		}
	}
}

// startNames begins a pass over the names of scopes (see offered).
func (l *candidateList) startNames() { l.keys.reset() }

// offered reports whether the pass over names under way has offered a
// name spelled name before, and notes that it has now: a scope's name
// hides those of its parents, whether or not it is shown.
func (l *candidateList) offered(name string) bool { return !l.keys.add(name) }

// filter returns the items of the candidates whose label starts with the
// prefix (ignoring case), ordered by weight and label, at most max of
// them when max > 0; with a multi-word prefix that matches nothing, the
// last word alone is tried, replacing only that word.
func filter(a *core.Analysis, l *candidateList, span token.Span, prefix string, max int) (token.Span, []Item) {
	order := l.choose(strings.ToLower(prefix), max)
	if len(order) == 0 && strings.Contains(prefix, " ") {
		last := prefix[strings.LastIndex(prefix, " ")+1:]
		span.Start = span.End - len(last)
		order = l.choose(strings.ToLower(last), max)
	}
	res := make([]Item, len(order))
	for k, i := range order {
		res[k] = finish(a, &l.cands[i])
	}
	return span, res
}

// choose returns the indices of the candidates whose label starts with
// lower (in lower case), ordered by weight and label, the first max of
// them when max > 0: those are kept in a heap whose root is the last of
// them, so that each of the others costs a comparison.
func (l *candidateList) choose(lower string, max int) []int32 {
	cands := l.cands
	// The labels differ, so the order is total.
	compare := func(i, j int32) int {
		x, y := &cands[i], &cands[j]
		if x.weight != y.weight {
			return cmp.Compare(x.weight, y.weight)
		}
		return strings.Compare(x.label, y.label)
	}
	h := l.order[:0]
	for i := range cands {
		if !core.HasPrefixFold(cands[i].label, lower) {
			continue
		}
		switch {
		case max <= 0:
			h = append(h, int32(i))
		case len(h) < max:
			h = append(h, int32(i))
			for j := len(h) - 1; j > 0; { // up
				p := (j - 1) / 2
				if compare(h[j], h[p]) < 0 {
					break
				}
				h[j], h[p] = h[p], h[j]
				j = p
			}
		case compare(int32(i), h[0]) < 0:
			h[0] = int32(i)
			for j := 0; ; { // down
				c := 2*j + 1
				if c+1 < len(h) && compare(h[c+1], h[c]) > 0 {
					c++
				}
				if c >= len(h) || compare(h[c], h[j]) < 0 {
					break
				}
				h[j], h[c] = h[c], h[j]
				j = c
			}
		}
	}
	slices.SortFunc(h, compare)
	l.order = h
	return h
}

// finish makes the item of a candidate: a name's with its detail and doc,
// and its call snippet.
func finish(a *core.Analysis, c *candidate) Item {
	if c.item != nil {
		return *c.item
	}
	it := Item{Label: c.sym.Name, Kind: c.kind, Insert: c.sym.Name}
	describe(&it, c.sym)
	if c.call != "" {
		it = callSnippet(a, it, c.call, true)
	}
	return it
}

// A stringSet is a set of strings emptied at no cost: its slots (open
// addressing, half of them used at most) are stamped with the generation
// that filled them, and emptying it starts the next. One completion adds
// thousands of names to it, the next perhaps a few.
type stringSet struct {
	slots   []setSlot // a power of two of them, or none
	members []string  // in the order added, indexed by the slots
	gen     uint32    // the generation of the slots in use (0 never is)
}

type setSlot struct {
	gen  uint32
	hash uint32 // the high half of the member's hash
	i    int32  // the member's index in members
}

var setSeed = maphash.MakeSeed()

// add adds s to the set, and reports whether it was not in it.
func (t *stringSet) add(s string) bool {
	if 2*(len(t.members)+1) > len(t.slots) {
		t.grow()
	}
	h := maphash.String(setSeed, s)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.gen != t.gen {
			*sl = setSlot{gen: t.gen, hash: uint32(h >> 32), i: int32(len(t.members))}
			t.members = append(t.members, s)
			return true
		}
		if sl.hash == uint32(h>>32) && t.members[sl.i] == s {
			return false
		}
	}
}

// grow doubles the slots and puts the members in them again.
func (t *stringSet) grow() {
	t.slots = make([]setSlot, max(64, 2*len(t.slots)))
	t.gen = 1
	mask := uint64(len(t.slots) - 1)
	for k, s := range t.members {
		h := maphash.String(setSeed, s)
		i := h & mask
		for t.slots[i].gen == t.gen {
			i = (i + 1) & mask
		}
		t.slots[i] = setSlot{gen: t.gen, hash: uint32(h >> 32), i: int32(k)}
	}
}

// reset empties the set, and lets go of its members.
func (t *stringSet) reset() {
	clear(t.members)
	t.members = t.members[:0]
	if t.gen++; t.gen == 0 {
		clear(t.slots)
		t.gen = 1
	}
}
