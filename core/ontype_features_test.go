package core_test

import (
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/token"
)

// TestCloseBlock covers what the txtar scenarios cannot write: texts
// without a final line break, CRLF, the cursor elsewhere than after Enter.
// The cursor is at the | of each text, which is removed.
func TestCloseBlock(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string // the text after the edit, or "" for none
	}{
		{name: "at the end of a text without a final line break",
			text: "check if 1 is 1:\n    |",
			want: "check if 1 is 1:\n    \nend check"},
		{name: "nested at the end of the text",
			text: "define action called f:\n    for each x in [1]:\n        |",
			want: "define action called f:\n    for each x in [1]:\n        \n    end for"},
		{name: "crlf",
			text: "check if 1 is 1:\r\n|\r\ndisplay 2\r\n",
			want: "check if 1 is 1:\r\n\r\nend check\r\ndisplay 2\r\n"},
		{name: "crlf at the end",
			text: "display \"é\"\r\ncount from 1 to 2:\r\n|",
			want: "display \"é\"\r\ncount from 1 to 2:\r\n\r\nend count"},
		{name: "multi-byte characters in the header",
			text: "store name as \"é😀\"\ncheck if name is \"é😀\":\n    |\n",
			want: "store name as \"é😀\"\ncheck if name is \"é😀\":\n    \nend check\n"},
		{name: "a tab indented header",
			text: "define action called f:\n\tcheck if 1 is 1:\n\t\t|\nend action\n",
			want: "define action called f:\n\tcheck if 1 is 1:\n\t\t\n\tend check\nend action\n"},
		{name: "on the first line", text: "|check if 1 is 1:\n"},
		{name: "two lines below the header", text: "check if 1 is 1:\n\n|"},
		{name: "after a comment", text: "// check if 1 is 1:\n|"},
		{name: "after a one-line if", text: "if 1 is 1 then display 1\n|"},
		{name: "closed further down", text: "repeat forever:\n|\n    break\nend repeat\n"},
		{name: "a closer of the wrong kind follows", text: "check if 1 is 1:\n|\nend for\n",
			want: "check if 1 is 1:\n\nend check\nend for\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := 0
			for i := range tt.text {
				if tt.text[i] == '|' {
					at = i
				}
			}
			text := tt.text[:at] + tt.text[at+1:]
			a := core.NewSnapshot("file:///tmp/enter.wfl", 1, text).Analysis()
			e, ok := presentation.CloseBlockOf(a.Lines, at)
			got := ""
			if ok {
				var err error
				if got, err = core.ApplyEdits(text, e); err != nil {
					t.Fatal(err)
				}
				if e.Start <= at && e.Start != len(text) {
					t.Errorf("the closer is inserted at %d, not after the cursor's line (cursor %d)", e.Start, at)
				}
			}
			if got != tt.want {
				t.Errorf("CloseBlock: got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSnapshotCloseBlockEqualsWhole asks, on each sampled corpus program (coretest.Programs) (and a
// quarter of the mutants; all of them with -stress), edited once at random, for the closer after an Enter at the
// start of every line: the snapshot's CloseBlock, which parses from the
// statement of the header on, must answer what CloseBlock answers parsing
// the whole text.
func TestSnapshotCloseBlockEqualsWhole(t *testing.T) {
	t.Parallel()
	stride := 4
	if *core.Stress > 0 {
		stride = 1
	}
	progs := core.CorpusOrSkip(t, stride)
	asked, closed := 0, 0
	for n, path := range slices.Sorted(maps.Keys(progs)) {
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		ws, uri, s := core.OpenAnalysed(path, progs[path])
		compare := func(s *core.Snapshot, first, last int) {
			lines := token.NewLines(s.ReadText()) // (a quote left open closed, as the features read it)
			for l := max(first, 1); l < min(last, lines.Count()); l++ {
				off := lines.LineStart(l)
				got, gok := presentation.CloseBlock(s, off)
				want, wok := presentation.CloseBlockOf(lines, off)
				if got != want || gok != wok {
					t.Fatalf("%s, Enter before line %d: %v %v, want %v %v\ntext:\n%s", path, l+1, got, gok, want, wok, s.Text)
				}
				asked++
				if gok {
					closed++
				}
			}
		}
		edited, e := core.ChangeAtRandom(t, ws, s, rng)
		compare(edited, 0, 1<<30)
		// Back to the program, as an undo does.
		s, err := ws.Change(uri, edited.Version+1, core.Edit{Start: e.Start, End: e.Start + len(e.Text), Text: s.Text[e.Start:e.End]})
		if err != nil || s.Text != progs[path] {
			t.Fatalf("%s: the edit was not undone: %v", path, err)
		}
		// Blocks left open, as while one is typed: a closer's line
		// deleted, then an Enter on the lines around.
		lines := token.NewLines(s.Text)
		for k := 0; k < 3; k++ {
			l := rng.IntN(lines.Count())
			for ; l < lines.Count() && !strings.HasPrefix(strings.TrimSpace(s.Text[lines.LineStart(l):lines.LineEnd(l)]), "end"); l++ {
			}
			if l >= lines.Count() || l+1 >= lines.Count() {
				continue
			}
			cut := core.Edit{Start: lines.LineStart(l), End: lines.LineStart(l + 1)}
			open, err := ws.Change(uri, s.Version+1, cut)
			if err != nil {
				t.Fatal(err)
			}
			compare(open, l-30, l+30)
			if s, err = ws.Change(uri, open.Version+1, core.Edit{Start: cut.Start, End: cut.Start, Text: progs[path][cut.Start:cut.End]}); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d places asked, %d closers", asked, closed)
}
