package core

import (
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// deepTexts are texts as deep as the parser accepts (their statements
// MaxDepth levels deep, or one level less) and deeper, in the shapes that
// nest: chains of operators, brackets, unary operators, calls, indexes,
// blocks, patterns. A chain of 291,000 operators ended the process with a
// stack overflow (fatal in Go: no recover catches it) in the linter.
func deepTexts() map[string]string {
	const d = parser.MaxDepth
	rep := strings.Repeat
	return map[string]string{
		"chain at the limit":        "store x as 1" + rep(" + 1", d-2) + "\ndisplay x\n",
		"chain of 291,000":          "store x as 1" + rep(" + 1", 291000) + "\ndisplay x\n",
		"concatenation":             "store x as \"a\"" + rep(" with \"b\"", d-3) + "\ndisplay x\n",
		"parentheses":               "store x as " + rep("(", d-3) + "1" + rep(")", d-3) + "\ndisplay x\n",
		"lists":                     "store x as " + rep("[", d-3) + "1" + rep("]", d-3) + "\ndisplay x\n",
		"calls":                     "store x as " + rep("length of ", d/2-2) + "\"a\"\ndisplay x\n",
		"indexes":                   "store l as [1]\nstore x as l" + rep("[0]", d-3) + "\ndisplay x\n",
		"blocks at the limit":       rep("check if yes:\n", d/2-1) + "display 1\n" + rep("end check\n", d/2-1),
		"blocks past the limit":     rep("check if yes:\n", d/2+1) + "display 1\n" + rep("end check\n", d/2+1),
		"pattern groups":            "create pattern p:\n    " + rep("(", d-4) + "digit" + rep(")", d-4) + "\nend pattern\n",
		"chain in an action":        "define action called f with parameters n:\n    return n" + rep(" times n", d-5) + "\nend action\ndisplay f of 2\n",
		"chains, one too deep":      "store y as 1" + rep(" + 1", d-1) + "\nstore x as 1" + rep(" + 1", 100) + "\ndisplay x\ndisplay y\n",
		"unclosed deep parentheses": "display " + rep("(", 3*d),
	}
}

// TestDeepTextsEveryRequest runs every request of the core over deepTexts,
// at offsets spread over each text, after an edit too (the derived
// diagnostics and the partial analyses of queries): nothing recurses
// deeper than the parser's limit, so nothing overflows the stack.
func TestDeepTextsEveryRequest(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, src := range deepTexts() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ws := NewWorkspace()
			uri := FileURI(filepath.Join(dir, "deep.wfl"))
			s := ws.Open(uri, 1, src)
			if len(src) > 200<<10 || strings.HasPrefix(name, "blocks") {
				// A long text, or one whose formatting is quadratic (each
				// line indented as deep as it is): what opening it in an
				// editor or checking it asks, once.
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
			s2, err := ws.Change(uri, 2, Edit{Start: at, End: at, Text: " "})
			if err != nil {
				t.Fatal(err)
			}
			mid := len(s2.Text) / 2
			s2.Diagnostics()
			s2.Query(token.Span{Start: mid, End: mid}).Hover(mid)
			s2.RangeTokens(token.Span{Start: 0, End: len(s2.Text)}, nil)
		})
	}
}

// light asks s what opening the document in an editor asks.
func light(s *Snapshot, src string) {
	whole := token.Span{Start: 0, End: len(src)}
	s.Diagnostics()
	s.Tolerant()
	s.DocumentSymbols()
	s.Syntax().FoldingRanges()
	s.Syntax().SelectionRange(len(src) / 2)
	a := s.Analysis()
	a.Hover(len(src) / 2)
	a.SemanticTokens(whole)
	a.InlayHints(whole)
	a.CodeLenses()
	s.Format()
}

