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
	"wfl-lsp/core/presentation"
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
		for _, tok := range presentation.SemanticTokens(a, token.Span{Start: 0, End: len(src)}) {
			in("token", tok.Span)
			if tok.Span.Start < prevEnd {
				t.Errorf("%s: token %v overlaps the previous one ending at %d", f, tok.Span, prevEnd)
			}
			prevEnd = tok.Span.End
		}
		for _, fr := range presentation.FoldingRanges(&a.Syntax) {
			in("fold", token.Span{Start: fr.Start, End: fr.End})
		}
		var checkSyms func([]presentation.DocumentSymbol)
		checkSyms = func(ss []presentation.DocumentSymbol) {
			for _, s := range ss {
				in("symbol", s.Span)
				if s.Name == "" || s.NameSpan.Start < s.Span.Start || s.NameSpan.End > s.Span.End {
					t.Errorf("%s: bad symbol %+v", f, s)
				}
				checkSyms(s.Children)
			}
		}
		checkSyms(presentation.DocumentSymbols(a))
		for _, h := range presentation.InlayHints(a, token.Span{Start: 0, End: len(src)}) {
			in("inlay hint", token.Span{Start: h.Offset, End: h.Offset})
		}
		for _, l := range presentation.DocumentLinks(&a.Syntax, f) {
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
			// The span a proposal replaces holds the cursor, on its line
			// (an include's path replaces the name after it too).
			if sp, _ := completion.List(a, off, completion.Options{Snippets: true}); sp.Start > off || sp.End < off || a.Lines.Line(sp.Start) != a.Lines.Line(sp.End) {
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
			chain := presentation.SelectionRange(&a.Syntax, off)
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

func TestDocumentSymbols(t *testing.T) {
	a := core.AnalysisOf(t, core.FeatureSrc)
	syms := presentation.DocumentSymbols(a)
	var got []string
	var walk func(prefix string, ss []presentation.DocumentSymbol)
	walk = func(prefix string, ss []presentation.DocumentSymbol) {
		for _, s := range ss {
			got = append(got, prefix+s.Kind.String()+" "+s.Name)
			if s.NameSpan.Start < s.Span.Start || s.NameSpan.End > s.Span.End {
				t.Errorf("%s: name %v outside %v", s.Name, s.NameSpan, s.Span)
			}
			walk(prefix+"  ", s.Children)
		}
	}
	walk("", syms)
	want := []string{
		"action greet", "  parameter name",
		"variable first name",
		"container Person", "  property age", "  method birthday",
		"describe greeting", "  test says hello",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("outline:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestFoldingRanges(t *testing.T) {
	a := core.AnalysisOf(t, core.FeatureSrc)
	var got []string
	var closers []string
	for _, f := range presentation.FoldingRanges(&a.Syntax) {
		got = append(got, core.FeatureSrc[a.Lines.LineStart(a.Lines.Line(f.Start)):f.End])
		next := a.Lines.Line(f.End) + 1
		closers = append(closers, strings.TrimSpace(core.FeatureSrc[a.Lines.LineStart(next):a.Lines.LineEnd(next)]))
	}
	wantFirstLines := []string{
		"// Says hello", "define action called greet", "check if first name", "otherwise:",
		"create container Person", "    action birthday:", `describe "greeting"`, `    test "says hello"`,
	}
	wantClosers := []string{"define action called greet with name as text:", "end action", "otherwise:", "end check",
		"end", "end", "end describe", "end test"}
	if len(got) != len(wantFirstLines) {
		t.Fatalf("got %d folds, want %d:\n%s", len(got), len(wantFirstLines), strings.Join(got, "\n---\n"))
	}
	for i, g := range got {
		if !strings.HasPrefix(g, wantFirstLines[i]) {
			t.Errorf("fold %d starts %q, want %q", i, g, wantFirstLines[i])
		}
		if closers[i] != wantClosers[i] {
			t.Errorf("fold %d is followed by %q, want %q", i, closers[i], wantClosers[i])
		}
	}
}

func TestSelectionRange(t *testing.T) {
	a := core.AnalysisOf(t, core.FeatureSrc)
	off := core.At(t, core.FeatureSrc, "first name", 4, 2) // in `display length of first name`
	chain := presentation.SelectionRange(&a.Syntax, off)
	if len(chain) < 4 {
		t.Fatalf("chain too short: %v", chain)
	}
	if chain[0] != core.SpanOf(t, core.FeatureSrc, "first name", 4) {
		t.Errorf("innermost = %q, want the name", core.FeatureSrc[chain[0].Start:chain[0].End])
	}
	for i := 1; i < len(chain); i++ {
		if !(chain[i].Start <= chain[i-1].Start && chain[i-1].End <= chain[i].End) || chain[i] == chain[i-1] {
			t.Errorf("range %d %v does not strictly contain %v", i, chain[i], chain[i-1])
		}
	}
	if last := chain[len(chain)-1]; last != (token.Span{Start: 0, End: len(core.FeatureSrc)}) {
		t.Errorf("outermost = %v, want the whole text", last)
	}
}

func TestSemanticTokens(t *testing.T) {
	a := core.AnalysisOf(t, core.FeatureSrc)
	toks := presentation.SemanticTokens(a, token.Span{Start: 0, End: len(core.FeatureSrc)})
	find := func(s token.Span) *presentation.SemanticToken {
		for i := range toks {
			if toks[i].Span == s {
				return &toks[i]
			}
		}
		return nil
	}
	tests := []struct {
		span token.Span
		typ  presentation.SemType
		mods presentation.SemMods
	}{
		{core.SpanOf(t, core.FeatureSrc, "// Says hello to someone by name.", 0), presentation.SemComment, 0},
		{core.SpanOf(t, core.FeatureSrc, "define", 0), presentation.SemKeyword, 0},
		{core.SpanOf(t, core.FeatureSrc, "greet", 0), presentation.SemFunction, presentation.ModDeclaration},
		{core.SpanOf(t, core.FeatureSrc, "greet", 1), presentation.SemFunction, 0},
		{core.SpanOf(t, core.FeatureSrc, "first name", 0), presentation.SemVariable, presentation.ModDeclaration},
		{core.SpanOf(t, core.FeatureSrc, "first name", 1), presentation.SemVariable, 0},
		{core.SpanOf(t, core.FeatureSrc, `"Zoë 😀"`, 0), presentation.SemString, 0},
		{core.SpanOf(t, core.FeatureSrc, "1", 0), presentation.SemNumber, 0},
		{core.SpanOf(t, core.FeatureSrc, "Person", 0), presentation.SemClass, presentation.ModDeclaration},
		{core.SpanOf(t, core.FeatureSrc, "age", 0), presentation.SemProperty, presentation.ModDeclaration},
		{core.SpanOf(t, core.FeatureSrc, "length", 0), presentation.SemFunction, presentation.ModDefaultLibrary},
	}
	for _, tt := range tests {
		got := find(tt.span)
		if got == nil {
			t.Errorf("no token %q at %v", core.FeatureSrc[tt.span.Start:tt.span.End], tt.span)
			continue
		}
		if got.Type != tt.typ || got.Mods != tt.mods {
			t.Errorf("token %q = %s/%b, want %s/%b", core.FeatureSrc[tt.span.Start:tt.span.End],
				presentation.SemTypeNames[got.Type], got.Mods, presentation.SemTypeNames[tt.typ], tt.mods)
		}
	}
	// A range request returns exactly the tokens that overlap the range.
	r := token.Span{Start: core.At(t, core.FeatureSrc, "store", 0, 0), End: core.At(t, core.FeatureSrc, "check if", 0, 0)}
	part := presentation.SemanticTokens(a, r)
	var want []presentation.SemanticToken
	for _, tok := range toks {
		if tok.Span.End > r.Start && tok.Span.Start < r.End {
			want = append(want, tok)
		}
	}
	if len(part) != len(want) || len(part) == 0 {
		t.Errorf("range: %d tokens, want %d", len(part), len(want))
	}
}
