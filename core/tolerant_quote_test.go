package core

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
)

// lineRefs matches a line named in a diagnostic's message.
var lineRefs = regexp.MustCompile(`line [0-9]+`)

// TestOpenQuoteAddsNothingBelow types a line with a quote not closed yet
// (`display "hel`, then `display "a" with "hel`) into the corpus programs. The reference pairs the quote
// with the next one of the text, which it lexes otherwise from there; the
// editor reads the string to the end of its line (lexer.OpenQuotes) and
// shows below it the findings of the program, lines named in messages
// moved by the line typed, and none it did not have, but the parse errors.
// Where the line closed does not break the statement it lands in, and the
// program holds no string over lines on purpose, none of the program's
// findings below is lost either. (One that parses so, a string over
// several lines, is shown as check shows it.) Before, the lint of the
// misread tokens ("keyword 'Container' should be lower-case" on a word of
// a string) and characters dropped from it came and went below the line
// being typed, and then the findings below it were hidden.
func TestOpenQuoteAddsNothingBelow(t *testing.T) {
	t.Parallel()
	progs := corpusOrSkip(t, 10)
	const uri = URI("file:///nowhere/quote.wfl")
	typed, parses, both := 0, 0, 0
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
		_, before := NewSnapshot(uri, 1, text).Tolerant()
		had := map[string]bool{}
		for _, d := range before {
			had[shiftedKey(d, 0)] = true
		}
		for _, form := range []string{"display \"hel", "display \"a\" with \"hel"} {
			ins := indent + form + "\n"
			next := text[:at] + ins + text[at:]
			if multilineString(next) < 0 {
				continue // the quote found no other: the lexer drops it alone
			}
			typed++
			s := NewSnapshot(uri, 2, next)
			_, after := s.Tolerant()
			if !slices.ContainsFunc(after, func(d diag.Diagnostic) bool { return d.Category == diag.Parse && d.Severity == diag.Error }) {
				parses++ // read as the reference reads it: a string over several lines
				continue
			}
			// Below the line, the findings are the program's, lines named in
			// their messages moved by the line typed.
			line := strings.Count(text[:at], "\n") + 1
			seen := map[string]bool{}
			for _, d := range after {
				if d.Span.Start < at+len(ins) || d.Category == diag.Parse && d.Code != "PARSE-DROPPED-CHAR" {
					continue
				}
				d.Message = linesBefore(d.Message, line)
				key := shiftedKey(d, -len(ins))
				seen[key] = true
				if !had[key] {
					t.Errorf("%s: %q typed at line %d: below it, %s at %d: %s (not the program's)",
						path, ins, line, d.Code, d.Span.Start, d.Message)
				}
			}
			// Nothing of the program's is lost below the line, where the line
			// closed does not break the statement it lands in, the program
			// holds no string over lines, and the quote is the first of its
			// line (else which quote is left open is a guess).
			closed := text[:at] + indent + form + "\"\n" + text[at:]
			if !s.closedRuns() || lexer.OpenQuotes(text) != nil || multilineString(text) >= 0 || parseErrors(closed) > parseErrors(text) {
				continue
			}
			both++
			for _, d := range before {
				if d.Span.Start >= at && (d.Category != diag.Parse || d.Code == "PARSE-DROPPED-CHAR") && !seen[shiftedKey(d, 0)] {
					t.Errorf("%s: %q typed at line %d: below it, the program's %s at %d is gone: %s",
						path, ins, line, d.Code, d.Span.Start, d.Message)
				}
			}
		}
	}
	t.Logf("%d lines with an open quote typed (%d of them parse so, a string over several lines, and show what check shows); in %d, every finding of the program below the line is kept", typed, parses, both)
	if typed == 0 {
		t.Error("no quote typed")
	}
}

