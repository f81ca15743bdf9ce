package navigation

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/core/internal/coretest"
	"wfl-lsp/core/internal/featuretest"
	"wfl-lsp/internal/testfiles"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
)

// splitProgram moves the containers and interfaces declared at the top
// level of src to a file of their own, types.wfl, which the rest includes
// (main.wfl, its lines kept where they were). It returns false when src
// declares none or does not parse.
func splitProgram(a *core.Analysis) (main, types string, ok bool) {
	if a.File == nil || slices.ContainsFunc(a.Diagnostics, func(d diag.Diagnostic) bool { return d.Category == diag.Parse }) {
		return "", "", false
	}
	src := a.Lines.Text()
	var moved []ast.Stmt
	for _, s := range a.File.Stmts {
		switch s.(type) {
		case *ast.ContainerDecl, *ast.InterfaceDecl:
			moved = append(moved, s)
		}
	}
	if len(moved) == 0 {
		return "", "", false
	}
	var tb, mb strings.Builder
	last := 0
	for _, s := range moved {
		text := src[s.Pos():s.End()]
		tb.WriteString(text + "\n\n")
		mb.WriteString(src[last:s.Pos()])
		mb.WriteString(strings.Repeat("\n", strings.Count(text, "\n")))
		last = s.End()
	}
	mb.WriteString(src[last:])
	return "include from \"types.wfl\"\n" + mb.String(), tb.String(), true
}

// TestRenameMembersAcrossFiles is the metamorphic test of rename over the
// corpus for members: each program that declares containers or interfaces
// is split in two (splitProgram), and every member of every container and
// interface is renamed to a fresh name through RenameAcross (Rename when
// every place is in one file), from its declaration in types.wfl and from
// its first use in main.wfl; no place of either file may name it still. The programs are the corpus's and a third of
// the mutants (a thirtieth in short mode). Both files must keep their diagnostics (with
// the new name read as the old) and the member as many places as before.
func TestRenameMembersAcrossFiles(t *testing.T) {
	stride := 3
	if testing.Short() {
		stride = 30
	}
	progs := coretest.OrSkip(t, stride)
	type world struct {
		ws    *core.Workspace
		dir   string
		paths []string // main.wfl, types.wfl
		incOf func(string) []string
	}
	open := func(main, types string) world {
		dir := t.TempDir()
		w := world{ws: core.NewWorkspace(), dir: dir}
		for _, f := range []struct{ name, text string }{{"main.wfl", main}, {"types.wfl", types}} {
			p := filepath.Join(dir, f.name)
			if err := os.WriteFile(p, []byte(f.text), 0o644); err != nil {
				t.Fatal(err)
			}
			w.ws.Open(core.FileURI(p), 1, f.text)
			w.paths = append(w.paths, p)
		}
		w.incOf = func(p string) []string {
			if a, ok := w.ws.Load(p); ok {
				return a.Includes(p)
			}
			return nil
		}
		return w
	}
	summary := func(w world, from, to string) []string {
		var out []string
		for _, p := range w.paths {
			lines, ds, _ := w.ws.FileDiagnostics(p)
			for _, d := range ds {
				if d.Category == diag.Lint {
					continue
				}
				msg := d.Message
				if from != "" {
					msg = strings.ReplaceAll(msg, from, to)
				}
				out = append(out, fmt.Sprintf("%s:%d %s %s", filepath.Base(p), lines.Line(d.Span.Start)+1, d.Code, msg))
			}
		}
		slices.Sort(out)
		return out
	}
	// places counts the places of the name at off in the file at path.
	places := func(w world, path string, off int) int {
		a, _ := w.ws.Load(path)
		if refs, ok := ReferencesAcross(a, off, path, w.paths, w.incOf, w.ws.Load); ok {
			return len(refs)
		}
		return len(References(a, off, true))
	}
	// missed counts the places, in either file, that name the member of
	// the container or interface owner called name and that no edit
	// renames.
	missed := func(w world, byFile map[string][]core.Edit, owner, name string) int {
		n := 0
		for _, p := range w.paths {
			a, _ := w.ws.Load(p)
			for _, r := range a.Idents() {
				if isMember(r.Sym) && r.Sym.Parent.Name == owner && r.Sym.Name == name &&
					!slices.ContainsFunc(byFile[p], func(e core.Edit) bool { return e.Start == r.Ident.Pos() }) {
					n++
				}
			}
		}
		return n
	}
	tried, fromMain, renamed, programs, wrong := 0, 0, 0, 0, 0
	for _, path := range slices.Sorted(maps.Keys(progs)) {
		main, types, ok := splitProgram(featuretest.AnalysisOf(t, progs[path]))
		if !ok {
			continue
		}
		programs++
		w := open(main, types)
		before := summary(w, "", "")
		tp, mp := w.paths[1], w.paths[0]
		ta, _ := w.ws.Load(tp)
		ma, _ := w.ws.Load(mp)
		n := 0
		for _, r := range ta.Idents() {
			if !r.Def || !isMember(r.Sym) {
				continue
			}
			starts := []struct {
				path string
				off  int
			}{{tp, r.Ident.Pos()}}
			k := memberKeyOf(r.Sym, tp)
			for _, u := range ma.Idents() {
				if isMember(u.Sym) && memberKeyOf(u.Sym, mp) == k {
					starts = append(starts, struct {
						path string
						off  int
					}{mp, u.Ident.Pos()})
					break
				}
			}
			for _, st := range starts {
				n++
				tried++
				if st.path == mp {
					fromMain++
				}
				newName := fmt.Sprintf("zq_member_%d", n)
				a, _ := w.ws.Load(st.path)
				count := places(w, st.path, st.off)
				byFile, across, err := RenameAcross(a, st.off, newName, st.path, w.paths, w.incOf, w.ws.Load)
				if !across && err == nil {
					var edits []core.Edit
					if edits, err = Rename(a, st.off, newName); err == nil {
						byFile = map[string][]core.Edit{st.path: edits}
					}
				}
				what := fmt.Sprintf("%s: renaming %s %q from %s line %d", path, r.Sym.Kind, r.Ident.Name, filepath.Base(st.path), a.Lines.Line(st.off)+1)
				if err != nil {
					t.Errorf("%s: %v", what, err)
					wrong++
					continue
				}
				if n := missed(w, byFile, r.Sym.Parent.Name, r.Ident.Name); n > 0 {
					t.Errorf("%s: %d places left naming it", what, n)
					wrong++
					continue
				}
				texts := map[string]string{}
				for _, p := range w.paths {
					b, _ := w.ws.Load(p)
					texts[p], _ = core.ApplyEdits(b.Lines.Text(), reversed(byFile[p])...)
				}
				after := open(texts[mp], texts[tp])
				renamed++
				if got := summary(after, newName, r.Ident.Name); !slices.Equal(got, before) {
					t.Errorf("%s changes the diagnostics:\nbefore %q\nafter  %q", what, before, got)
					wrong++
					continue
				}
				there := filepath.Join(after.dir, filepath.Base(st.path))
				if got := places(after, there, st.off+moved(byFile[st.path], st.off)); got != count {
					t.Errorf("%s: %d places after, %d before", what, got, count)
					wrong++
				}
			}
		}
	}
	t.Logf("%d programs split; %d renames of a member (%d from a use in the includer): %d right, %d wrong", programs, tried, fromMain, tried-wrong, wrong)
	if renamed == 0 {
		t.Error("nothing renamed")
	}
}

