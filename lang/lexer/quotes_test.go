package lexer

import (
	"slices"
	"strings"
	"testing"

	"wfl-lsp/lang/token"
)

func TestOpenQuotes(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // the text from the open quote to its line's end, or ""
	}{
		{"typed above strings", "store a as \"x\"\ndisplay \"hel\nstore b as \"y\"\ndisplay b with \"!\"\n", `"hel`},
		{"after a string over lines", "store t as \"a\nb\"\ndisplay \"hel\nstore c as \"z\"\n", `"hel`},
		{"string over lines", "store t as \"a\nb\"\ndisplay t\n", ""},
		{"last quote of the text", "store x as 1\ndisplay \"hel", `"hel`},
		{"no quote below", "display \"hel\nstore x as 1\n", `"hel`},
		{"no quote", "display 1\n", ""},
		{"quote in a comment", "# \"\ndisplay \"a\"\n", ""},
		{"quote in a comment, one open", "// say \"hi\ndisplay \"a\nstore b as \"c\"\n", `"a`},
		{"escaped quote", "display \"a\\\"b\nstore b as \"c\"\n", `"a\"b`},
		{"all closed on their lines", "display \"a\"\ndisplay \"b\"\n", ""},
		{"a comment read inside out takes a quote", "store v as \"2.0\nstore u as \"https://x.com\"\ndisplay u\n", `"2.0`},
		{"strings over lines, all paired", "store a as \"x\ny\"\nstore b as \"p\nq\"\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := OpenQuotes(tt.src)
			var text string
			if len(got) == 1 {
				text = tt.src[got[0]:lineEnd(tt.src, got[0])]
			} else if len(got) > 1 {
				t.Fatalf("OpenQuotes = %v, want at most one", got)
			}
			if text != tt.want {
				t.Errorf("OpenQuotes(%q) opens %q, want %q", tt.src, text, tt.want)
			}
		})
	}
}

// TestLexCut: the open quote's string ends at its line's end and the
// lines below lex as they would with the quote closed.
func TestLexCut(t *testing.T) {
	open := "store a as \"x\"\ndisplay \"hel\nstore b as \"y\"\ndisplay b with \"!\"\n"
	closed := strings.Replace(open, `"hel`, `"hel"`, 1)
	cut := LexCut(open, OpenQuotes(open), nil)
	want := Lex(closed)
	if len(cut.Dropped) != 0 {
		t.Errorf("dropped %v", cut.Dropped)
	}
	if len(cut.Tokens) != len(want.Tokens) {
		t.Fatalf("LexCut: %d tokens, want %d (%v)", len(cut.Tokens), len(want.Tokens), cut.Tokens)
	}
	at := strings.Index(open, `"hel`)
	for i, tok := range cut.Tokens {
		w := want.Tokens[i]
		shift := 0
		if w.Start > at+4 {
			shift = 1
		}
		if tok.Kind != w.Kind || tok.Text != w.Text || tok.Start != w.Start-shift {
			t.Errorf("token %d: %v at %d, want %v at %d", i, tok, tok.Start, w, w.Start-shift)
		}
	}
	if s := cut.Tokens[searchStart(cut.Tokens, at)]; s.Text != "hel" || open[s.Start:s.End] != `"hel` {
		t.Errorf("the open string is %v %q", s, open[s.Start:s.End])
	}
	// Without cuts LexCut is Lex.
	if a, b := LexCut(open, nil, nil), Lex(open); !slices.Equal(a.Tokens, b.Tokens) {
		t.Errorf("LexCut without cuts differs from Lex")
	}
}

func searchStart(toks []token.Token, at int) int {
	i, _ := slices.BinarySearchFunc(toks, at, func(t token.Token, at int) int { return t.Start - at })
	return i
}
