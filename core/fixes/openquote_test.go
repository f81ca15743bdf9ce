package fixes

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/token"
)

// quoteDeletions returns every deletion of the closing quote of a string
// that ends its line (a quote left open, as while the string is typed) in
// text, a program whose quotes all pair on their lines.
func quoteDeletions(text string, lines *token.Lines) []deletion {
	var out []deletion
	for _, t := range lexer.Lex(text).Tokens {
		if t.Kind != token.StringLiteral {
			continue
		}
		l := lines.Line(t.Start)
		ls, le := lines.LineStart(l), lines.LineEnd(l)
		if lines.Line(t.End) != l || t.End != le || le >= len(text) || text[le] != '\n' {
			continue // over lines, not last on its line, or on the last line
		}
		q := t.End - 1
		out = append(out, deletion{
			text: text, cut: text[:q] + text[q+1:], header: t.Start, headerLine: ls, closer: q, closerLen: 1,
			blockLines: [2]int{l, l}, closerWords: text[t.Start:t.End],
			insideTo: le + 1, cutTo: le, linesGone: 0,
		})
	}
	return out
}

// TestOpenQuoteKeepsTheRest deletes, in each sampled corpus program (coretest.Programs) that parses
// (and a sample of the mutants), the closing quote of strings that end
// their lines, as while a string is typed before its closing quote. The
// reference then pairs the quote with the next line's, and reads every
// string below inside out; the editor's tree reads the string to the end
// of its line and the rest as meant:
//
//   - outside the line, hover, definition, references, the outline,
//     folding, semantic tokens and inlay hints answer as with the quote
//     (places moved by the deleted quote);
//   - no finding of the checker's passes or the linter appears outside the
//     line that the program does not have;
//   - the finding at the open quote (or, where no quote follows it, the
//     warning of the quote the lexer drops) has a preferred fix that
//     restores the program exactly.
//
// In a program that holds a string over lines on purpose, the quote left
// open is a guess: there misses are counted, not failed.
//
// go test -run OpenQuoteKeepsTheRest ./core/fixes -args -stress=1 takes
// every mutant and every string.
func TestOpenQuoteKeepsTheRest(t *testing.T) {
	t.Parallel()
	progs, perProgram := deletionSample(t, 4)
	const uri = core.URI("file:///nowhere/quote.wfl")
	var n struct{ programs, deleted, queries, restored, multi, multiMissed int }
	for k, path := range slices.Sorted(maps.Keys(progs)) {
		text := progs[path]
		s0 := core.NewSnapshot(uri, 1, text)
		a0 := s0.Analysis()
		if hasParseError(a0) || lexer.OpenQuotes(text) != nil {
			continue
		}
		ds := quoteDeletions(text, a0.Lines)
		if len(ds) == 0 {
			continue
		}
		n.programs++
		// In a program that holds a string over several lines on purpose,
		// which quote was left open is a guess (lexer.OpenQuotes): there
		// the misses are counted, not failed.
		errorf := t.Errorf
		if slices.ContainsFunc(lexer.Lex(text).Tokens, func(t token.Token) bool {
			return t.Kind == token.StringLiteral && strings.Contains(text[t.Start:t.End], "\n")
		}) {
			n.multi++
			errorf = func(string, ...any) { n.multiMissed++ }
		}
		rng := rand.New(rand.NewPCG(uint64(k), 29))
		rng.Shuffle(len(ds), func(i, j int) { ds[i], ds[j] = ds[j], ds[i] })
		_, shown0 := s0.Tolerant()
		for _, d := range ds[:min(len(ds), perProgram)] {
			n.deleted++
			where := fmt.Sprintf("%s: the closing quote of %s on line %d deleted", path, d.closerWords, d.blockLines[0]+1)
			s1, shown1 := openCut(d, uri, a0, shown0, rng, &n.queries, func(msg string) { errorf("%s: %s", where, msg) })
			fixed := false
			for _, x := range shown1 {
				// The finding of a quote left open, or, where no quote
				// follows it, of the quote the lexer drops.
				dropped := x.Code == diag.ParseDroppedChar && d.cut[x.Span.Start] == '"'
				if x.Kind != diag.OpenQuote && !dropped || x.Span.Start != d.header {
					continue
				}
				for _, f := range At(t.Context(), s1, x.Span) {
					if fixed || !f.Preferred || f.Kind != CloseQuote {
						continue
					}
					fixed = true
					switch out, err := core.ApplyEdits(d.cut, f.Edits...); {
					case err != nil:
						errorf("%s: the fix %q: %v", where, f.Title, err)
					case out == d.text:
						n.restored++
					default:
						errorf("%s: the fix %q makes\n%s\nnot\n%s", where, f.Title, out, d.text)
					}
				}
			}
			if !fixed {
				errorf("%s: no preferred fix closes the quote; shown %v", where, codesAt(d.cut, shown1))
			}
		}
	}
	t.Logf("%d programs, %d closing quotes deleted: %d queries outside the line compared; the preferred fix restored %d exactly; %d programs hold a string over lines on purpose, with %d misses there",
		n.programs, n.deleted, n.queries, n.restored, n.multi, n.multiMissed)
	if n.deleted == 0 {
		t.Error("no quote deleted")
	}
}
