package core

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/core/internal/coretest"
	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

// The corpus sample and the -stress flag, shared with the feature
// packages' tests (coretest).
var (
	stress         = coretest.Stress
	corpusPrograms = coretest.Programs
	corpusOrSkip   = coretest.OrSkip
)

// nexusProgram returns the path and text of the corpus's largest program,
// nexus.wfl, or skips tb when there is no corpus.
func nexusProgram(tb testing.TB) (path, text string) {
	tb.Helper()
	path = testcorpus.Path(tb, "wfl/experiments/nexus/nexus.wfl")
	return path, testcorpus.Read(tb, "wfl/experiments/nexus/nexus.wfl")
}

// openAnalysed opens text as the document at path in a new workspace, with
// its diagnostics and its analysis computed: the state the edits of a
// property test derive from, and the base its partial analyses start from.
func openAnalysed(path, text string) (*Workspace, URI, *Snapshot) {
	ws := NewWorkspace()
	uri := FileURI(path)
	s := ws.Open(uri, 1, text)
	s.Diagnostics()
	s.Analysis()
	return ws, uri, s
}

// changeAtRandom makes a coretest.RandomEdit of s, widened to whole
// characters, in ws, and returns the new snapshot and the edit.
func changeAtRandom(t *testing.T, ws *Workspace, s *Snapshot, rng *rand.Rand) (*Snapshot, Edit) {
	t.Helper()
	from, to, ins := coretest.RandomEdit(rng, s.Text)
	e := Edit{Text: ins}
	e.Start, e.End = coretest.OnRunes(s.Text, from, to)
	next, err := ws.Change(s.URI, s.Version+1, e)
	if err != nil {
		t.Fatal(err)
	}
	return next, e
}

// diffParseFindings compares the parse findings of each unit of a derived
// state with the full state's, those the assembled list leaves out (raised
// before the first) too: they come back when the first is gone. (In what
// order a unit's were raised may differ: a statement parsed ahead of a
// block the layout ended raises its findings then.)
func diffParseFindings(got, full *diagState) string {
	if !slices.Equal(got.starts, full.starts) {
		return "the units start elsewhere"
	}
	for i := range got.units {
		g, f := got.units[i].d.unpack(), full.units[i].d.unpack()
		sortDiagnostics(g.parse)
		sortDiagnostics(f.parse)
		if !slices.EqualFunc(g.parse, f.parse, func(x, y diag.Diagnostic) bool {
			return x.Span == y.Span && x.Code == y.Code && x.Message == y.Message && x.Kind == y.Kind
		}) {
			return fmt.Sprintf("unit %d (at %d): parse findings %v %v, the full state's %v %v", i, got.starts[i], g.parse, g.raised, f.parse, f.raised)
		}
		if g, f := got.units[i].facts(), full.units[i].facts(); (g.ahead > 0) != (f.ahead > 0) || g.stray != f.stray || g.strayAt != f.strayAt {
			return fmt.Sprintf("unit %d (at %d): read ahead %d (stray %v at %d), the full state's %d (%v at %d)", i, got.starts[i], g.ahead, g.stray, g.strayAt, f.ahead, f.stray, f.strayAt)
		}
	}
	return ""
}

// TestIncrementalEqualsFull edits each sampled corpus program (coretest.Programs) (and a sample of the
// mutants) at random, a chain of edits each, and checks that the
// diagnostics derived edit by edit equal those of a full analysis of the
// edited text, and that the full state's equal the analysis's own.
func TestIncrementalEqualsFull(t *testing.T) {
	t.Parallel()
	stride, edits, seed := 8, 24, uint64(7)
	if testing.Short() {
		stride, edits = 30, 8
	}
	if *stress > 0 { // go test -run IncrementalEqualsFull ./core -args -stress=N
		stride, edits, seed = 1, 60, uint64(*stress)
	}
	progs := corpusOrSkip(t, stride)
	paths := slices.Sorted(func(yield func(string) bool) {
		for p := range progs {
			if !yield(p) {
				return
			}
		}
	})
	const uri = URI("file:///nowhere/edited.wfl")
	derived, full := 0, 0
	for n, path := range paths {
		rng := rand.New(rand.NewPCG(uint64(n), seed))
		text := progs[path]
		st := fullStateOf(uri, text)
		for k := 0; k < edits; k++ {
			from, to, ins := coretest.RandomEdit(rng, text)
			next := text[:from] + ins + text[to:]
			var ok bool
			st, ok = deriveChecked(t, fmt.Sprintf("%s, edit %d ([%d,%d) ← %q)", path, k, from, to, ins), st, text, next)
			if ok {
				derived++
			} else {
				full++
			}
			text = next
		}
	}
	t.Logf("%d programs, %d edits derived, %d fell back to a full analysis", len(paths), derived, full)
	if derived < full {
		t.Errorf("most edits (%d of %d) fell back to a full analysis", full, derived+full)
	}
}

