package presentation

import (
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
