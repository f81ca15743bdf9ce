package core

// The explanations of the diagnostic codes (lang/diag/explain) held to
// what the analysis reports: every case's example gets its diagnostic, the
// fixed program none, and every diagnostic of the corpus is explained.
// The explanations' own tests (every code constant explained) are in
// lang/diag/explain; these need the analysis, with its included files and
// configuration, which lang cannot import.

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/diag/explain"
	"wfl-lsp/lang/parser"
)

// TestExplainExamples runs every case's example through the checker: it
// must get a diagnostic of the code whose message is of the case (the case
// CaseOf picks for it), and the fixed example none of the code and no error.
// A hidden case's example must get it from a pass of the checker, and not
// in the diagnostics reported.
func TestExplainExamples(t *testing.T) {
	for _, code := range explain.Codes() {
		e, _ := explain.Of(code)
		for _, c := range e.Cases {
			t.Run(code+"/"+c.Message, func(t *testing.T) {
				if c.Meaning == "" || c.Fix == "" || c.Example == "" || c.Fixed == "" {
					t.Fatalf("incomplete case %+v", c)
				}
				var got []string
				found := false
				diags := caseSnapshot(t, c.Example, c.Files).Analysis().Diagnostics
				if c.Editor {
					// Told only in the list an editor shows.
					for _, d := range diags {
						if d.Code == code {
							t.Errorf("an editor's case is in the verdict: %s", d.Message)
						}
					}
					_, diags = caseSnapshot(t, c.Example, c.Files).Tolerant()
				}
				if c.Hidden {
					// Not reported: look at what the checker's passes found.
					for _, d := range diags {
						if d.Code == code {
							t.Errorf("a hidden case is reported: %s", d.Message)
						}
					}
					f, _ := parser.Parse(c.Example)
					_, passes := check.CheckPasses(f, c.Example, check.FileContext(f))
					diags = slices.Concat(passes.Analyzer, passes.Static, passes.Type)
				}
				for _, d := range diags {
					got = append(got, d.Code+": "+d.Message)
					if d.Code != code {
						continue
					}
					if k, ok := e.CaseOf(d.Message); ok && k.Message == c.Message {
						found = true
						if d.Category.String() != e.Category {
							t.Errorf("category %s, explained as %s", d.Category, e.Category)
						}
					}
				}
				if !found {
					t.Errorf("the example gets no %s diagnostic of this case:\n%s\ngot %q", code, c.Example, got)
				}
				fixed := caseSnapshot(t, c.Fixed, c.Files).Analysis().Diagnostics
				if c.Editor {
					_, shown := caseSnapshot(t, c.Fixed, c.Files).Tolerant()
					fixed = slices.Concat(fixed, shown)
				}
				if c.Hidden {
					f, _ := parser.Parse(c.Fixed)
					_, passes := check.CheckPasses(f, c.Fixed, check.FileContext(f))
					fixed = slices.Concat(fixed, passes.Analyzer, passes.Static, passes.Type)
				}
				for _, d := range fixed {
					if d.Code == code || d.Severity == diag.Error {
						t.Errorf("the fixed example gets %s: %s\n%s", d.Code, d.Message, c.Fixed)
					}
				}
			})
		}
	}
}

// TestExplainCorpus explains every diagnostic the corpus programs and
// mutants get: its code has an explanation; it logs how many of them a
// case of that explanation is about.
func TestExplainCorpus(t *testing.T) {
	stride := 3
	if testing.Short() {
		stride = 30
	}
	progs := corpusOrSkip(t, stride)
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(t.TempDir(), "none"))
	total, matched := 0, 0
	unmatched := map[string]int{}
	for path, src := range progs {
		for _, d := range NewSnapshot(FileURI(path), 1, src).Analysis().Diagnostics {
			e, ok := explain.Of(d.Code)
			if !ok {
				t.Errorf("%s: %s has no explanation", path, d.Code)
				continue
			}
			total++
			if _, ok := e.CaseOf(d.Message); ok {
				matched++
			} else {
				unmatched[d.Code+": "+d.Message]++
			}
		}
	}
	t.Logf("%d programs, %d diagnostics: %d (%.1f%%) explained by a case of their code", len(progs), total, matched, 100*float64(matched)/float64(max(total, 1)))
	for m, n := range unmatched {
		if testing.Verbose() {
			t.Logf("no case: %d× %s", n, m)
		}
	}
}

// caseSnapshot makes a snapshot of a case's program, a.wfl, in a folder with
// the case's other files and no .wflcfg.
func caseSnapshot(t *testing.T, src string, files map[string]string) *Snapshot {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return NewSnapshot(FileURI(filepath.Join(dir, "a.wfl")), 1, src)
}
