package lexer

import "testing"

// TestEscapeRoundTrip: what Escape writes, the lexer reads back as the
// text escaped, and a string literal of it lexes as one string.
func TestEscapeRoundTrip(t *testing.T) {
	for _, s := range []string{"", "lib/util.wfl", `say "hi".wfl`, `back\slash`, "tab\there", "two\nlines\r\n", "nul\x00", `\"\\`, "é😀"} {
		got, ok := unescape(Escape(s))
		if !ok || got != s {
			t.Errorf("unescape(Escape(%q)) = %q, %v", s, got, ok)
		}
		toks := Lex(`"` + Escape(s) + `"`).Tokens
		if len(toks) < 1 || toks[0].End != len(Escape(s))+2 {
			t.Errorf("%q: the literal lexes as %+v", s, toks)
		}
	}
}
