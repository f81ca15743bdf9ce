package core_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"wfl-lsp/core"
	"wfl-lsp/core/completion"
	"wfl-lsp/core/navigation"
	"wfl-lsp/core/presentation"
	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/lang/token"
)

// BenchmarkKeystroke times, in the process, the core's part of what the
// server does on each keystroke of the typing benchmark (internal/typingbench:
// one character of `+total c…` typed into, then deleted from, the last
// argument of the middle chunk's call of a 10,000-line document), one part
// at a time, so that each can be made cheaper apart from the scheduling of
// a server under load. publish: the new version's diagnostics (derived)
// and the list the publisher sends (the tolerant one), every finding
// visited; hover: that, then the hover at the call's action name;
// completion: that, then the completion at the cursor (100 items);
// whole: that, then the whole document's semantic tokens as a delta request
// builds them from the last version's (TokensSince); visible: that, then
// the semantic tokens and inlay hints of the 60 lines around the cursor,
// built from the last keystroke's (RangeTokens, RangeHints). block types
// a block's header and body by hand after the call instead (its closer not
// typed), as typingbench's block scenario; quote types a display of a
// string and a name there, its quote open while the string is typed
// (whole is left out: the units the tokens are composed from step aside
// while a quote is open).
//
//	go test -run '^$' -bench Keystroke -benchtime 2000x ./core
func BenchmarkKeystroke(b *testing.B) {
	for _, doc := range []string{"dense", "clean", "block", "quote"} {
		clean := doc != "dense"
		text, name := benchdoc.Dense(10000), "lines=10000"
		if clean {
			text, name = benchdoc.Clean(10000), doc+"/lines=10000"
		}
		const chunk = (10000 + 11) / 12 / 2 // the middle chunk, as typingbench's
		call := fmt.Sprintf("store result c%[1]d as call sum numbers c%[1]d with total c%[1]d and 1", chunk)
		typed := fmt.Sprintf("+total c%d", chunk)
		hoverAt := "call sum"
		if clean {
			call = fmt.Sprintf("display call sum_numbers_c%[1]d with total_c%[1]d and 1", chunk)
			typed = fmt.Sprintf("+total_c%d", chunk)
			hoverAt = "call sum_"
		}
		if doc == "block" {
			// A block typed by hand after the call, its closer not typed
			// (typingbench.BlockDoc's).
			typed = fmt.Sprintf("\ncheck if total_c%[1]d is greater than 3:\n    store bonus as total_c%[1]d plus 1\n"+
				"    display call sum_numbers_c%[1]d with bonus and total_c%[1]d", chunk)
		}
		if doc == "quote" {
			typed = fmt.Sprintf("\ndisplay \"Total so far: \" with total_c%d", chunk)
		}
		at := strings.Index(text, call)
		if at < 0 {
			b.Fatalf("%s: no %q", name, call)
		}
		cursor0 := at + len(call)
		hover := at + strings.Index(call, hoverAt) + len(hoverAt)
		edits, cursors := keystrokes(cursor0, typed)
		var base *presentation.TokenBase
		var lastToks *presentation.RangeTokens
		var lastHints *presentation.RangeHints
		parts := []struct {
			name string
			run  func(s *core.Snapshot, cursor int)
		}{
			{"publish", func(*core.Snapshot, int) {}},
			{"hover", func(s *core.Snapshot, _ int) {
				if navigation.Hover(s.Query(token.Span{Start: hover, End: hover}), hover) == nil {
					b.Fatal("no hover")
				}
			}},
			{"completion", func(s *core.Snapshot, cursor int) {
				completion.List(s.Query(token.Span{Start: cursor, End: cursor}), cursor, completion.Options{Max: 101})
			}},
			{"whole", func(s *core.Snapshot, _ int) {
				// The document's tokens, as a delta request asks them
				// after the last version's.
				if _, ok := presentation.TokensSince(s, base); !ok {
					b.Fatal("no tokens reused")
				}
				base = presentation.NewTokenBase(s)
			}},
			{"visible", func(s *core.Snapshot, cursor int) {
				l := s.QueryLines()
				line := l.Line(cursor)
				span := token.Span{Start: l.LineStart(max(1, line-30)), End: l.LineStart(min(l.Count(), line+30))}
				// As the server answers them: from the last range's answers.
				lastToks = presentation.TokensIn(s, span, lastToks)
				lastHints = presentation.HintsIn(s, span, lastHints)
			}},
		}
		for _, part := range parts {
			if doc == "quote" && part.name == "whole" {
				continue
			}
			b.Run(part.name+"/"+name, func(b *testing.B) {
				ws := core.NewWorkspace()
				uri := core.URI("file:///bench/keystroke.wfl")
				s := ws.Open(uri, 1, text)
				s.Diagnostics()
				s.Analysis()
				base = presentation.NewTokenBase(s)
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					k := i % len(edits)
					var err error
					if s, err = ws.Change(uri, s.Version+1, edits[k]); err != nil {
						b.Fatal(err)
					}
					_, _, seq := s.TolerantSeq()
					for range seq {
					}
					part.run(s, cursors[k])
				}
			})
		}
	}
}

