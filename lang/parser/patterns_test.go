package parser

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"wfl-lsp/lang/token"
)

// TestPatternIndex finds the closer of pattern bodies starting at every
// token of random token lists with patternIndex, the lists growing
// between lookups as a stretch's do, beside the walk the parser made
// before the index (counting the patterns created inside to the `end
// pattern` that closes the body): both must find the same closer, or none.
func TestPatternIndex(t *testing.T) {
	kinds := []token.Kind{token.KeywordCreate, token.KeywordPattern, token.KeywordEnd, token.Identifier, token.Eol}
	walk := func(toks []token.Token, from int) int {
		depth := 1
		for i := from; i < len(toks); i++ {
			next := token.EOF
			if i+1 < len(toks) {
				next = toks[i+1].Kind
			}
			switch {
			case toks[i].Kind == token.KeywordEnd && next == token.KeywordPattern:
				if depth--; depth == 0 {
					return i
				}
			case toks[i].Kind == token.KeywordCreate && next == token.KeywordPattern:
				depth++
			}
		}
		return -1
	}
	for seed := range 50 {
		rng := rand.New(rand.NewPCG(uint64(seed), 5))
		var toks []token.Token
		var x patternIndex
		found := 0
		for range 6 {
			for range rng.IntN(80) {
				toks = append(toks, token.Token{Kind: kinds[rng.IntN(len(kinds))]})
			}
			for from := range len(toks) + 1 {
				want, got := walk(toks, from), x.closer(toks, from)
				if got != want {
					t.Fatalf("seed %d, %d tokens: the body from %d is closed at %d, want %d", seed, len(toks), from, got, want)
				}
				if got >= 0 {
					found++
				}
			}
		}
		if found == 0 {
			t.Fatalf("seed %d: no body closed; the test reads nothing", seed)
		}
	}
}

// TestPatternsLeftOpen parses patterns left open, each read to the end of
// the text as the reference reads it, at the top level and inside actions
// left open one after another (whose bodies are read ahead past their
// layout ends): the reference's first error stays the first pattern's, and
// the walk of each to its closer is not counted as reading ahead (the
// index finds it, patternIndex), so 2,000 actions each holding a pattern
// stay within the bound on that work.
func TestPatternsLeftOpen(t *testing.T) {
	var top, inActions strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&top, "create pattern p%d:\n    one or more digit\n", i)
		fmt.Fprintf(&inActions, "define action called a%[1]d:\n    create pattern p%[1]d:\n        one or more digit\n    display %[1]d\n", i)
	}
	for name, src := range map[string]string{"top": top.String(), "actions": inActions.String()} {
		f, diags := Parse(src)
		if len(diags) == 0 || !strings.Contains(diags[0].Message, "'end pattern'") {
			t.Errorf("%s: diagnostics %v, want the first pattern's missing 'end pattern' first", name, diags[:min(len(diags), 3)])
		}
		if len(f.Stmts) != 2000 {
			t.Errorf("%s: %d top-level statements, want 2000, each ended by the layout", name, len(f.Stmts))
		}
		_, _, _, lx, p := unitsWindowParser(src, 0, len(src), nil, true, nil)
		if bound := WorkBound(len(lx.Tokens)); p.walked >= bound {
			t.Errorf("%s: the parse read ahead %d steps, the bound is %d", name, p.walked, bound)
		}
	}
}
