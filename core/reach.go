package core

// This file finds what a check of some units needs, through the names the
// units hold (mentions.go). It does not close the set under every shared
// name: in a program whose statements all call one action, or whose
// actions have locals of the same names, that closure is every statement,
// and every edit would need a full analysis.
//
// What the checker finds about a unit depends on the other units only
// through names: the declarations of the names it mentions (defined or
// not, before use or not, their kinds, arities, constness, the types they
// declare or infer), the writes of those names before it (the type
// checker is flow-sensitive: `change`, `add`, `remove`, `clear`, `push`
// and tests against nothing give a name its type from there on), and, for
// the unused-variable rule, which counts reads by name over the whole file
// and reports the last declaration of each name, every other unit that
// names what it declares. So a unit's context is the units that declare
// or write the names it mentions, and their contexts in turn. An edit
// changes the findings of:
//
//   - the new units, and every unit that names what the new or the
//     replaced units declare or write, and so on through what those
//     declare or write: their symbols or types may differ (prop);
//   - the units that declare a name the new or replaced units name, for the
//     unused-variable rule (extra): their symbols do not change, so nothing
//     else does through them. Their check needs a unit that names what
//     they declare, as a reader (the rule counts reads by name): every
//     such unit when they are few, else two of them, and the finding of
//     the rule must then say that the name is read (the recheck verifies
//     it); and the units whose findings only need a new place (see
//     connected).
//
// A unit that only writes a name without changing its type (writes says
// which do) is, for the others, a unit that names it: the type the name has
// after it is the one it had before.
//
// The checked text holds those units and their contexts, closed (context):
// a unit checked without the declarations of what it names could change a
// name's type where the full analysis does not; only the findings of prop
// and extra units are taken. A query needs just
// its units and their contexts. The recheck verifies what this assumes:
// the units that are not prop declare what they did, with the same
// symbols (unitsig.go), and no name a prop unit declares anew is named
// outside them; else the full analysis answers. TestIncrementalEqualsFull
// and TestQueryEqualsFull compare the results with full analyses, and
// TestReachMatchesScan the index's reach with one that visits every unit.

import (
	"slices"
)

// How a unit is taken, from least to most.
const (
	roleContext uint8 = iota + 1 // with its context; findings dropped
	roleExtra                    // with its context; findings taken
	roleProp                     // findings taken; what it declares or writes reaches the units that name it
)

// A reach is a set of units being taken, each with its role, found through
// the units that hold a name (holders).
type reach struct {
	units []*unit
	// holders calls f with every unit that holds h as how says:
	// indexView.holders, or scanHolders.
	holders func(h uint32, how int, f func(i int))
	role    []uint8 // by unit; 0: not taken
	set     []int   // the units taken, in the order taken
	limit   int     // the most units the set may hold
	over    bool    // the set grew past limit

	keys  map[uint32]bool // names whose every holder is prop
	order []uint32        // keys, in the order made
	seen  map[uint32]bool // names whose declarers and writers are context
	work  []int           // units with context whose names are still to follow

	// sample says whether an extra unit takes only witnesses of the
	// readers of what it declares when they are many; sampled are the
	// units and names that did.
	sample  bool
	sampled []sample

	holderLists map[uint32][]int // named's, by name
}

// A sample is an extra unit and a name it declares, read in the checked
// text only by some of the units that name it (reach.readers).
type sample struct {
	unit int
	name uint32
}

// witnesses is how many of a declared name's readers an extra unit takes
// when it has more.
const witnesses = 2

// newReach returns an empty reach over the units of v, through its index,
// that may take limit units.
func newReach(v *indexView, limit int) *reach {
	return reachOver(v.units, v.holders, limit)
}

// reachOver returns an empty reach over units, through holders, that may
// take limit units.
func reachOver(units []*unit, holders func(h uint32, how int, f func(i int)), limit int) *reach {
	return &reach{units: units, holders: holders, role: make([]uint8, len(units)), limit: limit, keys: map[uint32]bool{}, seen: map[uint32]bool{}}
}

// scanHolders is indexView.holders by visiting every unit of units.
func scanHolders(units []*unit) func(h uint32, how int, f func(i int)) {
	return func(h uint32, how int, f func(i int)) {
		for i, u := range units {
			list := u.hashes
			switch how {
			case holdWrite:
				list = u.writes()
			case holdDefine:
				list = append(u.keys(), u.writes()...)
			}
			if slices.Contains(list, h) {
				f(i)
			}
		}
	}
}

