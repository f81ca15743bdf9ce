package core_test

import (
	"maps"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
	"wfl-lsp/core"
	"wfl-lsp/core/fixes"
	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lint"
	"wfl-lsp/lang/token"
)

// TestFixesEqualFull edits each sampled corpus program (coretest.Programs) (and a sample of the
// mutants) at random, a chain of edits each, and after each edit asks for
// the fixes of a finding of the list the editor shows, preferring those
// of an undefined name, an unused variable, a name not in snake_case or a
// redeclaration: they are made from a partial analysis when one answers
// (Snapshot.Query and QueryName), or from the tree, and must be those a
// full analysis makes.
//
//	go test -run FixesEqualFull -stress N ./core
func TestFixesEqualFull(t *testing.T) {
	core.PartialEverywhere(t)
	stride, edits, seed := 6, 8, uint64(21)
	if testing.Short() {
		stride, edits = 60, 4
	}
	if *core.Stress > 0 {
		stride, edits, seed = 1, 24, uint64(*core.Stress)
	}
	progs := core.CorpusOrSkip(t, stride)
	compared, partial, made := 0, 0, 0
	for n, path := range slices.Sorted(maps.Keys(progs)) {
		rng := rand.New(rand.NewPCG(uint64(n), seed))
		ws, uri, s := core.OpenAnalysed(path, progs[path])
		for k := 0; k < edits; k++ {
			var e core.Edit
			s, e = core.ChangeAtRandom(t, ws, s, rng)
			_, shown := s.Tolerant()
			if len(shown) == 0 {
				continue
			}
			// Most often one whose fixes read the checker's facts.
			d := shown[rng.IntN(len(shown))]
			var facts []diag.Diagnostic
			for _, x := range shown {
				if strings.HasSuffix(x.Message, "is not defined") || strings.HasPrefix(x.Message, "Undefined action '") ||
					x.Code == "ANALYZE-UNUSED" || x.Code == lint.CodeName || strings.Contains(x.Message, "has already been defined") {
					facts = append(facts, x)
				}
			}
			if len(facts) > 0 && rng.IntN(4) > 0 {
				d = facts[rng.IntN(len(facts))]
			}
			got := fixes.At(t.Context(), s, d.Span)
			if !s.Analysed() {
				partial++
			}
			full := core.NewSnapshot(uri, s.Version, s.Text)
			full.Analysis() // every fix made from the full analysis
			want := fixes.At(t.Context(), full, d.Span)
			compared++
			made += len(want)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, edit %d ([%d,%d) ← %q), fixes of %q at %v: %s\ntext after:\n%s", path, k, e.Start, e.End, e.Text, d.Message, d.Span, core.Difference(got, want), s.Text)
			}
		}
	}
	t.Logf("%d programs; the fixes of %d findings compared (%d fixes), %d made without the full analysis", len(progs), compared, made, partial)
	if partial < compared/4 {
		t.Errorf("only %d of %d findings' fixes were made without the full analysis", partial, compared)
	}
}

// TestSnakeCaseFixWhileTyping: the rename to snake_case of a name just
// typed is made from the partial analysis that holds every place naming
// it, without a full analysis, and is the full analysis's; when the new
// name is written elsewhere in the file (declared far from the edit), the
// full analysis decides, and refuses a name that would be declared twice.
func TestSnakeCaseFixWhileTyping(t *testing.T) {
	core.PartialEverywhere(t)
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(t.TempDir(), "none"))
	for _, tt := range []struct {
		name, far string // far: a line added at the end of the file first
		wantFix   bool
	}{
		{"the new name is free", "", true},
		{"the new name is declared far below", "store my_count as 2\ndisplay my_count\n", false},
		{"the new name is a local of an action far below", "define action called far_away:\n    store my_count as 2\n    display my_count\nend action\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := benchdoc.Clean(600) + tt.far
			ws := core.NewWorkspace()
			uri := core.FileURI(filepath.Join(t.TempDir(), "typed.wfl"))
			s := ws.Open(uri, 1, text)
			s.Diagnostics()
			s.Analysis()
			at := strings.Index(text, "\ndisplay call") + 1
			s, err := ws.Change(uri, 2, core.Edit{Start: at, End: at, Text: "store myCount as 1\ndisplay myCount\n"})
			if err != nil {
				t.Fatal(err)
			}
			span := token.Span{Start: at + len("store "), End: at + len("store myCount")}
			got := fixes.At(t.Context(), s, span)
			full := core.NewSnapshot(uri, s.Version, s.Text)
			full.Analysis() // every fix made from the full analysis
			want := fixes.At(t.Context(), full, span)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s", core.Difference(got, want))
			}
			renamed := slices.ContainsFunc(got, func(f fixes.Fix) bool { return f.Kind == fixes.SnakeCase })
			if renamed != tt.wantFix {
				t.Fatalf("a rename to snake_case offered: %v, want %v (%v)", renamed, tt.wantFix, got)
			}
			if tt.wantFix && s.Analysed() {
				t.Error("the rename of a name just typed made the full analysis")
			}
		})
	}
}

// TestDeepTextsFixes asks the quick fixes of deepTexts (as
// TestDeepTextsEveryRequest asks core's requests): nothing recurses
// deeper than the parser's limit, so nothing overflows the stack.
//
// Not the texts of which only what opening them asks is asked (openedOnly):
// no fixes.
func TestDeepTextsFixes(t *testing.T) {
	eachDeepText(t, openedOnly, func(t *testing.T, _ *core.Workspace, s *core.Snapshot, _, src string) {
		fixes.All(s)
		fixes.At(t.Context(), s, token.Span{Start: 0, End: len(src)})
	})
}

// TestFixTitlesAreUTF8: the title of every fix of the texts
// TestMessagesAreUTF8 reads is valid UTF-8, as their messages are.
func TestFixTitlesAreUTF8(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, src := range core.UTF8Texts(t) {
		s := core.NewSnapshot(core.FileURI(filepath.Join(dir, "a.wfl")), 1, src)
		for _, fix := range fixes.At(t.Context(), s, token.Span{Start: 0, End: len(src)}) {
			if !utf8.ValidString(fix.Title) {
				t.Fatalf("fix title is not UTF-8: %q\nin %q", fix.Title, src)
			}
		}
	}
}
