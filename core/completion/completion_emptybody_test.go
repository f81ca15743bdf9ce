package completion

import (
	"slices"
	"strings"
	"testing"
	"wfl-lsp/core"
)

// TestCompletionInEmptyBody types the first statement of a block whose
// closer is already there (as the closer inserted after Enter leaves it):
// the names the header binds are offered on the blank line of the empty
// body, as they are below a statement of it.
func TestCompletionInEmptyBody(t *testing.T) {
	const lists = "create list fruits:\n    add \"a\"\nend list\n"
	tests := []struct {
		name, text, want string // ‸ marks the cursor
	}{
		{"for each", lists + "for each fruit in fruits:\n    ‸\nend for\n", "fruit"},
		{"for each, CRLF", strings.ReplaceAll(lists+"for each fruit in fruits:\n    ‸\nend for\n", "\n", "\r\n"), "fruit"},
		{"for each, blank lines", lists + "for each fruit in fruits:\n\n    ‸\n\nend for\n", "fruit"},
		{"for each, comment", lists + "for each fruit in fruits: // each one\n    ‸\nend for\n", "fruit"},
		{"count", "count from 1 to 10:\n    ‸\nend count\n", "count"},
		{"for each in an action", lists + "define action called f with parameters xs:\n    for each x in xs:\n        ‸\n    end for\nend action\n", "x"},
		{"for each in a check", lists + "check if 1 is 1:\n    for each fruit in fruits:\n        ‸\n    end for\nend check\n", "fruit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := strings.Index(tt.text, "‸")
			text := tt.text[:at] + tt.text[at+len("‸"):]
			if got := completionNames(text, at); !slices.Contains(got, tt.want) {
				t.Errorf("completion in the empty body offers %q, not %q", got, tt.want)
			}
		})
	}
}

// completionNames returns the names (not the keywords) completion offers at
// offset of text.
func completionNames(text string, offset int) []string {
	a := core.NewSnapshot(core.URI("file:///nowhere/complete.wfl"), 1, text).Analysis()
	_, items := List(a, offset, Options{})
	var out []string
	for _, it := range items {
		if it.Kind != Keyword {
			out = append(out, it.Label)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}
