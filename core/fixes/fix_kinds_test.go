package fixes

import (
	"slices"
	"testing"

	"wfl-lsp/lang/diag"
)

// TestFixesReadKinds holds that the quick fixes of the checker's and the
// parser's findings follow what a finding is about (its Kind and Names),
// not its message: the same finding with its message reworded gets the
// same fixes.
func TestFixesReadKinds(t *testing.T) {
	for _, tc := range []struct {
		src  string
		kind diag.Kind
		fix  string // the title of a fix the finding must get
	}{
		{"store count_a as 1\ndisplay count_b\n", diag.Undefined, "Change 'count_b' to 'count_a'"},
		{"display nope\n", diag.Undefined, "Declare 'nope' before its use"},
		{"call greet_them with 1\n", diag.UndefinedAction, "Create the action 'greet_them'"},
		{"store x as 1\nstore x as 2\ndisplay x\n", diag.Redefined, "Change 'x' instead of declaring it again"},
		{"create interface Speaker:\n    requires action speak\nend\ncreate container Dog implements Speaker:\n    property name: Text\nend\n",
			diag.Unsatisfied, "Add the action 'speak' that 'Speaker' requires"},
		{"x as 5\n", diag.ExpectedValue, "Insert 'store' at the start of the line"},
		{"x to 5\n", diag.ExpectedValue, "Insert 'change' at the start of the line"},
		{"store x 5\n", diag.Expected, "Insert 'as' before '5'"},
		{"check score is 3:\n    display 1\nend check\n", diag.Expected, "Insert 'if' before 'score'"},
		{"store score as 1\ncheck iff score is 1:\n    display score\nend check\n", diag.Expected, "Replace 'iff' with 'if'"},
		{"store score as 1\ncheck if score is 1:\n    display score\nend for\n", diag.Misclosed, "Close the block with 'end check'"},
		{"store score as 1\ncheck if score is 1:\n    display score\n    check if score is 2:\n        display 2\nend for\n",
			diag.Unclosed, "Close the block with 'end check'"},
	} {
		s := fixSnapshot(t, tc.src)
		fx := newFixer(s)
		found := false
		for _, d := range s.Analysis().Diagnostics {
			if d.Kind != tc.kind {
				continue
			}
			found = true
			titles := func(d diag.Diagnostic) []string {
				var out []string
				for _, f := range fx.fixes(d) {
					out = append(out, f.Title)
				}
				return out
			}
			want := titles(d)
			if !slices.ContainsFunc(want, func(s string) bool { return len(s) >= len(tc.fix) && s[:len(tc.fix)] == tc.fix }) {
				t.Errorf("%q: %q gets %q, want one starting %q", tc.src, d.Message, want, tc.fix)
			}
			reworded := d
			reworded.Message = "reworded for people"
			if got := titles(reworded); !slices.Equal(got, want) {
				t.Errorf("%q: with its message reworded, %q gets %q, want %q", tc.src, d.Message, got, want)
			}
		}
		if !found {
			t.Errorf("%q: no finding of kind %v", tc.src, tc.kind)
		}
	}
}