// BenchmarkKeystrokeCompletion times completion alone at the cursor of each
// keystroke of BenchmarkKeystroke's clean document (`+total_c417` typed,
// then deleted), on the partial analysis the keystroke's query made, made
// before the timer starts with what completion reads of it (its tokens):
// what gathering, cutting and making the list of 201 items costs.
//
//	go test -run '^$' -bench KeystrokeCompletion -benchtime 20000x ./core
func BenchmarkKeystrokeCompletion(b *testing.B) {
	text := benchdoc.Clean(10000)
	const chunk = (10000 + 11) / 12 / 2
	call := fmt.Sprintf("display call sum_numbers_c%[1]d with total_c%[1]d and 1", chunk)
	typed := fmt.Sprintf("+total_c%d", chunk)
	at := strings.Index(text, call)
	if at < 0 {
		b.Fatalf("no %q", call)
	}
	cursor := at + len(call)
	ws := core.NewWorkspace()
	uri := core.URI("file:///bench/keystroke.wfl")
	s := ws.Open(uri, 1, text)
	s.Diagnostics()
	s.Analysis()
	type keystroke struct {
		a      *core.Analysis
		cursor int
	}
	var keys []keystroke
	step := func(e core.Edit, cursor int) {
		var err error
		if s, err = ws.Change(uri, s.Version+1, e); err != nil {
			b.Fatal(err)
		}
		s.Diagnostics()
		a := s.Query(token.Span{Start: cursor, End: cursor})
		completion.List(a, cursor, completion.Options{Max: 201})
		keys = append(keys, keystroke{a, cursor})
	}
	for k := range len(typed) {
		step(core.Edit{Start: cursor + k, End: cursor + k, Text: typed[k : k+1]}, cursor+k+1)
	}
	for k := len(typed); k > 0; k-- {
		step(core.Edit{Start: cursor + k - 1, End: cursor + k}, cursor+k-1)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		k := keys[i%len(keys)]
		completion.List(k.a, k.cursor, completion.Options{Max: 201})
	}
}

