package navigation

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/core/internal/coretest"
	"wfl-lsp/core/internal/featuretest"
	"wfl-lsp/internal/testfiles"
	"wfl-lsp/internal/txtar"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
)

// TestRenameEveryName is a metamorphic test of rename over the corpus: in
// every clean program (no errors: the reference's verdict too, see the
// parity tests) each declared name is renamed through Rename to a fresh
// one; the renamed program must report the same diagnostics (with the new
// name for the old) and name the new symbol in as many places as the old.
// Every name of the corpus programs and of a third of the mutants is
// renamed (a sample in short mode; every program with -stress).
func TestRenameEveryName(t *testing.T) {
	t.Parallel()
	stride, perFile := 3, 1<<30
	if testing.Short() {
		stride, perFile = 30, 2
	}
	if *coretest.Stress > 0 {
		stride, perFile = 1, 1<<30
	}
	progs := coretest.OrSkip(t, stride)
	renamed, refused := 0, map[string]int{}
	for _, path := range slices.Sorted(maps.Keys(progs)) {
		src := progs[path]
		a := featuretest.AnalysisOf(t, src)
		if coretest.HasError(a.Diagnostics) {
			continue
		}
		before := diagKeys(a, "", "")
		done := map[any]bool{}
		n := 0
		for _, r := range a.Idents() {
			if !r.Def || r.Sym == nil || done[r.Sym] || n >= perFile {
				continue
			}
			done[r.Sym] = true
			off := r.Ident.Pos()
			if _, _, err := PrepareRename(a, off); err != nil {
				refused[r.Sym.Kind.String()]++
				continue
			}
			n++
			newName := fmt.Sprintf("zq_renamed_%d", n)
			refs := References(a, off, true)
			edits, err := Rename(a, off, newName)
			if err != nil {
				t.Errorf("%s: rename %q (%s) to %s: %v", path, r.Ident.Name, r.Sym.Kind, newName, err)
				continue
			}
			out, err := core.ApplyEdits(src, reversed(edits)...)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			renamed++
			b := featuretest.AnalysisOf(t, out)
			want, got := before, diagKeys(b, newName, r.Ident.Name)
			if nameBased(a, r.Ident.Name) {
				// The unused-variable rule is the reference's, by name over
				// the whole file: renaming one of several variables of a
				// name changes its verdicts (see lang/check/static.go).
				want, got = withoutUnused(want, r.Ident.Name), withoutUnused(got, r.Ident.Name)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s: renaming %q (%s, line %d) to %s changes the diagnostics:\nbefore %q\nafter  %q",
					path, r.Ident.Name, r.Sym.Kind, a.Lines.Line(off)+1, newName, want, got)
				continue
			}
			newOff := off + moved(edits, off)
			if got := References(b, newOff, true); len(got) != len(refs) {
				t.Errorf("%s: renaming %q (%s, line %d) to %s: %d references after, %d before",
					path, r.Ident.Name, r.Sym.Kind, a.Lines.Line(off)+1, newName, len(got), len(refs))
			}
		}
	}
	t.Logf("renamed %d names; refused %v", renamed, refused)
	if renamed == 0 {
		t.Error("nothing renamed")
	}
}

// reversed returns edits in source order as ApplyEdits takes them (each
// relative to the text the previous one left): last first.
func reversed(edits []core.Edit) []core.Edit {
	out := slices.Clone(edits)
	sort.Slice(out, func(i, j int) bool { return out[i].Start > out[j].Start })
	return out
}

// moved is how far the edits that end before off move it.
func moved(edits []core.Edit, off int) int {
	d := 0
	for _, e := range edits {
		if e.End <= off {
			d += len(e.Text) - (e.End - e.Start)
		}
	}
	return d
}

// diagKeys renders the parse, semantic and type diagnostics of a by line,
// code and message, with the name from written back as to.
func diagKeys(a *core.Analysis, from, to string) []string {
	var out []string
	for _, d := range a.Diagnostics {
		if d.Category == diag.Lint {
			continue
		}
		msg := d.Message
		if from != "" {
			msg = strings.ReplaceAll(msg, from, to)
		}
		out = append(out, fmt.Sprintf("%d %s %s %s", a.Lines.Line(d.Span.Start)+1, d.Code, d.Severity, msg))
	}
	sort.Strings(out)
	return out
}

