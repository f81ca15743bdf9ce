package lexer

// This file finds the quote a user left open, for the recovery of an
// editor's tree (OpenQuotes), and closes it on its line (CloseQuote).
//
// The reference lexer pairs each quote with the next one, across lines: a
// string may span lines. A quote left open while a line is being typed
// therefore pairs with the next line's opening quote, and every string
// below it is read inside out: code as text, text as code. The verdict
// stays that reading's (the reference's); the tree an editor answers from
// reads the open quote's string to the end of its line, and the rest as it
// was meant.

import (
	"strings"
	"unicode/utf8"
)

// maxTries bounds the strings spanning lines that OpenQuotes tries as the
// open one: those before the open quote are strings spanning lines on
// purpose, rare in programs.
const maxTries = 16

// OpenQuotes returns the offset of the quote that was left open in src, as
// a one-element list, or nil when none is. A quote is left open when
// reading one string to the end of its line instead of to the next quote
// reads less of the text otherwise than meant: fewer strings that span
// lines and quotes without a partner, then fewer lines inside such
// strings. Of the strings that span lines, the first few are tried, in
// order, and then the quote without a partner, if any; of equals, the
// later is taken (the strings before it span lines on purpose). Where
// every quote finds a partner (a comment in the text read inside out may
// have taken one), only a reading in which no string spans lines is taken:
// a string over several lines is read as the reference reads it.
func OpenQuotes(src string) []int {
	all := scanQuotes(src, 0, -1)
	if all.dangling < 0 && len(all.spanning) == 0 {
		return nil
	}
	paired := all.dangling < 0
	best, bestScore := -1, all.score()
	try := func(at int, before quoteScore) {
		s := scanQuotes(src, at, at).score()
		s.strings += before.strings
		s.breaks += before.breaks
		if s.less(bestScore) || best >= 0 && s == bestScore {
			best, bestScore = at, s
		}
	}
	var before quoteScore // the strings before the one tried
	for k, sp := range all.spanning {
		if k == maxTries || bestScore == (quoteScore{}) {
			break // (nothing reads less otherwise than no string over lines)
		}
		try(sp.at, before)
		before.strings++
		before.breaks += sp.breaks
	}
	if at := all.dangling; at >= 0 {
		all.dangling = -1
		try(at, all.score())
	}
	if best < 0 || paired && bestScore.strings > 0 {
		return nil
	}
	return []int{best}
}

// quoteScan is what scanQuotes found.
type quoteScan struct {
	spanning []spanning // the strings that span lines
	dangling int        // the first quote dropped without a partner, or -1
}

type spanning struct{ at, breaks int } // a string's opening quote and how many line breaks it holds

// A quoteScore measures how much of a text a reading of its quotes reads
// otherwise than meant: the strings that span lines and a quote without a
// partner, then the line breaks inside those strings.
type quoteScore struct{ strings, breaks int }

func (a quoteScore) less(b quoteScore) bool {
	return a.strings < b.strings || a.strings == b.strings && a.breaks < b.breaks
}

func (q quoteScan) score() quoteScore {
	s := quoteScore{strings: len(q.spanning)}
	if q.dangling >= 0 {
		s.strings++
	}
	for _, sp := range q.spanning {
		s.breaks += sp.breaks
	}
	return s
}

// scanQuotes pairs the quotes of src[from:] as the lexer does, skipping
// comments and escapes, the quote at cut (if any) ending its string at its
// line's end.
func scanQuotes(src string, from, cut int) quoteScan {
	q := quoteScan{dangling: -1}
	i := from
	for i < len(src) {
		switch c := src[i]; {
		case c == '#' || c == '/' && i+1 < len(src) && src[i+1] == '/':
			i = lineEnd(src, i)
		case c == '"' && i == cut:
			i = lineEnd(src, i)
		case c == '"':
			end, ok, breaks := stringEnd(src, i)
			switch {
			case !ok:
				if end >= len(src) && q.dangling < 0 {
					q.dangling = i
				}
				i++
			default:
				if breaks > 0 {
					q.spanning = append(q.spanning, spanning{i, breaks})
				}
				i = end
			}
		default:
			i++
		}
	}
	return q
}

// Partner returns the offset of the quote that closes the string of the
// quote at at as the lexer pairs them (maybe on a later line), or -1 when
// none does and the lexer drops the quote alone.
func Partner(src string, at int) int {
	end, ok, _ := stringEnd(src, at)
	if !ok {
		return -1
	}
	return end - 1
}

// stringEnd returns the offset after the string whose quote is at i, as
// str reads it, whether there is one (else the lexer drops the quote
// alone: end is len(src) when no quote closes it, short of it when a
// backslash ends a line), and how many line breaks it holds.
func stringEnd(src string, i int) (end int, ok bool, breaks int) {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '"':
			return j + 1, true, breaks
		case '\n':
			breaks++
		case '\\':
			if j+1 >= len(src) || src[j+1] == '\n' {
				return j, false, breaks
			}
			j++
		}
	}
	return len(src), false, breaks
}

// lineEnd returns the offset of the line break that ends i's line, or
// len(src).
func lineEnd(src string, i int) int {
	for i < len(src) && src[i] != '\n' && src[i] != '\r' {
		i++
	}
	return i
}

// CloseQuote returns src with the string of the open quote at offset at
// (OpenQuotes finds it) closed on its line, at the same length, so that
// every offset and line of src is one of the text returned: the last
// character of the line is replaced by a quote (one of several bytes by
// blanks and a quote, so that the string still ends where a character of
// src ends, and positions in it convert to src's columns), and the
// backslashes before it, which would escape it, by blanks; on a line that
// ends at the quote, the blank before the quote is replaced by a quote (an
// empty string), or, where none is, the quote by a blank. The string loses
// its last character; the lines below lex as they were meant.
func CloseQuote(src string, at int) string {
	end := lineEnd(src, at)
	if end == at+1 {
		// Nothing typed after the quote: an empty string, one byte
		// before it where a blank is, else none.
		if at > 0 && (src[at-1] == ' ' || src[at-1] == '\t') {
			return replaced(src, at-1, at, "\"")
		}
		return replaced(src, at, at+1, " ")
	}
	_, size := utf8.DecodeLastRuneInString(src[at+1 : end])
	q := end - size
	from := q // the backslashes before the quote, which would escape it, become blanks
	for from-1 > at && src[from-1] == '\\' {
		from--
	}
	return replaced(src, from, end, strings.Repeat(" ", end-from-1)+"\"")
}

// replaced returns src with src[from:to] replaced by with, made in one
// allocation (the text of a document: CloseQuote runs at each keystroke
// in a string left open).
func replaced(src string, from, to int, with string) string {
	var b strings.Builder
	b.Grow(len(src) - (to - from) + len(with))
	b.WriteString(src[:from])
	b.WriteString(with)
	b.WriteString(src[to:])
	return b.String()
}
