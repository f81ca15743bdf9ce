package core_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"wfl-lsp/core"
	"wfl-lsp/core/internal/featuretest"
	"wfl-lsp/core/navigation"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/token"
)

func TestRename(t *testing.T) {
	a := core.AnalysisOf(t, core.FeatureSrc)
	off := core.At(t, core.FeatureSrc, "first name", 2, 1)
	span, name, err := navigation.PrepareRename(a, off)
	if err != nil || name != "first name" || span != core.SpanOf(t, core.FeatureSrc, "first name", 2) {
		t.Fatalf("PrepareRename = %v %q %v", span, name, err)
	}
	edits, err := navigation.Rename(a, off, "  given   name ")
	if err != nil {
		t.Fatal(err)
	}
	if len(edits) != 5 {
		t.Fatalf("Rename: %d edits, want 5", len(edits))
	}
	out := core.FeatureSrc
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		out = out[:e.Start] + e.Text + out[e.End:]
	}
	if strings.Contains(out, "first name") || strings.Count(out, "given name") != 5 {
		t.Errorf("renamed text:\n%s", out)
	}
	if b := core.NewSnapshot("file:///r.wfl", 1, out).Analysis(); len(navigation.References(b, core.At(t, out, "given name", 0, 0), true)) != 5 {
		t.Errorf("the renamed program does not resolve the new name")
	}
	for _, bad := range []string{"store", "first 2nd", "a-b", "", "yes", "nothing", "greet"} {
		if _, err := navigation.Rename(a, off, bad); err == nil {
			t.Errorf("Rename to %q: no error", bad)
		}
	}
	for _, tt := range []struct{ needle string }{{"length"}, {`"Hello`}, {"plus"}} {
		if _, _, err := navigation.PrepareRename(a, core.At(t, core.FeatureSrc, tt.needle, 0, 1)); err == nil {
			t.Errorf("PrepareRename on %q: no error", tt.needle)
		}
	}
}

// analysesOf returns a load that analyses the text of each file of files
// (by slash-separated path).
func analysesOf(t *testing.T, files map[string]string) func(path string) (*core.Analysis, bool) {
	return func(p string) (*core.Analysis, bool) {
		src, ok := files[filepath.ToSlash(p)]
		if !ok {
			return nil, false
		}
		return core.AnalysisOf(t, src), true
	}
}

func TestIncludedDefinition(t *testing.T) {
	files := map[string]string{
		"/p/main.wfl":  "include from \"a.wfl\"\ndisplay deep value\ndisplay nowhere\n",
		"/p/a.wfl":     "include from \"sub/b.wfl\"\ninclude from \"main.wfl\"\n",
		"/p/sub/b.wfl": "include from \"../a.wfl\"\nstore deep value as 1\n",
	}
	load := analysesOf(t, files)
	src := files["/p/main.wfl"]
	a := core.AnalysisOf(t, src)
	got := navigation.IncludedDefinition(a, core.At(t, src, "deep value", 0, 1), filepath.FromSlash("/p/main.wfl"), load)
	if len(got) != 1 || filepath.ToSlash(got[0].Path) != "/p/sub/b.wfl" || got[0].Span.Start != 30 {
		t.Errorf("IncludedDefinition = %+v", got)
	}
	if got := navigation.IncludedDefinition(a, core.At(t, src, "nowhere", 0, 1), filepath.FromSlash("/p/main.wfl"), load); len(got) != 0 {
		t.Errorf("undeclared everywhere: %+v", got)
	}
}

func TestReferencesAndRenameAcross(t *testing.T) {
	files := map[string]string{
		"/p/main.wfl":      "include from \"a.wfl\"\ndisplay deep value\n",
		"/p/a.wfl":         "include from \"sub/b.wfl\"\n",
		"/p/sub/b.wfl":     "store deep value as 1\ndisplay deep value\n",
		"/p/other.wfl":     "include from \"sub/b.wfl\"\ndisplay deep value\ndisplay x.deep value\n",
		"/p/unrelated.wfl": "display deep value\n",
		"/p/own.wfl":       "include from \"sub/b.wfl\"\nstore deep value as 2\n",
	}
	load := analysesOf(t, files)
	includesOf := featuretest.IncludesOf(load)
	var candidates []string
	for p := range files {
		candidates = append(candidates, filepath.FromSlash(p))
	}
	src := files["/p/main.wfl"]
	a := core.AnalysisOf(t, src)
	off := core.At(t, src, "deep value", 0, 2)
	refs, ok := navigation.ReferencesAcross(a, off, filepath.FromSlash("/p/main.wfl"), candidates, includesOf, load)
	if !ok {
		t.Fatal("not a shared name")
	}
	var got []string
	for _, r := range refs {
		got = append(got, fmt.Sprintf("%s:%d:%v", filepath.ToSlash(r.Path), r.Span.Start, r.Decl))
	}
	want := "/p/main.wfl:29:false /p/other.wfl:33:false /p/sub/b.wfl:6:true /p/sub/b.wfl:30:false"
	if strings.Join(got, " ") != want {
		t.Errorf("refs %v\nwant %s", got, want)
	}
	edits, ok, err := navigation.RenameAcross(a, off, "shallow value", filepath.FromSlash("/p/main.wfl"), candidates, includesOf, load)
	if !ok || err != nil || len(edits) != 3 || len(edits[filepath.FromSlash("/p/sub/b.wfl")]) != 2 {
		t.Errorf("rename: %v %v %+v", ok, err, edits)
	}
	// A local name is not shared.
	if _, ok := navigation.ReferencesAcross(core.AnalysisOf(t, files["/p/own.wfl"]), 30, filepath.FromSlash("/p/own.wfl"), candidates, includesOf, load); ok {
		t.Errorf("own.wfl declares its own deep value, which is not the shared one")
	}
}

func TestDocumentLinks(t *testing.T) {
	src := "include from \"lib/helpers.wfl\"\nload module from \"/abs/m.wfl\"\nload module from some path\n"
	a := core.AnalysisOf(t, src)
	base := filepath.FromSlash("/work/proj/main.wfl")
	links := presentation.DocumentLinks(&a.Syntax, base)
	if len(links) != 2 {
		t.Fatalf("links = %+v", links)
	}
	if links[0].Target != filepath.FromSlash("/work/proj/lib/helpers.wfl") || src[links[0].Span.Start:links[0].Span.End] != "lib/helpers.wfl" {
		t.Errorf("link 0 = %+v", links[0])
	}
	if links[1].Target != filepath.FromSlash("/abs/m.wfl") {
		t.Errorf("link 1 = %+v", links[1])
	}
	if got := presentation.DocumentLinks(&a.Syntax, ""); len(got) != 1 {
		t.Errorf("without a base: %+v, want only the absolute path", got)
	}
}

func TestInlayHints(t *testing.T) {
	src := "define action called area with width and height:\n    return width times height\nend action\n" +
		"store w as 3\nstore size as call area with w and 4\nstore doubled as w plus w\nstore word as \"x\"\n"
	a := core.AnalysisOf(t, src)
	var got []string
	for _, h := range presentation.InlayHints(a, token.Span{Start: 0, End: len(src)}) {
		got = append(got, src[h.Offset-3:h.Offset]+"|"+h.Label)
	}
	want := []string{"th |width:", "nd |height:", "led|: Number"} // size: the action declares no result type
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("hints %q, want %q", got, want)
	}
}
