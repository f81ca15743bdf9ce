package core_test

import (
	"path/filepath"
	"strings"
	"testing"
	"wfl-lsp/core"
	"wfl-lsp/core/completion"
	"wfl-lsp/core/navigation"
	"wfl-lsp/core/presentation"
	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// skipDeepUnderRace skips a test over core.DeepTexts under the race
// detector: stacks grown to the parser's depth, one workspace a text and
// nothing shared, 20 CPU-seconds there with nothing to find. CI runs it
// without it.
func skipDeepUnderRace(t *testing.T) {
	t.Helper()
	if testcorpus.Race {
		t.Skip("deep texts: run without -race")
	}
}

// eachDeepText runs test on each text of core.DeepTexts but those skip
// reports (nil: none), in a parallel subtest named after the text, the
// text opened as deep.wfl of a folder of t's in a workspace of its own.
// t runs in parallel with the other tests, and not under the race
// detector (skipDeepUnderRace).
func eachDeepText(t *testing.T, skip func(name, src string) bool, test func(t *testing.T, ws *core.Workspace, s *core.Snapshot, name, src string)) {
	t.Helper()
	t.Parallel()
	skipDeepUnderRace(t)
	dir := t.TempDir()
	for name, src := range core.DeepTexts() {
		if skip != nil && skip(name, src) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ws := core.NewWorkspace()
			test(t, ws, ws.Open(core.FileURI(filepath.Join(dir, "deep.wfl")), 1, src), name, src)
		})
	}
}

// openedOnly reports whether the deep text name is one of which only what
// opening it in an editor or checking it asks is asked, once (light): a
// long text, or one whose formatting is quadratic (each line indented as
// deep as it is).
func openedOnly(name, src string) bool {
	return len(src) > 200<<10 || strings.HasPrefix(name, "blocks")
}

// TestDeepTextsEveryRequest runs every request of the core over deepTexts,
// at offsets spread over each text, after an edit too (the derived
// diagnostics and the partial analyses of queries): nothing recurses
// deeper than the parser's limit, so nothing overflows the stack.
func TestDeepTextsEveryRequest(t *testing.T) {
	eachDeepText(t, nil, func(t *testing.T, ws *core.Workspace, s *core.Snapshot, name, src string) {
		if openedOnly(name, src) {
			light(s, src)
			return
		}
		every(t, s, src)
		// A keystroke at the end of the first line: derived
		// diagnostics, partial queries.
		at := strings.IndexByte(src, '\n')
		if at < 0 {
			at = len(src)
		}
		s2, err := ws.Change(s.URI, 2, core.Edit{Start: at, End: at, Text: " "})
		if err != nil {
			t.Fatal(err)
		}
		mid := len(s2.Text) / 2
		s2.Diagnostics()
		navigation.Hover(s2.Query(token.Span{Start: mid, End: mid}), mid)
		presentation.TokensIn(s2, token.Span{Start: 0, End: len(s2.Text)}, nil)
	})
}

// light asks s what opening the document in an editor asks.
func light(s *core.Snapshot, src string) {
	whole := token.Span{Start: 0, End: len(src)}
	s.Diagnostics()
	s.Tolerant()
	presentation.Outline(s)
	presentation.FoldingRanges(s.Syntax())
	presentation.SelectionRange(s.Syntax(), len(src)/2)
	a := s.Analysis()
	navigation.Hover(a, len(src)/2)
	presentation.SemanticTokens(a, whole)
	presentation.InlayHints(a, whole)
	navigation.CodeLenses(&a.Syntax)
	presentation.Format(s)
}

