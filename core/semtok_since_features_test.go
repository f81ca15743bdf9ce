package core_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/token"
)

// TestTokensSinceEqualsFull edits each sampled corpus program (coretest.Programs) (and a sample of
// the mutants) at random, a chain of edits each, and after each edit the
// editor asks does (most of the time) builds the document's semantic
// tokens from the last version it has tokens for (Snapshot.TokensSince),
// the reused stretches' tokens moved from that version's, and compares
// them with a full analysis's of the same text. The tokens built are the
// next version's starting point, so an error carries on to the end of the
// chain.
//
//	go test -run TokensSinceEqualsFull ./core -args -stress=N
func TestTokensSinceEqualsFull(t *testing.T) {
	core.PartialEverywhere(t)
	progs, edits, seed := featureChains(t, 5)
	var asked, built, reusedUnits, units int
	for n, path := range slices.Sorted(maps.Keys(progs)) {
		rng := rand.New(rand.NewPCG(uint64(n), seed))
		ws := core.NewWorkspace()
		uri := core.FileURI(path)
		s := ws.Open(uri, 1, progs[path])
		s.Diagnostics()
		whole := token.Span{Start: 0, End: len(s.Text)}
		// The texts compared are those the features read: with a quote left
		// open, the text with it closed on its line (Snapshot.ReadText).
		prev, prevText, base := presentation.SemanticTokens(s.Analysis(), whole), s.ReadText(), presentation.NewTokenBase(s)
		for k := 0; k < edits; k++ {
			var e core.Edit
			var asks bool
			if s, e, asks = editBeforeTokens(t, ws, s, rng); !asks {
				continue // a version the editor asked no tokens of
			}
			asked++
			whole = token.Span{Start: 0, End: len(s.Text)}
			want := presentation.SemanticTokens(core.FullAnalysisIn(ws, uri, s.Text), whole)
			got := want
			if stretches, ok := presentation.TokensSince(s, base); ok {
				built++
				var err error
				if got, err = composeTokens(stretches, prev, prevText, s.ReadText()); err != nil {
					t.Fatalf("%s, edit %d ([%d,%d) ← %q): %v\ntext after:\n%s", path, k, e.Start, e.End, e.Text, err, s.Text)
				}
				us, starts := s.Units()
				for _, x := range stretches {
					if x.Reused() {
						reusedUnits += core.UnitAt(starts, x.Span.End-1) - core.UnitAt(starts, x.Span.Start) + 1
					}
				}
				units += len(us)
			}
			if d := diffTokens(got, want); d != "" {
				t.Fatalf("%s, edit %d ([%d,%d) ← %q): tokens built from the last version's differ from a full analysis's: %s\ntext after:\n%s",
					path, k, e.Start, e.End, e.Text, d, s.Text)
			}
			prev, prevText, base = got, s.ReadText(), presentation.NewTokenBase(s)
		}
	}
	t.Logf("%d programs, %d token requests, %d built from the last version's (%d of their %d units reused)", len(progs), asked, built, reusedUnits, units)
	if built < asked/2 || reusedUnits < units/2 {
		t.Errorf("%d of %d requests built from the last version's, %d of %d units reused", built, asked, reusedUnits, units)
	}
}

// featureChains returns what the feature properties that edit sampled
// corpus programs in chains take (TestTokensSinceEqualsFull,
// TestRangeAnswersEqualFull, TestOutlineEqualsFull): the programs
// (core.CorpusOrSkip: every sixth mutant), the chains' length (10 edits)
// and the seed of the edits (seed); with -short every 60th mutant and 6
// edits; with -stress every mutant, 40 edits and the -stress seed.
func featureChains(t *testing.T, seed uint64) (map[string]string, int, uint64) {
	t.Helper()
	stride, edits := 6, 10
	if testing.Short() {
		stride, edits = 60, 6
	}
	if *core.Stress > 0 {
		stride, edits, seed = 1, 40, uint64(*core.Stress)
	}
	return core.CorpusOrSkip(t, stride), edits, seed
}

// editBeforeTokens makes a random edit of s in ws (core.ChangeAtRandom)
// and asks the new version what an editor asks before its semantic
// tokens: in one version of six nothing (asks is false: no tokens are
// asked of it), in another the whole analysis (a whole-document request:
// then the full analysis answers the other units), and in half of those
// asked the diagnostics first (the publisher was first).
func editBeforeTokens(t *testing.T, ws *core.Workspace, s *core.Snapshot, rng *rand.Rand) (_ *core.Snapshot, _ core.Edit, asks bool) {
	t.Helper()
	s, e := core.ChangeAtRandom(t, ws, s, rng)
	switch rng.IntN(6) {
	case 0:
		return s, e, false
	case 1:
		s.Analysis()
	}
	if rng.IntN(2) == 0 {
		s.Diagnostics()
	}
	return s, e, true
}

