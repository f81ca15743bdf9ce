package core

// This file keeps what the tolerant diagnostics (tolerant.go) read of each
// unit's text, a few bits a unit, beside the units: a unit's text never
// changes, so its bits are found once, when the unit is made, and carried
// from state to state with it. tolerant then looks at the whole document
// at each keystroke without reading its text again.

import (
	"iter"
	"slices"
	"strings"
)

// A unitShape holds what tolerant reads of a unit's text.
type unitShape uint8

const (
	// shapeIndented: the unit starts away from the line's first column, or
	// with a word that continues a block (diagState.indented).
	shapeIndented unitShape = 1 << iota
	// shapeHeadKey: a word of its first line (outside strings and
	// comments) is a name the unit declares (broken.taint).
	shapeHeadKey
	// shapeQuoted: its text holds a quote.
	shapeQuoted
	// shapeUnended: its text does not end with a line break (the last
	// unit's may not).
	shapeUnended
	// shapeStringLines: a string of its text spans lines, or a quote is
	// left open (scanStrings); quoteFrom reads only such units.
	shapeStringLines
	// shapeClause: its text starts with a clause word (startsClause), which
	// stops a body read into it (diagState.stopsAfter).
	shapeClause
)

// describeShape returns the shape of the unit text[start:end], given the
// hashes of the names it declares (unit.keys).
func describeShape(text string, start, end int, keys []uint32) unitShape {
	var sh unitShape
	if indentedText(text[start:]) {
		sh |= shapeIndented
	}
	if startsClause(text[start:end]) {
		sh |= shapeClause
	}
	text = text[start:end]
	if len(keys) > 0 {
		head := text
		if nl := strings.IndexByte(head, '\n'); nl >= 0 {
			head = head[:nl]
		}
		if anyWord(head, func(w string) bool { return slices.Contains(keys, nameHash(w)) }) {
			sh |= shapeHeadKey
		}
	}
	if strings.IndexByte(text, '"') >= 0 {
		sh |= shapeQuoted
		if m, open := scanStrings(text); m >= 0 || open {
			sh |= shapeStringLines
		}
	}
	if !strings.HasSuffix(text, "\n") {
		sh |= shapeUnended
	}
	return sh
}

// shape returns the shape of unit i. The first unit's is found each
// time: it may hold only the blank lines before the first statement, and
// then whether it is indented is the next unit's to say.
func (s *diagState) shape(i int) unitShape {
	if i > 0 && len(s.shapes) == len(s.units) {
		return s.shapes[i]
	}
	return describeShape(s.text, s.starts[i], s.end(i), s.units[i].keys())
}

// describeShapes fills s.shapes: prev's for the units that are prev's,
// the same pointer at the same place, where s's units are prev's units
// [0, first) and, from s's unit next on, prev's from pnext; found for the
// others (the new ones, and those checked again, whose names may have
// changed). With prev nil, every unit's is found. With checked not nil,
// the units outside [first, next) that are not prev's are among checked
// (a derivation knows them: it made them), and the others are not looked
// at one by one: a keystroke of a large document copies the rest at once.
func (s *diagState) describeShapes(prev *diagState, first, pnext int, checked []int) {
	s.shapes = make([]unitShape, len(s.units))
	defer s.listShapes()
	carry := prev != nil && len(prev.shapes) == len(prev.units)
	next := len(s.units)
	if carry {
		next -= len(prev.units) - pnext
	}
	describe := func(i int) unitShape { return describeShape(s.text, s.starts[i], s.end(i), s.units[i].keys()) }
	if carry && checked != nil {
		copy(s.shapes[:first], prev.shapes[:first])
		copy(s.shapes[next:], prev.shapes[pnext:])
		for i := first; i < next; i++ {
			s.shapes[i] = describe(i)
		}
		for _, i := range checked {
			if i < first || i >= next {
				s.shapes[i] = describe(i)
			}
		}
		return
	}
	for i, u := range s.units {
		k := -1 // the same unit's index in prev
		switch {
		case !carry:
		case i < first:
			k = i
		case i >= next:
			k = i - next + pnext
		}
		if k >= 0 && prev.units[k] == u {
			s.shapes[i] = prev.shapes[k]
		} else {
			s.shapes[i] = describe(i)
		}
	}
}

// listShapes sets s.quoted and s.indents from s.shapes.
func (s *diagState) listShapes() {
	s.quoted, s.indents = nil, nil
	for i, sh := range s.shapes {
		if i == 0 {
			continue // (shape finds the first unit's each time)
		}
		if sh&(shapeStringLines|shapeUnended) != 0 {
			s.quoted = append(s.quoted, int32(i))
		}
		if sh&shapeIndented != 0 {
			s.indents = append(s.indents, int32(i))
		}
	}
}

// quoteUnits returns, in order, the first unit (whose shape is found each
// time) and those whose strings span lines or leave a quote open, or that
// do not end with a line break (shapeStringLines, shapeUnended).
func (s *diagState) quoteUnits() iter.Seq[int] {
	return func(yield func(int) bool) {
		if len(s.units) == 0 || !yield(0) {
			return
		}
		for _, i := range s.quoted {
			if !yield(int(i)) {
				return
			}
		}
	}
}

// mayOpenQuote reports whether a quote of the text may be left open
// (lexer.OpenQuotes tells): a unit's string spans lines or finds no end,
// or a unit that holds a quote does not end with a line break.
func (s *diagState) mayOpenQuote() bool {
	for i := range s.quoteUnits() {
		sh := s.shape(i)
		if sh&shapeStringLines != 0 || sh&(shapeUnended|shapeQuoted) == shapeUnended|shapeQuoted {
			return true
		}
	}
	return false
}

// quoteFrom returns multilineString(s.text), reading only the units whose
// strings span lines or leave a quote open (shapeStringLines): the lexer pairs a unit's quotes within its text, which
// ends with a line break, unless one is left open (then, and from a unit
// that does not end with a line break, the rest of the text is read as
// multilineString reads it).
func (s *diagState) quoteFrom() int {
	for i := range s.quoteUnits() {
		sh := s.shape(i)
		if sh&(shapeStringLines|shapeUnended) == 0 {
			continue // no quote, or strings closed on their lines
		}
		at := s.starts[i]
		if sh&shapeUnended == 0 {
			m, open := scanStrings(s.text[at:s.end(i)])
			if !open {
				if m >= 0 {
					return at + m
				}
				continue
			}
		}
		if m := multilineString(s.text[at:]); m >= 0 {
			return at + m
		}
		return -1
	}
	return -1
}
