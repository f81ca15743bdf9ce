package core

import (
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/lang/token"
)

func TestDocumentLinks(t *testing.T) {
	src := "include from \"lib/helpers.wfl\"\nload module from \"/abs/m.wfl\"\nload module from some path\n"
	a := analysisOf(t, src)
	base := filepath.FromSlash("/work/proj/main.wfl")
	links := a.DocumentLinks(base)
	if len(links) != 2 {
		t.Fatalf("links = %+v", links)
	}
	if links[0].Target != filepath.FromSlash("/work/proj/lib/helpers.wfl") || src[links[0].Span.Start:links[0].Span.End] != "lib/helpers.wfl" {
		t.Errorf("link 0 = %+v", links[0])
	}
	if links[1].Target != filepath.FromSlash("/abs/m.wfl") {
		t.Errorf("link 1 = %+v", links[1])
	}
	if got := a.DocumentLinks(""); len(got) != 1 {
		t.Errorf("without a base: %+v, want only the absolute path", got)
	}
}

func TestInlayHints(t *testing.T) {
	src := "define action called area with width and height:\n    return width times height\nend action\n" +
		"store w as 3\nstore size as call area with w and 4\nstore doubled as w plus w\nstore word as \"x\"\n"
	a := analysisOf(t, src)
	var got []string
	for _, h := range a.InlayHints(token.Span{Start: 0, End: len(src)}) {
		got = append(got, src[h.Offset-3:h.Offset]+"|"+h.Label)
	}
	want := []string{"th |width:", "nd |height:", "led|: Number"} // size: the action declares no result type
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("hints %q, want %q", got, want)
	}
}
