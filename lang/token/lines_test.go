package token

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
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