// nameBased reports whether the unused-variable verdicts about name depend
// on more than one symbol: several variables of that name, or a name the
// reference's rule treats specially.
func nameBased(a *core.Analysis, name string) bool {
	if name == "y" || name == "count" || name == "loopcounter" {
		return true
	}
	var first any
	for _, r := range a.Idents() {
		if r.Def && r.Ident.Name == name && r.Sym != nil {
			if first != nil && first != any(r.Sym) {
				return true
			}
			first = r.Sym
		}
	}
	return false
}

func withoutUnused(keys []string, name string) []string {
	return slices.DeleteFunc(slices.Clone(keys), func(k string) bool {
		return strings.Contains(k, "Unused variable '"+name+"'")
	})
}

// TestRenameAcrossFilesEveryName is TestRenameEveryName over files that
// include each other (testdata/resolve/include-chain.txtar): every name
// declared in any of them is renamed through RenameAcross (or Rename, for
// a name local to its file); every file's diagnostics stay the same (with
// the new name for the old), and so do the places that name it.
func TestRenameAcrossFilesEveryName(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "resolve", "include-chain.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, f := range txtar.Parse(string(b)).Files {
		if strings.HasSuffix(f.Name, ".wfl") {
			files[f.Name] = f.Data
		}
	}
	// world writes the files to a fresh folder and returns the workspace
	// (every file open), the candidates and the includes of a file.
	world := func(texts map[string]string) (*core.Workspace, string, []string, func(string) []string) {
		dir := t.TempDir()
		ws := core.NewWorkspace()
		var paths []string
		for name, text := range texts {
			p := testfiles.Write(t, dir, name, text)
			ws.Open(core.FileURI(p), 1, text)
			paths = append(paths, p)
		}
		slices.Sort(paths)
		return ws, dir, paths, featuretest.IncludesOf(ws.Load)
	}
	summary := func(ws *core.Workspace, dir string, paths []string, from, to string) []string {
		var out []string
		for _, p := range paths {
			lines, ds, _ := ws.FileDiagnostics(p)
			rel, _ := filepath.Rel(dir, p)
			for _, d := range ds {
				msg := d.Message
				if from != "" {
					msg = strings.ReplaceAll(msg, from, to)
				}
				out = append(out, fmt.Sprintf("%s:%d %s %s", rel, lines.Line(d.Span.Start)+1, d.Code, msg))
			}
		}
		return out
	}
	ws, dir, paths, includesOf := world(files)
	before := summary(ws, dir, paths, "", "")
	renamed := 0
	for _, p := range paths {
		a, _ := ws.Load(p)
		for _, r := range a.Idents() {
			if !r.Def || r.Sym == nil {
				continue
			}
			off := r.Ident.Pos()
			refsBefore, across := ReferencesAcross(a, off, p, paths, includesOf, ws.Load)
			n := len(refsBefore)
			if !across {
				n = len(References(a, off, true))
			}
			byFile, across, err := RenameAcross(a, off, "zq_new_name", p, paths, includesOf, ws.Load)
			if !across {
				if _, _, perr := PrepareRename(a, off); perr != nil {
					continue
				}
				var edits []core.Edit
				if edits, err = Rename(a, off, "zq_new_name"); err == nil {
					byFile = map[string][]core.Edit{p: edits}
				}
			}
			if err != nil {
				t.Errorf("%s: rename %q: %v", p, r.Ident.Name, err)
				continue
			}
			next := map[string]string{}
			for name, text := range files {
				full := filepath.Join(dir, filepath.FromSlash(name))
				if edits := byFile[full]; len(edits) > 0 {
					text, _ = core.ApplyEdits(text, reversed(edits)...)
				}
				next[name] = text
			}
			ws2, dir2, paths2, includesOf2 := world(next)
			if got := summary(ws2, dir2, paths2, "zq_new_name", r.Ident.Name); !slices.Equal(got, before) {
				t.Errorf("renaming %q of %s changes the diagnostics:\nbefore %q\nafter  %q", r.Ident.Name, filepath.Base(p), before, got)
			}
			rel, _ := filepath.Rel(dir, p)
			p2 := filepath.Join(dir2, rel)
			b2, _ := ws2.Load(p2)
			off2 := off + moved(byFile[p], off)
			after, across2 := ReferencesAcross(b2, off2, p2, paths2, includesOf2, ws2.Load)
			m := len(after)
			if !across2 {
				m = len(References(b2, off2, true))
			}
			if m != n {
				t.Errorf("renaming %q of %s: %d places after, %d before", r.Ident.Name, filepath.Base(p), m, n)
			}
			renamed++
		}
	}
	t.Logf("renamed %d names across %d files", renamed, len(paths))
	if renamed < 8 {
		t.Errorf("only %d names renamed", renamed)
	}
}

