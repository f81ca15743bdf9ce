package core

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
)

// includePair makes an included file and a file that includes it from a
// corpus program: the program is cut at the start of a top-level
// statement, the first part is the included file and the rest, after an
// include of it, the includer, which then names what the included file
// declares as the program did. Now and then another program is added to
// the includer (a larger file, most of it unconnected to the included
// one), and lines that name a few of the included file's names.
func includePair(text, other string, rng *rand.Rand) (lib, main string) {
	_, pus, _ := parser.Units(text)
	starts, _ := groupUnits(text, pus)
	cut := len(text) / 2
	if len(starts) > 1 {
		cut = starts[1+rng.IntN(len(starts)-1)]
	}
	lib, main = text[:cut], "include from \"lib.wfl\"\n"+text[cut:]
	if rng.IntN(2) == 0 {
		if !strings.HasSuffix(main, "\n") {
			main += "\n"
		}
		main += other
	}
	if a, _ := analyze("", lib, nil); rng.IntN(2) == 0 {
		decls := ownDeclarations(a)
		for k := 0; k < 3 && len(decls) > 0; k++ {
			if !strings.HasSuffix(main, "\n") {
				main += "\n"
			}
			main += "display " + decls[rng.IntN(len(decls))].Name + "\n"
		}
	}
	return lib, main
}

// renameDeclared renames, at its declaration, a top-level name the
// included file declares (what it gives its includers changes), or makes
// a random edit when it declares none.
func renameDeclared(t *testing.T, ws *Workspace, s *Snapshot, rng *rand.Rand) (*Snapshot, Edit) {
	t.Helper()
	var decls []Edit
	for _, sym := range ownDeclarations(s.own()) {
		if sym.Decl.End > sym.Decl.Start && sym.Decl.End <= len(s.Text) {
			decls = append(decls, Edit{Start: sym.Decl.Start, End: sym.Decl.End})
		}
	}
	if len(decls) == 0 {
		return changeAtRandom(t, ws, s, rng)
	}
	e := decls[rng.IntN(len(decls))]
	switch rng.IntN(3) {
	case 0:
		e.Text = s.Text[e.Start:e.End] + "x"
	case 1:
		e.Start = e.End - 1 // the last character taken back
	default:
		d := decls[rng.IntN(len(decls))]
		e.Text = s.Text[d.Start:d.End] // another name of the file
	}
	next, err := ws.Change(s.URI, s.Version+1, e)
	if err != nil {
		t.Fatal(err)
	}
	return next, e
}

// refreshCounts are what TestRefreshEqualsFull saw.
type refreshCounts struct {
	edits, refreshed, derived, fallback, compared, includerEdits int
	rechecked, units, of                                         int // derivations that checked units again; how many, of how many
	outlines, outlinesSince                                      int // outlines compared; made without the full analysis
	seen                                                         map[*Snapshot]bool
}