// deriveChecked derives the state of next from st, the state of text,
// and checks it against a full analysis of next: the diagnostics, the
// tolerant ones, the line table, the shapes, each unit's parse findings
// and the units with findings. It returns the state (the full one when
// the derivation gave up) and whether the derivation made it.
func deriveChecked(t *testing.T, what string, st *diagState, text, next string) (*diagState, bool) {
	t.Helper()
	const uri = URI("file:///nowhere/edited.wfl")
	a, raw := analyze(uri, next, disk)
	want := sortedCopy(a.Diagnostics)
	fs := fullState(next, a, &raw)
	if d := firstDiff(fs.assemble(), want); d != "" {
		t.Fatalf("%s: the full state differs from the analysis: %s", what, d)
	}
	got := derive(st, next, ConfigFor(uri), sameEnds{}, nil)
	if got == nil {
		return fs, false
	}
	if d := firstDiff(got.assemble(), want); d != "" {
		t.Fatalf("%s: derived diagnostics differ: %s\ntext before:\n%s\ntext after:\n%s", what, d, text, next)
	}
	if d := firstDiff(slices.Collect(got.tolerant()), slices.Collect(fs.tolerant())); d != "" {
		t.Fatalf("%s: derived tolerant diagnostics differ: %s\ntext after:\n%s", what, d, next)
	}
	if !sameLines(got.lines, a.Lines) {
		t.Fatalf("%s: derived line table differs", what)
	}
	// The work of reading ahead is estimated, within the margin of half
	// the bound that derive keeps (workFar).
	if got.toks != fs.toks || 2*(got.work+got.extra) < fs.work {
		t.Fatalf("%s: derived %d tokens and %d+%d steps read ahead, a full analysis %d and %d", what, got.toks, got.work, got.extra, fs.toks, fs.work)
	}
	if d := diffShapes(got); d != "" {
		t.Fatalf("%s: %s\ntext after:\n%s", what, d, next)
	}
	if d := diffParseFindings(got, fs); d != "" {
		t.Fatalf("%s: %s\ntext after:\n%s", what, d, next)
	}
	if carried, scanned := got.withFindings(), scanFindings(got); !slices.Equal(carried, scanned) {
		t.Fatalf("%s: the units with findings carried over are %v, not %v", what, carried, scanned)
	}
	return got, true
}

func sameLines(x, y *token.Lines) bool {
	if x.Count() != y.Count() || x.Text() != y.Text() {
		return false
	}
	for i := range x.Count() {
		if x.LineStart(i) != y.LineStart(i) {
			return false
		}
	}
	return true
}

func fullStateOf(uri URI, text string) *diagState {
	a, raw := analyze(uri, text, disk)
	return fullState(text, a, &raw)
}

func sortedCopy(ds []diag.Diagnostic) []diag.Diagnostic {
	out := slices.Clone(ds)
	sortDiagnostics(out)
	return out
}

// firstDiff describes the first difference between two diagnostic lists.
func firstDiff(got, want []diag.Diagnostic) string {
	for i := 0; i < max(len(got), len(want)); i++ {
		if i >= len(got) {
			return fmt.Sprintf("missing %d: %+v", i, want[i])
		}
		if i >= len(want) {
			return fmt.Sprintf("extra %d: %+v", i, got[i])
		}
		g, w := got[i], want[i]
		if len(g.Related) == 0 && len(w.Related) == 0 {
			g.Related, w.Related = nil, nil
		}
		if !reflect.DeepEqual(g, w) {
			return fmt.Sprintf("at %d: got %+v, want %+v", i, got[i], want[i])
		}
	}
	return ""
}

// BenchmarkDerive times the diagnostics of an edited 1,000- and 10,000-line
// document (with 4 warnings a chunk, and clean) two ways on the same edits: derived from the previous version's
// (what the server does) and by a full analysis (what it did before), and
// reports the ratio. Each edit retypes one digit in a different chunk.
//
//	go test -run '^$' -bench Derive ./core
func BenchmarkDerive(b *testing.B) {
	const uri = URI("file:///bench.wfl")
	cfg := ConfigFor(uri)
	for _, doc := range []string{"lines=1000", "lines=10000", "clean/lines=1000", "clean/lines=10000"} {
		var lines int
		fmt.Sscanf(doc[strings.Index(doc, "=")+1:], "%d", &lines)
		text := benchText(lines)
		if strings.HasPrefix(doc, "clean") {
			text = benchdoc.Clean(lines)
		}
		var spots []int
		for i := 0; ; {
			j := strings.Index(text[i:], " as 0\n")
			if j < 0 {
				break
			}
			spots = append(spots, i+j+len(" as "))
			i += j + 1
		}
		// The texts are made before timing: the document, and versions of
		// it with one digit changed, which the edits go to and back from.
		var versions []string
		for k := range 32 {
			p := spots[(k*37)%len(spots)]
			versions = append(versions, text[:p]+string(rune('1'+k%9))+text[p+1:])
		}
		edit := func(i int) string {
			if i%2 == 1 {
				return text
			}
			return versions[(i/2)%len(versions)]
		}
		b.Run("derived/"+doc, func(b *testing.B) {
			st := fullStateOf(uri, text)
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				if st = derive(st, edit(i), cfg, sameEnds{}, nil); st == nil {
					b.Fatal("the edit fell back to a full analysis")
				}
				st.assemble() // the list the server publishes
			}
		})
		b.Run("full/"+doc, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				analyze(uri, edit(i), disk)
			}
		})
	}
}