// BenchmarkKeystrokeHover times, in the process, what a hover waits for
// after each keystroke of BenchmarkKeystroke's documents, as the
// server answers it: on its read loop, the change applied, the analysis at
// the cursor made (Ready, the completion's request first), then the hover
// at the call's action name, from the same partial analysis (the hover-us
// metrics, p50 and p99); the diagnostics' list is made after, as the
// publisher starts once the read loop has read the keystroke's requests.
// ns/op is the whole keystroke (hover and diagnostics both done).
//
//	go test -run '^$' -bench KeystrokeHover -benchtime 4000x ./core
func BenchmarkKeystrokeHover(b *testing.B) {
	const chunk = (10000 + 11) / 12 / 2
	for _, clean := range []bool{false, true} {
		name := "lines=10000"
		text := benchdoc.Dense(10000)
		call := fmt.Sprintf("store result c%[1]d as call sum numbers c%[1]d with total c%[1]d and 1", chunk)
		typed := fmt.Sprintf("+total c%d", chunk)
		hoverAt := "call sum"
		if clean {
			name = "clean/" + name
			text = benchdoc.Clean(10000)
			call = fmt.Sprintf("display call sum_numbers_c%[1]d with total_c%[1]d and 1", chunk)
			typed = fmt.Sprintf("+total_c%d", chunk)
			hoverAt = "call sum_"
		}
		b.Run(name, func(b *testing.B) { keystrokeHover(b, text, call, typed, hoverAt) })
	}
	// A string typed into the clean document, its quote open while the
	// string is typed: the tree then reads it closed at the end of its
	// line, from a full analysis of that reading at each keystroke.
	b.Run("quote/lines=10000", func(b *testing.B) {
		call := fmt.Sprintf("display call sum_numbers_c%[1]d with total_c%[1]d and 1", chunk)
		keystrokeHover(b, benchdoc.Clean(10000), call, fmt.Sprintf("\ndisplay \"Total so far: \" with total_c%d", chunk), "call sum_")
	})
	// A block typed by hand below a call of the clean document, its closer
	// not typed (typingbench.BlockDoc): a header, a store and a display,
	// the block's layout ending it at the line after.
	b.Run("block/lines=10000", func(b *testing.B) {
		call := fmt.Sprintf("display call sum_numbers_c%[1]d with total_c%[1]d and 1", chunk)
		typed := fmt.Sprintf("\ncheck if total_c%[1]d is greater than 3:\n    store bonus as total_c%[1]d plus 1\n"+
			"    display call sum_numbers_c%[1]d with bonus and total_c%[1]d", chunk)
		keystrokeHover(b, benchdoc.Clean(10000), call, typed, "call sum_")
	})
	// The clean document below an action opened at its top and never
	// closed (its `end action` not typed yet), typed into in the middle:
	// the action's parse read to the end of the text to find where its
	// body stops, through the line typed into, whose keystrokes leave it
	// broken (`and 1+`) most of the time.
	b.Run("open-above/lines=10000", func(b *testing.B) {
		call := fmt.Sprintf("display call sum_numbers_c%[1]d with total_c%[1]d and 1", chunk)
		text := "define action called opened with parameters n:\n    display n\n" + benchdoc.Clean(10000)
		keystrokeHover(b, text, call, fmt.Sprintf("+total_c%d", chunk), "call sum_")
	})
	// A document written without any `end`: 2,000 actions each holding a
	// check, none closed (8,000 lines), typed into in the middle one.
	// Every block reads on to the end of the text to find where its body
	// stops; each ends where the next begins.
	b.Run("all-open/lines=8000", func(b *testing.B) {
		var doc strings.Builder
		for i := range 2000 {
			fmt.Fprintf(&doc, "define action called act%[1]d with parameters n:\n    store v%[1]d as n plus %[1]d\n    check if v%[1]d is greater than 3:\n        display v%[1]d\n", i)
		}
		keystrokeHover(b, doc.String(), "display v1000", " plus n", "display v")
	})
	// A program of tests, whose every test writes the same counts
	// (benchdoc.Tests), typed into the middle test's write of one.
	b.Run("tests/lines=10000", func(b *testing.B) {
		mid := (10000 + 11) / 12 / 2
		call := fmt.Sprintf("display \"PASS: test %d gave \" with value_c%d\n    change passed to passed plus 1", mid, mid)
		keystrokeHover(b, benchdoc.Tests(10000), call, " plus value_c0", "change pass")
	})
	// The corpus's largest program, typed into as the server's typing
	// benchmark does (internal/typingbench): every statement there calls
	// one logging action, and an edit of one of them reaches few of the
	// others (reach.go).
	b.Run("corpus=nexus.wfl", func(b *testing.B) {
		_, text := core.NexusProgram(b)
		keystrokeHover(b, text, "store add_result2 as sum_numbers of 10 and 15", " plus x", "as sum_")
	})
}

// keystrokes returns the edits that type typed at cursor one character at
// a time, then delete it, and the cursor after each.
func keystrokes(cursor int, typed string) (edits []core.Edit, cursors []int) {
	for k := 0; k < len(typed); k++ {
		edits = append(edits, core.Edit{Start: cursor + k, End: cursor + k, Text: typed[k : k+1]})
		cursors = append(cursors, cursor+k+1)
	}
	for k := len(typed); k > 0; k-- {
		edits = append(edits, core.Edit{Start: cursor + k - 1, End: cursor + k})
		cursors = append(cursors, cursor+k-1)
	}
	return edits, cursors
}

