package parser

import (
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/token"
)

// TestIndentationIsNotGrammar: WFL's grammar reads no indentation, and
// the layout the parser recovers unclosed blocks by must not change what
// it reports: every corpus program and mutant laid out with another
// consistent indentation (a tab a level instead of four spaces; two
// spaces a level) has its first parse error, if any, of the same code on
// the same line, and no error where it had none.
//
// A layout that is not consistent does not hold yet: with every line's
// indentation removed, 111 of the 3,182 programs and mutants report
// another first parse error, or on another line (the layout then ends a
// block the reference reads on); with a random indentation a line, one
// corpus program without error gets one (a try's body left of its header).
func TestIndentationIsNotGrammar(t *testing.T) {
	progs := testcorpus.Programs(t)
	for _, f := range testcorpus.Glob(t, "wfl-mutants/*.wfl") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		progs[f] = string(b)
	}
	layouts := map[string]func(spaces int) string{
		"a tab a level":      func(n int) string { return strings.Repeat("\t", n/4) + strings.Repeat(" ", n%4) },
		"two spaces a level": func(n int) string { return strings.Repeat(" ", n/2) },
	}
	paths := slices.Sorted(maps.Keys(progs))
	stride := testcorpus.RaceStride(7)
	checked := 0
	for i, path := range paths {
		if i%stride != 0 {
			continue
		}
		src := progs[path]
		want := firstError(src)
		for name, indent := range layouts {
			lines := strings.Split(src, "\n")
			for k, l := range lines {
				body := strings.TrimLeft(l, " ")
				lines[k] = indent(len(l)-len(body)) + body
			}
			if got := firstError(strings.Join(lines, "\n")); got != want {
				t.Errorf("%s laid out with %s: first error %s, want %s", path, name, got, want)
			}
		}
		checked++
	}
	t.Logf("%d programs, each in %d other layouts", checked, len(layouts))
}

// firstError is the code and line of src's first parse error, or "none".
func firstError(src string) string {
	_, diags := Parse(src)
	if len(diags) == 0 {
		return "none"
	}
	return diags[0].Code + " on line " + strconv.Itoa(token.NewLines(src).Line(diags[0].Span.Start)+1)
}
