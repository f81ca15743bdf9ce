package core_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"wfl-lsp/core"
	"wfl-lsp/core/completion"
	"wfl-lsp/core/navigation"
	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/token"
)

func TestDefinitionAndReferences(t *testing.T) {
	a := core.AnalysisOf(t, core.FeatureSrc)
	decl := core.SpanOf(t, core.FeatureSrc, "first name", 0)
	for nth := 0; nth < 5; nth++ {
		for _, d := range []int{0, 3, len("first name")} {
			off := core.At(t, core.FeatureSrc, "first name", nth, d)
			got := navigation.Definition(a, off)
			if len(got) != 1 || got[0] != decl {
				t.Errorf("Definition at use %d+%d = %v, want %v", nth, d, got, decl)
			}
		}
	}
	refs := navigation.References(a, core.At(t, core.FeatureSrc, "first name", 2, 1), true)
	if len(refs) != 5 {
		t.Fatalf("References = %d, want 5: %v", len(refs), refs)
	}
	for i, r := range refs {
		want := core.SpanOf(t, core.FeatureSrc, "first name", i)
		if r.Span != want {
			t.Errorf("reference %d = %v, want %v", i, r.Span, want)
		}
		if r.Decl != (i == 0) || r.Write != (i == 0 || i == 3) {
			t.Errorf("reference %d: decl %v write %v", i, r.Decl, r.Write)
		}
	}
	if n := len(navigation.References(a, decl.Start, false)); n != 4 {
		t.Errorf("References without declaration = %d, want 4", n)
	}
	// A parameter and its use.
	param := core.SpanOf(t, core.FeatureSrc, "name", 1) // "greet with name"
	if got := navigation.Definition(a, core.At(t, core.FeatureSrc, "with name", 1, 5)); len(got) != 1 || got[0] != param {
		t.Errorf("Definition of parameter use = %v, want %v", got, param)
	}
	// Not a name.
	if got := navigation.Definition(a, core.At(t, core.FeatureSrc, `"Hello`, 0, 2)); got != nil {
		t.Errorf("Definition inside a string = %v", got)
	}
}

func TestHover(t *testing.T) {
	a := core.AnalysisOf(t, core.FeatureSrc)
	tests := []struct {
		off  int
		want []string
	}{
		{core.At(t, core.FeatureSrc, "first name", 1, 2), []string{"variable first name: Text", "Declared on line 7."}},
		{core.At(t, core.FeatureSrc, "greet", 1, 0), []string{"action greet with name as text", "Says hello to someone by name.\nTwice as friendly."}},
		{core.At(t, core.FeatureSrc, "name", 2, 1), []string{"parameter name"}},
		{core.At(t, core.FeatureSrc, "length", 0, 2), []string{"builtin", "length("}},
		{core.At(t, core.FeatureSrc, "store", 0, 1), []string{"store NAME as VALUE"}},
		{core.At(t, core.FeatureSrc, "Person", 0, 1), []string{"container Person", "property age"}},
		{core.At(t, core.FeatureSrc, "age", 2, 0), []string{"property age"}},
	}
	for _, tt := range tests {
		h := navigation.Hover(a, tt.off)
		if h == nil {
			t.Errorf("Hover(%d %q) = nil", tt.off, core.FeatureSrc[tt.off:tt.off+6])
			continue
		}
		md := h.Markdown()
		for _, w := range tt.want {
			if !strings.Contains(md, w) && !strings.Contains(h.Kind, w) {
				t.Errorf("Hover(%d %q) = %q, want it to contain %q", tt.off, core.FeatureSrc[tt.off:tt.off+6], md, w)
			}
		}
		if h.Span.Start > tt.off || h.Span.End < tt.off {
			t.Errorf("Hover(%d) span %v does not hold the offset", tt.off, h.Span)
		}
	}
	if h := navigation.Hover(a, core.At(t, core.FeatureSrc, `"no"`, 0, 1)); h != nil {
		t.Errorf("Hover in a string = %+v", h)
	}
}

