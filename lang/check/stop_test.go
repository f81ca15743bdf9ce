package check_test

import (
	"fmt"
	"strings"
	"testing"

	"wfl-lsp/lang/check"
	"wfl-lsp/lang/parser"
)

// TestDoneStopsThePasses closes Context.Done before the passes run and
// while they run (from the Line hook, which the analyzer calls for the
// redeclaration in the middle of the text): the statements after it,
// nested in a block or not, are not checked. Before, nothing could stop a
// check once started, and an MCP call out of time kept a core busy.
func TestDoneStopsThePasses(t *testing.T) {
	var b strings.Builder
	const n = 2000
	for i := range n {
		if i == n/2 {
			b.WriteString("store v0 as 1\n") // a redeclaration: its message names a line
		}
		fmt.Fprintf(&b, "store v%d as %d\n", i, i)
		if i%100 == 0 {
			fmt.Fprintf(&b, "check if v%d is 1:\n    store w%d as v%d\n    display w%d\nend check\n", i, i, i, i)
		}
	}
	src := b.String()
	f, diags := parser.Parse(src)
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	uses := func(done chan struct{}, stopAtLine bool) int {
		ctx := check.FileContext(f)
		ctx.Done = done
		if stopAtLine {
			ctx.Line = func(off int) int {
				close(done)
				return strings.Count(src[:off], "\n") + 1
			}
		}
		info, _ := check.CheckPasses(f, src, ctx)
		return len(info.Defs)
	}
	all := uses(nil, false)
	if all < n {
		t.Fatalf("%d definitions without Done, want at least %d", all, n)
	}
	closed := make(chan struct{})
	close(closed)
	if got := uses(closed, false); got != 0 {
		t.Errorf("Done closed before: %d definitions, want none", got)
	}
	if got := uses(make(chan struct{}), true); got > all/2+n/100 || got < all/3 {
		t.Errorf("Done closed at the middle: %d definitions of %d, want about half", got, all)
	}
}