// composeTokens builds a text's tokens from its stretches: given, or the
// earlier version's (prev, of prevText) in From, moved to Span, whose text
// must be the same.
func composeTokens(stretches []presentation.TokenStretch, prev []presentation.SemanticToken, prevText, text string) ([]presentation.SemanticToken, error) {
	var out []presentation.SemanticToken
	at := 0
	for _, x := range stretches {
		if x.Span.Start != at {
			return nil, fmt.Errorf("stretch %v after %d", x.Span, at)
		}
		at = x.Span.End
		if !x.Reused() {
			out = append(out, x.Tokens...)
			continue
		}
		if text[x.Span.Start:x.Span.End] != prevText[x.From.Start:x.From.End] {
			return nil, fmt.Errorf("stretch %v reuses %v, another text", x.Span, x.From)
		}
		for _, t := range prev {
			if t.Span.Start >= x.From.Start && t.Span.Start < x.From.End {
				t.Span.Start += x.Span.Start - x.From.Start
				t.Span.End += x.Span.Start - x.From.Start
				out = append(out, t)
			}
		}
	}
	if at != len(text) {
		return nil, fmt.Errorf("the stretches end at %d of %d", at, len(text))
	}
	return out, nil
}

func diffTokens(got, want []presentation.SemanticToken) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("token %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d tokens, want %d", len(got), len(want))
	}
	return ""
}

// TestRangeAnswersEqualFull edits corpus programs at random and asks, after
// each edit, the semantic tokens and the inlay hints of a range of lines
// around a place that moves now and then (a visible range while typing),
// built from the last answers (Snapshot.RangeTokens, Snapshot.RangeHints),
// and compares them with a full analysis's of the range.
func TestRangeAnswersEqualFull(t *testing.T) {
	core.PartialEverywhere(t)
	progs, edits, seed := featureChains(t, 7)
	var asked, tokens, reused, hints, reusedHints int
	for n, path := range slices.Sorted(maps.Keys(progs)) {
		rng := rand.New(rand.NewPCG(uint64(n), seed))
		ws, uri, s := core.OpenAnalysed(path, progs[path])
		var prev *presentation.RangeTokens
		var prevHints *presentation.RangeHints
		center := rng.IntN(len(s.Text) + 1)
		for k := 0; k < edits; k++ {
			var e core.Edit
			var asks bool
			if s, e, asks = editBeforeTokens(t, ws, s, rng); !asks {
				continue // a version the editor asked no tokens of
			}
			// A range of whole lines around center, which drifts now and
			// then (the editor scrolls).
			if rng.IntN(4) == 0 {
				center += rng.IntN(201) - 100
			}
			center = min(max(0, center), len(s.Text))
			l := s.QueryLines()
			line := l.Line(center)
			span := token.Span{Start: l.LineStart(max(0, line-15)), End: len(s.Text)}
			if end := line + 15; end < l.Count() {
				span.End = l.LineStart(end)
			}
			if rng.IntN(8) == 0 {
				span = token.Span{Start: rng.IntN(len(s.Text) + 1), End: len(s.Text)} // any stretch
				span.End = span.Start + rng.IntN(len(s.Text)-span.Start+1)
			}
			asked++
			full := core.FullAnalysisIn(ws, uri, s.Text)
			want := presentation.SemanticTokens(full, span)
			got := presentation.TokensIn(s, span, prev)
			gotHints := presentation.HintsIn(s, span, prevHints)
			if wantHints := presentation.InlayHints(full, span); !slices.Equal(gotHints.Hints(), wantHints) {
				t.Fatalf("%s, edit %d ([%d,%d) ← %q), range [%d,%d): inlay hints built from the last answer's differ from a full analysis's:\n got %v\nwant %v\ntext after:\n%s",
					path, k, e.Start, e.End, e.Text, span.Start, span.End, gotHints.Hints(), wantHints, s.Text)
			}
			if d := diffTokens(got.Tokens(), want); d != "" {
				t.Fatalf("%s, edit %d ([%d,%d) ← %q), range [%d,%d): tokens built from the last answer's differ from a full analysis's: %s\ntext after:\n%s",
					path, k, e.Start, e.End, e.Text, span.Start, span.End, d, s.Text)
			}
			if prev != nil {
				tokens += len(want)
				reused += got.Reused()
				hints += len(gotHints.Hints())
				reusedHints += gotHints.Reused()
			}
			prev, prevHints = got, gotHints
		}
	}
	t.Logf("%d programs, %d range requests; after the first of each, %d tokens, %d of them the last answer's, and %d inlay hints, %d of them the last answer's",
		len(progs), asked, tokens, reused, hints, reusedHints)
	// Small programs: many edits connect most units, or change the whole
	// analysis.
	if reused < tokens/5 || reusedHints < hints/5 {
		t.Errorf("only %d of %d tokens and %d of %d hints were the last answer's", reused, tokens, reusedHints, hints)
	}
}
