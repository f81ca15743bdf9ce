package lsp

import (
	"math/rand/v2"
	"strings"
	"testing"
	uni16 "unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"wfl-lsp/lang/token"
)

func pos(line, char uint32) protocol.Position { return protocol.Position{Line: line, Character: char} }

func TestMapperPosition(t *testing.T) {
	// "é" is 2 bytes and 1 UTF-16 unit; "𐐀" is 4 bytes and 2 units.
	const text = "aé𐐀b\r\nx\ry\n\nlast"
	tests := []struct {
		offset int
		u16    protocol.Position
		u8     protocol.Position
	}{
		{0, pos(0, 0), pos(0, 0)},
		{1, pos(0, 1), pos(0, 1)},  // é
		{2, pos(0, 1), pos(0, 1)},  // inside é: start of é
		{3, pos(0, 2), pos(0, 3)},  // 𐐀
		{5, pos(0, 2), pos(0, 3)},  // inside 𐐀
		{7, pos(0, 4), pos(0, 7)},  // b
		{8, pos(0, 5), pos(0, 8)},  // \r of \r\n: end of line 0
		{9, pos(0, 5), pos(0, 8)},  // between \r and \n: end of line 0
		{10, pos(1, 0), pos(1, 0)}, // x
		{11, pos(1, 1), pos(1, 1)}, // lone \r
		{12, pos(2, 0), pos(2, 0)}, // y
		{14, pos(3, 0), pos(3, 0)}, // empty line
		{15, pos(4, 0), pos(4, 0)}, // last
		{19, pos(4, 4), pos(4, 4)}, // end of text, no final newline
		{99, pos(4, 4), pos(4, 4)}, // past the end
		{-3, pos(0, 0), pos(0, 0)},
	}
	lines := token.NewLines(text)
	for _, tt := range tests {
		if got := newMapper(lines, utf16).position(tt.offset); got != tt.u16 {
			t.Errorf("utf-16 position(%d) = %v, want %v", tt.offset, got, tt.u16)
		}
		if got := newMapper(lines, utf8enc).position(tt.offset); got != tt.u8 {
			t.Errorf("utf-8 position(%d) = %v, want %v", tt.offset, got, tt.u8)
		}
	}
}

func TestMapperOffset(t *testing.T) {
	const text = "aé𐐀b\r\nx\ry\n\nlast"
	tests := []struct {
		enc  encoding
		p    protocol.Position
		want int
	}{
		{utf16, pos(0, 0), 0},
		{utf16, pos(0, 2), 3},
		{utf16, pos(0, 3), 3}, // inside the surrogate pair: start of 𐐀
		{utf16, pos(0, 4), 7},
		{utf16, pos(0, 5), 8},
		{utf16, pos(0, 6), 8},   // past the end of the line: its end, before \r\n
		{utf16, pos(0, 999), 8}, // far past
		{utf16, pos(1, 1), 11},
		{utf16, pos(1, 5), 11}, // lone \r line
		{utf16, pos(3, 0), 14},
		{utf16, pos(3, 7), 14},
		{utf16, pos(4, 4), 19},
		{utf16, pos(4, 9), 19},
		{utf16, pos(5, 0), 19}, // line past the end: end of text
		{utf16, pos(99, 3), 19},
		{utf8enc, pos(0, 3), 3},
		{utf8enc, pos(0, 2), 1}, // inside é: start of é
		{utf8enc, pos(0, 5), 3}, // inside 𐐀
		{utf8enc, pos(0, 7), 7},
		{utf8enc, pos(0, 9), 8},
		{utf8enc, pos(1, 1), 11},
		{utf8enc, pos(4, 9), 19},
	}
	lines := token.NewLines(text)
	for _, tt := range tests {
		if got := newMapper(lines, tt.enc).offset(tt.p); got != tt.want {
			t.Errorf("%v offset(%v) = %d, want %d", tt.enc.kind(), tt.p, got, tt.want)
		}
	}
}

// TestMapperRoundTrip checks offset(position(o)) == o for every character
// boundary that is not inside a line break, in both encodings, on texts with
// every kind of line break, invalid UTF-8 and no final newline.
func TestMapperRoundTrip(t *testing.T) {
	texts := []string{
		"",
		"x",
		"store naïve as \"日本語\"\r\ndisplay 😀 with 𝄞\n",
		"\r\r\n\n\r",
		"bad \xff byte\nand \xe2\x82 cut",
		strings.Repeat("ab😀\r\n", 10) + "tail",
	}
	for _, text := range texts {
		lines := token.NewLines(text)
		for _, enc := range []encoding{utf16, utf8enc} {
			m := newMapper(lines, enc)
			for o := 0; o <= len(text); o++ {
				if o < len(text) && !utf8.RuneStart(text[o]) && utf8.FullRuneInString(text[o-1:]) {
					continue
				}
				if o > 0 && text[o-1] == '\r' && o < len(text) && text[o] == '\n' {
					continue // between \r and \n
				}
				if got := m.offset(m.position(o)); got != o && !insideInvalid(text, o) {
					t.Errorf("%q %v: offset(position(%d)=%v) = %d", text, enc.kind(), o, m.position(o), got)
				}
			}
		}
	}
}

