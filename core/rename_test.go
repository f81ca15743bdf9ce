package core

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"

	"wfl-lsp/lang/diag"
)

// TestRenameEveryName is a metamorphic test of rename over the corpus: in
// every clean program (no errors: the reference's verdict too, see the
// parity tests) each declared name is renamed through Rename to a fresh
// one; the renamed program must report the same diagnostics (with the new
// name for the old) and name the new symbol in as many places as the old.
// In short mode and in CI a sample of the names of each program is renamed;
// -stress renames every one.
func TestRenameEveryName(t *testing.T) {
	stride, perFile := 3, 6
	if testing.Short() {
		stride, perFile = 30, 2
	}
	if *stress > 0 {
		stride, perFile = 1, 1<<30
	}
	progs := corpusPrograms(t, stride)
	if len(progs) == 0 {
		t.Skip("no corpus at ../shared/corpus")
	}
	renamed, refused := 0, map[string]int{}
	for _, path := range slices.Sorted(mapKeys(progs)) {
		src := progs[path]
		a := analysisOf(t, src)
		if hasError(a.Diagnostics) {
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
			if _, _, err := a.PrepareRename(off); err != nil {
				refused[r.Sym.Kind.String()]++
				continue
			}
			n++
			newName := fmt.Sprintf("zq_renamed_%d", n)
			refs := a.References(off, true)
			edits, err := a.Rename(off, newName)
			if err != nil {
				t.Errorf("%s: rename %q (%s) to %s: %v", path, r.Ident.Name, r.Sym.Kind, newName, err)
				continue
			}
			out, err := ApplyEdits(src, reversed(edits)...)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			renamed++
			b := analysisOf(t, out)
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
			if got := b.References(newOff, true); len(got) != len(refs) {
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

func mapKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// reversed returns edits in source order as ApplyEdits takes them (each
// relative to the text the previous one left): last first.
func reversed(edits []Edit) []Edit {
	out := slices.Clone(edits)
	sort.Slice(out, func(i, j int) bool { return out[i].Start > out[j].Start })
	return out
}

// moved is how far the edits that end before off move it.
func moved(edits []Edit, off int) int {
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
func diagKeys(a *Analysis, from, to string) []string {
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
func nameBased(a *Analysis, name string) bool {
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
		return strings.HasSuffix(k, "Unused variable '"+name+"'")
	})
}
