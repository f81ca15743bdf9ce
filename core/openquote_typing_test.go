package core

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/core/internal/coretest"
	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/token"
)

// TestTypingAStringDerives types a line holding a string into the corpus
// programs as an editor user does (Enter, then the line a character at a
// time), then deletes it the same way, asking at each keystroke what an
// editor asks (the analysis at the cursor, then the list of findings).
// While the string is typed its quote is open: the reference then reads
// every string below it inside out, and the features read the text with
// the quote closed on its line (openquote.go). Every version's list and
// verdict must be a fresh snapshot's of the same text; and a keystroke of
// the string may need a full analysis of the text the features read only
// where the same keystroke with a letter for each quote does: the text
// with the quote closed derives from the last version's when the quote
// is typed, and the text with both quotes derives from the last closed
// one when the second is (from the text the reference read inside out,
// it parsed and checked the rest of the document again: 20 to 45 ms a
// keystroke at 10,000 lines).
func TestTypingAStringDerives(t *testing.T) {
	t.Parallel()
	// Every second of coretest.Programs' programs, every eighth in all
	// (all of them: 27 s).
	stride, every := 80*testcorpus.RaceStride(8), 2
	if *stress > 0 { // go test -run TypingAStringDerives ./core -args -stress=1
		stride, every = 1, 1
	}
	progs := corpusOrSkip(t, stride)
	const uri = URI("file:///nowhere/typed.wfl")
	programs, keystrokes, full, bareFull, closedShort := 0, 0, 0, 0, 0
	for k, path := range slices.Sorted(maps.Keys(progs)) {
		if k%every != 0 {
			continue
		}
		text := progs[path]
		if multilineString(text) >= 0 || lexer.OpenQuotes(text) != nil || strings.Contains(text, "include") {
			continue // strings over lines on purpose, or a quote open already: which quote is open is a guess
		}
		var starts []int
		for i := range len(text) {
			if text[i] == '\n' && i+1 < len(text) && text[i+1] != '\n' && text[i+1] != '\r' {
				starts = append(starts, i+1)
			}
		}
		if len(starts) < 8 {
			continue
		}
		rng := rand.New(rand.NewPCG(uint64(k), 5))
		at := starts[rng.IntN(len(starts))]
		indent := text[at : at+len(text[at:])-len(strings.TrimLeft(text[at:], " \t"))]
		line := indent + `display "Total so far: " with 1`
		programs++
		// The same keystrokes with a letter for each quote (bare, the
		// line is a display of names): where one of them takes a full
		// analysis (the few edits a derivation is not exact for,
		// incremental.go), the keystroke with the quote may too.
		bare := NewWorkspace()
		sb := bare.Open(uri, 1, text)
		sb.Tolerant()

		ws := NewWorkspace()
		s := ws.Open(uri, 1, text)
		s.Tolerant()
		s.Query(token.Span{Start: at, End: at})
		// Enter makes a new line at at, the line is typed on it, then
		// deleted, and the line break too.
		type keystroke struct {
			e     Edit
			typed int // the bytes of line on the new line after it
		}
		keys := []keystroke{{Edit{Start: at, End: at, Text: "\n"}, 0}}
		for i := range len(line) {
			keys = append(keys, keystroke{Edit{Start: at + i, End: at + i, Text: line[i : i+1]}, i + 1})
		}
		for i := len(line); i > 0; i-- {
			keys = append(keys, keystroke{Edit{Start: at + i - 1, End: at + i}, i - 1})
		}
		keys = append(keys, keystroke{Edit{Start: at, End: at + 1}, 0})
		prev := ""
		for _, k := range keys {
			e := k.e
			var err error
			if s, err = ws.Change(uri, s.Version+1, e); err != nil {
				t.Fatal(err)
			}
			if sb, err = bare.Change(uri, sb.Version+1, Edit{Start: e.Start, End: e.End, Text: strings.ReplaceAll(e.Text, `"`, "q")}); err != nil {
				t.Fatal(err)
			}
			next := s.Text
			keystrokes++
			cursor := token.Span{Start: e.Start + len(e.Text), End: e.Start + len(e.Text)}
			s.Ready(cursor)
			s.Query(cursor)
			typed := line[:k.typed]
			quoted := strings.Contains(typed, `"`) || strings.Contains(prev, `"`)
			prev = typed
			sb.Ready(cursor)
			sb.Query(cursor)
			if !sb.Derived() {
				bareFull++
			}
			if !s.reading().Derived() && quoted && sb.Derived() {
				full++
				t.Errorf("%s: %q typed at line %d: the text the features read took a full analysis", path, typed, lineOf(text, at))
			}
			// The quotes the text with its quote closed leaves open: as a
			// scan finds them, when the edit told them (closedAfter).
			if c := s.quote.closed.Load(); c != nil {
				if c.quote.cutsHeld {
					closedShort++
				}
				if got, want := c.openQuotes(), lexer.OpenQuotes(c.Text); !slices.Equal(got, want) {
					t.Fatalf("%s: %q typed at line %d: the closed text leaves open %v, a scan finds %v", path, typed, lineOf(text, at), got, want)
				}
			}
			_, got := s.Tolerant()
			fresh := NewSnapshot(uri, s.Version, next)
			_, want := fresh.Tolerant()
			if d := firstDiff(got, want); d != "" {
				t.Fatalf("%s: %q typed at line %d: the list differs from a fresh snapshot's: %s", path, typed, lineOf(text, at), d)
			}
			_, verdict := s.Diagnostics()
			_, wantVerdict := fresh.Diagnostics()
			if d := firstDiff(verdict, wantVerdict); d != "" {
				t.Fatalf("%s: %q typed at line %d: the verdict differs from a fresh snapshot's: %s", path, typed, lineOf(text, at), d)
			}
		}
	}
	t.Logf("%d programs, %d keystrokes: %d full analyses of the text read that the same keystrokes without quotes did not take (they took %d); %d closed texts' open quotes known without a scan", programs, keystrokes, full, bareFull, closedShort)
	if closedShort == 0 {
		t.Error("no closed text's open quotes were known without a scan (closedAfter)")
	}
	if programs == 0 {
		t.Fatal("no program typed into")
	}
}

