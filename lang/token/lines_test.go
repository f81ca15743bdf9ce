package token

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestOffsetPosition(t *testing.T) {
	// Each case names an offset and the 1-based line and character column it
	// must map to, and back.
	tests := []struct {
		name      string
		text      string
		offset    int
		line, col int
	}{
		{"start", "abc", 0, 1, 1},
		{"middle", "abc", 2, 1, 3},
		{"end without newline", "abc", 3, 1, 4},
		{"second line", "ab\ncd", 4, 2, 2},
		{"after final newline", "ab\n", 3, 2, 1},
		{"crlf", "ab\r\ncd", 4, 2, 1},
		{"lone cr", "ab\rcd", 4, 2, 2},
		{"two-byte", "é=1", 2, 1, 2},
		{"three-byte", "€x", 3, 1, 2},
		{"astral", "😀x\n😀", 4, 1, 2},
		{"astral second line", "😀x\n😀y", 10, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := NewLines(tt.text)
			line, col := l.OffsetPosition(tt.offset)
			if line != tt.line || col != tt.col {
				t.Fatalf("OffsetPosition(%d) = %d:%d, want %d:%d", tt.offset, line, col, tt.line, tt.col)
			}
			off, ok := l.PositionOffset(tt.line, tt.col)
			if !ok || off != tt.offset {
				t.Fatalf("PositionOffset(%d, %d) = %d, %v, want %d", tt.line, tt.col, off, ok, tt.offset)
			}
		})
	}
}

func TestLinesEdges(t *testing.T) {
	l := NewLines("ab\r\ncd\n")
	if l.Count() != 3 {
		t.Fatalf("Count = %d, want 3", l.Count())
	}
	if l.LineEnd(0) != 2 || l.LineEnd(1) != 6 || l.LineEnd(2) != 7 {
		t.Fatalf("LineEnd = %d %d %d", l.LineEnd(0), l.LineEnd(1), l.LineEnd(2))
	}
	// An offset inside "\r\n" or past the end clamps sensibly.
	if line, col := l.OffsetPosition(3); line != 1 || col != 3 {
		t.Fatalf("offset inside CRLF = %d:%d, want 1:3", line, col)
	}
	if line, col := l.OffsetPosition(99); line != 3 || col != 1 {
		t.Fatalf("offset past end = %d:%d, want 3:1", line, col)
	}
	// An offset inside a multi-byte character maps to that character.
	m := NewLines("é")
	if line, col := m.OffsetPosition(1); line != 1 || col != 1 {
		t.Fatalf("offset inside é = %d:%d, want 1:1", line, col)
	}
	if off, ok := l.PositionOffset(1, 9); ok || off != 2 {
		t.Fatalf("column past line end = %d, %v; want 2, false", off, ok)
	}
	if off, ok := l.PositionOffset(9, 1); ok || off != 7 {
		t.Fatalf("line past end = %d, %v; want 7, false", off, ok)
	}
}

func TestSpliceEqualsNewLines(t *testing.T) {
	pieces := []string{"", "a", "\n", "\r", "\r\n", "xy\n", "\n\r", "é\r\n"}
	rng := rand.New(rand.NewPCG(1, 2))
	word := func() string {
		var b strings.Builder
		for n := rng.IntN(6); n > 0; n-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		return b.String()
	}
	for range 20000 {
		old := word() + word() + word()
		from := rng.IntN(len(old) + 1)
		oldEnd := from + rng.IntN(len(old)-from+1)
		ins := word()
		text := old[:from] + ins + old[oldEnd:]
		got := NewLines(old).Splice(text, from, oldEnd, from+len(ins))
		want := NewLines(text)
		if !slices.Equal(got.starts, want.starts) {
			t.Fatalf("Splice(%q → %q at [%d,%d)): starts %v, want %v", old, text, from, oldEnd, got.starts, want.starts)
		}
	}
}

// TestLineStarts checks the line starts NewLines finds (on texts with and
// without "\r") against a byte-by-byte scan.
func TestLineStarts(t *testing.T) {
	pieces := []string{"", "a", "\n", "\r", "\r\n", "xy\n", "\n\r", "é\r\n", "long line of words\n"}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b strings.Builder
		crlf := rng.IntN(2) == 0
		for n := rng.IntN(12); n > 0; n-- {
			p := pieces[rng.IntN(len(pieces))]
			if !crlf {
				p = strings.ReplaceAll(p, "\r", "")
			}
			b.WriteString(p)
		}
		text := b.String()
		want := []int32{0}
		for i := 0; i < len(text); i++ {
			switch text[i] {
			case '\n':
				want = append(want, int32(i+1))
			case '\r':
				if i+1 < len(text) && text[i+1] == '\n' {
					i++
				}
				want = append(want, int32(i+1))
			}
		}
		if got := NewLines(text).starts; !slices.Equal(got, want) {
			t.Fatalf("NewLines(%q): starts %v, want %v", text, got, want)
		}
	}
}