// TestMemberRenameThroughUnindexedIncludes: a member of a container two
// includes away, renamed from the includer, the only file open and the
// only one the adapter's index knows (the others are outside the
// workspace's folders): the files between are followed through their
// analyses, and every file gets its edits.
func TestMemberRenameThroughUnindexedIncludes(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"lib/shapes.wfl": "create container Shape:\n    property size: Number\n    action area: Number\n        return size times size\n    end\nend\n",
		"lib/util.wfl":   "include from \"shapes.wfl\"\ndefine action called make with parameters n:\n    create new Shape as sq:\n        size is n\n    end\n    return sq\nend action\n",
		"main.wfl":       "include from \"lib/util.wfl\"\ncreate new Shape as box:\n    size is 4\nend\ndisplay box.area()\n",
	}
	for name, text := range files {
		testfiles.Write(t, dir, name, text)
	}
	ws := core.NewWorkspace()
	main := filepath.Join(dir, "main.wfl")
	s := ws.Open(core.FileURI(main), 1, files["main.wfl"])
	// As the language server's index answers: only what is open.
	includesOf := func(p string) []string {
		if p == main {
			return s.Analysis().Includes(p)
		}
		return nil
	}
	a := s.Analysis()
	byFile, across, err := RenameAcross(a, strings.Index(files["main.wfl"], "size"), "extent", main, []string{main}, includesOf, ws.Load)
	if err != nil || !across {
		t.Fatalf("RenameAcross: across %v, %v", across, err)
	}
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		got, _ := core.ApplyEdits(text, reversed(byFile[p])...)
		if want := strings.ReplaceAll(text, "size", "extent"); got != want {
			t.Errorf("%s after the rename:\n%s\nwant:\n%s", name, got, want)
		}
	}
}