// TestRefreshEqualsFull makes included and including files of the corpus
// programs (see includePair), opens both, and edits the included one at
// random (a chain of edits each, some of them renaming a name it
// declares, now and then the includer too), refreshing the includer after
// each edit as the server does. After each, the includer's diagnostics
// (and the tolerant list) must equal those of a full analysis of its text,
// and so must hover, definition, completion and the other position
// queries at random places; the includer's diagnostics must have been
// derived from the previous version's (incremental_imports.go) for most
// of the snapshots Refresh made.
//
//	go test -run RefreshEqualsFull ./core -args -stress=N
func TestRefreshEqualsFull(t *testing.T) {
	partialEverywhere(t)
	stride, edits, places, seed := 12, 8, 2, uint64(5)
	if testing.Short() {
		stride, edits = 40, 6
	}
	if *stress > 0 {
		stride, edits, places, seed = 1, 40, 4, uint64(*stress)
	}
	progs := corpusOrSkip(t, stride)
	paths := slices.Sorted(mapsKeys(progs))
	dir := t.TempDir() // nothing is written there: the files are open
	libURI, mainURI := FileURI(filepath.Join(dir, "lib.wfl")), FileURI(filepath.Join(dir, "main.wfl"))
	var c refreshCounts
	var qc queryCounts
	for n, path := range paths {
		rng := rand.New(rand.NewPCG(uint64(n), seed))
		libText, mainText := includePair(progs[path], progs[paths[(n+1)%len(paths)]], rng)
		ws := NewWorkspace()
		lib := ws.Open(libURI, 1, libText)
		main := ws.Open(mainURI, 1, mainText)
		main.Diagnostics()
		main.Analysis()
		for k := 0; k < edits; k++ {
			before := lib
			var e Edit
			if rng.IntN(3) == 0 {
				lib, e = renameDeclared(t, ws, lib, rng)
			} else {
				lib, e = changeAtRandom(t, ws, lib, rng)
			}
			c.edits++
			where := func() string {
				return fmt.Sprintf("%s, edit %d of lib.wfl ([%d,%d) ← %q)", path, k, e.Start, e.End, e.Text)
			}
			if ref := ws.Refresh(libURI, before); len(ref) > 0 {
				if len(ref) != 1 || ref[0].URI != mainURI {
					t.Fatalf("%s: Refresh returned %d snapshots", where(), len(ref))
				}
				c.refreshed++
				main = ref[0]
			}
			switch rng.IntN(8) {
			case 0:
				continue // a version the editor asked nothing of
			case 1:
				// The includer edited too, before or after its diagnostics
				// are published.
				if rng.IntN(2) == 0 {
					main.Diagnostics()
				}
				main, _ = changeAtRandom(t, ws, main, rng)
				c.includerEdits++
			case 2:
				main.Analysis() // a whole-document request: the next base
			}
			if d := compareIncluder(main, ws, places, rng, &c, &qc); d != "" {
				t.Fatalf("%s: %s\nlib.wfl after:\n%s\nmain.wfl:\n%s", where(), d, lib.Text, main.Text)
			}
		}
	}
	t.Logf("%d pairs, %d edits of the included file (%d of the includer too): %d refreshed the includer, of the versions with imports read again (refreshed, or edited since) %d had their diagnostics derived, %d analysed in full (%d of the derived checked units again: %d units of %d); %d versions compared, %d query answers (%d of them from a partial analysis), %d outlines (%d without the full analysis)",
		len(paths), c.edits, c.includerEdits, c.refreshed, c.derived, c.fallback, c.rechecked, c.units, c.of, c.compared, qc.answers, qc.partial, c.outlines, c.outlinesSince)
	if c.derived == 0 || c.derived < c.fallback {
		t.Errorf("the includer's diagnostics were derived %d times and analysed in full %d times", c.derived, c.fallback)
	}
	if c.rechecked == 0 {
		t.Errorf("no derivation checked a statement again")
	}
}