// FuzzIncremental derives the diagnostics of an edited program from the
// original's and compares them, and the tolerant list, with a full
// analysis of the edited text.
//
//	go test -fuzz FuzzIncremental ./core
func FuzzIncremental(f *testing.F) {
	seeds := []string{
		"store x as 1\ndisplay x\n",
		"define action called f with a:\n    return a\nend action\ndisplay f of 1\n",
		"store s as \"abc\"\ndisplay s\n",
		"check if yes:\n    display 1\nend check\nstore y as 2\n",
		"create container Box:\n    property size: Number\nend container\ncreate new Box as b:\n    size is 1\nend\n",
		"wait for request comes in on server as req\ndisplay path\n",
		// Writes that keep a type, and writes that change it (Info.Retyped).
		"store n as 0\nstore m as nothing\ncount from 1 to 3:\n    change n to n plus count\nend count\nchange m to n\ndisplay n with m\n",
		"define action called g:\n    display 1\nend action\nstore h as 1\nchange h to g\ncall h\nchange h to 2\n",
		"create list xs:\n    add 1\nend list\nadd 2 to xs\nadd \"a\" to xs\ndisplay xs\n",
		// Blocks left open one after another, each reading on to the end.
		"define action called a with parameters n:\n    display n\ndefine action called b:\n    check if yes:\n        display 2\ndefine action called c:\n    display 3\nstore z as 3\ndisplay z\n",
		// Characters WFL does not know: runs of them, and more on a line
		// than the lexer keeps apart (lexer.MaxDroppedOnLine).
		"store a as 1 @@ 2\ndisplay a @ @ @ @ @ @ @ @ @ @ @ @ @ @\nstore b as a @ x @ x @ x @ x @ x @ x @ x @ x @ x @ x @ x @\ndisplay b\n",
	}
	for i, s := range seeds {
		f.Add(s, uint16(i*7), uint16(3), coretest.Snippets[i%len(coretest.Snippets)])
	}
	const uri = URI("file:///nowhere/fuzzed.wfl")
	cfg := ConfigFor(uri)
	f.Fuzz(func(t *testing.T, text string, at, cut uint16, ins string) {
		if len(text) > 4096 || len(ins) > 256 {
			return
		}
		from := int(at) % (len(text) + 1)
		to := min(len(text), from+int(cut)%16)
		next := text[:from] + ins + text[to:]
		st := fullStateOf(uri, text)
		got := derive(st, next, cfg, sameEnds{}, nil)
		if got == nil {
			return
		}
		a, _ := analyze(uri, next, disk)
		if d := firstDiff(got.assemble(), sortedCopy(a.Diagnostics)); d != "" {
			t.Fatalf("[%d,%d) ← %q: %s\nbefore:\n%s\nafter:\n%s", from, to, ins, d, text, next)
		}
		if d := firstDiff(slices.Collect(got.tolerant()), slices.Collect(fullStateOf(uri, next).tolerant())); d != "" {
			t.Fatalf("[%d,%d) ← %q: tolerant: %s\nbefore:\n%s\nafter:\n%s", from, to, ins, d, text, next)
		}
	})
}

// TestIncrementalCases walks through edits whose effect reaches beyond the
// statement edited, and checks that the derived diagnostics say what a full
// analysis says, and that the edit was derived, not analysed in full.
// expectTotal reads total where the unused-variable rule does not count
// reads (TestIncrementalCases).
const expectTotal = "describe \"sum\":\n    test \"is 0\":\n        expect total to equal 0\n    end test\nend describe\n"

