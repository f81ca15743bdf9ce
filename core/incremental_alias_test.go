package core

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/internal/txtar"
)

// TestIncrementalFlowRules derives the diagnostics of the programs of the
// type checker's flow rules (testdata/check: lists shared by several
// variables, Nothing through changes and returns, the statements read two
// ways) after deleting each line in turn and after changing each value
// pushed, and compares them with a full analysis: a statement's findings
// that another statement's change reaches must be checked again.
func TestIncrementalFlowRules(t *testing.T) {
	const uri = URI("file:///nowhere/flow.wfl")
	cfg := ConfigFor(uri)
	for _, name := range []string{"aliases", "nothing", "streams", "actions", "loops", "returns", "properties"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "check", name+".txtar"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range txtar.Parse(string(data)).Files {
			if !strings.HasSuffix(f.Name, ".wfl") {
				continue
			}
			text := f.Data
			lines := strings.SplitAfter(text, "\n")
			var variants []string
			for i := range lines {
				variants = append(variants, strings.Join(lines[:i], "")+strings.Join(lines[i+1:], ""))
			}
			for _, v := range []string{`"text"`, "nothing", "[2]"} {
				if strings.Contains(text, v) {
					variants = append(variants, strings.Replace(text, v, "2", 1))
				}
			}
			st := fullStateOf(uri, text)
			for _, next := range variants {
				a, _ := analyze(uri, next, disk)
				want := sortedCopy(a.Diagnostics)
				got := derive(st, next, cfg, sameEnds{}, nil)
				if got == nil {
					continue
				}
				if d := firstDiff(got.assemble(), want); d != "" {
					t.Errorf("%s/%s: derived diagnostics differ: %s\ntext before:\n%s\ntext after:\n%s", name, f.Name, d, text, next)
				}
			}
		}
	}
}
