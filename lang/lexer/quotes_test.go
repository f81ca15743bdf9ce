package lexer

import (
	"slices"
	"strings"
	"testing"
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

// TestCloseQuote: the open quote's string is closed on its line, at the
// text's length, and the lines below lex as they would with the quote
// closed.
func TestCloseQuote(t *testing.T) {
	open := "store a as \"x\"\ndisplay \"hel\nstore b as \"y\"\ndisplay b with \"!\"\n"
	want := Lex(strings.Replace(open, `"hel`, `"he"`, 1)).Tokens
	closed := CloseQuote(open, OpenQuotes(open)[0])
	if len(closed) != len(open) {
		t.Fatalf("CloseQuote changed the length: %q", closed)
	}
	if got := Lex(closed).Tokens; !slices.Equal(got, want) {
		t.Errorf("CloseQuote(%q) lexes\n%v\nwant\n%v", open, got, want)
	}
	for _, tt := range []struct{ src, want string }{
		{"display \"\nx", "display\"\"\nx"},           // nothing typed: an empty string
		{"show(\"\nx", "show( \nx"},                   // nor a blank before it: no string
		{"display \"ab\\\nx", "display \"ab\"\nx"},    // the backslash replaced
		{"display \"a\\\\b\nx", "display \"a  \"\nx"}, // nor an escaped one
		{"display \"✓\nx", "display \"  \"\nx"},       // a character of several bytes: blanks, then the quote at its last byte
		{"display \"a b", "display \"a \""},           // the last line
	} {
		if got := CloseQuote(tt.src, strings.IndexByte(tt.src, '"')); got != tt.want {
			t.Errorf("CloseQuote(%q) = %q, want %q", tt.src, got, tt.want)
		}
	}
}