// TestOpenQuoteKeepsAbove types a line with a quote not closed yet into
// the corpus programs, first alone on its line (`display "hel`, the list
// of the text with the quote closed, closedList), then after a string
// of its own (`display "a" with "hel`, which the reference pairs with a
// quote below: quoteList, where which quote is open is a guess): above the
// statement that holds the line, every finding of the program stays
// shown, lines named in messages moved by the line typed, but, when it is
// a guess, for the unused variables the line names (whether it reads them
// depends on which of its quotes is open).
func TestOpenQuoteKeepsAbove(t *testing.T) {
	t.Parallel()
	progs := corpusOrSkip(t, 10)
	const uri = URI("file:///nowhere/quote.wfl")
	typed, guessed, kept := 0, 0, 0
	for k, path := range slices.Sorted(maps.Keys(progs)) {
		text := progs[path]
		base := NewSnapshot(uri, 1, text)
		_, before := base.Tolerant()
		if lexer.OpenQuotes(text) != nil || multilineString(text) >= 0 || len(before) == 0 {
			continue // (with a string over lines, the quote left open is a guess)
		}
		starts := base.diagState().starts
		rng := rand.New(rand.NewPCG(uint64(k), 37))
		at := strings.LastIndexByte(text[:rng.IntN(len(text))], '\n') + 1
		line := strings.Count(text[:at], "\n") + 1
		unit, _ := slices.BinarySearch(starts, at+1)
		from := starts[max(unit-1, 0)] // the start of the statement that holds the line
		indent := text[at : at+len(text[at:])-len(strings.TrimLeft(text[at:], " \t"))]
		for _, ins := range []string{"display \"hel\n", "display \"a\" with \"hel\n"} {
			if closed := text[:at] + indent + ins[:len(ins)-1] + "\"\n" + text[at:]; parseErrors(closed) > parseErrors(text) {
				continue // the line closed breaks the statement it lands in (a pattern's body)
			}
			s := NewSnapshot(uri, 2, text[:at]+indent+ins+text[at:])
			if cuts := s.openQuotes(); len(cuts) == 0 || cuts[0] < at || cuts[0] >= at+len(indent+ins) {
				continue
			}
			typed++
			guess := !s.closedRuns()
			if guess {
				guessed++
			}
			_, after := s.Tolerant()
			shown := map[string]bool{}
			for _, d := range after {
				d.Message = linesBefore(d.Message, line)
				shown[shiftedKey(d, 0)] = true
			}
			for _, d := range before {
				if d.Span.End > from || guess && d.Kind == diag.Unused && namesHeld(d, wordsOf(ins)) {
					continue
				}
				kept++
				if !shown[shiftedKey(d, 0)] {
					t.Errorf("%s: %q typed at line %d (a guess: %v): above it, the program's %s at %d is gone: %s",
						path, ins, line, guess, d.Code, d.Span.Start, d.Message)
				}
			}
		}
	}
	t.Logf("%d lines with an open quote typed (%d of them a guess of which quote is open); %d findings of the programs above them kept", typed, guessed, kept)
	if guessed == 0 {
		t.Error("no quote typed whose string the reference pairs with a quote below")
	}
}

// linesBefore returns msg with the lines it names after line moved back
// by one: as they were before a line was typed at line.
func linesBefore(msg string, line int) string {
	return lineRefs.ReplaceAllStringFunc(msg, func(m string) string {
		var l int
		fmt.Sscanf(m, "line %d", &l)
		if l > line {
			l--
		}
		return fmt.Sprintf("line %d", l)
	})
}

func shiftedKey(d diag.Diagnostic, shift int) string {
	return fmt.Sprintf("%d %s %s", d.Span.Start+shift, d.Code, d.Message)
}

// parseErrors counts the parse errors an editor shows for text.
func parseErrors(text string) int {
	_, ds := NewSnapshot("file:///nowhere/closed.wfl", 1, text).Tolerant()
	n := 0
	for _, d := range ds {
		if d.Category == diag.Parse && d.Severity == diag.Error {
			n++
		}
	}
	return n
}