// insideInvalid reports whether o points into a truncated UTF-8 sequence,
// which the mapper treats as one character starting at its first byte.
func insideInvalid(text string, o int) bool {
	return o > 0 && o < len(text) && !utf8.RuneStart(text[o])
}

func TestMapperSpan(t *testing.T) {
	lines := token.NewLines("one\ntwo\n")
	m := newMapper(lines, utf16)
	got := m.span(protocol.Range{Start: pos(1, 2), End: pos(0, 1)})
	if got != (token.Span{Start: 1, End: 6}) {
		t.Errorf("reversed range: got %v, want [1,6)", got)
	}
	r := m.rng(token.Span{Start: 4, End: 7})
	if r.Start != pos(1, 0) || r.End != pos(1, 3) {
		t.Errorf("rng = %v", r)
	}
}

func TestNegotiate(t *testing.T) {
	k := protocol.PositionEncodingKindUTF8
	if negotiate([]protocol.PositionEncodingKind{protocol.PositionEncodingKindUTF16, k}) != utf8enc {
		t.Error("utf-8 offered second: want utf-8")
	}
	if negotiate([]protocol.PositionEncodingKind{protocol.PositionEncodingKindUTF32}) != utf16 {
		t.Error("utf-32 only: want utf-16")
	}
	if negotiate(nil) != utf16 {
		t.Error("nothing offered: want utf-16")
	}
}

// TestCursorEqualsPosition: the cursor answers as position for offsets in
// any order, ascending runs included, on texts with every kind of line
// break and multi-byte characters.
func TestCursorEqualsPosition(t *testing.T) {
	text := "ab\r\ncé😀\rx\n\n\r\n€€\n" +
		"0123456789abcdefghij😀klmnopqrstuvwxyz€0123456789 long ascii runs, then é\r\n" +
		strings.Repeat("x", 70) + "\xff" + strings.Repeat("y", 9) + "\nlast"
	lines := token.NewLines(text)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, enc := range []encoding{utf16, utf8enc} {
		m := newMapper(lines, enc)
		c := m.cursor()
		off := 0
		for range 20000 {
			if rng.IntN(8) == 0 { // a jump anywhere, even outside the text
				off = rng.IntN(len(text)+4) - 2
			} else { // mostly small steps forward
				off = min(len(text)+1, max(-1, off+rng.IntN(6)-1))
			}
			if got, want := c.position(off), m.position(off); got != want {
				t.Fatalf("encoding %d, offset %d: cursor %+v, position %+v", enc, off, got, want)
			}
		}
	}
}

// TestUnitsCountsCodeUnits compares units with UTF-16's count of the
// decoded runes (an invalid byte decoding to U+FFFD, one unit), on random
// strings of long ASCII runs, multi-byte characters and invalid bytes.
func TestUnitsCountsCodeUnits(t *testing.T) {
	parts := []string{"a", "0123456789abcdef", "é", "€", "😀", "\xff", "\xe2\x82", " ", "\r\n"}
	rng := rand.New(rand.NewPCG(5, 6))
	m := newMapper(token.NewLines(""), utf16)
	for range 5000 {
		var b strings.Builder
		for n := rng.IntN(12); n > 0; n-- {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		s := b.String()
		want := len(uni16.Encode([]rune(s)))
		if got := m.units(s); got != want {
			t.Fatalf("units(%q) = %d, want %d", s, got, want)
		}
	}
}

// TestMapperByteOrderMark: a mapper of a file read from the disk that
// starts with a byte order mark counts the first line's characters as an
// editor shows them, without it, both ways and in both encodings; the
// other lines are as they are.
func TestMapperByteOrderMark(t *testing.T) {
	text := "\uFEFFinclude from \"é.wfl\"\ndisplay 1\n"
	for _, enc := range []encoding{utf16, utf8enc} {
		m := newMapper(token.NewLines(text), enc)
		m.bom = true
		for _, tc := range []struct {
			offset int
			pos    protocol.Position
		}{
			{3, protocol.Position{Line: 0, Character: 0}}, // after the mark: the first character shown
			{3 + len("include"), protocol.Position{Line: 0, Character: 7}},
			{strings.Index(text, "display"), protocol.Position{Line: 1, Character: 0}},
			{strings.Index(text, "1\n"), protocol.Position{Line: 1, Character: 8}},
		} {
			if got := m.position(tc.offset); got != tc.pos {
				t.Errorf("enc %d: position(%d) = %+v, want %+v", enc, tc.offset, got, tc.pos)
			}
			if got := m.offset(tc.pos); got != tc.offset {
				t.Errorf("enc %d: offset(%+v) = %d, want %d", enc, tc.pos, got, tc.offset)
			}
		}
		if got := m.position(0); got != (protocol.Position{}) {
			t.Errorf("enc %d: the mark itself at %+v, want the line's start", enc, got)
		}
		quote := strings.Index(text, "é")
		want := uint32(strings.Index(text, "é") - 3) // in bytes after the mark
		if enc == utf16 {
			want = uint32(len([]rune(text[3:quote])))
		}
		if got := m.position(quote + len("é")); got.Character != want+uint32(m.units("é")) {
			t.Errorf("enc %d: after é at %+v", enc, got)
		}
	}
}
