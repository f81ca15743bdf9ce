package completion

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/core/internal/coretest"
	"wfl-lsp/core/internal/featuretest"
	"wfl-lsp/core/presentation"
	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/parser"
)

func labels(items []Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Label)
	}
	return out
}

func has(items []Item, label string) bool {
	for _, it := range items {
		if it.Label == label {
			return true
		}
	}
	return false
}

func TestCompletion(t *testing.T) {
	src := "store first name as \"Al\"\nstore first total as 1\n" +
		"create container Pet:\n    property legs: Number\n    action speak:\n        display legs\n    end\nend\n" +
		"create new Pet as rex:\n    legs is 4\nend\n" +
		"define action called greet with who:\n    display who\nend action\n"
	complete := func(text string, snippets bool) ([]Item, string) {
		full := src + text
		a := featuretest.AnalysisOf(t, full)
		span, items := List(a, len(full), Options{Snippets: snippets})
		return items, full[span.Start:span.End]
	}

	// A multi-word prefix: both variables start with "first", only one with "first na".
	items, prefix := complete("display first na", false)
	if prefix != "first na" || !has(items, "first name") || has(items, "first total") {
		t.Errorf("display first na: prefix %q items %v", prefix, labels(items))
	}
	items, _ = complete("display first", false)
	if !has(items, "first name") || !has(items, "first total") {
		t.Errorf("display first: %v", labels(items))
	}
	// Builtins and expression keywords in expressions, with their signature.
	items, _ = complete("display len", false)
	if !has(items, "length") {
		t.Errorf("display len: %v", labels(items))
	}
	// Statement keywords at the start of a line; snippets only when asked.
	items, _ = complete("che", false)
	if !has(items, "check if") || has(items, "check if … end check") {
		t.Errorf("che without snippets: %v", labels(items))
	}
	items, _ = complete("che", true)
	if !has(items, "check if … end check") {
		t.Errorf("che with snippets: %v", labels(items))
	}
	// Names declared later are not offered; parameters only inside their action.
	items, _ = complete("display wh", false)
	if has(items, "who") {
		t.Errorf("a parameter outside its action: %v", labels(items))
	}
	// Members after a dot.
	items, prefix = complete("display rex.le", false)
	if prefix != "le" || !has(items, "legs") {
		t.Errorf("rex.le: prefix %q items %v", prefix, labels(items))
	}
	items, _ = complete("display rex.", false)
	if !has(items, "legs") || !has(items, "speak") {
		t.Errorf("rex.: %v", labels(items))
	}
	// Nothing inside strings and comments.
	if items, _ = complete("display \"first", false); len(items) != 0 {
		t.Errorf("in a string: %v", labels(items))
	}
	if items, _ = complete("// first", false); len(items) != 0 {
		t.Errorf("in a comment: %v", labels(items))
	}
	// A member being typed in a container body, which the parser cannot
	// read yet (the whole container is a bad statement): member forms.
	items, _ = complete("create container Dog:\n    prop", false)
	if !has(items, "property") || has(items, "display") {
		t.Errorf("a member being typed: %v", labels(items))
	}
}

func TestSignatureHelp(t *testing.T) {
	src := "define action called area with width as number and height as number:\n    return width times height\nend action\n" +
		"store a as call area with 3 and 4\nstore n as length of \"abc\"\n"
	a := featuretest.AnalysisOf(t, src)
	sh := SignatureHelp(a, coretest.At(t, src, "3 and", 0, 0))
	if sh == nil || len(sh.Signatures) != 1 || sh.ActiveParam != 0 {
		t.Fatalf("at the first argument: %+v", sh)
	}
	sig := sh.Signatures[0]
	if sig.Label != "action area with width as number and height as number" || len(sig.Params) != 2 {
		t.Errorf("signature %+v", sig)
	}
	for _, p := range sig.Params {
		if !strings.Contains(sig.Label, p) {
			t.Errorf("parameter %q is not in the label", p)
		}
	}
	if sh := SignatureHelp(a, coretest.At(t, src, "4\n", 0, 1)); sh == nil || sh.ActiveParam != 1 {
		t.Errorf("at the second argument: %+v", sh)
	}
	if sh := SignatureHelp(a, coretest.At(t, src, `"abc"`, 0, 2)); sh == nil || !strings.HasPrefix(sh.Signatures[0].Label, "length(") {
		t.Errorf("in a builtin call: %+v", sh)
	}
	if sh := SignatureHelp(a, coretest.At(t, src, "return", 0, 2)); sh != nil {
		t.Errorf("outside calls: %+v", sh)
	}
}