// lineOf returns the 1-based line of offset at in text.
func lineOf(text string, at int) int { return strings.Count(text[:at], "\n") + 1 }

// TestOpenQuotesAfterEdits checks the shortcuts of openQuotes (cutsAfter:
// after an edit of neither quotes, comment marks, backslashes nor line
// breaks, the quotes open are the last version's; quotesAsBase: after an
// edit that touched only lines without a quote, the quotes pair as the
// base's did) against a scan of the text (lexer.OpenQuotes), over a
// chain of random edits of corpus programs and line breaks typed and
// deleted anywhere, each followed by the requests of a keystroke.
func TestOpenQuotesAfterEdits(t *testing.T) {
	t.Parallel()
	stride, edits := 6*testcorpus.RaceStride(4), 20
	if *stress > 0 {
		stride, edits = 1, 60
	}
	progs := corpusOrSkip(t, stride)
	const uri = URI("file:///nowhere/edited.wfl")
	shortcuts := 0
	for k, path := range slices.Sorted(maps.Keys(progs)) {
		rng := rand.New(rand.NewPCG(uint64(k), 9))
		ws := NewWorkspace()
		s := ws.Open(uri, 1, progs[path])
		s.Tolerant()
		for range edits {
			var e Edit
			switch text := s.Text; rng.IntN(3) {
			case 0: // a line broken
				at := rng.IntN(len(text) + 1)
				for at > 0 && at < len(text) && text[at]&0xC0 == 0x80 {
					at--
				}
				e = Edit{Start: at, End: at, Text: "\n"}
			case 1: // a line joined to the next
				from := rng.IntN(len(text) + 1)
				at := strings.IndexByte(text[from:], '\n')
				if at < 0 {
					continue
				}
				e = Edit{Start: from + at, End: from + at + 1}
			default:
				from, to, ins := coretest.RandomEdit(rng, text)
				e = Edit{Start: from, End: to, Text: ins}
			}
			next, err := ws.Change(uri, s.Version+1, e)
			if err != nil {
				continue // an edit that splits a character
			}
			s = next
			if s.quote.cutsHeld || s.quotesAsBase() {
				shortcuts++
			}
			if got, want := s.openQuotes(), lexer.OpenQuotes(s.Text); !slices.Equal(got, want) {
				t.Fatalf("%s: after %+v, the quotes left open are %v, a scan finds %v", path, e, got, want)
			}
			if s.openQuotes() != nil {
				s.reading()
				c := s.quote.closed.Load()
				if c.quote.cutsHeld {
					shortcuts++
				}
				if got, want := c.openQuotes(), lexer.OpenQuotes(c.Text); !slices.Equal(got, want) {
					t.Fatalf("%s: after %+v, the text with its quote closed leaves open %v, a scan finds %v", path, e, got, want)
				}
			}
			s.Tolerant()
		}
	}
	t.Logf("%d programs, %d edits answered without a scan", len(progs), shortcuts)
}