// naiveColumn counts a line's characters and UTF-16 units up to offset
// from the line's start, as the conversions did before the column index.
func naiveColumn(l *Lines, line, offset int) (chars, utf16 int) {
	s := l.Text()[l.LineStart(line):offset]
	for _, r := range s {
		chars++
		utf16++
		if r >= 0x10000 {
			utf16++
		}
	}
	return chars, utf16
}

// TestColumnsEqualCounting compares Column and ColumnOffset with counting
// from the line's start, on lines long and short (the index marks every
// colStride bytes) of ASCII, two-, three- and four-byte characters, bytes
// that are not UTF-8, and every kind of line break.
func TestColumnsEqualCounting(t *testing.T) {
	pieces := []string{"a", "b ", "é", "€", "😀", "\xff", "\xe2\x82", "\n", "\r\n", "\r", "@@@@@@@@"}
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 60 {
		var b strings.Builder
		for n := rng.IntN(2000); n > 0; n-- {
			p := pieces[rng.IntN(len(pieces))]
			if strings.ContainsAny(p, "\r\n") && rng.IntN(8) != 0 {
				continue // long lines mostly
			}
			b.WriteString(p)
		}
		text := b.String()
		l := NewLines(text)
		for line := range l.Count() {
			start, end := l.LineStart(line), l.LineEnd(line)
			for off := start; off <= end; off++ {
				if off < end && !boundary(text[start:end], off-start) {
					continue // inside a character
				}
				gc, gu := l.Column(line, off)
				wc, wu := naiveColumn(l, line, off)
				if gc != wc || gu != wu {
					t.Fatalf("round %d line %d offset %d: Column = %d, %d; counting gives %d, %d", round, line, off, gc, gu, wc, wu)
				}
				for _, utf16 := range []bool{false, true} {
					col := wc
					if utf16 {
						col = wu
					}
					if got, ok := l.ColumnOffset(line, col, utf16); got != off || !ok {
						t.Fatalf("round %d line %d: ColumnOffset(%d, utf16 %t) = %d, %t; want %d", round, line, col, utf16, got, ok, off)
					}
				}
			}
			wc, wu := naiveColumn(l, line, end)
			if got, ok := l.ColumnOffset(line, wc+1, false); got != end || ok {
				t.Fatalf("a column past the end of line %d = %d, %t; want %d, false", line, got, ok, end)
			}
			if got, ok := l.ColumnOffset(line, wu+3, true); got != end || ok {
				t.Fatalf("a UTF-16 column past the end of line %d = %d, %t; want %d, false", line, got, ok, end)
			}
		}
	}
}

// boundary reports whether i is where decoding s from its start begins a
// character.
func boundary(s string, i int) bool {
	for at := 0; at <= i; {
		if at == i {
			return true
		}
		_, size := utf8.DecodeRuneInString(s[at:])
		at += size
	}
	return false
}

// TestColumnsLinear converts every character offset of one long line, as
// the edges convert the positions of n findings on one line, and counts
// the bytes counted: at most colStride a conversion, whatever the line's
// length, where counting from the line's start made it O(n²) (160,000
// findings on one line took 9.9 s in check).
func TestColumnsLinear(t *testing.T) {
	work := func(n int) (total, most int) {
		text := "store x as 1 " + strings.Repeat("@é", n) + "\n"
		l := NewLines(text)
		for off := 13; off < len(text)-1; off++ {
			w := off - int(l.markBefore(0, off).off)
			total, most = total+w, max(most, w)
		}
		return total, most
	}
	for _, n := range []int{1000, 4000, 16000} {
		w, _ := work(n)
		w4, most := work(4 * n)
		if w4 > 5*w {
			t.Errorf("bytes counted for %d findings: %d; for %d: %d (more than 5 times)", n, w, 4*n, w4)
		}
		if most >= colStride+utf8.UTFMax {
			t.Errorf("%d bytes counted for one conversion, more than the stride %d", most, colStride)
		}
	}
}
