package parser

import (
	"os"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/diag"
)

// TestExpectedKind holds that a parse error saying what the parser wanted
// and what it found tells both in fields (diag.Expected's Names: what was
// found as written, what the wanted words follow, the words), which the
// quick fixes read instead of the message; the layout recovery keeps them
// after the closer's names when it tells the finding as a block's closer.
func TestExpectedKind(t *testing.T) {
	for _, tc := range []struct {
		src   string
		kind  diag.Kind
		names []string
		msg   string
	}{
		{"store x 5\n", diag.Expected, []string{"5", "the variable name", "as"},
			"expected 'as' after the variable name, found number 5"},
		{"check score is 3:\n    display 1\nend check\n", diag.Expected, []string{"score", "check", "if"},
			`expected 'if' after 'check', found identifier "score"`},
		{"open x\n", diag.Expected, []string{"x", "open", "file", "url", "database"},
			`expected 'file', 'url' or 'database' after 'open', found identifier "x"`},
		{"store\n", diag.Expected, []string{"\n", ""},
			"expected a variable name, found end of line"},
		{"store x as\n", diag.ExpectedValue, []string{""}, "expected an expression, found end of line"},
		{"store score as 1\ncheck if score is 1:\n    display score\nend for\n", diag.Misclosed,
			[]string{"end check", "for", "end", "check"}, "expected 'check' after 'end', found 'for'"},
		{"store score as 1\ncheck if score is 1:\n    display score\n", diag.Unclosed,
			[]string{"end check", "", "", "end check"}, "expected 'end check' to close this 'check if', found end of file"},
		{"create list xs:\n    add 1\n    store y as 2\nend list\n", diag.Expected, []string{"store", "", "add", "end list"},
			"expected 'add' or 'end list' in the list, found 'store'"},
		{"store xs as [1, 2", diag.Expected, []string{"", "", "]"}, "the list is not closed: expected ']', found end of file"},
	} {
		_, diags := Parse(tc.src)
		found := false
		for _, d := range diags {
			if d.Message == tc.msg {
				found = true
				if d.Kind != tc.kind || !slices.Equal(d.Names, tc.names) {
					t.Errorf("%q: %q has kind %v, names %q; want %v, %q", tc.src, d.Message, d.Kind, d.Names, tc.kind, tc.names)
				}
			}
		}
		if !found {
			t.Errorf("%q: no finding %q in %v", tc.src, tc.msg, diags)
		}
	}
}

// TestExpectedKindEverywhere holds that every parse error of the corpus and
// its mutants whose message says "expected …, found …" has a kind, and
// that an Expected finding's first name is what the message says it found.
func TestExpectedKindEverywhere(t *testing.T) {
	paths := append(testcorpus.Glob(t, "wfl/**/*.wfl"), testcorpus.Glob(t, "wfl-mutants/*.wfl")...)
	n := 0
	for i, path := range paths {
		if i%testcorpus.RaceStride(32) != 0 {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, diags := Parse(string(data))
		for _, d := range diags {
			if d.Severity != diag.Error || !strings.Contains(d.Message, "expected ") || !strings.Contains(d.Message, "found ") {
				continue
			}
			n++
			switch {
			case d.Kind == 0:
				t.Errorf("%s: %q has no kind", path, d.Message)
			case d.Kind == diag.Expected && len(d.Names) < 2:
				t.Errorf("%s: %q has names %q", path, d.Message, d.Names)
			case d.Kind == diag.Expected && d.Names[0] == "" && !strings.HasSuffix(d.Message, "found end of file"):
				t.Errorf("%s: %q found nothing", path, d.Message)
			}
		}
	}
	t.Logf("%d findings", n)
}
