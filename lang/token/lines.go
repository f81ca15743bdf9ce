// Package token defines the vocabulary shared by the WFL front end: byte-offset
// positions, spans and the line table that turns an offset into a line and a
// column. Token kinds live here too once the lexer defines them.
//
// Start with [Lines]: everything inside lang/ and core/ is a byte offset into
// one document's text, and Lines is the only place that knows about lines.
package token

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// A Span is a half-open range [Start, End) of byte offsets into one document.
type Span struct {
	Start int // offset of the first byte
	End   int // offset one past the last byte; End >= Start
}

// Len reports the number of bytes the span covers.
func (s Span) Len() int { return s.End - s.Start }

// Contains reports whether offset lies inside s, counting End as inside so a
// cursor just after a word still touches it.
func (s Span) Contains(offset int) bool { return s.Start <= offset && offset <= s.End }

// Lines is the line table of one document. Line breaks are "\n", "\r\n" and a
// lone "\r", as in the reference lexer. The zero value is not usable; build one
// with [NewLines]. A Lines is immutable and safe for concurrent use.
type Lines struct {
	text   string
	starts []int32 // byte offset of the start of each line; starts[0] == 0 (texts stay under 2 GiB)
}

// NewLines scans text once and records where each line starts.
func NewLines(text string) *Lines {
	starts := appendStarts(make([]int32, 1, 1+len(text)/32), text, 0, len(text))
	return &Lines{text: text, starts: starts}
}

// Splice returns the line table of text, a new version of l's text in
// which the bytes [from, oldEnd) of the old text became [from, newEnd):
// only the changed lines are scanned, the line starts after them are
// shifted. It equals NewLines(text).
func (l *Lines) Splice(text string, from, oldEnd, newEnd int) *Lines {
	// The last line start at or before from-1 depends only on bytes before
	// from, which did not change.
	keep := sort.Search(len(l.starts), func(i int) bool { return int(l.starts[i]) > from-1 }) - 1
	if keep < 0 {
		keep = 0
	}
	starts := make([]int32, keep+1, len(l.starts)+strings.Count(text[from:newEnd], "\n")+1)
	copy(starts, l.starts[:keep+1])
	starts = appendStarts(starts, text, int(starts[keep]), newEnd)
	// A start after oldEnd depends on the byte before it and on itself,
	// both unchanged.
	// Those kept are the ones from oldEnd+1 on that come after the last
	// start scanned: a stretch that ends the list, the starts increasing.
	delta := int32(newEnd - oldEnd)
	last := starts[len(starts)-1]
	rest := l.starts[keep+1:]
	rest = rest[sort.Search(len(rest), func(i int) bool { return int(rest[i]) >= oldEnd+1 && rest[i]+delta > last }):]
	n := len(starts)
	starts = append(starts, rest...)
	for i := n; i < len(starts); i++ {
		starts[i] += delta
	}
	return &Lines{text: text, starts: starts}
}

// appendStarts appends the starts of the lines that begin after a line
// break found in text[from:to] (a "\r" at to-1 takes its "\n" along).
func appendStarts(starts []int32, text string, from, to int) []int32 {
	if strings.IndexByte(text[from:to], '\r') < 0 {
		// Only "\n" breaks: find them with IndexByte, much faster than
		// looking at every byte.
		for i := from; ; {
			j := strings.IndexByte(text[i:to], '\n')
			if j < 0 {
				return starts
			}
			i += j + 1
			starts = append(starts, int32(i))
		}
	}
	for i := from; i < to; i++ {
		switch text[i] {
		case '\n':
			starts = append(starts, int32(i+1))
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, int32(i+1))
		}
	}
	return starts
}

// Text returns the document text the table was built from.
func (l *Lines) Text() string { return l.text }

// Count reports the number of lines. A text ending in a line break has an
// empty last line, as editors show it.
func (l *Lines) Count() int { return len(l.starts) }

// LineStart returns the byte offset where 0-based line starts, clamped to the
// text: a line past the end yields len(text).
func (l *Lines) LineStart(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(l.starts) {
		return len(l.text)
	}
	return int(l.starts[line])
}

// LineEnd returns the byte offset of the end of 0-based line's content, before
// its line break.
func (l *Lines) LineEnd(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(l.starts)-1 {
		return len(l.text)
	}
	end := int(l.starts[line+1])
	if end > 0 && l.text[end-1] == '\n' {
		end--
	}
	if end > int(l.starts[line]) && l.text[end-1] == '\r' {
		end--
	}
	return end
}

// clamp moves offset into [0, len(text)] and back to the start of the UTF-8
// sequence it points into, so conversions never split a character.
func (l *Lines) clamp(offset int) int {
	if offset < 0 {
		return 0
	}
	if offset > len(l.text) {
		return len(l.text)
	}
	for offset > 0 && offset < len(l.text) && !utf8.RuneStart(l.text[offset]) {
		offset--
	}
	return offset
}

// Line returns the 0-based line that holds offset. An offset inside a "\r\n"
// pair belongs to the line the pair ends.
func (l *Lines) Line(offset int) int {
	offset = l.clamp(offset)
	// The first line starting after offset, by bisection (sort.Search,
	// without its call a step: this runs for every position converted).
	lo, hi := 0, len(l.starts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if int(l.starts[m]) > offset {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo - 1
}

// OffsetPosition returns the 1-based line and 1-based column of offset, the
// column counted in Unicode characters: the form of CLI and MCP positions.
func (l *Lines) OffsetPosition(offset int) (line, col int) {
	offset = l.clamp(offset)
	ln := l.Line(offset)
	start := int(l.starts[ln])
	if end := l.LineEnd(ln); offset > end {
		offset = end
	}
	return ln + 1, utf8.RuneCountInString(l.text[start:offset]) + 1
}

// PositionOffset is the inverse of OffsetPosition: it returns the byte offset
// of a 1-based line and 1-based character column. Positions past the end of a
// line clamp to the line's end, lines past the end of the text to its end;
// ok is false when either was clamped.
func (l *Lines) PositionOffset(line, col int) (offset int, ok bool) {
	if line < 1 || col < 1 {
		return 0, false
	}
	if line > len(l.starts) {
		return len(l.text), false
	}
	start, end := int(l.starts[line-1]), l.LineEnd(line-1)
	offset = start
	for n := 1; n < col; n++ {
		if offset >= end {
			return end, false
		}
		_, size := utf8.DecodeRuneInString(l.text[offset:end])
		offset += size
	}
	return offset, true
}
