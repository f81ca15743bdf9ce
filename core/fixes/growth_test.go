package fixes

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

// A shape makes a text of n findings of one kind.
type shape struct {
	name string
	text func(n int) string
}

// wholeShapes are texts of n findings each, every one with a fix that is
// checked on a copy of the text, and whose check analyses much of the
// text again: a name every statement stores (an edit of one reaches them
// all), blocks left open (the text does not parse), names not declared,
// quotes left open, tries without their `end try`.
var wholeShapes = []shape{
	{"one name stored again", func(n int) string { return strings.Repeat("store v as 1\n", n) }},
	{"blocks left open", func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "check if x is %d:\n    display %d\n", i, i)
		}
		return b.String()
	}},
	{"names not declared", func(n int) string {
		var b strings.Builder
		b.WriteString("store total as 1\n")
		for i := range n {
			fmt.Fprintf(&b, "display totl plus u%d\n", i)
		}
		return b.String()
	}},
	{"quotes left open", func(n int) string { return strings.Repeat("display \"abc\n", n) }},
	{"tries without end", func(n int) string { return strings.Repeat("try:\n    display 1\ncatch:\n    display 2\n", n) }},
}

// TestWholeDocumentFixesGrow asks the quick fixes of a whole document, as
// an editor does when its text is selected, at n and 4n findings of each
// of wholeShapes: the bytes allocated grow at most as n log n. Each fix
// checked is an analysis of much of the text: checking every finding's
// made the request quadratic (2,000 stores of one name took a minute).
func TestWholeDocumentFixesGrow(t *testing.T) {
	growsAsNLogN(t, wholeShapes, func(t *testing.T, s *core.Snapshot) {
		if len(At(t.Context(), s, token.Span{Start: 0, End: len(s.Text)})) == 0 {
			t.Fatal("no fixes offered: the shape tests nothing")
		}
	})
}

// TestFixAllGrows makes the edits of "fix all" (source.fixAll, fix_wfl's
// safe fixes) at n and 4n findings of each shape: the bytes allocated grow
// at most as n log n. It made only the safe fixes, but checked every other
// candidate of the findings it looks at first, to drop it after: 2,000
// statements starting with `Display` took 4.5 s.
func TestFixAllGrows(t *testing.T) {
	shapes := append(wholeShapes[:len(wholeShapes):len(wholeShapes)],
		shape{"keywords capitalised", func(n int) string { return "store x as 1\n" + strings.Repeat("Display x\n", n) }})
	growsAsNLogN(t, shapes, func(_ *testing.T, s *core.Snapshot) { AllEdits(s) })
}

// growsAsNLogN checks, for each shape, that the bytes do allocates on a
// snapshot of the shape's text (its diagnostics made) grow at most as
// n log n from 150 to 600 findings, with 20% of slack for what does not
// grow with n.
func growsAsNLogN(t *testing.T, shapes []shape, do func(*testing.T, *core.Snapshot)) {
	const n = 150
	nlogn := 4 * math.Log(4*n) / math.Log(n)
	for _, sh := range shapes {
		t.Run(sh.name, func(t *testing.T) {
			allocated := func(text string) uint64 {
				s := core.NewSnapshot(core.FileURI("/tmp/whole.wfl"), 1, text)
				s.Diagnostics()
				var a, b runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&a)
				do(t, s)
				runtime.ReadMemStats(&b)
				return b.TotalAlloc - a.TotalAlloc
			}
			a, b := allocated(sh.text(n)), allocated(sh.text(4*n))
			if ratio := float64(b) / float64(a); ratio > 1.2*nlogn {
				t.Errorf("%d bytes allocated at n=%d, %d at 4n: %.1f times, more than n log n (%.1f)", a, n, b, ratio, nlogn)
			}
		})
	}
}

// TestWholeDocumentKeepsTheFirstFindingsFixes checks what the bound on the
// fixes checked leaves: the findings first in the document keep the fixes
// a request about each alone gets, and the safe fixes of every finding
// are still offered.
func TestWholeDocumentKeepsTheFirstFindingsFixes(t *testing.T) {
	var b strings.Builder
	b.WriteString("store total as 1\n")
	for i := range 3 * maxChecked {
		fmt.Fprintf(&b, "display totl plus %d   \n", i) // a misspelt name and trailing blanks
	}
	src := b.String()
	s := core.NewSnapshot(core.FileURI("/tmp/whole.wfl"), 1, src)
	whole := At(t.Context(), s, token.Span{Start: 0, End: len(src)})
	safe, named := 0, map[int]bool{}
	for _, f := range whole {
		switch {
		case f.Safe:
			safe++
		case f.Kind == DidYouMean:
			named[f.Diagnostic.Span.Start] = true
		}
	}
	if safe != 3*maxChecked {
		t.Errorf("%d trailing-blank fixes offered for the whole document, want %d (they need no check)", safe, 3*maxChecked)
	}
	if len(named) == 0 || len(named) > maxChecked {
		t.Errorf("the misspelt name fixed at %d places, want 1 to %d", len(named), maxChecked)
	}
	// The first findings' fixes are those a request at each gets.
	lines := token.NewLines(src)
	for l := 1; l <= 3; l++ {
		at := lines.LineStart(l) + len("display t")
		alone := At(t.Context(), s, token.Span{Start: at, End: at})
		if !named[lines.LineStart(l)+len("display ")] {
			t.Errorf("line %d: the whole document's fixes hold no name for 'totl'; alone: %v", l+1, titles(alone))
		}
	}
}

func titles(fs []Fix) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Title)
	}
	return out
}

// TestFixesStopWhenCancelled checks that Of, which checks every fix it is
// asked for (MCP's fix_wfl, a page of up to 1,000 findings), and At (an
// editor's quick fixes of a range, a request the editor cancels when its
// cursor moves on) stop when their call is cancelled or times out instead
// of checking on.
func TestFixesStopWhenCancelled(t *testing.T) {
	src := wholeShapes[0].text(50)
	s := core.NewSnapshot(core.FileURI("/tmp/whole.wfl"), 1, src)
	all := func(diag.Diagnostic) bool { return true }
	whole := token.Span{Start: 0, End: len(src)}
	if len(Of(t.Context(), s, all)) == 0 || len(At(t.Context(), s, whole)) == 0 {
		t.Fatal("no fixes offered: the test tests nothing")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if got := Of(ctx, s, all); len(got) != 0 {
		t.Errorf("a cancelled Of made %d fixes, want none", len(got))
	}
	if got := At(ctx, s, whole); len(got) != 0 {
		t.Errorf("a cancelled At made %d fixes, want none", len(got))
	}
}