func TestIncrementalCases(t *testing.T) {
	const uri = URI("file:///nowhere/cases.wfl")
	cfg := ConfigFor(uri)
	filler := strings.Repeat("display \"filler\"\n", 20)
	tests := []struct {
		name, before, after string
		want                string // a message the edited text must draw, or "" for none
	}{
		{"a line added above a redeclaration moves the line it names",
			"store total as 1\n" + filler + "store total as 2\n",
			"\nstore total as 1\n" + filler + "store total as 2\n",
			"already been defined at line 2"},
		{"the lines deleted before a block move the line its redeclaration names",
			"display 1\ndisplay 2\ntry:\n    store result as 1\n    store result as 2\nwhen error:\n    display 3\nend try\n",
			"try:\n    store result as 1\n    store result as 2\nwhen error:\n    display 3\nend try\n",
			"already been defined at line 2"},
		{"deleting a declaration makes its uses undefined",
			"store total as 1\n" + filler + "display total\n",
			"\n" + filler + "display total\n",
			"Variable 'total' is not defined"},
		{"declaring a name fixes its uses further down",
			filler + "display total\n",
			"store total as 1\n" + filler + "display total\n",
			""},
		{"an unclosed quote swallows the rest",
			"store a as 1\n" + filler + "display a\n",
			"store a as \"1\n" + filler + "display a\n",
			""},
		{"a name without a declaration is placed at line 1, as in a full analysis",
			filler + "count from 1 to 3:\n    display count\nend count\n",
			filler + "count from 1 to 3:\n    store count as 5\nend count\n",
			"already been defined at line 1"},
		{"an edit between an unused variable and its read in an expect moves the read",
			"store total as 0\n" + filler + "display 1\n" + filler + "describe \"sum\":\n    test \"is 0\":\n        expect total to equal 0\n    end test\nend describe\n",
			"store total as 0\n" + filler + "display 100\n" + filler + "describe \"sum\":\n    test \"is 0\":\n        expect total to equal 0\n    end test\nend describe\n",
			"Unused variable 'total'"},
		{"an edit of one of many reads the unused-variable rule does not count checks every read",
			"store total as 0\n" + filler + strings.Repeat(expectTotal, 4) + "describe \"sum\":\n    test \"is 0\":\n        expect total to equal 0\n    end test\nend describe\n",
			"store total as 0\n" + filler + strings.Repeat(expectTotal, 4) + "describe \"sum\":\n    test \"is 0\":\n        expect total to equal 1\n    end test\nend describe\n",
			"Unused variable 'total'"},
		{"an edited header access is checked with the headers a wait for request binds",
			"listen on port 8080 as srv\nwait for request comes in on srv as req\n" + filler + "store dummy as \"x\"\nstore h as header \"A\" of dummy\ndisplay h\n",
			"listen on port 8080 as srv\nwait for request comes in on srv as req\n" + filler + "store dummy as \"x\"\nstore h as header \"B\" of dummy\ndisplay h\n",
			""},
		{"a line added below a redefinition moves the line of the action defined further down it names",
			"store helper as 1\n" + filler + "define action called helper:\n    display 1\nend action\n",
			"store helper as 1\ndisplay 2\n" + filler + "define action called helper:\n    display 1\nend action\n",
			"already been defined at line 23"},
		{"a read of what the first of two wait for request binds, checked again, is checked after it",
			"wait for request comes in on s1 as request1\ndisplay method with path\n    display \"x\"\n\nwait for request comes in on s2 as req3\n",
			"wait for request comes in on s1 as request1\ndisplay method with path\n\nwait for request comes in on s2 as req3\n",
			""},
		{"renaming an action leaves its call undefined",
			"define action called greet with name:\n    display name\nend action\n" + filler + "call greet with \"x\"\n",
			"define action called meet with name:\n    display name\nend action\n" + filler + "call greet with \"x\"\n",
			"greet"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := derive(fullStateOf(uri, tt.before), tt.after, cfg, sameEnds{}, nil)
			if got == nil {
				t.Fatal("the edit fell back to a full analysis")
			}
			a, _ := analyze(uri, tt.after, disk)
			diags := got.assemble()
			if d := firstDiff(diags, sortedCopy(a.Diagnostics)); d != "" {
				t.Fatalf("derived diagnostics differ from a full analysis: %s", d)
			}
			if tt.want != "" && !slices.ContainsFunc(diags, func(d diag.Diagnostic) bool { return strings.Contains(d.Message, tt.want) }) {
				t.Errorf("no diagnostic says %q: %+v", tt.want, diags)
			}
		})
	}
}

// TestIncrementalReadAhead edits a block whose closer is missing, whose
// body the layout ends where a later statement stops it: reading ahead to
// there, the block's parse raises findings of the statements it reads,
// which their own units then leave out, and a clause word starting a
// statement past the stretch continues it. The derived findings, unit by
// unit, are a full analysis's (each case the smallest edit of the corpus's
// mutants, -stress, that differed, or one like it).
func TestIncrementalReadAhead(t *testing.T) {
	const uri = URI("file:///nowhere/ahead.wfl")
	cfg := ConfigFor(uri)
	for _, c := range []struct{ name, before, after string }{
		{"deleting the header that read ahead leaves the findings to the statements it read",
			"check if bad is no:\nstore a as 1\ncheck if x:\ncheck if y:\notherwise:\notherwise:\n",
			"store a as 1\ncheck if x:\ncheck if y:\notherwise:\notherwise:\n"},
		{"a header typed in a body makes the block read ahead past the next statement",
			"    check if s:\n            end check\n  otherwise check if a:\n  otherwise check if b:\n",
			"    check if s:\n        check if c:\n    end check\n  otherwise check if a:\n  otherwise check if b:\n"},
		{"deleting the header that read ahead gives back the findings its blocks dropped",
			"check if m is greater than n:\ncheck if r2 is 1:\nend check\ncheck if r1 is 2:\nend ion)\n",
			"end check\ncheck if r1 is 2:\nend ion)\n"},
		{"deleting a try's closer lets a clause past the stretch, after clean statements, continue it",
			"display 0\ntry:\n    display 1\nend try\ndisplay 2\ndisplay 3\ndisplay 4\nwhen error:\n",
			"display 0\ntry:\n    display 1\ndisplay 2\ndisplay 3\ndisplay 4\nwhen error:\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := derive(fullStateOf(uri, c.before), c.after, cfg, sameEnds{}, nil)
			if got == nil {
				t.Fatal("the edit fell back to a full analysis")
			}
			a, raw := analyze(uri, c.after, disk)
			if d := firstDiff(got.assemble(), sortedCopy(a.Diagnostics)); d != "" {
				t.Errorf("derived diagnostics differ from a full analysis: %s", d)
			}
			if d := diffParseFindings(got, fullState(c.after, a, &raw)); d != "" {
				t.Errorf("derived parse findings differ from a full analysis's: %s", d)
			}
		})
	}
}

