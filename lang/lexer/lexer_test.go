package lexer

import (
	"strings"
	"testing"

	"wfl-lsp/lang/token"
)

func TestLex(t *testing.T) {
	tests := []struct {
		src  string
		want string
	}{
		{`store first name as "Al"`, `KeywordStore Identifier("first name") KeywordAs StringLiteral("Al")`},
		{"x * y", `Identifier("x y")`},
		{"x < 5", `Identifier("x") IntLiteral(5)`},
		{"_private", `KeywordPrivate`},
		{"a\tb   c", `Identifier("a b c")`},
		{"Yes TRUE no", `BooleanLiteral(true) BooleanLiteral(true) BooleanLiteral(false)`},
		{"Display Nothing nothing", `Identifier("Display Nothing") NothingLiteral`},
		{"a divided by b divided  by c", `Identifier("a") KeywordDividedBy Identifier("b") KeywordDivided KeywordBy Identifier("c")`},
		{"display x # note\n// c\r\ny", `KeywordDisplay Identifier("x") Eol Eol Identifier("y")`},
		{`"a\nb" "bad \x" 3.5 5.`, `StringLiteral("a\nb") FloatLiteral(3.5) IntLiteral(5) Dot`},
		{"content_type list2 x _y", `Identifier("content_type list2 x_ y")`},
		{"99999999999999999999 1", `IntLiteral(1)`},
		{"\"multi\nline\" x", `StringLiteral("multi\nline") Identifier("x")`},
		{"héllo", `Identifier("h llo")`},
	}
	for _, tt := range tests {
		r := Lex(tt.src)
		var parts []string
		for _, tok := range r.Tokens {
			parts = append(parts, tok.String())
		}
		if got := strings.Join(parts, " "); got != tt.want {
			t.Errorf("Lex(%q) = %s\nwant %s", tt.src, got, tt.want)
		}
		for _, tok := range r.Tokens {
			if tok.Start < 0 || tok.End > len(tt.src) || tok.Start >= tok.End {
				t.Errorf("Lex(%q): bad span %v for %v", tt.src, tok.Span(), tok)
			}
		}
	}
}

func TestLexComments(t *testing.T) {
	src := "display 1 // one\n# two\nx"
	r := Lex(src)
	if len(r.Comments) != 2 || src[r.Comments[0].Start:r.Comments[0].End] != "// one" || src[r.Comments[1].Start:r.Comments[1].End] != "# two" {
		t.Errorf("comments = %v", r.Comments)
	}
	if r.Tokens[len(r.Tokens)-1].Kind != token.Identifier {
		t.Errorf("last token %v", r.Tokens[len(r.Tokens)-1])
	}
}

// TestLexDropped checks the spans of what the lexer drops: a run of
// unknown characters side by side is one span, and past MaxDroppedOnLine
// spans on a line the unknown characters apart from the last span by
// blanks only join it, while those apart by a token stay apart. Each line
// counts its own.
func TestLexDropped(t *testing.T) {
	blanksApart := strings.Repeat("@ ", 3*MaxDroppedOnLine)
	tokensApart := strings.Repeat("@ x ", 3*MaxDroppedOnLine)
	tests := []struct {
		src  string
		want int // spans
		last string
	}{
		{"display 1 @@@ 2\n", 1, "@@@"},
		{"display 1 @ @\n", 2, "@"},
		{"display \"a\" ** 3 \"\n", 2, "\""},
		{blanksApart + "\n", MaxDroppedOnLine, strings.TrimSpace(strings.Repeat("@ ", 2*MaxDroppedOnLine+1))},
		{blanksApart + "\n" + blanksApart + "\n", 2 * MaxDroppedOnLine, strings.TrimSpace(strings.Repeat("@ ", 2*MaxDroppedOnLine+1))},
		{tokensApart + "\n", 3 * MaxDroppedOnLine, "@"},
	}
	for _, tt := range tests {
		r := Lex(tt.src)
		if len(r.Dropped) != tt.want {
			t.Errorf("%.40q: %d spans, want %d", tt.src, len(r.Dropped), tt.want)
			continue
		}
		last := r.Dropped[len(r.Dropped)-1]
		if got := tt.src[last.Start:last.End]; got != tt.last {
			t.Errorf("%.40q: the last span holds %q, want %q", tt.src, got, tt.last)
		}
	}
}
