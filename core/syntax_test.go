package core

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"sort"
	"sync"
	"testing"
)

// TestSyntaxEqualsAnalysis edits every corpus program (and some mutants) at
// random and asks, after each edit, what the requests about the structure
// of the text answer (folding ranges, document links, selection ranges,
// on-type closers) of the snapshot's Syntax: each must be what a full
// analysis of the same text answers, and none may have made the
// snapshot's analysis. The analysis asked for after some of the edits
// must take over the syntax's parse, and find what an analysis of its own
// finds.
func TestSyntaxEqualsAnalysis(t *testing.T) {
	progs := corpusOrSkip(t, 60)
	paths := make([]string, 0, len(progs))
	for p := range progs {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	taken := 0
	for n, path := range paths {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		text := progs[path]
		ws, uri, s := openAnalysed(path, text)
		for k := range 3 {
			s, _ = changeAtRandom(t, ws, s, rng) // whole characters
			text = s.Text
			where := fmt.Sprintf("%s, edit %d", path, k)
			got := s.Syntax()
			want, _ := analyze(uri, text, disk)
			if s.analysed.Load() {
				t.Fatalf("%s: the syntax made a full analysis", where)
			}
			if g, w := got.FoldingRanges(), want.FoldingRanges(); !reflect.DeepEqual(g, w) {
				t.Fatalf("%s: folding ranges %v, want %v", where, g, w)
			}
			if g, w := got.DocumentLinks(path), want.DocumentLinks(path); !reflect.DeepEqual(g, w) {
				t.Fatalf("%s: links %v, want %v", where, g, w)
			}
			for range 8 {
				off := rng.IntN(len(text) + 1)
				if g, w := got.SelectionRange(off), want.SelectionRange(off); !reflect.DeepEqual(g, w) {
					t.Fatalf("%s: selection ranges at %d: %v, want %v", where, off, g, w)
				}
			}
			if s.analysed.Load() {
				t.Fatalf("%s: the syntax's answers made a full analysis", where)
			}
			if k == 1 {
				a := s.Analysis()
				if a.File != got.File {
					t.Fatalf("%s: the analysis parsed the text again", where)
				}
				taken++
				if d := firstDiff(sortedCopy(a.Diagnostics), sortedCopy(want.Diagnostics)); d != "" {
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
	_, text := nexusProgram(t)
	for i := range 8 {
		ws, uri, s := openAnalysed("/nowhere/typed.wfl", text)
		at := len(text) / 8 * i
		s, err := ws.Change(uri, 2, Edit{Start: at, End: at, Text: "\n"})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var folds []FoldingRange
		wg.Go(func() { folds = s.Syntax().FoldingRanges() })
		a := s.Analysis()
		wg.Wait()
		if want := a.FoldingRanges(); !reflect.DeepEqual(folds, want) {
			t.Fatalf("edit %d: folding ranges differ from the analysis's", i)
		}
	}
}

// TestSyntaxNotKept: the snapshot does not keep the tree its Syntax made
// once no request holds it, so that a client asking for folding ranges at
// every keystroke, and never for an analysis, does not keep a tree beside
// the analysis the queries start from.
func TestSyntaxNotKept(t *testing.T) {
	_, text := nexusProgram(t)
	ws, uri, s := openAnalysed("/nowhere/folded.wfl", text)
	s, err := ws.Change(uri, 2, Edit{Start: 0, End: 0, Text: "\n"})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Syntax().FoldingRanges()) == 0 {
		t.Fatal("no folding ranges")
	}
	runtime.GC()
	if s.parsed.Value() != nil {
		t.Fatal("the snapshot keeps the tree made for a request that is done")
	}
	if s.Analysed() {
		t.Fatal("the syntax made the analysis")
	}
}
