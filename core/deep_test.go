package core

import (
	"path/filepath"
	"strings"
	"testing"

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
	dir := t.TempDir()
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	for name, src := range deepTexts() {
		t.Run(name, func(t *testing.T) {
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
	s.FixAll()
	whole := token.Span{Start: 0, End: len(src)}
	s.Fixes(whole)
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
