package presentation

// This file answers the semantic tokens of a whole document after an edit
// from those of an earlier version (an editor asks for them again, as a
// delta, after every few keystrokes) without analysing the whole text
// again. A unit of this version that is the very unit of the earlier
// version's state (the same pointer) was neither edited since nor
// connected to an edit through a declared name (incremental.go): its text
// is the same, and so are its tokens, moved. Only the other units' tokens
// are computed, from partial analyses (query.go). TestTokensSinceEqualsFull
// compares the result with a full analysis's after random edits of the
// corpus.
//
// The tokens and inlay hints of a range (the visible lines, asked again
// after every keystroke) are built the same way from the last range's
// (RangeTokens, RangeHints): the units changed since are those the
// requests at the cursor have just analysed, so a range needs no partial
// analysis of its own. TestRangeAnswersEqualFull compares them with a
// full analysis's.

import (
	"sort"

	"wfl-lsp/core"
	"wfl-lsp/lang/token"
)

// A TokenBase is what a later version of a document needs of this one to
// answer its semantic tokens from this one's (TokensSince): its
// units, and the offset and line each starts at. It does not keep the
// snapshot.
type TokenBase struct {
	units  []*core.Unit
	starts []int
	lines  []int32 // the line of each unit's start
	end    int     // the length of the text
	nlines int     // its number of lines
}

// NewTokenBase returns the snapshot's token base.
func NewTokenBase(s *core.Snapshot) *TokenBase {
	units, starts := s.Units()
	lines := s.UnitLines()
	b := &TokenBase{units: units, starts: starts, lines: make([]int32, len(starts)), end: len(s.Text), nlines: lines.Count()}
	for i, at := range starts {
		b.lines[i] = int32(lines.Line(at))
	}
	return b
}

// A TokenStretch is a stretch of whole lines of a snapshot's text (Span)
// whose semantic tokens are either those of a stretch of the earlier
// version's text (From, the lines FromLines: the same text, the same
// tokens, moved), when Tokens is nil, or Tokens.
type TokenStretch struct {
	Span      token.Span
	From      token.Span
	FromLines [2]int // the first line of From and the line after its last
	Tokens    []SemanticToken
}

// Reused reports whether the stretch's tokens are the earlier version's.
func (t *TokenStretch) Reused() bool { return t.Tokens == nil }

// TokensSince returns the stretches, in order, that cover the snapshot's
// text, with the tokens of those that are not the earlier version's (b's);
// false when none is.
func TokensSince(s *core.Snapshot, b *TokenBase) ([]TokenStretch, bool) {
	units, starts := s.Units()
	to := core.MatchUnits(units, b.units)
	var out []TokenStretch
	reused := false
	for i := 0; i < len(to); {
		j := i
		if to[i] >= 0 {
			for j+1 < len(to) && to[j+1] == to[j]+1 {
				j++
			}
			k, l := to[i], int(to[j])+1 // b's units [k, l)
			from := token.Span{Start: b.starts[k], End: b.end}
			lines := [2]int{int(b.lines[k]), b.nlines}
			if l < len(b.units) {
				from.End, lines[1] = b.starts[l], int(b.lines[l])
			}
			out = append(out, TokenStretch{Span: token.Span{Start: starts[i], End: s.UnitEnd(j)}, From: from, FromLines: lines})
			reused = true
		} else {
			for j+1 < len(to) && to[j+1] < 0 {
				j++
			}
			span := token.Span{Start: starts[i], End: s.UnitEnd(j)}
			toks := SemanticTokens(s.Query(span), span)
			if toks == nil {
				toks = []SemanticToken{}
			}
			out = append(out, TokenStretch{Span: span, Tokens: toks})
		}
		i = j + 1
	}
	return out, reused
}

// A rangeBase is what a later version needs of a version of which a
// range's answer (its tokens, its inlay hints) was computed: its units and
// where they start, and the range.
type rangeBase struct {
	units  []*core.Unit
	starts []int
	span   token.Span
}

