package core

import (
	"strings"
	"testing"

	"wfl-lsp/lang/token"
)

// featureSrc exercises the position queries. Markers are found by text.
const featureSrc = `// Says hello to someone by name.
// Twice as friendly.
define action called greet with name as text:
    display "Hello, " with name
end action

store first name as "Zoë 😀"
call greet with first name
check if first name is "Zoë 😀":
    change first name to "Ann"
    display length of first name
otherwise:
    display "no"
end check

create container Person:
    property age: Number
    action birthday:
        change age to age plus 1
    end
end

describe "greeting":
    test "says hello":
        expect 1 to equal 1
    end test
end describe
`

func analysisOf(t *testing.T, src string) *Analysis {
	t.Helper()
	return NewSnapshot("file:///t.wfl", 1, src).Analysis()
}

// at returns the offset of the nth occurrence of needle plus delta.
func at(t *testing.T, src, needle string, nth, delta int) int {
	t.Helper()
	i := -1
	for k := 0; k <= nth; k++ {
		j := strings.Index(src[i+1:], needle)
		if j < 0 {
			t.Fatalf("%q #%d not found", needle, nth)
		}
		i += 1 + j
	}
	return i + delta
}

func spanOf(t *testing.T, src, needle string, nth int) token.Span {
	s := at(t, src, needle, nth, 0)
	return token.Span{Start: s, End: s + len(needle)}
}

func TestDocumentSymbols(t *testing.T) {
	a := analysisOf(t, featureSrc)
	syms := a.DocumentSymbols()
	var got []string
	var walk func(prefix string, ss []DocumentSymbol)
	walk = func(prefix string, ss []DocumentSymbol) {
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
	a := analysisOf(t, featureSrc)
	var got []string
	var closers []string
	for _, f := range a.FoldingRanges() {
		got = append(got, featureSrc[a.Lines.LineStart(a.Lines.Line(f.Start)):f.End])
		next := a.Lines.Line(f.End) + 1
		closers = append(closers, strings.TrimSpace(featureSrc[a.Lines.LineStart(next):a.Lines.LineEnd(next)]))
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
	a := analysisOf(t, featureSrc)
	off := at(t, featureSrc, "first name", 4, 2) // in `display length of first name`
	chain := a.SelectionRange(off)
	if len(chain) < 4 {
		t.Fatalf("chain too short: %v", chain)
	}
	if chain[0] != spanOf(t, featureSrc, "first name", 4) {
		t.Errorf("innermost = %q, want the name", featureSrc[chain[0].Start:chain[0].End])
	}
	for i := 1; i < len(chain); i++ {
		if !(chain[i].Start <= chain[i-1].Start && chain[i-1].End <= chain[i].End) || chain[i] == chain[i-1] {
			t.Errorf("range %d %v does not strictly contain %v", i, chain[i], chain[i-1])
		}
	}
	if last := chain[len(chain)-1]; last != (token.Span{Start: 0, End: len(featureSrc)}) {
		t.Errorf("outermost = %v, want the whole text", last)
	}
}

func TestSemanticTokens(t *testing.T) {
	a := analysisOf(t, featureSrc)
	toks := a.SemanticTokens(token.Span{Start: 0, End: len(featureSrc)})
	find := func(s token.Span) *SemanticToken {
		for i := range toks {
			if toks[i].Span == s {
				return &toks[i]
			}
		}
		return nil
	}
	tests := []struct {
		span token.Span
		typ  SemType
		mods SemMods
	}{
		{spanOf(t, featureSrc, "// Says hello to someone by name.", 0), SemComment, 0},
		{spanOf(t, featureSrc, "define", 0), SemKeyword, 0},
		{spanOf(t, featureSrc, "greet", 0), SemFunction, ModDeclaration},
		{spanOf(t, featureSrc, "greet", 1), SemFunction, 0},
		{spanOf(t, featureSrc, "first name", 0), SemVariable, ModDeclaration},
		{spanOf(t, featureSrc, "first name", 1), SemVariable, 0},
		{spanOf(t, featureSrc, `"Zoë 😀"`, 0), SemString, 0},
		{spanOf(t, featureSrc, "1", 0), SemNumber, 0},
		{spanOf(t, featureSrc, "Person", 0), SemClass, ModDeclaration},
		{spanOf(t, featureSrc, "age", 0), SemProperty, ModDeclaration},
		{spanOf(t, featureSrc, "length", 0), SemFunction, ModDefaultLibrary},
	}
	for _, tt := range tests {
		got := find(tt.span)
		if got == nil {
			t.Errorf("no token %q at %v", featureSrc[tt.span.Start:tt.span.End], tt.span)
			continue
		}
		if got.Type != tt.typ || got.Mods != tt.mods {
			t.Errorf("token %q = %s/%b, want %s/%b", featureSrc[tt.span.Start:tt.span.End],
				SemTypeNames[got.Type], got.Mods, SemTypeNames[tt.typ], tt.mods)
		}
	}
	// A range request returns exactly the tokens that overlap the range.
	r := token.Span{Start: at(t, featureSrc, "store", 0, 0), End: at(t, featureSrc, "check if", 0, 0)}
	part := a.SemanticTokens(r)
	var want []SemanticToken
	for _, tok := range toks {
		if tok.Span.End > r.Start && tok.Span.Start < r.End {
			want = append(want, tok)
		}
	}
	if len(part) != len(want) || len(part) == 0 {
		t.Errorf("range: %d tokens, want %d", len(part), len(want))
	}
}