// every asks s everything a client can ask.
func every(t *testing.T, s *Snapshot, src string) {
	t.Helper()
	s.Diagnostics()
	s.Tolerant()
	s.DocumentSymbols()
	sy := s.Syntax()
	sy.FoldingRanges()
	s.Format()
	whole := token.Span{Start: 0, End: len(src)}
	for _, off := range []int{12, len(src) / 2, len(src) - 2} {
		if off < 0 || off > len(src) {
			continue
		}
		sy.SelectionRange(off)
		s.CloseBlock(off)
		q := s.Query(token.Span{Start: off, End: off})
		q.Hover(off)
		q.Definition(off)
		q.References(off, true)
		q.Completion(off, CompletionOptions{})
		q.SignatureHelp(off)
		a := s.Analysis()
		a.PrepareRename(off)
		a.Rename(off, "renamed")
		a.PrepareCallHierarchy(off)
		a.IncomingCalls(off)
		a.OutgoingCalls(off)
		a.TypeDefinition(off, Files{})
		a.Implementations(off, Files{})
	}
	a := s.Analysis()
	a.SemanticTokens(whole)
	a.InlayHints(whole)
	a.FlatSymbols()
	a.CodeLenses()
	s.RangeTokens(whole, nil)
	s.RangeHints(whole, nil)
	s.TokensSince(s.TokenBase())
}

// shapes are the forms FuzzShapes repeats: each is the text before a
// repeated part, the part, the text after it, and the closing part
// repeated as often (for brackets and blocks).
var shapes = []struct{ before, part, after, close string }{
	{"store x as 1", " + 1", "\ndisplay x\n", ""},
	{"store x as 1", " plus 1", "\n", ""},
	{"check if yes", " and yes", ":\n    display 1\nend check\n", ""},
	{"store x as \"a\"", " with \"b\"", "\n", ""},
	{"store x as ", "(", "1", ")"},
	{"store x as ", "not ", "yes\n", ""},
	{"store x as ", "-", "1\n", ""},
	{"store x as ", "[", "1", "]"},
	{"display ", "length of ", "\"a\"\n", ""},
	{"store l as [1]\ndisplay l", "[0]", "\n", ""},
	{"display x", " 1", "\n", ""},
	{"", "check if yes:\n", "display 1\n", "end check\n"},
	{"", "count from 1 to 2:\n", "display count\n", "end count\n"},
	{"", "try:\n", "display 1\n", "when error:\ndisplay 2\nend try\n"},
	{"create pattern p:\n", "(", "digit", ")"},
	{"create pattern p:\n", "one or more of ", "digit\nend pattern\n", ""},
	{"store x as 1 ", "@", "\n", ""},
	{"store x as 1 ", "é😀", "\n", ""},
	{"", "store v as 1\n", "", ""},
	{"define action called f:\n", "    return 1 + f of 1\n", "end action\n", ""},
}

// FuzzShapes builds texts of the shapes that make work grow (chains of
// operators, nesting of every kind, many findings on one line, many
// statements), as long or deep as the fuzzer chooses up to past the
// parser's limit, with the fuzzer's text put in the middle, and asks what
// opening them in an editor asks: nothing may crash (a stack overflow
// cannot be recovered), and every finding lies in the text. go test runs
// the seeds; by hand: go test -run '^$' -fuzz FuzzShapes -fuzztime 10m ./core
func FuzzShapes(f *testing.F) {
	for i := range shapes {
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
		sh := shapes[int(shape)%len(shapes)]
		count := int(n) % (3 * parser.MaxDepth)
		var b strings.Builder
		for r := 0; r <= int(reps)%4; r++ {
			b.WriteString(sh.before)
			b.WriteString(strings.Repeat(sh.part, count/2))
			b.WriteString(filler)
			b.WriteString(strings.Repeat(sh.part, count-count/2))
			b.WriteString(sh.after)
			b.WriteString(strings.Repeat(sh.close, count))
			b.WriteString("\n")
		}
		src := b.String()
		s := NewSnapshot(FileURI(filepath.Join(dir, "shape.wfl")), 1, src)
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