// sinceRange splits span into stretches of whole units (cut by span at its
// ends), in order, and calls moved for those whose units are the very
// units of the version of prev (see TokensSince) and whose text prev.span
// holds, with that text's place in prev's version (old) and how far it
// moved (by); fresh for the others. prev may be nil.
func sinceRange(s *core.Snapshot, span token.Span, prev *rangeBase, moved func(old token.Span, by int), fresh func(r token.Span)) {
	units, starts := s.Units()
	if prev == nil || len(units) == 0 || span.End <= span.Start {
		fresh(span)
		return
	}
	to := s.MatchRange(prev.units)
	first, last := core.UnitAt(starts, span.Start), core.UnitAt(starts, span.End-1)
	for i := first; i <= last; {
		j := i
		if to[i] >= 0 {
			for j+1 <= last && to[j+1] == to[j]+1 {
				j++
			}
		} else {
			for j+1 <= last && to[j+1] < 0 {
				j++
			}
		}
		r := token.Span{Start: max(span.Start, starts[i]), End: min(span.End, s.UnitEnd(j))}
		by := 0
		if to[i] >= 0 {
			by = starts[i] - prev.starts[to[i]]
		}
		if old := (token.Span{Start: r.Start - by, End: r.End - by}); to[i] >= 0 && prev.span.Start <= old.Start && old.End <= prev.span.End {
			moved(old, by)
		} else {
			fresh(r)
		}
		i = j + 1
	}
}

// RangeTokens are the semantic tokens of a stretch of a snapshot's text (a
// visible range, which an editor asks for again after each keystroke), and
// what a later version needs to answer a range from them. They do not keep
// the snapshot.
type RangeTokens struct {
	rangeBase
	toks   []SemanticToken
	reused int // how many of toks are the earlier answer's (Reused)
}

// Tokens returns the tokens, in order.
func (r *RangeTokens) Tokens() []SemanticToken { return r.toks }

// Reused returns how many of the tokens are those of the earlier answer
// they were built from, moved.
func (r *RangeTokens) Reused() int { return r.reused }

// TokensIn returns the semantic tokens of span: within the units that
// are those of prev's version (see TokensSince), prev's tokens, moved,
// where prev's span held them; the others' from partial analyses, which
// are those the requests at the cursor built when the range holds no
// more than they took. prev may be nil, or of any other version.
func TokensIn(s *core.Snapshot, span token.Span, prev *RangeTokens) *RangeTokens {
	units, starts := s.Units()
	out := &RangeTokens{rangeBase: rangeBase{units: units, starts: starts, span: span}}
	var base *rangeBase
	if prev != nil {
		base = &prev.rangeBase
	}
	sinceRange(s, span, base, func(old token.Span, by int) {
		// prev's tokens that meet old, as SemanticTokens takes them.
		k := sort.Search(len(prev.toks), func(k int) bool { return prev.toks[k].Span.End > old.Start })
		for ; k < len(prev.toks) && prev.toks[k].Span.Start < old.End; k++ {
			t := prev.toks[k]
			t.Span.Start += by
			t.Span.End += by
			out.toks = append(out.toks, t)
			out.reused++
		}
	}, func(r token.Span) {
		out.toks = append(out.toks, SemanticTokens(s.Query(r), r)...)
	})
	return out
}

// RangeHints are the inlay hints of a stretch of a snapshot's text, and
// what a later version needs to answer a range from them, as RangeTokens.
type RangeHints struct {
	rangeBase
	hints  []InlayHint
	reused int // how many of hints are the earlier answer's (Reused)
}

// Hints returns the hints, in order.
func (r *RangeHints) Hints() []InlayHint { return r.hints }

// Reused returns how many of the hints are those of the earlier answer
// they were built from, moved.
func (r *RangeHints) Reused() int { return r.reused }

// HintsIn returns the inlay hints of span ([InlayHints]), those
// of the units that are prev's version's taken from prev, as RangeTokens.
func HintsIn(s *core.Snapshot, span token.Span, prev *RangeHints) *RangeHints {
	units, starts := s.Units()
	out := &RangeHints{rangeBase: rangeBase{units: units, starts: starts, span: span}}
	var base *rangeBase
	if prev != nil {
		base = &prev.rangeBase
	}
	// InlayHints takes the hints at both ends of its span. A unit starts
	// a line, where no hint is (they follow a name, or come before a
	// value in a statement), so a stretch's end only holds one at the end
	// of span; only the last stretch keeps those.
	add := func(h InlayHint, end int) bool {
		if h.Offset == end && end < span.End {
			return false
		}
		out.hints = append(out.hints, h)
		return true
	}
	sinceRange(s, span, base, func(old token.Span, by int) {
		k := sort.Search(len(prev.hints), func(k int) bool { return prev.hints[k].Offset >= old.Start })
		for ; k < len(prev.hints) && prev.hints[k].Offset <= old.End; k++ {
			h := prev.hints[k]
			h.Offset += by
			if add(h, old.End+by) {
				out.reused++
			}
		}
	}, func(r token.Span) {
		for _, h := range InlayHints(s.Query(r), r) {
			add(h, r.End)
		}
	})
	return out
}