// TestQueriesOnCorpus runs every query at many offsets of every corpus
// program and checks the answers are well formed: spans inside the text,
// tokens in order and disjoint, selection chains nested, no panics.
func TestQueriesOnCorpus(t *testing.T) {
	t.Parallel()
	root := filepath.Join(testcorpus.Dir(t), "wfl")
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".wfl") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatal("no corpus programs at " + root)
	}
	if testing.Short() && len(files) > 40 {
		files = files[:40]
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		a := core.AnalysisOf(t, src)
		in := func(what string, s token.Span) {
			if s.Start < 0 || s.End > len(src) || s.Start > s.End {
				t.Errorf("%s: %s span %v outside the text (%d bytes)", f, what, s, len(src))
			}
		}
		prevEnd := 0
		for _, tok := range a.SemanticTokens(token.Span{Start: 0, End: len(src)}) {
			in("token", tok.Span)
			if tok.Span.Start < prevEnd {
				t.Errorf("%s: token %v overlaps the previous one ending at %d", f, tok.Span, prevEnd)
			}
			prevEnd = tok.Span.End
		}
		for _, fr := range a.FoldingRanges() {
			in("fold", token.Span{Start: fr.Start, End: fr.End})
		}
		var checkSyms func([]core.DocumentSymbol)
		checkSyms = func(ss []core.DocumentSymbol) {
			for _, s := range ss {
				in("symbol", s.Span)
				if s.Name == "" || s.NameSpan.Start < s.Span.Start || s.NameSpan.End > s.Span.End {
					t.Errorf("%s: bad symbol %+v", f, s)
				}
				checkSyms(s.Children)
			}
		}
		checkSyms(a.DocumentSymbols())
		for _, h := range a.InlayHints(token.Span{Start: 0, End: len(src)}) {
			in("inlay hint", token.Span{Start: h.Offset, End: h.Offset})
		}
		for _, l := range a.DocumentLinks(f) {
			in("link", l.Span)
		}
		step := len(src)/100 + 1
		for off := 0; off <= len(src); off += step {
			for _, s := range navigation.Definition(a, off) {
				in("definition", s)
			}
			for _, r := range navigation.References(a, off, true) {
				in("reference", r.Span)
			}
			if h := navigation.Hover(a, off); h != nil {
				in("hover", h.Span)
				if h.Markdown() == "" {
					t.Errorf("%s: empty hover at %d", f, off)
				}
			}
			if sp, name, err := navigation.PrepareRename(a, off); err == nil {
				in("rename", sp)
				edits, err := navigation.Rename(a, off, name+" renamed")
				if err == nil && len(edits) == 0 {
					t.Errorf("%s: renaming %q at %d gives no edits", f, name, off)
				}
			}
			if sp, _ := completion.List(a, off, completion.Options{Snippets: true}); sp.Start > sp.End || sp.End != off && off <= len(src) {
				t.Errorf("%s: completion span %v at %d", f, sp, off)
			}
			completion.SignatureHelp(a, off)
			if it, ok := navigation.PrepareCallHierarchy(a, off); ok {
				in("call item", it.Span)
				for _, c := range append(navigation.IncomingCalls(a, off), navigation.OutgoingCalls(a, off)...) {
					for _, s := range c.Spans {
						in("call", s)
					}
				}
			}
			chain := a.SelectionRange(off)
			for i := 1; i < len(chain); i++ {
				if !(chain[i].Start <= chain[i-1].Start && chain[i-1].End <= chain[i].End) {
					t.Errorf("%s: selection range not nested at %d", f, off)
				}
			}
		}
	}
}

// TestHoverInBrokenLine: a name in a line being typed (a statement the
// parser cannot read, so the tree has no identifier there) still has its
// hover and definition, resolved where the statement stands; multi-word
// names and builtins included.
func TestHoverInBrokenLine(t *testing.T) {
	text := "define action called sum numbers with a and b:\n    return a plus b\nend action\n" +
		"store total as 1\ndisplay call sum numbers with total and 1+\ndisplay length of\n"
	a := core.AnalysisOf(t, text)
	for _, c := range []struct {
		at, name, kind string
		def            string // the declaration's text, or "" for none
	}{
		{"numbers with total", "sum numbers", "action", "sum numbers"},
		{"total and", "total", "variable", "total"},
		{"length of", "length", "builtin", ""},
	} {
		off := strings.LastIndex(text, c.at) + 1
		h := navigation.Hover(a, off)
		if h == nil || h.Name != c.name || h.Kind != c.kind {
			t.Errorf("hover at %q: %+v, want %s %q", c.at, h, c.kind, c.name)
		}
		var defs []string
		for _, sp := range navigation.Definition(a, off) {
			defs = append(defs, text[sp.Start:sp.End])
		}
		if want := []string{c.def}; c.def == "" && len(defs) > 0 || c.def != "" && !slices.Equal(defs, want) {
			t.Errorf("definition at %q: %q, want %q", c.at, defs, c.def)
		}
	}
	if h := navigation.Hover(a, strings.LastIndex(text, "1+")+1); h != nil && h.Kind != "" && h.Kind != "keyword" {
		t.Errorf("hover on a number of a broken line: %+v", h)
	}
}
