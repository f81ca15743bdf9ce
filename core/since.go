package core

// This file is what the presentation features (core/presentation) read of
// the diagnostics' state to answer a later version from an earlier one's
// answers: the units of a version, which a later version holds again,
// the very same (==), where it was neither edited nor connected to an edit
// through a name (incremental.go), so that what was derived from them
// holds, moved; and the details of the outline kept by unit from version
// to version.

import (
	"math"
	"slices"
	"wfl-lsp/lang/token"
)

// A Unit is a top-level statement, or a run of them, as the diagnostics'
// state cuts the text: only its identity is for the features.
type Unit = unit

// Units returns the units of the snapshot's diagnostics' state, in order,
// and the offset each starts at; nil when the snapshot has none. The
// caller does not modify them.
func (s *Snapshot) Units() (units []*Unit, starts []int) {
	if c := s.reading(); c != s {
		return c.Units() // a quote left open (openquote.go)
	}
	st := s.diagState()
	if st == nil {
		return nil, nil
	}
	return st.units, st.starts
}

// UnitLines returns the line table of the text the snapshot's units cut.
func (s *Snapshot) UnitLines() *token.Lines { return s.reading().diagState().lines }

// UnitEnd returns where the ith of the snapshot's units ends: where the
// next one starts, or the end of the text.
func (s *Snapshot) UnitEnd(i int) int { return s.reading().diagState().end(i) }

// UnitAt returns the index of the unit of starts that holds offset.
func UnitAt(starts []int, offset int) int { return unitAt(starts, offset) }

// MatchUnits returns, for each of units, the index in old of the very
// same unit, or -1.
func MatchUnits(units, old []*Unit) []int32 { return matchUnits(units, old) }

// PartialQueries reports whether Query answers from a partial analysis:
// the full one is not made and the text is not small.
func (s *Snapshot) PartialQueries() bool {
	if c := s.reading(); c != s {
		return c.PartialQueries()
	}
	return !s.analysed.Load() && len(s.Text) >= partialMin
}

// MatchRange is MatchUnits of the snapshot's units and old, remembered
// for the last old asked: a range's tokens and its inlay hints are asked
// of a version one after the other, each from the last answers, of the
// same earlier version.
func (s *Snapshot) MatchRange(old []*Unit) []int32 {
	st := s.reading().diagState()
	m := &st.rangeMatch
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(old) == 0 || len(m.old) != len(old) || &m.old[0] != &old[0] {
		m.old, m.to = old, matchUnits(st.units, old)
	}
	return m.to
}

// OutlineTypes are the details of the top-level stores of a version's
// units (the checked types of their values, as the outline shows them):
// for each store, in source order, its unit and its detail. A document
// keeps them while it is typed into (Snapshot.OutlineTypes): a unit and
// an index a store, the few distinct details apart.
type OutlineTypes struct {
	units   []*unit
	details []uint16 // an index in names
	names   []string
	over    bool // more distinct details than a uint16 tells apart: not kept
}

// Add appends a store of unit u, whose detail is detail.
func (o *OutlineTypes) Add(u *Unit, detail string) {
	k := slices.Index(o.names, detail)
	if k < 0 {
		k = len(o.names)
		o.names = append(o.names, detail)
		o.over = o.over || k > math.MaxUint16
	}
	o.units = append(o.units, u)
	o.details = append(o.details, uint16(k))
}

// ByUnit returns the details of the stores of each unit.
func (o *OutlineTypes) ByUnit() map[*Unit][]string {
	m := make(map[*unit][]string)
	for k, u := range o.units {
		m[u] = append(m[u], o.names[o.details[k]])
	}
	return m
}

// Over reports whether o holds more distinct details than it tells apart:
// it is not kept.
func (o *OutlineTypes) Over() bool { return o.over }

// Clip returns o without room to grow.
func (o *OutlineTypes) Clip() *OutlineTypes {
	o.units, o.details, o.names = slices.Clip(o.units), slices.Clip(o.details), slices.Clip(o.names)
	return o
}

// OutlineTypes returns the details of the outline of the latest version
// whose outline was made when this one was (nil if none).
func (s *Snapshot) OutlineTypes() *OutlineTypes { return s.reading().outline.Load() }

// KeepOutlineTypes keeps o, the details of the snapshot's outline, for it
// and the versions after it.
func (s *Snapshot) KeepOutlineTypes(o *OutlineTypes) { s.reading().outline.Store(o) }

// BlockStart returns where a parse that closes the block whose header is
// on the line before offset's starts: at the top-level statement that
// holds the header, or at an earlier one whose block, its closer missing,
// read ahead past it (the parser keeps nothing from one statement to the
// next); whether the text before it raises a parse error; and the line
// table of the text. Both are found in the diagnostics' state.
func (s *Snapshot) BlockStart(offset int) (lines *token.Lines, from int, broken bool) {
	if c := s.reading(); c != s {
		return c.BlockStart(offset)
	}
	st := s.diagState()
	if offset >= 0 && offset <= len(s.Text) {
		if cur := st.lines.Line(offset); cur > 0 {
			i := unitAt(st.starts, st.lines.LineStart(cur-1))
			// A block before it whose closer is missing read ahead past
			// its start: the parse starts there.
			for _, j := range st.withFindings() {
				if int(j) < i && st.starts[j]+st.units[j].facts().ahead >= st.starts[i] {
					i = int(j)
					break
				}
			}
			from = st.starts[i]
			for _, j := range st.withFindings() {
				if int(j) >= i {
					break
				}
				if st.units[j].d.firstParse >= 0 {
					broken = true
					break
				}
			}
		}
	}
	return st.lines, from, broken
}