// TestSignatureSpans: each parameter's offsets in the label are where the
// parameter is, also when its text occurs earlier in the label (Neovim 0.7,
// given a parameter as a string, searches for it after the first trigger
// character and highlights nothing for `substring(text as Text, …)`).
func TestSignatureSpans(t *testing.T) {
	src := "define action called f with x and a:\n    give back a\nend action\n" +
		"store s as \"hello\"\ndisplay call f with 1 and \ndisplay substring of s and \n"
	a := featuretest.AnalysisOf(t, src)
	for _, tt := range []struct {
		at     string
		label  string
		params []string
	}{
		{"call f with 1 and ", "action f with x and a", []string{"x", "a"}},
		{"substring of s and ", "substring(text as Text, start as Number, length as Number) -> Text", []string{"text as Text", "start as Number", "length as Number"}},
	} {
		sh := SignatureHelp(a, coretest.At(t, src, tt.at, 0, len(tt.at)))
		if sh == nil || len(sh.Signatures) == 0 {
			t.Fatalf("%q: no signature help", tt.at)
		}
		sig := sh.Signatures[0]
		if sig.Label != tt.label || !slices.Equal(sig.Params, tt.params) || len(sig.Spans) != len(tt.params) {
			t.Fatalf("%q: %+v", tt.at, sig)
		}
		last := 0
		for i, sp := range sig.Spans {
			if sig.Label[sp[0]:sp[1]] != tt.params[i] || sp[0] < last {
				t.Errorf("%q: parameter %d %q at %v reads %q", tt.at, i, tt.params[i], sp, sig.Label[sp[0]:sp[1]])
			}
			last = sp[1]
		}
		if want := strings.LastIndex(tt.label, tt.params[len(tt.params)-1]); sig.Spans[len(sig.Spans)-1][0] != want {
			t.Errorf("%q: the last parameter at %v, want %d", tt.at, sig.Spans[len(sig.Spans)-1], want)
		}
	}
}

func TestFuzzyMatch(t *testing.T) {
	for _, tt := range []struct {
		query, name string
		ok          bool
	}{
		{"", "anything", true},
		{"gtot", "grand total", true},
		{"GT", "grand total", true},
		{"grand t", "grand total", true},
		{"tg", "grand total", false},
		{"x", "grand total", false},
	} {
		if _, ok := presentation.FuzzyMatch(tt.query, tt.name); ok != tt.ok {
			t.Errorf("FuzzyMatch(%q, %q) = %v", tt.query, tt.name, ok)
		}
	}
	prefix, _ := presentation.FuzzyMatch("gr", "grand total")
	scattered, _ := presentation.FuzzyMatch("gr", "big rock")
	if prefix <= scattered {
		t.Errorf("a prefix (%d) should outrank a scattered match (%d)", prefix, scattered)
	}
}

// TestFuzzyMatchRanks checks the order workspace symbols come in, as
// gopls ranks: the name, a prefix in its case, in any case, a word of the
// name, a substring, an abbreviation; letters scattered through a name do
// not match.
func TestFuzzyMatchRanks(t *testing.T) {
	for _, tt := range []struct {
		query string
		names []string // best first
		none  []string // not matched
	}{
		{"Person", []string{"Person", "PersonCard", "personal note", "print_person", "unperson", "pear sonnet"}, []string{"Setup/teardown isolation", "pets on"}},
		{"grt", []string{"g_r_t", "greet"}, []string{"agreement"}},
		{"email", []string{"email", "emails", "test_email", "send_an_email", "myemailbox", "e_mail"}, []string{"Each matching line is a result"}},
		{"gtot", []string{"grand total"}, []string{"get_rotation"}},
		{"cnt", []string{"count_name_total"}, []string{"accent"}},
	} {
		last, lastName := 1<<30, ""
		for _, n := range tt.names {
			s, ok := presentation.FuzzyMatch(tt.query, n)
			if !ok {
				t.Errorf("%q does not match %q", tt.query, n)
				continue
			}
			if s >= last {
				t.Errorf("%q: %q (%d) ranks with or above %q (%d)", tt.query, n, s, lastName, last)
			}
			last, lastName = s, n
		}
		for _, n := range tt.none {
			if s, ok := presentation.FuzzyMatch(tt.query, n); ok {
				t.Errorf("%q matches %q (%d)", tt.query, n, s)
			}
		}
	}
}

func TestCompletionPrefixes(t *testing.T) {
	src := "store total as 1\nstore tone as 2\ndisplay tone\ncreate container Pet:\n    property legs: Number\n    action walk:\n        display le\n    end\nend\n"
	a := featuretest.AnalysisOf(t, src)
	// A prefix that is a keyword so far ("to") still completes names.
	off := strings.Index(src, "display tone") + len("display to")
	span, items := List(a, off, Options{})
	if src[span.Start:span.End] != "to" || !has(items, "total") {
		t.Errorf("to|: prefix %q items %v", src[span.Start:span.End], labels(items))
	}
	// Inside a method: the container's properties.
	if _, items := List(a, strings.Index(src, "le\n")+2, Options{}); !has(items, "legs") {
		t.Errorf("in a method: %v", labels(items))
	}
}