// diffShapes says how the shapes a state carries (shape.go) differ from
// those of its units' texts, and its quoteFrom from multilineString's
// reading of the whole text; "" when they do not.
func diffShapes(s *diagState) string {
	if len(s.shapes) != len(s.units) {
		return fmt.Sprintf("%d shapes for %d units", len(s.shapes), len(s.units))
	}
	for i := range s.units {
		if want := describeShape(s.text, s.starts[i], s.end(i), s.units[i].keys()); s.shape(i) != want {
			return fmt.Sprintf("unit %d (at %d): shape %b, its text's %b", i, s.starts[i], s.shape(i), want)
		}
	}
	if got, want := s.quoteFrom(), multilineString(s.text); got != want {
		return fmt.Sprintf("quoteFrom %d, multilineString %d", got, want)
	}
	return ""
}

// TestSameEndsMatchDiff checks what a snapshot knows of the ends its text
// shares with its diagnostics base's (from the edits, across versions
// whose diagnostics were never computed and changes of several edits)
// against the texts compared from their ends: diffRange gives the same
// range either way. The line table a change carries over from the version
// before is checked against the text's too.
func TestSameEndsMatchDiff(t *testing.T) {
	t.Parallel()
	progs := corpusOrSkip(t, 12)
	compared, composed, spliced := 0, 0, 0
	for n, path := range slices.Sorted(mapsKeys(progs)) {
		rng := rand.New(rand.NewPCG(uint64(n), 9))
		ws := NewWorkspace()
		uri := FileURI(path)
		s := ws.Open(uri, 1, progs[path])
		s.Diagnostics()
		for k := 0; k < 12; k++ {
			var edits []Edit
			text := s.Text
			for e := 1 + rng.IntN(3); e > 0; e-- {
				from, to, ins := coretest.RandomEdit(rng, text)
				from, to = coretest.OnRunes(text, from, to)
				edits = append(edits, Edit{Start: from, End: to, Text: ins})
				text = text[:from] + ins + text[to:]
			}
			next, err := ws.Change(uri, s.Version+1, edits...)
			if err != nil {
				t.Fatal(err)
			}
			if l := next.lines.Load(); l != nil {
				spliced++
				if !sameLines(l, token.NewLines(next.Text)) {
					t.Fatalf("%s, change %d (%v): the line table that followed the edit differs from the text's", path, k, edits)
				}
			}
			if base := next.base.Load(); base != nil {
				if !next.same.known {
					t.Fatalf("%s, change %d: the ends are not known", path, k)
				}
				if base != s {
					composed++
				}
				f, oe, ne := diffRange(base.Text, next.Text, next.same)
				wf, woe, wne := diffRange(base.Text, next.Text, sameEnds{})
				if f != wf || oe != woe || ne != wne {
					t.Fatalf("%s, change %d (%v): diffRange with %+v gives [%d,%d)->[%d,%d), want [%d,%d)->[%d,%d)",
						path, k, edits, next.same, f, oe, f, ne, wf, woe, wf, wne)
				}
				compared++
			}
			s = next
			if rng.IntN(3) == 0 {
				s.Diagnostics() // the next base
			}
		}
	}
	t.Logf("%d changes compared, %d of them from a base several versions back; %d line tables followed an edit", compared, composed, spliced)
	if composed == 0 || spliced == 0 {
		t.Error("no change from a base several versions back, or no line table that followed an edit")
	}
}

// TestEditsOfConnectedProgramsDerive types a blank, then a letter, at the
// end of every line of code (every eighth under the race detector) of three
// corpus programs whose statements are connected through a few names, and
// checks that at least 9 edits in 10 derive their diagnostics, equal to a
// full analysis's: nexus, the
// largest, whose statements call the same actions; and two programs of
// tests, whose every test writes the counts of passed and failed tests
// (the writes that keep a counter's type connect no test to another).
func TestEditsOfConnectedProgramsDerive(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"experiments/nexus/nexus.wfl", "TestPrograms/crypto_auth_primitives_test.wfl", "TestPrograms/database_sqlite_test.wfl"} {
		t.Run(filepath.Base(name), func(t *testing.T) {
			t.Parallel()
			text := testcorpus.Read(t, "wfl/"+name)
			const uri = URI("file:///nowhere/edited.wfl")
			cfg := ConfigFor(uri)
			st := fullStateOf(uri, text)
			derived, edits := 0, 0
			lines, stride := 0, testcorpus.RaceStride(8)
			for off := 0; off < len(text); {
				end := strings.IndexByte(text[off:], '\n')
				if end < 0 {
					end = len(text) - off
				}
				line := text[off : off+end]
				at := off + len(strings.TrimRight(line, "\r"))
				off += end + 1
				if code := strings.TrimSpace(line); code == "" || strings.HasPrefix(code, "//") {
					continue
				}
				if lines++; lines%stride != 0 {
					continue
				}
				for _, ins := range []string{" ", "x"} { // a blank, and a name or a word made longer
					next := text[:at] + ins + text[at:]
					edits++
					got := derive(st, next, cfg, sameEnds{}, nil)
					if got == nil {
						continue
					}
					derived++
					a, _ := analyze(uri, next, disk)
					if d := firstDiff(got.assemble(), sortedCopy(a.Diagnostics)); d != "" {
						t.Fatalf("%q typed at %d: derived diagnostics differ: %s", ins, at, d)
					}
				}
			}
			t.Logf("%d of %d edits derived", derived, edits)
			if derived < edits*9/10 {
				t.Errorf("only %d of %d edits derived: the rest needed a full analysis", derived, edits)
			}
		})
	}
}

