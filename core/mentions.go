package core

// This file indexes a list of units by the names they declare, write or
// mention, so that what a set of units reaches (reach.go) is found without
// visiting every unit of the file, pass after pass: on a 10,000-line
// document that visit was a third of a partial analysis and of a
// derivation, while the units found are a handful.
//
// An index is built once for a list of units and serves the later states
// that share most of them: a view matches a state's units with the
// indexed ones (matchUnits), and indexes the few others apart
// (othersIndex). A partial analysis uses its base's index
// (queryBase.mentions); a derivation the one its previous state carried,
// built again when too many of the units are no longer the indexed ones.

import (
	"slices"
	"sync"
)

// A mentionIndex lists, for each name hash some units hold (see
// unit.hashes), the units that hold it: first those that declare it, then
// those that write it, then those that only name it.
type mentionIndex struct {
	units  []*unit  // the units indexed
	hashes []uint32 // sorted, each once
	offs   []int32  // the entries of hashes[i] are entries[offs[i]:offs[i+1]]
	decl   []int32  // the first decl[i] of them declare it
	dw     []int32  // the first dw[i] of them declare or write it
	// entries are indices in units; a unit holding a hash both as a key
	// and as a name is in its list twice.
	entries []int32
}

func indexMentions(units []*unit) *mentionIndex {
	n := 0
	for _, u := range units {
		n += len(u.hashes)
	}
	// Each (hash, how held, unit) as one number, sorted: by hash, the
	// declaring units first, then the writing ones, then by unit.
	const declares, writes, names = 0, 1 << 30, 2 << 30
	pairs := make([]uint64, 0, n)
	for k, u := range units {
		nw := len(u.writes())
		for j, h := range u.hashes {
			how := uint64(declares)
			switch {
			case j >= int(u.nkeys)+nw:
				how = names
			case j >= int(u.nkeys):
				how = writes
			}
			pairs = append(pairs, uint64(h)<<32|how|uint64(k))
		}
	}
	slices.Sort(pairs)
	x := &mentionIndex{units: units, entries: make([]int32, len(pairs))}
	for i, p := range pairs {
		h := uint32(p >> 32)
		if i == 0 || h != x.hashes[len(x.hashes)-1] {
			x.hashes = append(x.hashes, h)
			x.offs = append(x.offs, int32(i))
			x.decl = append(x.decl, 0)
			x.dw = append(x.dw, 0)
		}
		switch p & (3 << 30) {
		case declares:
			x.decl[len(x.decl)-1]++
			x.dw[len(x.dw)-1]++
		case writes:
			x.dw[len(x.dw)-1]++
		}
		x.entries[i] = int32(p & (1<<30 - 1))
	}
	x.offs = append(x.offs, int32(len(pairs)))
	x.hashes, x.offs, x.decl, x.dw = slices.Clip(x.hashes), slices.Clip(x.offs), slices.Clip(x.decl), slices.Clip(x.dw)
	return x
}

// of returns the units that hold h, how many of them (the first ones)
// declare it, and how many declare or write it.
func (x *mentionIndex) of(h uint32) (units []int32, decl, dw int) {
	i, found := slices.BinarySearch(x.hashes, h)
	if !found {
		return nil, 0, 0
	}
	return x.entries[x.offs[i]:x.offs[i+1]], int(x.decl[i]), int(x.dw[i])
}

// An indexView is a list of units seen through an index of an earlier
// list: the units both hold, and the others. Most of the two lists is
// shared at their ends (a derivation replaces a few units, and the units
// only checked again are matched by root): those are kept as lengths, and
// only the stretch between is mapped unit by unit, so that a view costs
// about nothing beyond comparing the ends.
type indexView struct {
	ix    *mentionIndex
	units []*unit
	// units[:pre] are ix.units[:pre], and the last suf units of each
	// list are the same; midTo maps each unit of units[pre:len(units)-suf]
	// to its unit of the index, or -1, and midFrom each unit of
	// ix.units[pre:len(ix.units)-suf] to its unit of the list, or -1.
	pre, suf       int
	midTo, midFrom []int32
	others         []int       // the units of the list the index does not hold
	othersIx       othersCache // an index of the others (othersIndex)
}

// view matches units with the index's, by their roots when byRoot is set
// (a query base's index holds roots, and so does a derivation's).
func (x *mentionIndex) view(units []*unit, byRoot bool) *indexView {
	v := &indexView{ix: x, units: units}
	v.pre, v.suf, v.midTo = alignEnds(units, x.units, byRoot)
	v.midFrom = make([]int32, len(x.units)-v.suf-v.pre)
	for k := range v.midFrom {
		v.midFrom[k] = -1
	}
	for j, k := range v.midTo {
		if k >= 0 {
			v.midFrom[int(k)-v.pre] = int32(v.pre + j)
		} else {
			v.others = append(v.others, v.pre+j)
		}
	}
	return v
}

// to returns the index's unit of unit i of the list, or -1.
func (v *indexView) to(i int) int32 {
	switch n := len(v.units); {
	case i < v.pre:
		return int32(i)
	case i >= n-v.suf:
		return int32(i - n + len(v.ix.units))
	}
	return v.midTo[i-v.pre]
}

// from returns the list's unit of unit k of the index, or -1.
func (v *indexView) from(k int32) int32 {
	switch nB := len(v.ix.units); {
	case int(k) < v.pre:
		return k
	case int(k) >= nB-v.suf:
		return k - int32(nB) + int32(len(v.units))
	}
	return v.midFrom[int(k)-v.pre]
}

// mentionsCache is a query base's index, built by the first partial
// analysis that needs it.
type mentionsCache struct {
	mentionsOnce sync.Once
	mentionsIx   *mentionIndex
}

// mentions returns the index of the base's units.
func (b *queryBase) mentions() *mentionIndex {
	b.mentionsOnce.Do(func() { b.mentionsIx = indexMentions(b.units) })
	return b.mentionsIx
}

// maxOthers is how many of a derived state's units may be other than its
// index's before the index is built again for its own: a view visits
// them all on each spread.
func maxOthers(n int) int { return 32 + n/32 }

// mentionsView returns a view of the state's units through the index its
// previous state carried, or through a new index of the previous state's
// units, which the state then carries. An index is only ever built of a
// finished state's units: the new units of a derivation learn their keys
// as it goes (setKeys). It holds their roots, and units are matched by
// root: a unit only checked again (unit.origin) holds the names its root
// does, and while typing, such units are spread over the document (the
// ones an edit's names reach), so that matching them by pointer would
// leave little of the lists shared at their ends.
func (s *diagState) mentionsView(prev *diagState) *indexView {
	if x := prev.mentionIx; x != nil {
		if v := x.view(s.units, true); len(v.others) <= maxOthers(len(s.units)) {
			s.mentionIx = x
			return v
		}
	}
	s.mentionIx = indexMentions(roots(prev.units))
	return s.mentionIx.view(s.units, true)
}

// othersCache indexes a view's other units, made by the first reach that
// needs it.
type othersCache struct {
	once sync.Once
	ix   *mentionIndex
}

// othersIndex returns the index of the view's other units, in the order of
// v.others.
func (v *indexView) othersIndex() *mentionIndex {
	v.othersIx.once.Do(func() {
		us := make([]*unit, len(v.others))
		for k, i := range v.others {
			us[k] = v.units[i]
		}
		v.othersIx.ix = indexMentions(us)
	})
	return v.othersIx.ix
}