// TestRenameRefusedWhileQuoteOpen: while a quote is left open, WFL reads
// the text below it otherwise than the tree the editor answers from, so a
// rename made from the tree could change what the program means (the use
// in `display " with total` is the reference's, not the tree's).
func TestRenameRefusedWhileQuoteOpen(t *testing.T) {
	for _, src := range []string{
		"store total as 3\ndisplay \" with total\n",
		"store total as 3\ndisplay \"sum\ndisplay \"is \" with total\n",
	} {
		a := featuretest.AnalysisOf(t, src)
		_, _, err := PrepareRename(a, 6)
		if err == nil || !strings.Contains(err.Error(), "line 2 is not closed") {
			t.Errorf("%q: PrepareRename: %v, want a refusal naming line 2", src, err)
		}
		if _, err := Rename(a, 6, "sum"); err == nil {
			t.Errorf("%q: Rename made edits", src)
		}
	}
	// Closed, it renames.
	a := featuretest.AnalysisOf(t, "store total as 3\ndisplay \"sum\"\n")
	if _, err := Rename(a, 6, "sum"); err != nil {
		t.Errorf("closed: %v", err)
	}
}

// TestKindArticle: a refused rename names the other declaration's kind with
// its article ("the name of an action", not "a action").
func TestKindArticle(t *testing.T) {
	for k, want := range map[check.SymbolKind]string{check.SymAction: "an action", check.SymVariable: "a variable"} {
		if got := aKind(k); got != want {
			t.Errorf("aKind(%v) = %q, want %q", k, got, want)
		}
	}
}

// TestRenameRefusesACapture: a rename is refused where the new name would
// change what the program means, and says why: a name used where it names
// nothing (not defined) would come to name the renamed variable, and a
// declaration of the name in a scope inside the renamed one's (a loop's
// variable, a block's variable) would be declared twice; whatever
// statement declares the renamed variable; and a statement that does not
// parse names it. A fresh name renames.
func TestRenameRefusesACapture(t *testing.T) {
	for _, tc := range []struct {
		src, at, to, why string
	}{
		{"store local_var as 1\ndisplay parent_var\ndisplay local_var\n", "local_var", "parent_var", "used on line 2, where it names nothing"},
		{"store fruits as [\"a\", \"b\"]\nfor each fruit in fruits:\n    display fruit\nend for\n", "fruits", "fruit", "declared on line 2"},
		{"wait for spawn command \"ls\" as later_name\ncheck if 1 is 1:\n    store inner as 1\n    display inner\nend check\nwait for process later_name to complete as code\ndisplay code\n",
			"later_name", "inner", "declared on line 3"},
		{"store fruits as [\"a\", \"b\"]\nfor each fruit in fruits:\n    display fruit\nend for\n", "fruits", "basket", ""},
		// A statement that does not parse is not read: its mentions would
		// be left behind.
		{"store m as 1\nstore r as \"yes\"\nif m is equal to 2 then change r to \"yes\" otherwise change r to \"no\"\ndisplay r\n", "r as", "zz", "line 3 does not parse"},
		{"store m as 1\nstore r as \"yes\"\nif m is equal to 2 then change rr to \"yes\"\n", "r as", "zz", ""},
	} {
		a := featuretest.AnalysisOf(t, tc.src)
		edits, err := Rename(a, strings.Index(tc.src, tc.at), tc.to)
		switch {
		case tc.why == "" && err != nil:
			t.Errorf("%q: %s to %s refused: %v", tc.src, tc.at, tc.to, err)
		case tc.why != "" && (err == nil || !strings.Contains(err.Error(), tc.why)):
			t.Errorf("%q: %s to %s: %v (%d edits), want a refusal saying %q", tc.src, tc.at, tc.to, err, len(edits), tc.why)
		}
	}
}