// keystrokeHover types typed at the end of call, then deletes it, in text,
// hovering after hoverAt in call.
func keystrokeHover(b *testing.B, text, call, typed, hoverAt string) {
	at := strings.Index(text, call)
	cursor0 := at + len(call)
	hover := at + strings.Index(call, hoverAt) + len(hoverAt)
	edits, cursors := keystrokes(cursor0, typed)
	ws := core.NewWorkspace()
	uri := core.URI("file:///bench/keystroke.wfl")
	s := ws.Open(uri, 1, text)
	s.Diagnostics()
	s.Analysis()
	var waits []time.Duration
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		began := time.Now()
		k := i % len(edits)
		var err error
		if s, err = ws.Change(uri, s.Version+1, edits[k]); err != nil {
			b.Fatal(err)
		}
		s.Ready(token.Span{Start: cursors[k], End: cursors[k]})
		if navigation.Hover(s.Query(token.Span{Start: hover, End: hover}), hover) == nil {
			b.Fatal("no hover")
		}
		waits = append(waits, time.Since(began))
		_, _, seq := s.TolerantSeq()
		for range seq {
		}
	}
	slices.Sort(waits)
	b.ReportMetric(float64(waits[len(waits)/2].Microseconds()), "hover-p50-us")
	b.ReportMetric(float64(waits[len(waits)*99/100].Microseconds()), "hover-p99-us")
}

// BenchmarkKeystrokeOutline times, in the process, a keystroke of
// BenchmarkKeystrokeHover's clean 10,000-line document followed by what an
// editor asks about the whole document once typing pauses. syntax: the
// folding ranges, from the snapshot's syntax (a parse); analysis: the
// same, from a full analysis, as they were answered before the syntax;
// outline: the folding ranges from the syntax, then the document symbols
// (Snapshot.DocumentSymbols: the tree's outline, the types of its stores
// those of the outline made at the start, but for the unit typed into,
// from a partial analysis); outline-analysis: the same from a full
// analysis, which takes over the syntax's parse, as they were answered
// before.
//
//	go test -run '^$' -bench KeystrokeOutline -benchtime 200x ./core
func BenchmarkKeystrokeOutline(b *testing.B) {
	const chunk = (10000 + 11) / 12 / 2
	text := benchdoc.Clean(10000)
	call := fmt.Sprintf("display call sum_numbers_c%[1]d with total_c%[1]d and 1", chunk)
	at := strings.Index(text, call) + len(call)
	for _, mode := range []string{"syntax", "analysis", "outline", "outline-analysis"} {
		b.Run(mode, func(b *testing.B) {
			ws := core.NewWorkspace()
			uri := core.URI("file:///bench/outline.wfl")
			s := ws.Open(uri, 1, text)
			s.Diagnostics()
			s.Analysis()
			presentation.Outline(s)
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				e := core.Edit{Start: at, End: at, Text: " "}
				if i%2 == 1 {
					e = core.Edit{Start: at, End: at + 1}
				}
				var err error
				if s, err = ws.Change(uri, s.Version+1, e); err != nil {
					b.Fatal(err)
				}
				switch mode {
				case "syntax":
					presentation.FoldingRanges(s.Syntax())
				case "analysis":
					presentation.FoldingRanges(&s.Analysis().Syntax)
				case "outline":
					presentation.FoldingRanges(s.Syntax())
					presentation.Outline(s)
					if s.Analysed() {
						b.Fatal("the outline made the full analysis")
					}
				case "outline-analysis":
					presentation.FoldingRanges(s.Syntax())
					presentation.DocumentSymbols(s.Analysis())
				}
			}
		})
	}
}

// BenchmarkCloseBlock times the closer offered after Enter in the middle
// of the clean 10,000-line document, at the end of a block header typed
// there: snapshot parses from the header's statement on
// (Snapshot.CloseBlock), whole parses all the text (CloseBlock).
//
//	go test -run '^$' -bench CloseBlock ./core
func BenchmarkCloseBlock(b *testing.B) {
	text := benchdoc.Clean(10000)
	at := len(text) / 2
	at += strings.Index(text[at:], "\ncount from") + 1
	ws := core.NewWorkspace()
	uri := core.URI("file:///bench/enter.wfl")
	s := ws.Open(uri, 1, text)
	s.Diagnostics()
	const header = "repeat while total_c0 is less than 1:\n"
	s, err := ws.Change(uri, 2, core.Edit{Start: at, End: at, Text: header + "\n"}) // and Enter
	if err != nil {
		b.Fatal(err)
	}
	s.Diagnostics()
	enter := at + len(header)
	if _, ok := presentation.CloseBlock(s, enter); !ok {
		b.Fatal("no closer offered")
	}
	b.Run("snapshot", func(b *testing.B) {
		for b.Loop() {
			presentation.CloseBlock(s, enter)
		}
	})
	b.Run("whole", func(b *testing.B) {
		lines := s.Lines()
		for b.Loop() {
			presentation.CloseBlockOf(lines, enter)
		}
	})
}