// every asks s everything a client can ask.
func every(t *testing.T, s *core.Snapshot, src string) {
	t.Helper()
	s.Diagnostics()
	s.Tolerant()
	presentation.Outline(s)
	sy := s.Syntax()
	presentation.FoldingRanges(sy)
	presentation.Format(s)
	whole := token.Span{Start: 0, End: len(src)}
	for _, off := range []int{12, len(src) / 2, len(src) - 2} {
		if off < 0 || off > len(src) {
			continue
		}
		presentation.SelectionRange(sy, off)
		presentation.CloseBlock(s, off)
		q := s.Query(token.Span{Start: off, End: off})
		navigation.Hover(q, off)
		navigation.Definition(q, off)
		navigation.References(q, off, true)
		completion.List(q, off, completion.Options{})
		completion.SignatureHelp(q, off)
		a := s.Analysis()
		navigation.PrepareRename(a, off)
		navigation.Rename(a, off, "renamed")
		navigation.PrepareCallHierarchy(a, off)
		navigation.IncomingCalls(a, off)
		navigation.OutgoingCalls(a, off)
		navigation.TypeDefinition(a, off, navigation.Files{})
		navigation.Implementations(a, off, navigation.Files{})
	}
	a := s.Analysis()
	presentation.SemanticTokens(a, whole)
	presentation.InlayHints(a, whole)
	presentation.FlatSymbols(a)
	navigation.CodeLenses(&a.Syntax)
	presentation.TokensIn(s, whole, nil)
	presentation.HintsIn(s, whole, nil)
	presentation.TokensSince(s, presentation.NewTokenBase(s))
}

// FuzzShapes builds texts of the shapes that make work grow (chains of
// operators, nesting of every kind, many findings on one line, many
// statements), as long or deep as the fuzzer chooses up to past the
// parser's limit, with the fuzzer's text put in the middle, and asks what
// opening them in an editor asks: nothing may crash (a stack overflow
// cannot be recovered), and every finding lies in the text. go test runs
// the seeds; by hand: go test -run '^$' -fuzz FuzzShapes -fuzztime 10m ./core
func FuzzShapes(f *testing.F) {
	for i := range core.Shapes {
		f.Add(uint8(i), uint16(200), uint8(1), "")
	}
	f.Add(uint8(0), uint16(parser.MaxDepth+1), uint8(1), "x")   // a chain past the limit
	f.Add(uint8(0), uint16(25000), uint8(0), "\n(")             // and far past, broken
	f.Add(uint8(4), uint16(parser.MaxDepth-3), uint8(0), "")    // brackets at the limit
	f.Add(uint8(14), uint16(parser.MaxDepth+1), uint8(0), "")   // a pattern's, past it
	f.Add(uint8(11), uint16(parser.MaxDepth/2+1), uint8(0), "") // blocks past it
	f.Add(uint8(16), uint16(20000), uint8(1), "é")              // findings on one line
	f.Add(uint8(18), uint16(3000), uint8(3), "end")             // statements, a stray end
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, shape uint8, n uint16, reps uint8, filler string) {
		t.Parallel()
		sh := core.Shapes[int(shape)%len(core.Shapes)]
		count := int(n) % (3 * parser.MaxDepth)
		var b strings.Builder
		for r := 0; r <= int(reps)%4; r++ {
			b.WriteString(sh.Before)
			b.WriteString(strings.Repeat(sh.Part, count/2))
			b.WriteString(filler)
			b.WriteString(strings.Repeat(sh.Part, count-count/2))
			b.WriteString(sh.After)
			b.WriteString(strings.Repeat(sh.Close, count))
			b.WriteString("\n")
		}
		src := b.String()
		s := core.NewSnapshot(core.FileURI(filepath.Join(dir, "shape.wfl")), 1, src)
		light(s, src)
		_, diags := s.Tolerant()
		for _, d := range diags {
			if d.Span.Start < 0 || d.Span.End > len(src) || d.Span.Start > d.Span.End {
				t.Fatalf("finding %q at %v outside a text of %d bytes", d.Message, d.Span, len(src))
			}
		}
		if deep := ast.Deeper(s.Analysis().File, parser.MaxDepth+1); deep != nil {
			t.Fatalf("a %T deeper than the parser's limit", deep)
		}
	})
}
