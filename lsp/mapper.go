package lsp

// This file converts between byte offsets (the core's positions) and LSP
// positions in the negotiated encoding. It is the only place in the package
// that knows what a "character" on the wire is.

import (
	"strings"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"wfl-lsp/lang/token"
)

// An encoding is the unit LSP Position.Character counts in.
type encoding uint8

const (
	utf16   encoding = iota // the LSP default: UTF-16 code units
	utf8enc                 // bytes, when the client offers "utf-8"
)

func (e encoding) kind() protocol.PositionEncodingKind {
	if e == utf8enc {
		return protocol.PositionEncodingKindUTF8
	}
	return protocol.PositionEncodingKindUTF16
}

// negotiate picks utf-8 when the client lists it, else utf-16, which every
// client must support (Neovim 0.7 sends no list and assumes utf-16).
func negotiate(offered []protocol.PositionEncodingKind) encoding {
	for _, k := range offered {
		if k == protocol.PositionEncodingKindUTF8 {
			return utf8enc
		}
	}
	return utf16
}

// A mapper converts positions for one text.
type mapper struct {
	lines *token.Lines
	enc   encoding
	// bom says that the text starts with a byte order mark the client's
	// text does not hold: a file read from the disk, which editors show
	// without it. The characters of its first line are counted from after
	// the mark (server.mapperFor).
	bom bool
}

// byteOrderMark is the mark a text may start with (U+FEFF in UTF-8).
const byteOrderMark = "\uFEFF"

// bomUnits is how many units of the encoding the mark takes.
func (m mapper) bomUnits() int {
	if m.enc == utf8enc {
		return len(byteOrderMark)
	}
	return 1
}

func newMapper(lines *token.Lines, enc encoding) mapper { return mapper{lines: lines, enc: enc} }

// mapperFor returns the mapper of the text of the file at path: an open
// document's as its client holds it; a file read from the disk as an
// editor shows it, a leading byte order mark not counted (VS Code, Neovim
// and Emacs drop it from the text they hold, and an include on the first
// line of such a file would be edited one character off).
func (s *server) mapperFor(path string, lines *token.Lines, enc encoding) mapper {
	if path == "" || !strings.HasPrefix(lines.Text(), byteOrderMark) {
		return newMapper(lines, enc)
	}
	if _, open := s.ws.OpenSnapshot(path); open {
		return newMapper(lines, enc)
	}
	return diskMapper(lines, enc)
}

// diskMapper returns the mapper of a file's text read from the disk: a
// leading byte order mark is not counted (see mapperFor).
func diskMapper(lines *token.Lines, enc encoding) mapper {
	m := newMapper(lines, enc)
	m.bom = strings.HasPrefix(lines.Text(), byteOrderMark)
	return m
}

// units reports how many code units of the encoding s takes. An invalid
// UTF-8 byte counts as one unit, as it decodes to one U+FFFD of width 1.
func (m mapper) units(s string) int {
	if m.enc == utf8enc {
		return len(s)
	}
	n := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}

// position returns the LSP position of a byte offset. Offsets outside the
// text clamp to it; an offset inside a UTF-8 sequence moves to its start; an
// offset between "\r" and "\n" moves to the end of the line's content.
func (m mapper) position(offset int) protocol.Position {
	offset = m.clampOffset(offset)
	return m.positionOn(offset, m.lines.Line(offset))
}

// clampOffset moves offset into the text and to the start of its character.
func (m mapper) clampOffset(offset int) int {
	text := m.lines.Text()
	if offset < 0 {
		offset = 0
	}
	if offset > len(text) {
		offset = len(text)
	}
	for offset > 0 && offset < len(text) && !utf8.RuneStart(text[offset]) {
		offset--
	}
	return offset
}

// positionOn is position for a clamped offset on a known line. The line
// table counts UTF-16 units from a mark of its column index near offset,
// so the positions of many findings on one long line cost O(n), not O(n²).
func (m mapper) positionOn(offset, line int) protocol.Position {
	start, end := m.lines.LineStart(line), m.lines.LineEnd(line)
	if offset > end {
		offset = end
	}
	skip := 0
	if m.bom && line == 0 {
		offset, skip = max(offset, len(byteOrderMark)), m.bomUnits()
	}
	if m.enc == utf8enc {
		return protocol.Position{Line: uint32(line), Character: uint32(offset - start - skip)}
	}
	_, units := m.lines.Column(line, offset)
	return protocol.Position{Line: uint32(line), Character: uint32(units - skip)}
}

// A cursor converts many offsets, each near the one before (the spans of
// diagnostics in position order), without searching the line table for
// each: it remembers the last line.
type cursor struct {
	m    mapper
	line int // the last offset's line
}

func (m mapper) cursor() *cursor { return &cursor{m: m} }

func (c *cursor) position(offset int) protocol.Position {
	offset = c.m.clampOffset(offset)
	lines := c.m.lines
	if offset < lines.LineStart(c.line) {
		c.line = lines.Line(offset)
		return c.m.positionOn(offset, c.line)
	}
	// Forward a few lines at most, then search.
	for k := 0; c.line+1 < lines.Count() && offset >= lines.LineStart(c.line+1); k++ {
		if k == 8 {
			c.line = lines.Line(offset)
			break
		}
		c.line++
	}
	return c.m.positionOn(offset, c.line)
}

func (c *cursor) rng(s token.Span) protocol.Range {
	return protocol.Range{Start: c.position(s.Start), End: c.position(s.End)}
}

// offset returns the byte offset of an LSP position. As the specification
// asks, a character past the end of its line means the end of the line, and
// a line past the end of the text means the end of the text; a position in
// the middle of a UTF-16 surrogate pair moves to the start of its character.
func (m mapper) offset(p protocol.Position) int {
	text := m.lines.Text()
	line := int(p.Line)
	if line >= m.lines.Count() {
		return len(text)
	}
	start, end := m.lines.LineStart(line), m.lines.LineEnd(line)
	want := int(p.Character)
	if m.bom && line == 0 {
		want += m.bomUnits()
	}
	if m.enc == utf8enc {
		off := start + want
		if want > end-start {
			off = end
		}
		for off > start && off < end && !utf8.RuneStart(text[off]) {
			off--
		}
		return off
	}
	off, _ := m.lines.ColumnOffset(line, want, true)
	return off
}

// rng returns the LSP range of a byte span.
func (m mapper) rng(s token.Span) protocol.Range {
	return protocol.Range{Start: m.position(s.Start), End: m.position(s.End)}
}

// span returns the byte span of an LSP range, with End never before Start.
func (m mapper) span(r protocol.Range) token.Span {
	start, end := m.offset(r.Start), m.offset(r.End)
	if end < start {
		start, end = end, start
	}
	return token.Span{Start: start, End: end}
}
