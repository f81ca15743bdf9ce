package core

// This file indexes the units of a query base by the names they declare or
// mention, so that a partial analysis (query_partial.go) finds the units
// connected to the ones it starts from without visiting every unit of the
// file: on a 10,000-line document the visit of 4,000 units, pass after
// pass, was a third of a partial analysis's cost, and the few units it
// finds are the same each keystroke.

import (
	"slices"
	"sync"
)

// A mentionIndex lists, for each name hash a base's units hold (see
// unit.hashes), the base's units that hold it, in order.
type mentionIndex struct {
	hashes []uint32 // sorted, each once
	offs   []int32  // the units of hashes[i] are units[offs[i]:offs[i+1]]
	units  []int32
}

// mentionsCache is the index of a query base, built by the first partial
// analysis that spreads.
type mentionsCache struct {
	mentionsOnce sync.Once
	mentionsIx   *mentionIndex
}

// mentions returns the index of the base's units.
func (b *queryBase) mentions() *mentionIndex {
	b.mentionsOnce.Do(func() { b.mentionsIx = indexMentions(b.units) })
	return b.mentionsIx
}

func indexMentions(units []*unit) *mentionIndex {
	n := 0
	for _, u := range units {
		n += len(u.hashes)
	}
	// Each (hash, unit) as one number, sorted: by hash, then unit.
	pairs := make([]uint64, 0, n)
	for k, u := range units {
		for _, h := range u.hashes {
			pairs = append(pairs, uint64(h)<<32|uint64(k))
		}
	}
	slices.Sort(pairs)
	x := &mentionIndex{units: make([]int32, 0, len(pairs))}
	for i, p := range pairs {
		h, k := uint32(p>>32), int32(p)
		if i == 0 || h != x.hashes[len(x.hashes)-1] {
			x.hashes = append(x.hashes, h)
			x.offs = append(x.offs, int32(len(x.units)))
		} else if x.units[len(x.units)-1] == k {
			continue // a unit holding the hash twice
		}
		x.units = append(x.units, k)
	}
	x.offs = append(x.offs, int32(len(x.units)))
	x.hashes, x.offs = slices.Clip(x.hashes), slices.Clip(x.offs)
	return x
}

// of returns the units that hold h.
func (x *mentionIndex) of(h uint32) []int32 {
	i, found := slices.BinarySearch(x.hashes, h)
	if !found {
		return nil
	}
	return x.units[x.offs[i]:x.offs[i+1]]
}

// spread is growth.spread for a partial analysis: every unit of the state
// that g has not taken is a unit of the base (the others are seeds, taken
// first), so the units a name connects are found through the base's index
// rather than by visiting every unit. It takes the same units as
// growth.spread and returns false when they are more than limit.
func (q *queryState) spread(g *growth, limit int) bool {
	ix := q.b.mentions()
	for next := 0; next < len(g.order); next++ {
		for _, k := range ix.of(g.order[next]) {
			if i := q.fromB[k]; i >= 0 && !g.in[i] {
				g.take(int(i))
			}
		}
		if len(g.set) > limit {
			return false
		}
	}
	return len(g.set) <= limit
}