// compareIncluder compares the includer's diagnostics, tolerant list and
// position queries at places random offsets with a full analysis's, and
// counts whether they were derived after a refresh.
func compareIncluder(main *Snapshot, ws *Workspace, places int, rng *rand.Rand, c *refreshCounts, qc *queryCounts) string {
	c.compared++
	fresh := &Snapshot{URI: main.URI, Text: main.Text, src: ws}
	full := fresh.Analysis()
	var prev *diagState
	if b := main.base.Load(); b != nil {
		prev = b.diags.Load()
	}
	_, got := main.Diagnostics()
	if st := main.diagState(); main.derived && prev != nil && prev.text == st.text && len(prev.units) == len(st.units) && !c.seen[main] {
		n := 0
		for i, u := range st.units {
			if u != prev.units[i] {
				n++
			}
		}
		if n > 0 {
			c.rechecked++
		}
		c.units, c.of = c.units+n, c.of+len(st.units)
	}
	if main.reimport && !c.seen[main] {
		if c.seen == nil {
			c.seen = map[*Snapshot]bool{}
		}
		c.seen[main] = true
		if main.derived {
			c.derived++
		} else {
			c.fallback++
		}
	}
	if d := firstDiff(got, sortedCopy(full.Diagnostics)); d != "" {
		return fmt.Sprintf("diagnostics (derived %v, after a refresh %v): %s", main.derived, main.reimport, d)
	}
	_, tol := main.Tolerant()
	_, want := fresh.Tolerant()
	if d := firstDiff(tol, want); d != "" {
		return fmt.Sprintf("tolerant diagnostics (derived %v, after a refresh %v): %s", main.derived, main.reimport, d)
	}
	if d := diffShapes(main.diagState()); d != "" {
		return fmt.Sprintf("derived %v, after a refresh %v: %s", main.derived, main.reimport, d)
	}
	// The outline, before a query makes the full analysis: its types of
	// the units not checked again since the last outline are kept.
	c.outlines++
	outline := outlineOf(main)
	if !main.Analysed() {
		c.outlinesSince++
	}
	if want := documentSymbols(full); !reflect.DeepEqual(outline, want) {
		return fmt.Sprintf("outline (derived %v, after a refresh %v): %s", main.derived, main.reimport, difference(outline, want))
	}
	for range places {
		if d := compareQueries(main, full, rng.IntN(len(main.Text)+1), ws, qc); d != "" {
			return fmt.Sprintf("derived %v, after a refresh %v: %s", main.derived, main.reimport, d)
		}
	}
	return ""
}

// TestRefreshCases walks through edits of an included file and checks
// that the includer's diagnostics after Refresh are a full analysis's, and
// whether they were derived; or that an edit that changes nothing the
// includer learns of the file does not refresh it.
func TestRefreshCases(t *testing.T) {
	filler := strings.Repeat("display \"filler\"\n", 20)
	lib := "define action called greet with who:\n    display who\nend action\nstore greeting as \"hi\"\ncreate container Person:\n    property name: Text\nend\n"
	main := "include from \"lib.wfl\"\n" + filler + "call greet with \"x\"\n" + filler + "display greeting\n" + filler + "create new Person as p:\n    name is \"Ada\"\nend\ndisplay p.name\n"
	tests := []struct {
		name    string
		from    string // replaced in lib.wfl
		to      string
		derived bool   // false: analysed in full
		want    string // a message main.wfl's diagnostics must have, or ""
		same    bool   // nothing main.wfl learns of lib.wfl changes: no refresh
	}{
		{"an action renamed: its call is undefined", "called greet", "called salute", true, "Undefined action 'greet'", false},
		{"a variable removed", "store greeting as \"hi\"\n", "", true, "'greeting'", false},
		{"a variable added", "store greeting", "store other as 1\nstore greeting", true, "", false},
		{"a property renamed", "property name", "property title", true, "", false},
		{"a parameter renamed", "with who:\n    display who", "with whom:\n    display whom", true, "", false},
		{"an include of a missing file added", "store greeting", "include from \"gone.wfl\"\nstore greeting", false, "cannot be followed", false},
		{"a doc comment added", "define action", "// Greets.\ndefine action", true, "", false},
		{"an action's body edited", "    display who\n", "    display who with \"!\"\n", false, "", true},
		{"a line added above", "define action", "display 1\ndefine action", false, "", true},
		{"the file stops parsing: the include warns", "Text\nend\n", "Text\nend container\n", false, "lib.wfl does not parse", false},
		{"a body stops parsing: the include warns", "    display who\n", "    display who with\n", false, "lib.wfl does not parse", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			libURI, mainURI := FileURI(filepath.Join(dir, "lib.wfl")), FileURI(filepath.Join(dir, "main.wfl"))
			ws := NewWorkspace()
			l := ws.Open(libURI, 1, lib)
			m := ws.Open(mainURI, 1, main)
			m.Diagnostics()
			at := strings.Index(lib, tt.from)
			if _, err := ws.Change(libURI, 2, Edit{Start: at, End: at + len(tt.from), Text: tt.to}); err != nil {
				t.Fatal(err)
			}
			ref := ws.Refresh(libURI, l)
			if tt.same {
				if len(ref) != 0 {
					t.Fatalf("Refresh returned %d snapshots, want none", len(ref))
				}
				return
			}
			if len(ref) != 1 {
				t.Fatalf("Refresh returned %d snapshots, want main.wfl's", len(ref))
			}
			m = ref[0]
			_, got := m.Diagnostics()
			full := (&Snapshot{URI: mainURI, Text: main, src: ws}).Analysis()
			if d := firstDiff(got, sortedCopy(full.Diagnostics)); d != "" {
				t.Fatalf("diagnostics differ from a full analysis's: %s", d)
			}
			if m.Derived() != tt.derived {
				t.Errorf("derived %v, want %v", m.Derived(), tt.derived)
			}
			if tt.want != "" && !slices.ContainsFunc(got, func(d diag.Diagnostic) bool { return strings.Contains(d.Message, tt.want) }) {
				t.Errorf("no diagnostic says %q: %+v", tt.want, got)
			}
		})
	}
}

