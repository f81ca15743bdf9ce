package navigation

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/core/internal/coretest"
	"wfl-lsp/core/internal/featuretest"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/token"
)

// TestHoverEveryWord hovers every token of the corpus programs that is not
// punctuation, a text or a number (keywords, names, `yes`, `no`,
// `nothing`) and wants a non-empty hover on each: a user who points at a
// word of WFL learns what it is. Texts and numbers have none (TestHover).
func TestHoverEveryWord(t *testing.T) {
	progs := coretest.OrSkip(t, 1<<30) // the programs, no mutant
	words, hovered := 0, 0
	missing := map[string]int{}
	var where []string
	for _, path := range slices.Sorted(maps.Keys(progs)) {
		src := progs[path]
		a := featuretest.AnalysisOf(t, src)
		for _, tk := range lexer.Lex(src).Tokens {
			switch {
			case tk.Kind.IsKeyword(), tk.Kind == token.Identifier, tk.Kind == token.BooleanLiteral, tk.Kind == token.NothingLiteral:
			default:
				continue
			}
			words++
			if h := Hover(a, tk.Start); h != nil && (h.Doc != "" || len(h.Signature) > 0) {
				hovered++
				continue
			}
			w := src[tk.Start:tk.End]
			if len(w) > 30 {
				w = w[:30] + "…"
			}
			if missing[w]++; missing[w] == 1 && len(where) < 40 {
				l, c := a.Lines.OffsetPosition(tk.Start)
				where = append(where, fmt.Sprintf("%s:%d:%d: %q (%v)", filepath.Base(path), l+1, c+1, w, tk.Kind))
			}
		}
	}
	t.Logf("%d words of the corpus, %d with a hover, %d distinct words without", words, hovered, len(missing))
	for _, w := range where {
		t.Error("no hover: " + w)
	}
}

// TestHoverWords checks what the hover says on words that name nothing
// the program declares.
func TestHoverWords(t *testing.T) {
	const src = `store n as 5
display yes
store v as nothing
check if n is missing or n is undefined:
    display length of "abc"
end check
store started as current time in milliseconds
define action called show with parameters value as text:
    display value
end action
listen on port 8081 as s
display n plus 2
`
	a := featuretest.AnalysisOf(t, src)
	for _, tt := range []struct{ at, want string }{
		{"yes", "Boolean"},
		{"nothing", "Nothing"},
		{"missing", "Nothing"},
		{"undefined", "Nothing"},
		{"of \"abc\"", "ACTION of"},
		{"current time", "current time"},
		{"text:", "type Text"},
		{"as s\n", "server s"},
		{"plus", "A plus B"},
	} {
		i := strings.Index(src, tt.at)
		if strings.HasPrefix(tt.at, "as ") {
			i += 3
		}
		h := Hover(a, i)
		if h == nil {
			t.Errorf("hover on %q: none", tt.at)
			continue
		}
		if got := strings.Join(h.Signature, "\n") + "\n" + h.Doc; !strings.Contains(got, tt.want) {
			t.Errorf("hover on %q: %q, want %q in it", tt.at, got, tt.want)
		}
	}
}
