package presentation

import (
	"fmt"
	"strings"
	"testing"

	"wfl-lsp/core/internal/featuretest"
)

// TestOutlineNamesNeverBlank: an outline entry's name is never empty or
// white space only (LSP requires it; VS Code drops the whole outline for
// one), a describe or test block described by an empty or blank text
// included: it is named by the text as written.
func TestOutlineNamesNeverBlank(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"describe \"\":\n    test \"\":\n        display 1\n    end test\nend describe\n", `"" ""`},
		{"describe \"   \":\nend describe\n", `"   "`},
		{"describe \"adds\":\n    test \"one\":\n        display 1\n    end test\nend describe\n", "adds one"},
	} {
		var names []string
		var walk func([]DocumentSymbol)
		walk = func(syms []DocumentSymbol) {
			for _, s := range syms {
				if strings.TrimSpace(s.Name) == "" {
					t.Errorf("%q: a %s named %q", tc.src, s.Kind, s.Name)
				}
				names = append(names, s.Name)
				walk(s.Children)
			}
		}
		walk(DocumentSymbols(featuretest.AnalysisOf(t, tc.src)))
		if got := strings.Join(names, " "); got != tc.want {
			t.Errorf("%q: names %q, want %q", tc.src, got, tc.want)
		}
	}
}

// TestOutlineNestsBoundedly checks that actions nested 500 deep are all
// in the outline, in order, and that it nests at most maxOutlineDepth
// deep, the symbols below listed under their ancestor at that depth: an
// answer nested 1,000 JSON levels deep is more than some clients decode.
func TestOutlineNestsBoundedly(t *testing.T) {
	const n = 500
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "%sdefine action called a%d:\n", strings.Repeat("    ", i), i)
	}
	b.WriteString(strings.Repeat("    ", n) + "display 1\n")
	for i := n - 1; i >= 0; i-- {
		fmt.Fprintf(&b, "%send action\n", strings.Repeat("    ", i))
	}
	var names []string
	deepest := 0
	var walk func([]DocumentSymbol, int)
	walk = func(syms []DocumentSymbol, depth int) {
		for _, s := range syms {
			deepest = max(deepest, depth)
			names = append(names, s.Name)
			walk(s.Children, depth+1)
		}
	}
	walk(DocumentSymbols(featuretest.AnalysisOf(t, b.String())), 1)
	if deepest != maxOutlineDepth {
		t.Errorf("the outline nests %d deep, want %d", deepest, maxOutlineDepth)
	}
	if len(names) != n || names[0] != "a0" || names[n-1] != fmt.Sprintf("a%d", n-1) {
		t.Errorf("%d symbols listed, want the %d actions in order; first and last: %v", len(names), n, []string{names[0], names[len(names)-1]})
	}
	for i, name := range names {
		if name != fmt.Sprintf("a%d", i) {
			t.Fatalf("symbol %d is %s, want a%d", i, name, i)
		}
	}
}
