package core

// This file implements the recheck of connected statements (step 3 of
// incremental.go): the units an edit reaches and those they need, found
// through name hashes (reach.go), checked again on a text of their own.

import (
	"slices"
	"strings"

	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// connected returns the units to check again, found through v, a view of
// the state's units (mentions.go), and how each is taken (reach.go): the
// new ones [lo, hi), which replaced units that declared or wrote gone and
// named goneNames, and what they reach; with linesMoved, also the units
// after offset from whose messages name a line; with bytesMoved, also the
// units with a finding that points at a place outside them (see
// relatedOut); found lists the units with findings, where those are. Those
// last two only need their findings made again: they are taken like the
// writers of what the edit names, as are the units of also (the ones
// naming random_seed, when the file's first security call came or its
// last went). With sample, an extra unit takes only witnesses of the
// readers of what it declares when they are many (reach.readers). It
// returns nil when that is most of the file (a full analysis is cheaper).
func (s *diagState) connected(v *indexView, found []int32, also []int, lo, hi int, gone, goneNames []uint32, linesMoved, bytesMoved bool, from int, sample bool) ([]int, *reach) {
	r := newReach(v, len(s.units)/2+8)
	r.sample = sample
	for _, i := range also {
		r.raise(i, roleExtra)
	}
	if !s.reachEdit(r, found, lo, hi, gone, goneNames, linesMoved, bytesMoved, from) || !s.secureContext(r) {
		return nil, nil
	}
	slices.Sort(r.set)
	return r.set, r
}

// secureContext takes into r, with its context, a unit that calls a
// security builtin when r takes the findings of a unit that names
// random_seed and holds no such unit: the static pass finds the file's
// random_seed calls insecure when the text it checks has such a call. It
// reports whether r is still within its limit.
func (s *diagState) secureContext(r *reach) bool {
	if s.seeds == 0 || s.secure == 0 {
		return true
	}
	seed := false
	for _, i := range r.set {
		f := s.units[i].facts()
		if f.secure {
			return true
		}
		seed = seed || f.seed && r.taken(i)
	}
	if !seed {
		return true
	}
	for i, u := range s.units {
		if u.facts().secure {
			r.raise(i, roleContext)
			break
		}
	}
	return !r.over
}

// reachEdit takes into r what connected does, and reports whether that is
// within r's limit. found holds, in order, at least the units outside
// [lo, hi) with findings (withFindings).
func (s *diagState) reachEdit(r *reach, found []int32, lo, hi int, gone, goneNames []uint32, linesMoved, bytesMoved bool, from int) bool {
	for _, h := range gone {
		r.key(h)
	}
	for i := lo; i < hi; i++ {
		r.raise(i, roleProp)
	}
	// The writers of what the old and the new units name: the
	// unused-variable rule counts those reads.
	for _, h := range goneNames {
		r.holders(h, holdWrite, func(k int) { r.raise(k, roleExtra) })
	}
	for i := lo; i < hi; i++ {
		for _, h := range s.units[i].names() {
			r.holders(h, holdWrite, func(k int) { r.raise(k, roleExtra) })
		}
	}
	// Only units with findings can have a message naming a line or a
	// place outside them.
	for _, j := range found {
		i := int(j)
		if i >= lo && i < hi {
			continue
		}
		// (A redefinition before the edit may name a line after it: the
		// first definition of a name an action hoisted from below.)
		if linesMoved && (i < lo || i >= hi && s.starts[i] >= from) && s.units[i].lineRefs() ||
			bytesMoved && s.units[i].relatedOut(s.end(i)-s.starts[i]) {
			r.raise(i, roleExtra)
		}
	}
	return r.close()
}

// relatedOut reports whether a finding of the unit, whose text is size
// bytes long, points at a place outside it (an unused variable's reads
// that WFL does not count, in another statement): its findings are kept
// relative to its start, so the place is wrong once an edit between them
// changes the text's length.
func (u *unit) relatedOut(size int) bool {
	return u.d != nil && u.d.relFrom <= u.d.relTo && (u.d.relFrom < 0 || u.d.relTo > size)
}

// mentions reports whether u names or declares a name that is in a set.
func mentions(u *unit, in func(uint32) bool) bool {
	for _, h := range u.hashes {
		if in(h) {
			return true
		}
	}
	return false
}

// What a recheck found.
type recheckResult uint8

const (
	recheckDone    recheckResult = iota // the findings are stored
	recheckFailed                       // the result cannot be trusted to equal a full analysis's
	recheckUnread                       // a sampled name was read by no witness: take every reader
	recheckRetyped                      // a unit retypes names not followed: reach again, from them too
)

// recheck checks the units of set again, on a text made of their texts, and
// stores the findings of those r takes them of: in ds for the new units
// (from index wlo), in copies of the others. When it returns recheckUnread
// or recheckRetyped, it has changed nothing but ds; with recheckRetyped, it
// returns the names the next reach must take every holder of.
func (s *diagState) recheck(set []int, r *reach, ctx *check.Context, wlo int, ds []findings) (recheckResult, []uint32) {
	// The text starts with a line break, so that no unit starts at 0: the
	// checker places what has no place (a predeclared name's declaration,
	// a finding about no node) at 0, and so must the mapping back.
	var b strings.Builder
	b.WriteByte('\n')
	segs := make([]int, len(set)) // start of each unit's text in b
	want := 0
	for k, i := range set {
		segs[k] = b.Len()
		b.WriteString(s.text[s.starts[i]:s.end(i)])
		want += int(s.units[i].stmts)
	}
	src := b.String()
	real := func(off int) int {
		if off < segs[0] {
			return 0
		}
		k := unitAt(segs, off)
		return off - segs[k] + s.starts[set[k]]
	}
	f, pus, _ := parser.Units(src)
	stmts := 0
	for _, pu := range pus {
		if pu.Stmt != nil {
			stmts++
		}
	}
	if stmts != want {
		return recheckFailed, nil
	}
	// Each unit must read as it does in the text: a block's body the
	// layout ends, or a unit that reads ahead, may read otherwise before
	// another unit (what its names are says so).
	var names, writes []uint32
	for k, j := 0, 0; k < len(set); k++ {
		names, writes = names[:0], writes[:0]
		segEnd := len(src)
		if k+1 < len(segs) {
			segEnd = segs[k+1]
		}
		end := -1
		for ; j < len(pus) && pus[j].Start < segEnd; j++ {
			if pus[j].Stmt != nil {
				names, writes = appendNames(names, writes, pus[j].Stmt)
				end = pus[j].Stmt.End() - segs[k]
			}
		}
		if u := s.units[set[k]]; end >= 0 && int32(end) != u.end {
			return recheckFailed, nil // it reads otherwise before another unit
		}
		if u := s.units[set[k]]; !slices.Equal(sortedSet(names), sortedSet(slices.Clone(u.names()))) {
			return recheckFailed, nil
		}
	}
	// toUnit maps a span of src to the real text, relative to unit i.
	toUnit := func(sp token.Span, i int) token.Span {
		by := real(sp.Start) - sp.Start - s.starts[i]
		return token.Span{Start: sp.Start + by, End: sp.End + by}
	}
	withLines := *ctx // the shared context is never modified
	withLines.Line = func(off int) int { return s.lines.Line(real(off)) + 1 }
	info, passes := check.CheckPasses(f, src, &withLines)

	out := make(map[int]*findings, len(set))
	for _, i := range set {
		if !r.taken(i) {
			continue
		}
		f := new(findings)
		if i >= wlo && i < wlo+len(ds) {
			f = &ds[i-wlo]
		} else {
			*f = s.units[i].d.unpack()
		}
		f.analyzer, f.static, f.typ, f.retold = nil, nil, nil, nil
		out[i] = f
	}
	put := func(diags []diag.Diagnostic, field func(*findings) *[]diag.Diagnostic) bool {
		for _, d := range diags {
			if d.Span.Start < segs[0] && (s.starts[set[0]] != 0 || !r.taken(set[0])) {
				return false // a finding without a place belongs to the first unit, not checked here
			}
			i := set[unitAt(segs, d.Span.Start)]
			if !r.taken(i) {
				continue
			}
			d.Span = toUnit(d.Span, i)
			if len(d.Related) > 0 {
				rel := make([]diag.Related, len(d.Related))
				for k, r := range d.Related {
					r.Span = toUnit(r.Span, i)
					rel[k] = r
				}
				d.Related = rel
			}
			f := field(out[i])
			*f = append(*f, d)
		}
		return true
	}
	if !put(passes.Analyzer, func(f *findings) *[]diag.Diagnostic { return &f.analyzer }) ||
		!put(passes.Static, func(f *findings) *[]diag.Diagnostic { return &f.static }) ||
		!put(passes.Type, func(f *findings) *[]diag.Diagnostic { return &f.typ }) ||
		!put(passes.Retold, func(f *findings) *[]diag.Diagnostic { return &f.retold }) {
		return recheckFailed, nil
	}
	// A sampled name must be read: else readers not taken may be the
	// only ones whose reads the unused-variable rule counts.
	for _, x := range r.sampled {
		for _, d := range out[x.unit].static {
			if d.Kind == diag.Unused && nameHash(unusedName(d)) == x.name {
				return recheckUnread, nil
			}
		}
	}
	// The names the units retype. A unit taken for its context must
	// retype only what it did. A unit whose findings are taken may retype
	// more (a new unit, or one checked with new types), but only names
	// whose every holder was checked again: else the next reach takes
	// them.
	retyped := map[int][]uint32{}
	var failed bool
	var more []uint32
	info.Retyped(func(pos int, name string) {
		i, h := set[unitAt(segs, pos)], nameHash(name)
		if slices.Contains(s.units[i].writes(), h) {
			return
		}
		retyped[i] = append(retyped[i], h)
		switch {
		case !r.taken(i):
			failed = true
		case !r.keys[h]:
			more = append(more, h)
		}
	})
	switch {
	case failed:
		return recheckFailed, nil
	case len(more) > 0:
		return recheckRetyped, more
	}
	keys := make(map[int][]uint32, len(set))
	declaredNames(info, func(pos int, h uint32) {
		i := set[unitAt(segs, pos)] // every declaration is in a unit
		keys[i] = append(keys[i], h)
	})
	sigs := symbolSigs(info, len(set), func(pos int) (int, int) {
		if pos < segs[0] {
			return -1, 0
		}
		k := unitAt(segs, pos)
		return k, pos - segs[k]
	})
	// The names the units declare now and did not must reach no unit
	// outside the prop ones; the others must declare what they did, the
	// same symbols: they were taken for not changing.
	fresh := map[uint32]bool{}
	for k, i := range set {
		ks := sortedSet(keys[i])
		if role := r.role[i]; role < roleProp {
			old := s.units[i]
			if role >= roleContext && (!slices.Equal(ks, old.keys()) || old.sig != 0 && sigs[k] != old.sig) {
				return recheckFailed, nil
			}
			if role < roleExtra {
				continue // its findings are not taken: it stays as it was
			}
		}
		for _, h := range ks {
			if _, found := slices.BinarySearch(s.units[i].keys(), h); !found {
				fresh[h] = true
			}
		}
		if i < wlo || i >= wlo+len(ds) {
			// A unit of an earlier version: a new one with the new findings.
			old := s.units[i]
			u := &unit{hashes: old.hashes, nkeys: old.nkeys, stmts: old.stmts, nwrites: old.nwrites, end: old.end, toks: old.toks, d: out[i].pack(), top: old.top}
			u.sig = sigs[k]
			if old.sig != 0 && sigs[k] == old.sig && slices.Equal(ks, old.keys()) && len(retyped[i]) == 0 {
				// It declares and retypes what it did (unitsig.go).
				u.origin = old.root()
			}
			u.setKeys(ks)
			u.retype(retyped[i])
			s.units[i] = u
		} else {
			s.units[i].setKeys(ks)
			s.units[i].retype(retyped[i])
			s.units[i].sig = sigs[k]
		}
	}
	if len(fresh) > 0 {
		for i, u := range s.units {
			if r.role[i] == roleProp {
				continue
			}
			if mentions(u, func(h uint32) bool { return fresh[h] }) {
				return recheckFailed, nil
			}
		}
	}
	return recheckDone, nil
}
