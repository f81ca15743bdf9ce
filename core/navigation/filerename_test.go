package navigation

import (
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/core"
)

// TestRenamedIncludes holds what an include statement says once files or
// folders are renamed: the path that names the same file from where the
// including file then is, written as it was written (relative or
// absolute, with its "./"), and nothing where it still names it.
func TestRenamedIncludes(t *testing.T) {
	const ws = "/ws"
	for _, tc := range []struct {
		name    string
		file    string // the including file, under ws
		include string // what its include statement says
		moves   []FileMove
		want    string // what it says after; "" for no edit
	}{
		{"file renamed", "main.wfl", "lib.wfl", []FileMove{{"/ws/lib.wfl", "/ws/util.wfl"}}, "util.wfl"},
		{"keeps its ./", "main.wfl", "./lib.wfl", []FileMove{{"/ws/lib.wfl", "/ws/util.wfl"}}, "./util.wfl"},
		{"file moved down", "main.wfl", "lib.wfl", []FileMove{{"/ws/lib.wfl", "/ws/sub/lib.wfl"}}, "sub/lib.wfl"},
		{"file moved up", "main.wfl", "sub/lib.wfl", []FileMove{{"/ws/sub/lib.wfl", "/ws/lib.wfl"}}, "lib.wfl"},
		{"includer moved down", "main.wfl", "lib.wfl", []FileMove{{"/ws/main.wfl", "/ws/app/main.wfl"}}, "../lib.wfl"},
		{"./ gone when up a folder", "main.wfl", "./lib.wfl", []FileMove{{"/ws/main.wfl", "/ws/app/main.wfl"}}, "../lib.wfl"},
		{"both moved", "main.wfl", "lib.wfl", []FileMove{{"/ws/main.wfl", "/ws/a/main.wfl"}, {"/ws/lib.wfl", "/ws/a/lib.wfl"}}, ""},
		{"folder renamed around both", "a/main.wfl", "lib.wfl", []FileMove{{"/ws/a", "/ws/b"}}, ""},
		{"folder renamed around the file", "main.wfl", "a/lib.wfl", []FileMove{{"/ws/a", "/ws/b"}}, "b/lib.wfl"},
		{"folder renamed around the includer", "a/main.wfl", "../lib.wfl", []FileMove{{"/ws/a", "/ws/deep/b"}}, "../../lib.wfl"},
		{"a folder whose name starts the same", "main.wfl", "ab/lib.wfl", []FileMove{{"/ws/a", "/ws/b"}}, ""},
		{"unrelated file", "main.wfl", "lib.wfl", []FileMove{{"/ws/other.wfl", "/ws/else.wfl"}}, ""},
		{"absolute path", "main.wfl", "/ws/lib.wfl", []FileMove{{"/ws/lib.wfl", "/ws/util.wfl"}}, "/ws/util.wfl"},
		{"absolute path, includer moved", "main.wfl", "/ws/lib.wfl", []FileMove{{"/ws/main.wfl", "/ws/app/main.wfl"}}, ""},
		{"written the long way, same file", "main.wfl", "sub/../lib.wfl", []FileMove{{"/ws/other.wfl", "/ws/x.wfl"}}, ""},
		{"a name to escape", "main.wfl", "lib.wfl", []FileMove{{"/ws/lib.wfl", `/ws/say "hi".wfl`}}, `say \"hi\".wfl`},
		{"renamed, then its folder", "main.wfl", "c/a.wfl", []FileMove{{"/ws/c/a.wfl", "/ws/c/z.wfl"}, {"/ws/c", "/ws/d"}}, "d/z.wfl"},
		{"its folder, then renamed", "main.wfl", "c/a.wfl", []FileMove{{"/ws/c", "/ws/d"}, {"/ws/d/a.wfl", "/ws/d/z.wfl"}}, "d/z.wfl"},
		{"moved, then moved back", "main.wfl", "lib.wfl", []FileMove{{"/ws/lib.wfl", "/ws/tmp.wfl"}, {"/ws/tmp.wfl", "/ws/lib.wfl"}}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if filepath.Separator != '/' {
				t.Skip("paths written with forward slashes")
			}
			base := filepath.Join(ws, tc.file)
			src := "include from \"" + tc.include + "\"\ndisplay 1\n"
			s := core.NewWorkspace().Open(core.FileURI(base), 1, src)
			edits := RenamedIncludes(s.Syntax(), base, tc.moves)
			if tc.want == "" {
				if len(edits) != 0 {
					t.Errorf("edits %+v, want none", edits)
				}
				return
			}
			if len(edits) != 1 {
				t.Fatalf("edits %+v, want one", edits)
			}
			got, err := core.ApplyEdits(src, edits...)
			if err != nil {
				t.Fatal(err)
			}
			if want := strings.Replace(src, tc.include, tc.want, 1); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

// TestRenamedIncludesReadsOnlyIncludes: only `include from "…"` names a
// file the workspace follows; a module loaded, a text that looks like a
// path and an include of a variable are left as they are.
func TestRenamedIncludesReadsOnlyIncludes(t *testing.T) {
	src := "load module from \"lib.wfl\"\nstore p as \"lib.wfl\"\ninclude from p\ninclude from \"lib.wfl\"\n"
	s := core.NewWorkspace().Open(core.FileURI("/ws/main.wfl"), 1, src)
	edits := RenamedIncludes(s.Syntax(), "/ws/main.wfl", []FileMove{{"/ws/lib.wfl", "/ws/util.wfl"}})
	got, _ := core.ApplyEdits(src, edits...)
	if want := "load module from \"lib.wfl\"\nstore p as \"lib.wfl\"\ninclude from p\ninclude from \"util.wfl\"\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