// BenchmarkRefreshIncluder times what an edit of an included file costs
// the 10,000-line document (benchdoc's dense one) that includes it, when
// the edit renames one name the included file declares (which the
// includer names twice): the edit, Refresh, and the includer's
// diagnostics, the list included, derived from its previous version's
// (what Refresh does) or from a full analysis (what it did before), and
// logs the ratio (-v).
//
//	go test -run '^$' -bench RefreshIncluder ./core
func BenchmarkRefreshIncluder(b *testing.B) {
	lib := func(name string) string {
		return "store " + name + " as 1\ndefine action called helper with n:\n    return n plus 1\nend action\n"
	}
	main := "include from \"lib.wfl\"\ndisplay shared_a\n" + benchdoc.Dense(10000) + "display shared_a plus helper of 2\n"
	dir := b.TempDir()
	libURI, mainURI := FileURI(filepath.Join(dir, "lib.wfl")), FileURI(filepath.Join(dir, "main.wfl"))
	var ns [2]float64
	for k, mode := range []string{"derived", "full"} {
		b.Run(mode, func(b *testing.B) {
			ws := NewWorkspace()
			l := ws.Open(libURI, 1, lib("shared_a"))
			m := ws.Open(mainURI, 1, main)
			m.Diagnostics()
			// The includer's own analysis (Snapshot.own), which Refresh
			// reads for its includes, is computed once per text and
			// shared by the snapshots Refresh makes: not timed.
			m.own()
			b.SetBytes(int64(len(main)))
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				name := "shared_b"
				if i%2 == 1 {
					name = "shared_a"
				}
				next, err := ws.Change(libURI, l.Version+1, Edit{Start: 0, End: len(l.Text), Text: lib(name)})
				if err != nil {
					b.Fatal(err)
				}
				ref := ws.Refresh(libURI, l)
				if len(ref) != 1 {
					b.Fatal("no refresh")
				}
				l, m = next, ref[0]
				if mode == "full" {
					m = &Snapshot{URI: mainURI, Version: m.Version, Text: m.Text, src: ws} // as Refresh made it before
				}
				m.Diagnostics()
				if mode == "derived" && !m.derived {
					b.Fatal("the refresh fell back to a full analysis")
				}
			}
			ns[k] = float64(b.Elapsed().Nanoseconds()) / float64(b.N)
		})
	}
	if ns[0] > 0 && ns[1] > 0 {
		b.Logf("derived %.2f ms, full %.2f ms: %.1fx", ns[0]/1e6, ns[1]/1e6, ns[1]/ns[0])
	}
}
