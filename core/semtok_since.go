package core

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

import (
	"wfl-lsp/lang/token"
)

// A TokenBase is what a later version of a document needs of this one to
// answer its semantic tokens from this one's (Snapshot.TokensSince): its
// units, and the offset and line each starts at. It does not keep the
// snapshot.
type TokenBase struct {
	units  []*unit
	starts []int
	lines  []int32 // the line of each unit's start
	end    int     // the length of the text
	nlines int     // its number of lines
}

// TokenBase returns the snapshot's token base.
func (s *Snapshot) TokenBase() *TokenBase {
	st := s.diagState()
	b := &TokenBase{units: st.units, starts: st.starts, lines: make([]int32, len(st.starts)), end: len(st.text), nlines: st.lines.Count()}
	for i, at := range st.starts {
		b.lines[i] = int32(st.lines.Line(at))
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
func (s *Snapshot) TokensSince(b *TokenBase) ([]TokenStretch, bool) {
	st := s.diagState()
	to := matchUnits(st.units, b.units)
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
			out = append(out, TokenStretch{Span: token.Span{Start: st.starts[i], End: st.end(j)}, From: from, FromLines: lines})
			reused = true
		} else {
			for j+1 < len(to) && to[j+1] < 0 {
				j++
			}
			span := token.Span{Start: st.starts[i], End: st.end(j)}
			toks := s.Query(span).SemanticTokens(span)
			if toks == nil {
				toks = []SemanticToken{}
			}
			out = append(out, TokenStretch{Span: span, Tokens: toks})
		}
		i = j + 1
	}
	return out, reused
}
