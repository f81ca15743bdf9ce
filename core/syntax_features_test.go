package core_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"sort"
	"sync"
	"testing"
	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
)

// TestSyntaxEqualsAnalysis edits each sampled corpus program (coretest.Programs) (and some mutants) at
// random and asks, after each edit, what the requests about the structure
// of the text answer (folding ranges, document links, selection ranges,
// on-type closers) of the snapshot's Syntax: each must be what a full
// analysis of the same text answers, and none may have made the
// snapshot's analysis. The analysis asked for after some of the edits
// must take over the syntax's parse, and find what an analysis of its own
// finds.
func TestSyntaxEqualsAnalysis(t *testing.T) {
	progs := core.CorpusOrSkip(t, 60)
	paths := make([]string, 0, len(progs))
	for p := range progs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	taken := 0
	for n, path := range paths {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		text := progs[path]
		ws, uri, s := core.OpenAnalysed(path, text)
		for k := range 3 {
			s, _ = core.ChangeAtRandom(t, ws, s, rng) // whole characters
			text = s.Text
			where := fmt.Sprintf("%s, edit %d", path, k)
			got := s.Syntax()
			want := core.NewSnapshot(uri, s.Version, text).Analysis()
			if s.Analysed() {
				t.Fatalf("%s: the syntax made a full analysis", where)
			}
			if g, w := presentation.FoldingRanges(got), presentation.FoldingRanges(&want.Syntax); !reflect.DeepEqual(g, w) {
				t.Fatalf("%s: folding ranges %v, want %v", where, g, w)
			}
			if g, w := presentation.DocumentLinks(got, path), presentation.DocumentLinks(&want.Syntax, path); !reflect.DeepEqual(g, w) {
				t.Fatalf("%s: links %v, want %v", where, g, w)
			}
			for range 8 {
				off := rng.IntN(len(text) + 1)
				if g, w := presentation.SelectionRange(got, off), presentation.SelectionRange(&want.Syntax, off); !reflect.DeepEqual(g, w) {
					t.Fatalf("%s: selection ranges at %d: %v, want %v", where, off, g, w)
				}
			}
			if s.Analysed() {
				t.Fatalf("%s: the syntax's answers made a full analysis", where)
			}
			if k == 1 {
				a := s.Analysis()
				if a.File != got.File {
					t.Fatalf("%s: the analysis parsed the text again", where)
				}
				taken++
				if d := core.FirstDiff(core.SortedCopy(a.Diagnostics), core.SortedCopy(want.Diagnostics)); d != "" {
					t.Fatalf("%s: the analysis made of the syntax's parse differs: %s", where, d)
				}
				if s.Syntax() != &a.Syntax {
					t.Fatalf("%s: the syntax of an analysed snapshot is not its analysis's", where)
				}
			}
		}
	}
	t.Logf("%d programs, %d analyses made of the syntax's parse", len(paths), taken)
}

// TestSyntaxWhileAnalysing asks for a snapshot's syntax and its analysis at
// once (the race detector watches the tree they may share).
func TestSyntaxWhileAnalysing(t *testing.T) {
	_, text := core.NexusProgram(t)
	for i := range 8 {
		ws, uri, s := core.OpenAnalysed("/nowhere/typed.wfl", text)
		at := len(text) / 8 * i
		s, err := ws.Change(uri, 2, core.Edit{Start: at, End: at, Text: "\n"})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var folds []presentation.FoldingRange
		wg.Go(func() { folds = presentation.FoldingRanges(s.Syntax()) })
		a := s.Analysis()
		wg.Wait()
		if want := presentation.FoldingRanges(&a.Syntax); !reflect.DeepEqual(folds, want) {
			t.Fatalf("edit %d: folding ranges differ from the analysis's", i)
		}
	}
}

// TestSyntaxNotKept: the snapshot does not keep the tree its Syntax made
// once no request holds it, so that a client asking for folding ranges at
// every keystroke, and never for an analysis, does not keep a tree beside
// the analysis the queries start from.
func TestSyntaxNotKept(t *testing.T) {
	_, text := core.NexusProgram(t)
	ws, uri, _ := core.OpenAnalysed("/nowhere/folded.wfl", text)
	s, err := ws.Change(uri, 2, core.Edit{Start: 0, End: 0, Text: "\n"})
	if err != nil {
		t.Fatal(err)
	}
	if len(presentation.FoldingRanges(s.Syntax())) == 0 {
		t.Fatal("no folding ranges")
	}
	runtime.GC()
	if s.ParseKept() {
		t.Fatal("the snapshot keeps the tree made for a request that is done")
	}
	if s.Analysed() {
		t.Fatal("the syntax made the analysis")
	}
}
