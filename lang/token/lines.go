// Package token defines the vocabulary shared by the WFL front end: byte-offset
// positions, spans and the line table that turns an offset into a line and a
// column. Token kinds live here too once the lexer defines them.
//
// Start with [Lines]: everything inside lang/ and core/ is a byte offset into
// one document's text, and Lines is the only place that knows about lines.
package token

import (
	"slices"
	"sort"
	"strings"
	"sync"
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

	// cols indexes the columns of the long lines, made by the first
	// conversion on one (see columns).
	colsOnce sync.Once
	cols     *columns
}

// NewLines scans text once and records where each line starts. The table
// is made the size of the text's "\n" lines at once: an open document
// keeps it, and grown by appending it kept up to twice that.
func NewLines(text string) *Lines {
	starts := appendStarts(make([]int32, 1, 1+strings.Count(text, "\n")), text, 0, len(text))
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
	chars, _ := l.Column(ln, offset)
	return ln + 1, chars + 1
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
	return l.ColumnOffset(line-1, col-1, false)
}

// Column returns the 0-based column of offset on the 0-based line, counted
// in Unicode characters and in UTF-16 code units (a character above U+FFFF
// is two; a byte that is not UTF-8 is one character of one unit). offset
// must lie on the line (an offset past its end counts to its end) at the
// start of a character. On a long line the count starts from the nearest
// mark of the line's column index before offset, not from the line's
// start, so converting n offsets of one line costs O(n), not O(n²).
func (l *Lines) Column(line, offset int) (chars, utf16 int) {
	offset = min(max(offset, l.LineStart(line)), l.LineEnd(line))
	m := l.markBefore(line, offset)
	c, u := count(l.text[m.off:offset])
	return int(m.chars) + c, int(m.utf16) + u
}

// markBefore returns the last mark of the line's column index at or
// before offset, a mark at the line's start for a line that is not long.
// offset lies on the line.
func (l *Lines) markBefore(line, offset int) colMark {
	start, end := l.LineStart(line), l.LineEnd(line)
	if end-start <= colStride {
		return colMark{off: int32(start)}
	}
	m := l.columns().marksOf(line)
	k := min((offset-start)/colStride, len(m)-1)
	if int(m[k].off) > offset {
		k--
	}
	return m[k]
}

// ColumnOffset is the inverse of Column: the byte offset on the 0-based
// line of the 0-based column col, counted in characters or (utf16) in
// UTF-16 code units. A column past the end of the line is its end (ok is
// then false); a column inside a character (between the two units of a
// surrogate pair) is the character's start.
func (l *Lines) ColumnOffset(line, col int, utf16 bool) (offset int, ok bool) {
	start, end := l.LineStart(line), l.LineEnd(line)
	at, n := start, 0
	if end-start > colStride {
		m := l.columns().marksOf(line)
		// The last mark at or before col.
		k := sort.Search(len(m), func(i int) bool {
			if utf16 {
				return int(m[i].utf16) > col
			}
			return int(m[i].chars) > col
		}) - 1
		at, n = int(m[k].off), int(m[k].chars)
		if utf16 {
			n = int(m[k].utf16)
		}
	}
	for at < end {
		c := l.text[at]
		w, size := 1, 1
		if c >= utf8.RuneSelf {
			var r rune
			r, size = utf8.DecodeRuneInString(l.text[at:end])
			if utf16 && r >= 0x10000 {
				w = 2
			}
		}
		if n+w > col {
			return at, true
		}
		n += w
		at += size
	}
	return end, n == col
}

// count returns the number of characters and of UTF-16 code units of s.
func count(s string) (chars, utf16 int) {
	for i := 0; i < len(s); {
		chars++
		utf16++
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x10000 {
			utf16++
		}
		i += size
	}
	return chars, utf16
}

// colStride is the distance in bytes between the marks of a long line's
// column index; a line longer than that is long.
const colStride = 256

// columns is the column index of a text's long lines: on each, a mark
// every colStride bytes, where its column is known.
type columns struct {
	lines []int32   // the long lines, in order
	first []int32   // index in marks of each long line's first mark, and len(marks)
	marks []colMark // the long lines' marks, line after line
}

// A colMark is the first character boundary of a line at or after k
// times colStride bytes from its start, with its column (mark 0 is the
// line's start, column 0). The boundaries are those of decoding the line
// from its start, as Column counts.
type colMark struct {
	off          int32 // the byte offset
	chars, utf16 int32 // its column in characters and in UTF-16 code units
}

// columns returns the column index of the text, made on first use, in
// one pass over the long lines.
func (l *Lines) columns() *columns {
	l.colsOnce.Do(func() {
		c := &columns{}
		for ln := range l.starts {
			start, end := l.LineStart(ln), l.LineEnd(ln)
			if end-start <= colStride {
				continue
			}
			c.lines = append(c.lines, int32(ln))
			c.first = append(c.first, int32(len(c.marks)))
			var chars, utf16 int32
			next := start
			for at := start; at < end; {
				if at >= next {
					c.marks = append(c.marks, colMark{int32(at), chars, utf16})
					next += colStride
				}
				chars++
				utf16++
				if l.text[at] < utf8.RuneSelf {
					at++
					continue
				}
				r, size := utf8.DecodeRuneInString(l.text[at:end])
				if r >= 0x10000 {
					utf16++
				}
				at += size
			}
		}
		c.first = append(c.first, int32(len(c.marks)))
		l.cols = c
	})
	return l.cols
}

// marksOf returns the marks of a long line.
func (c *columns) marksOf(line int) []colMark {
	i, _ := slices.BinarySearch(c.lines, int32(line))
	return c.marks[c.first[i]:c.first[i+1]]
}