// scanFindings is diagState.withFindings by visiting every unit.
func scanFindings(s *diagState) []int32 {
	var out []int32
	for i, u := range s.units {
		if u.d != nil {
			out = append(out, int32(i))
		}
	}
	return out
}

// TestEditKeepsUnitsAround checks that the units parsed again only for the
// parser's sake (the one before an edit, always) stay the previous
// version's when they come out the same: only the edited unit is new, so
// the edit reaches only what that one names. Deleting a whole statement
// leaves no new unit at all.
func TestEditKeepsUnitsAround(t *testing.T) {
	const uri = URI("file:///nowhere/kept.wfl")
	text := benchdoc.Clean(200)
	st := fullStateOf(uri, text)
	i := len(st.units) / 2
	at := st.end(i) - 1 // the end of unit i's last line
	next := text[:at] + " plus 1" + text[at:]
	got := derive(st, next, ConfigFor(uri), sameEnds{}, nil)
	if got == nil {
		t.Fatal("the edit was not derived")
	}
	for k, u := range got.units {
		if fresh := !slices.Contains(st.units, u) && !slices.Contains(st.units, u.origin); fresh != (k == i) {
			t.Errorf("unit %d of %d: new %t after an edit of unit %d", k, len(got.units), fresh, i)
		}
	}
	next = text[:st.starts[i]] + text[st.end(i):]
	if got = derive(st, next, ConfigFor(uri), sameEnds{}, nil); got == nil {
		t.Fatal("the deletion was not derived")
	}
	for k, u := range got.units {
		if !slices.Contains(st.units, u) && !slices.Contains(st.units, u.origin) {
			t.Errorf("unit %d is new after a statement was deleted", k)
		}
	}
}

// TestSeedingFollowsSecureCalls edits a program whose random_seed calls
// are errors because it also calls a security builtin (check's
// insecureSeeding): every random_seed finding depends on whether any
// statement makes such a call. Each edit is derived, the findings are a
// full analysis's, and they come and go with the last such call.
func TestSeedingFollowsSecureCalls(t *testing.T) {
	const uri = URI("file:///nowhere/seeded.wfl")
	const secure, used = "store token as secure_random_bytes of 16\n", "display token\n"
	var b strings.Builder
	b.WriteString("random_seed of 1\n")
	for i := range 40 {
		fmt.Fprintf(&b, "store n%d as random_int of 1 and 6\ndisplay n%d\n", i, i)
	}
	b.WriteString(secure + used + "random_seed of 2\n")
	text := b.String()
	st := fullStateOf(uri, text)
	// Each edit is found in the text as the edits before left it.
	edits := []struct {
		what         string
		at           func(text string) (from, to int)
		ins          string
		wantInsecure int // random_seed findings after the edit
	}{
		{"a statement far from both", func(text string) (int, int) {
			i := strings.Index(text, "display n20") + len("display n20")
			return i, i
		}, " plus 1", 2},
		{"the secure call deleted", func(text string) (int, int) {
			i := strings.Index(text, secure)
			return i, i + len(secure+used)
		}, "", 0},
		{"the secure call typed again", func(text string) (int, int) {
			i := strings.Index(text, "random_seed of 2")
			return i, i
		}, secure + used, 2},
		{"a random_seed call edited", func(string) (int, int) { return 0, len("random_seed of 1") }, "random_seed of 7", 2},
	}
	for _, e := range edits {
		from, to := e.at(text)
		next := text[:from] + e.ins + text[to:]
		got := derive(st, next, ConfigFor(uri), sameEnds{}, nil)
		if got == nil {
			t.Fatalf("%s: not derived", e.what)
		}
		a, _ := analyze(uri, next, disk)
		want := sortedCopy(a.Diagnostics)
		if d := firstDiff(got.assemble(), want); d != "" {
			t.Fatalf("%s: derived diagnostics differ: %s", e.what, d)
		}
		n := 0
		for _, d := range want {
			if d.Code == "ANALYZE-SECURITY" {
				n++
			}
		}
		if n != e.wantInsecure {
			t.Fatalf("%s: %d insecure seedings, want %d", e.what, n, e.wantInsecure)
		}
		st, text = got, next
	}
}

// closerLineRE matches a line that holds only a block's closer.
var closerLineRE = regexp.MustCompile(`(?m)^[ \t]*end( [a-z]+)?[ \t]*\r?\n`)

// keepsReaders reports whether derive takes the edit of text into next
// without parsing again the blocks above it whose closer is missing
// (reparse's readers, readersKeep).
func keepsReaders(st *diagState, next string) bool {
	from, oldEnd, newEnd := diffRange(st.text, next, sameEnds{})
	_, _, _, readers, ok := st.stretch(next, from, oldEnd, newEnd-oldEnd)
	return ok && len(readers) > 0
}