// raise takes unit i with role, or raises it to role; what a role brings
// in (keys, readers, context) is followed now or by close.
func (r *reach) raise(i int, role uint8) {
	if r.over {
		return // the set is given up: nothing more is worth taking
	}
	was := r.role[i]
	if role <= was {
		return
	}
	if was == 0 {
		r.set = append(r.set, i)
		r.over = r.over || len(r.set) > r.limit
	}
	r.role[i] = role
	u := r.units[i]
	if was < roleContext && role >= roleContext {
		r.work = append(r.work, i)
	}
	if role == roleProp {
		for _, h := range u.keys() {
			r.key(h)
		}
		for _, h := range u.writes() {
			r.key(h)
		}
	}
	if role == roleExtra {
		for _, h := range u.writes() {
			r.readers(i, h)
		}
	}
}

// readers takes, for the unused-variable rule, the units that name h,
// which unit i declares: all of them, or when they are more than
// witnesses and r samples, the first that many after i (names are read
// after their declaration), noting the sample.
func (r *reach) readers(i int, h uint32) {
	if r.over {
		return
	}
	all := r.named(h)
	free := func(k int) bool { return k != i && r.role[k] == 0 }
	// The first holders not yet taken after i, in turn, one more than
	// witnesses when there are: a name every unit declares would
	// otherwise list them all again for each (2,000 stores of one name
	// made every keystroke quadratic).
	after, _ := slices.BinarySearch(all, i+1)
	var first []int
	for n := 0; n < len(all) && len(first) <= witnesses; n++ {
		if k := all[(after+n)%len(all)]; free(k) {
			first = append(first, k)
		}
	}
	if r.sample && len(first) > witnesses {
		r.sampled = append(r.sampled, sample{i, h})
		for _, k := range first[:witnesses] {
			r.raise(k, roleContext)
		}
		return
	}
	if len(first) <= witnesses {
		slices.Sort(first)
		for _, k := range first {
			r.raise(k, roleContext)
		}
		return
	}
	var out []int
	for _, k := range all {
		if free(k) {
			out = append(out, k)
		}
	}
	for _, k := range out {
		r.raise(k, roleContext)
	}
}

// named returns the units that hold h, sorted, each once: read once a
// name for the reach.
func (r *reach) named(h uint32) []int {
	if all, ok := r.holderLists[h]; ok {
		return all
	}
	var all []int
	r.holders(h, holdAny, func(k int) { all = append(all, k) })
	slices.Sort(all)
	all = slices.Compact(all)
	if r.holderLists == nil {
		r.holderLists = map[uint32][]int{}
	}
	r.holderLists[h] = all
	return all
}

// key makes every holder of h prop.
func (r *reach) key(h uint32) {
	if !r.keys[h] {
		r.keys[h] = true
		r.order = append(r.order, h)
	}
}

// close follows the keys and the contexts until nothing is left, and
// reports whether the set is within its limit.
func (r *reach) close() bool {
	for next := 0; !r.over && (next < len(r.order) || len(r.work) > 0); {
		if next < len(r.order) {
			h := r.order[next]
			next++
			r.holders(h, holdAny, func(k int) { r.raise(k, roleProp) })
			continue
		}
		i := r.work[len(r.work)-1]
		r.work = r.work[:len(r.work)-1]
		for _, h := range r.units[i].hashes {
			if r.seen[h] {
				continue
			}
			r.seen[h] = true
			r.holders(h, holdDefine, func(k int) { r.raise(k, roleContext) })
		}
	}
	return !r.over
}

// taken reports whether unit i's findings are taken.
func (r *reach) taken(i int) bool { return r.role[i] >= roleExtra }

// How a unit holds a name, for holders.
const (
	holdWrite  = iota // writes it (unit.writes)
	holdDefine        // declares or writes it
	holdAny           // declares, writes or names it
)

// holders calls f with every unit of the view's list that holds h as how
// says.
func (v *indexView) holders(h uint32, how int, f func(i int)) {
	pick := func(x *mentionIndex, unitOf func(int32) int) {
		units, decl, dw := x.of(h)
		switch how {
		case holdWrite:
			units = units[decl:dw]
		case holdDefine:
			units = units[:dw]
		}
		for _, k := range units {
			if i := unitOf(k); i >= 0 {
				f(i)
			}
		}
	}
	pick(v.ix, func(k int32) int { return int(v.from(k)) })
	if len(v.others) > 0 {
		pick(v.othersIndex(), func(k int32) int { return v.others[k] })
	}
}