// TestParseWithoutLocal checks parseWithout, which parses again only the
// statements around a removed line when the text's units are at hand,
// against a parse of the whole text without the line: the block around the
// line is the same, for every line of the corpus programs (and a sample of
// the mutants), after random edits too (derived units).
func TestParseWithoutLocal(t *testing.T) {
	t.Parallel()
	stride, edits := 12, 3
	if testing.Short() {
		stride, edits = 60, 1
	}
	progs := coretest.OrSkip(t, stride)
	describe := func(n ast.Node) string {
		if n == nil {
			return "nil"
		}
		return fmt.Sprintf("%T [%d,%d)", n, n.Pos(), n.End())
	}
	lines := 0
	for n, path := range slices.Sorted(maps.Keys(progs)) {
		rng := rand.New(rand.NewPCG(uint64(n), 5))
		ws := core.NewWorkspace()
		uri := core.FileURI(path)
		s := ws.Open(uri, 1, progs[path])
		for k := 0; k <= edits; k++ {
			if k > 0 {
				s, _ = featuretest.ChangeAtRandom(t, ws, s, rng)
			}
			s.Diagnostics() // derived after an edit
			a := s.Analysis()
			text := a.Lines.Text() // the text it reads (a quote left open closed: Snapshot.ReadText)
			for range min(a.Lines.Count(), 40) {
				l := rng.IntN(a.Lines.Count())
				start, end := a.Lines.LineStart(l), a.Lines.LineEnd(l)
				indent := start
				for indent < end && (text[indent] == ' ' || text[indent] == '\t') {
					indent++
				}
				whole, _ := parser.Parse(text[:indent] + text[end:])
				want := describe(blockAt((&core.Analysis{Syntax: core.Syntax{File: whole}}), indent))
				got := describe(blockAt((&core.Analysis{Syntax: core.Syntax{File: a.ParseWithout(indent, end), Lines: a.Lines}}), indent))
				if got != want {
					t.Fatalf("%s (edit %d), line %d without [%d,%d): block %s, want %s\ntext:\n%s", path, k, l+1, indent, end, got, want, text)
				}
				lines++
			}
		}
	}
	t.Logf("%d programs, %d lines removed", len(progs), lines)
}

// TestCompletionMax checks that a completion asked for at most n items
// returns the first n of the whole list, at every line end of a generated
// document, and that the case-insensitive prefix test agrees with
// strings.ToLower.
func TestCompletionMax(t *testing.T) {
	text := benchdoc.Dense(240)
	a := featuretest.AnalysisOf(t, text)
	for off := range len(text) {
		if text[off] != '\n' && text[off] != '+' {
			continue
		}
		for _, snippets := range []bool{false, true} {
			span, all := List(a, off, Options{Snippets: snippets})
			for _, n := range []int{1, 7, 60} {
				s, some := List(a, off, Options{Snippets: snippets, Max: n})
				if s != span || !reflect.DeepEqual(some, all[:min(n, len(all))]) {
					t.Fatalf("at %d, max %d: %v %v, want the first of %v %v", off, n, s, labels(some), span, labels(all))
				}
			}
		}
	}
	for _, s := range []string{"Total", "total", "TOTAL_c1", "tot", "", "Émile", "émile", "straße", "STRASSE", "\u212a"} {
		for _, p := range []string{"", "t", "to", "total_c", "é", "e\u0301", "stra", "k", "\u212a"} {
			lower := strings.ToLower(p)
			if got, want := core.HasPrefixFold(s, lower), strings.HasPrefix(strings.ToLower(s), lower); got != want {
				t.Errorf("HasPrefixFold(%q, %q) = %v, want %v", s, lower, got, want)
			}
		}
	}
}

// TestSignatureHelpPicks: signature help on a builtin whose name is a
// keyword (`push with`), and the overload the first argument's type
// chooses.
func TestSignatureHelpPicks(t *testing.T) {
	src := "store evens as [2, 4]\npush with evens and \nstore i as index_of of \"abc\" and \nstore j as index_of of evens and \n"
	a := featuretest.AnalysisOf(t, src)
	if sh := SignatureHelp(a, strings.Index(src, "and \n")+4); sh == nil || sh.ActiveParam != 1 || !strings.HasPrefix(sh.Signatures[0].Label, "push(") {
		t.Errorf("push with evens and ‸: %+v", sh)
	}
	for _, tt := range []struct{ at, want string }{
		{"\"abc\" and ", "collection as Text"},
		{"of evens and \n", "collection as List"},
	} {
		sh := SignatureHelp(a, strings.Index(src, tt.at)+len(strings.TrimSuffix(tt.at, "\n")))
		if sh == nil || !strings.Contains(sh.Signatures[sh.ActiveSig].Label, tt.want) {
			t.Errorf("index_of of %s‸: %+v, want the signature with %q active", tt.at, sh, tt.want)
		}
	}
}