// TestEditsBelowAnOpenBlock deletes the first closer of each program (its
// block is then left open, the layout ending it) and edits the program at
// random below the block, a chain of edits each: the blocks whose closer
// is missing read on past the edits, and are parsed again only when an
// edit changed what they read. The diagnostics derived edit by edit must
// equal those of a full analysis, as in TestIncrementalEqualsFull, and
// some edits must keep the blocks as they were.
func TestEditsBelowAnOpenBlock(t *testing.T) {
	t.Parallel()
	// A third of coretest.Programs' programs (every 12th) and every 12th
	// mutant (every program and a third of the mutants: 58 s); -stress: all.
	stride, programs, edits, seed := 12, 3, 12, uint64(11)
	if testing.Short() {
		stride, edits = 30, 6
	}
	if *stress > 0 {
		stride, programs, edits, seed = 1, 1, 40, uint64(*stress)
	}
	progs := corpusOrSkip(t, stride)
	paths := slices.Sorted(maps.Keys(progs))
	const uri = URI("file:///nowhere/edited.wfl")
	for _, every := range []bool{false, true} {
		what := "its first closer deleted"
		if every {
			what = "every closer deleted"
		}
		kept, derived, full, tried := 0, 0, 0, 0
		for n, path := range paths {
			if n%programs != 0 && !strings.Contains(path, "wfl-mutants") {
				continue
			}
			loc := closerLineRE.FindStringIndex(progs[path])
			if loc == nil || loc[1] > len(progs[path])/2 {
				continue
			}
			tried++
			text := progs[path][:loc[0]] + progs[path][loc[1]:]
			if every {
				text = progs[path][:loc[0]] + closerLineRE.ReplaceAllString(progs[path][loc[0]:], "")
			}
			st := fullStateOf(uri, text)
			rng := rand.New(rand.NewPCG(uint64(n), seed))
			for k := 0; k < edits; k++ {
				below := loc[0] + (len(text)-loc[0])/2
				from, to, ins := coretest.RandomEdit(rng, text[below:])
				from, to = from+below, to+below
				next := text[:from] + ins + text[to:]
				keeps := keepsReaders(st, next)
				var ok bool
				st, ok = deriveChecked(t, fmt.Sprintf("%s, %s, edit %d ([%d,%d) ← %q)", path, what, k, from, to, ins), st, text, next)
				switch {
				case ok && keeps:
					kept++
				case ok:
					derived++
				default:
					full++
				}
				text = next
			}
		}
		t.Logf("%s: %d programs: %d edits kept the open blocks above them, %d parsed them again, %d fell back to a full analysis", what, tried, kept, derived, full)
		if tried > 0 && kept == 0 {
			t.Errorf("%s: no edit below an open block kept it (%d derived otherwise, %d full)", what, derived, full)
		}
	}
}

// TestTypingAmongOpenBlocks types into a document written without any
// `end` (300 actions, each holding a check, none closed), as while a
// program is typed before its closers: every block reads on to the end of
// the text to find where its body stops, and each ends where the layout
// says. A keystroke in the middle action, broken or not, derives its
// diagnostics from the last version's, equal to a full analysis, and
// parses again only the actions around it: the blocks above are left as
// they were, and where the blocks below stop reading is known from the
// last version's.
func TestTypingAmongOpenBlocks(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	actions := 300 / testcorpus.RaceStride(3) // 100 under the race detector
	for i := range actions {
		fmt.Fprintf(&b, "define action called act%[1]d with parameters n:\n    store v%[1]d as n plus %[1]d\n    check if v%[1]d is greater than 3:\n        display v%[1]d\n", i)
	}
	text := b.String()
	line := fmt.Sprintf("        display v%d", actions/2)
	at := strings.Index(text, line) + len(line)
	typed := fmt.Sprintf(" plus n\n        store extra as v%d times 2", actions/2)
	st := fullStateOf("file:///nowhere/open.wfl", text)
	var full, long []int
	for k := range 2 * len(typed) {
		var next string
		if k < len(typed) {
			next = text[:at+k] + typed[k:k+1] + text[at+k:]
		} else {
			d := at + 2*len(typed) - k - 1 // delete what was typed, last first
			next = text[:d] + text[d+1:]
		}
		from, oldEnd, newEnd := diffRange(st.text, next, sameEnds{})
		if w, _, _, _, ok := st.stretch(next, from, oldEnd, newEnd-oldEnd); ok && w.bound-w.a > len(next)/(actions/6) {
			long = append(long, k)
		}
		var ok bool
		st, ok = deriveChecked(t, fmt.Sprintf("keystroke %d", k), st, text, next)
		if !ok {
			full = append(full, k)
		}
		text = next
	}
	if len(full) > 0 {
		t.Errorf("%d of %d keystrokes took a full analysis: %v", len(full), 2*len(typed), full)
	}
	if len(long) > 0 {
		t.Errorf("%d of %d keystrokes parsed more than a %dth of the text again: %v", len(long), 2*len(typed), actions/6, long)
	}
}

// TestBrokenLineBelowAnOpenBlock edits a line below a block whose closer is
// missing so that it no longer parses, leaving a word that stops a body
// after other words on the line: the open block's reading stops there,
// where the top level reads a statement of its own, so the block's
// findings change, and the derived diagnostics must say so.
func TestBrokenLineBelowAnOpenBlock(t *testing.T) {
	t.Parallel()
	heads := []string{
		"try:\n    store a as 1\n",
		"check if 1 is 1:\n    store a as 1\n",
		"define action called f:\n    store a as 1\n",
		"count from 1 to 3:\n    store a as 1\n",
	}
	below := "store b as 2\ndisplay b with 1\nstore c as 3\ndisplay c\n"
	for _, head := range heads {
		for _, word := range []string{"when", "catch", "otherwise", "finally", "end"} {
			text := head + below
			next := strings.Replace(text, "display b with 1", "display b "+word+" 1", 1)
			st := fullStateOf("file:///nowhere/broken.wfl", text)
			deriveChecked(t, fmt.Sprintf("%q, %q", head, word), st, text, next)
		}
	}
}