// TestOpenQuotesShortcutCases holds the edits the shortcuts of openQuotes
// must read as a scan does, and says which of them it answers without one.
func TestOpenQuotesShortcutCases(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		edit       Edit
		short      bool // answered without a scan of the text
	}{
		{"a line broken in code", "display \"a\"\nstore x as 1\n", Edit{Start: 18, End: 18, Text: "\n"}, true},
		{"a line joined in code", "display \"a\"\nstore x\nas 1\n", Edit{Start: 19, End: 20}, true},
		{"a comment typed in code", "display \"a\"\nstore x as 1\n", Edit{Start: 24, End: 24, Text: "//"}, true},
		{"a line broken in a string", "display \"ab\"\nstore x as 1\n", Edit{Start: 10, End: 10, Text: "\n"}, false},
		{"a quote typed", "display \"a\"\nstore x as 1\n", Edit{Start: 23, End: 23, Text: "\""}, false},
		// A blank typed between the slashes of a comment makes the
		// quote it held code (mutant 01262); one typed after a
		// backslash frees the quote it escaped.
		{"a comment broken", "// say \"hi\ndisplay 1\n", Edit{Start: 1, End: 1, Text: " "}, false},
		{"an escape broken", "display \"a\\\"b\"\nstore x as 1\n", Edit{Start: 11, End: 11, Text: "x"}, false},
		{"a word typed in a string", "display \"ab\"\nstore x as 1\n", Edit{Start: 10, End: 10, Text: "x"}, true},
		// Beside a line break or a quote, a letter pairs nothing
		// otherwise: typing on a string left open at the end of its line
		// (the common case) and after a string's opening quote.
		{"a letter typed at the end of a string left open", "display \"ab\nstore x as 1\n", Edit{Start: 11, End: 11, Text: "c"}, true},
		{"a letter typed after a quote", "display \"ab\"\nstore x as 1\n", Edit{Start: 9, End: 9, Text: "x"}, true},
		{"a letter deleted before a line break", "display \"abc\nstore x as 1\n", Edit{Start: 11, End: 12}, true},
		// A lone carriage return ends no line for the units' shapes: the
		// string "Coun\rs:" is one of the base's, and deleting its
		// closing quote with what follows leaves its quote open, though
		// the line after the return holds no quote.
		{"a string over a carriage return", "dis\nplay \"Coun\rs:\"\ncount\n", Edit{Start: 15, End: 18, Text: "with"}, false},
		// A letter typed between the backslashes of an escaped one makes
		// the second escape the quote after it; a carriage return deleted
		// after a comment makes the line after it the comment's (its quote
		// left open is then a comment's character).
		{"an escaped backslash broken", "display \"a\\\\\"\nstore x as 1\n", Edit{Start: 11, End: 11, Text: "x"}, false},
		{"a comment's carriage return deleted", "display 1 # c\rdisplay \"a\nstore x as 1\n", Edit{Start: 13, End: 14}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			const uri = URI("file:///nowhere/case.wfl")
			ws := NewWorkspace()
			ws.Open(uri, 1, tt.text).Tolerant()
			s, err := ws.Change(uri, 2, tt.edit)
			if err != nil {
				t.Fatal(err)
			}
			short := s.quote.cutsHeld || s.quotesAsBase()
			if got, want := s.openQuotes(), lexer.OpenQuotes(s.Text); !slices.Equal(got, want) {
				t.Errorf("%q: the quotes left open are %v, a scan finds %v", s.Text, got, want)
			}
			if short != tt.short {
				t.Errorf("%q: answered without a scan: %v, want %v", s.Text, short, tt.short)
			}
		})
	}
}
