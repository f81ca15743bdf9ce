package core

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/lang/diag"
)

// TestOpenQuoteAddsNothingBelow types a line with a quote not closed yet
// (`display "hel`) into the corpus programs: the quote pairs with the next
// one of the text, which is lexed otherwise from there, and the editor
// shows no finding below it that the program did not have, but the parse
// errors (the reference's), while the text does not parse. (One that
// parses so, a string over several lines, is shown as check shows it.) Before, the lint of the misread tokens
// ("keyword 'Container' should be lower-case" on a word of a string) and
// characters dropped from it came and went below the line being typed.
func TestOpenQuoteAddsNothingBelow(t *testing.T) {
	t.Parallel()
	progs := corpusOrSkip(t, 10)
	const uri = URI("file:///nowhere/quote.wfl")
	typed, parses := 0, 0
	for k, path := range slices.Sorted(maps.Keys(progs)) {
		text := progs[path]
		starts := []int{0}
		for i := range len(text) {
			if text[i] == '\n' && i+1 < len(text) {
				starts = append(starts, i+1)
			}
		}
		rng := rand.New(rand.NewPCG(uint64(k), 31))
		at := starts[rng.IntN(len(starts))]
		indent := text[at : at+len(text[at:])-len(strings.TrimLeft(text[at:], " \t"))]
		ins := indent + "display \"hel\n"
		next := text[:at] + ins + text[at:]
		if multilineString(next) < 0 {
			continue // the quote found no other: the lexer drops it alone
		}
		typed++
		_, before := NewSnapshot(uri, 1, text).Tolerant()
		had := map[string]bool{}
		for _, d := range before {
			had[shiftedKey(d, 0)] = true
		}
		_, after := NewSnapshot(uri, 2, next).Tolerant()
		if !slices.ContainsFunc(after, func(d diag.Diagnostic) bool { return d.Category == diag.Parse && d.Severity == diag.Error }) {
			parses++ // read as the reference reads it: a string over several lines
			continue
		}
		for _, d := range after {
			if d.Span.Start < at+len(ins) || d.Category == diag.Parse && d.Code != "PARSE-DROPPED-CHAR" {
				continue
			}
			if !had[shiftedKey(d, -len(ins))] {
				t.Errorf("%s: %q typed at line %d: below it, %s at %d: %s (not the program's)",
					path, ins, strings.Count(text[:at], "\n")+1, d.Code, d.Span.Start, d.Message)
			}
		}
	}
	t.Logf("%d programs with an open quote typed (%d of them parse so, a string over several lines, and show what check shows)", typed, parses)
	if typed == 0 {
		t.Error("no quote typed")
	}
}

func shiftedKey(d diag.Diagnostic, shift int) string {
	return fmt.Sprintf("%d %s %s", d.Span.Start+shift, d.Code, d.Message)
}