// TestEditNearTheWorkBound edits a text whose parse reads ahead nearly as
// much as the parser's bound allows (parser.WorkBound): describes left
// open one after another, each holding a test left open too, before a
// mistyped `end`, each reading the rest (eight of them and the 80 lines
// after read ahead 23,512 steps, where the 60 lines above make the bound
// 32,704). The bound grows with the size of the text, so deleting 50 of
// the lines above, which the blocks do not read, makes the parse of the
// whole text reach it (the bound is 23,104), and the blocks then read
// otherwise. The state derived for the edit, if any, must be a full
// analysis's (without workFar, the one derived kept the blocks' old
// findings); the same edit above a few such blocks, far from the bound, is
// derived.
func TestEditNearTheWorkBound(t *testing.T) {
	t.Parallel()
	var above strings.Builder
	for i := range 60 {
		fmt.Fprintf(&above, "display %d\n", i)
	}
	for _, tc := range []struct {
		blocks int
		derive bool
	}{{8, false}, {3, true}} {
		blocks := strings.Repeat("describe \"d\":\n    test \"t\":\n        display 1\n", tc.blocks) + "end action\n" + strings.Repeat("display 2\n", 80)
		text := above.String() + blocks
		next := text[strings.Index(text, "display 50\n"):]
		st := fullStateOf("file:///nowhere/near.wfl", text)
		if _, ok := deriveChecked(t, fmt.Sprintf("%d blocks", tc.blocks), st, text, next); ok != tc.derive {
			t.Errorf("%d blocks: derived %v, want %v", tc.blocks, ok, tc.derive)
		}
	}
}

// TestTypingInASmallBrokenProgram types three lines keystroke by keystroke
// into a dozen lines holding an action left open around another (its
// header written twice). The open action reads ahead past its layout's
// end, and a derivation keeps the old work of a unit that read ahead
// beside the new (workFar: the statements it parsed ahead may read on
// their own), so the estimate grows by the action's work at each
// keystroke until a full analysis counts again. In a text this small, the
// estimate reached half the parser's bound on that work within 45
// keystrokes, and that keystroke took a full analysis, until the bound had
// a floor (parser.WorkBound). Each keystroke must derive, equal to a full
// analysis.
func TestTypingInASmallBrokenProgram(t *testing.T) {
	t.Parallel()
	text := "// sizes\ndefine action called size with parameters w and h:\n" +
		"define action called size with parameters w and h:\n    return w times h\nend action\n\n" +
		"define action called hello with parameters who:\n    display \"Hi, \" with who\nend action\n\n" +
		"display size of 2 and 3\ncall hello with \"you\"\n"
	at := strings.Index(text, "    return")
	typed := "    display 100 with 1\n    store total as w plus h\n    display total times 2\n"
	st := fullStateOf("file:///nowhere/small.wfl", text)
	var full []int
	for k := range typed {
		next := text[:at+k] + typed[k:k+1] + text[at+k:]
		var ok bool
		if st, ok = deriveChecked(t, fmt.Sprintf("keystroke %d", k), st, text, next); !ok {
			full = append(full, k)
		}
		text = next
	}
	if len(full) > 0 {
		t.Errorf("%d of %d keystrokes took a full analysis: %v", len(full), len(typed), full)
	}
}

// TestIndentedLineBelowAnOpenBlock indents a line right below where the
// layout ends a block whose closer is missing: a line at the header's
// indentation followed by lines of the body is misindented, not the end,
// so the block's body now runs on, and the derived state must say where
// its closer goes as a full analysis does.
func TestIndentedLineBelowAnOpenBlock(t *testing.T) {
	t.Parallel()
	text := "define action called f:\n    display 1\nstore b as 2\nstore c as 3\ndisplay c\ndisplay b\n"
	for _, tc := range []struct{ after, ins string }{
		{"store b as 2\n", "    display 9\n"},
		{"store b as 2\n", " & more\n"},
		{"store c as 3\n", "    display 9\n"},
		{"display 1\n", "display 8\n    display 9\n"},
	} {
		at := strings.Index(text, tc.after) + len(tc.after)
		next := text[:at] + tc.ins + text[at:]
		st := fullStateOf("file:///nowhere/indented.wfl", text)
		deriveChecked(t, fmt.Sprintf("%q after %q", tc.ins, tc.after), st, text, next)
	}
}

// TestStartsClause pins where a body read into later units stops
// (diagState.stopsAfter): at a unit whose first word is a clause's, past
// its indentation and comments, as the parser reads tokens. (An indented
// `when` line was read as no clause, so an edit that left a route open
// above it derived a body read past it, where a full analysis stops:
// TestIncrementalEqualsFull at -stress=9, mutant 01175.)
func TestStartsClause(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"when 1:\n", true},
		{"    when contains \"admin\":\n", true},
		{"\totherwise:\n", true},
		{"// a comment\n    catch:\n", true},
		{"# a comment\r\nfinally:\n", true},
		{"\n\nwhen x:\n", true},
		{"display when\n", false},
		{"    whenever 1\n", false},
		{"// only a comment\n", false},
		{"", false},
	} {
		if got := startsClause(tt.text); got != tt.want {
			t.Errorf("startsClause(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}
