package lexer

import (
	"strings"
	"testing"

	"wfl-lsp/lang/token"
)

// FuzzLex checks that tokens, comments and dropped spans are in order, do not
// overlap, lie inside the source, and that identifier text is made of the
// words the token covers.
func FuzzLex(f *testing.F) {
	for _, s := range []string{"", "store first name as \"Al\"\n", "x * y # c\r\nz", "\"a\\q\" 1.5 99999999999999999999", "héllo _x divided by 2", "display \"unterminated"} {
		f.Add(s)
	}
	f.Add("store a as \"x\"\ndisplay \"hel\nstore b as \"y\"\n")
	f.Fuzz(func(t *testing.T, src string) {
		checkLexed(t, src, Lex(src))
		// The open quote's recovery: one quote at most, the tokens as
		// well formed.
		cuts := OpenQuotes(src)
		if len(cuts) > 1 || len(cuts) == 1 && (cuts[0] < 0 || cuts[0] >= len(src) || src[cuts[0]] != '"') {
			t.Fatalf("OpenQuotes = %v", cuts)
		}
		if len(cuts) == 1 {
			closed := CloseQuote(src, cuts[0])
			if len(closed) != len(src) {
				t.Fatalf("CloseQuote changed the length")
			}
			checkLexed(t, closed, Lex(closed))
		}
	})
}

func checkLexed(t *testing.T, src string, r *Result) {
	{
		prev := 0
		for _, tok := range r.Tokens {
			if tok.Start < prev || tok.End <= tok.Start || tok.End > len(src) {
				t.Fatalf("token %v at [%d,%d) out of order or outside the source (prev end %d)", tok, tok.Start, tok.End, prev)
			}
			prev = tok.End
			if tok.Kind == token.Identifier {
				for _, w := range strings.Split(tok.Text, " ") {
					if w == "" || !strings.Contains(src[tok.Start:tok.End], strings.TrimRight(w, "_")) {
						t.Fatalf("identifier %q is not made of the words of %q", tok.Text, src[tok.Start:tok.End])
					}
				}
			}
			if tok.Kind == token.Illegal || tok.Kind == token.EOF {
				t.Fatalf("lexer produced %v", tok.Kind)
			}
		}
		for _, set := range [][]token.Span{r.Comments, r.Dropped} {
			last := 0
			for _, s := range set {
				if s.Start < last || s.End < s.Start || s.End > len(src) {
					t.Fatalf("span %v out of order or outside the source", s)
				}
				last = s.End
			}
		}
	}
}
