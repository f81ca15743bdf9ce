package completion

import (
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/internal/testfiles"
)

// TestIncludePathCompletion: after `include from "` the WFL files and
// folders of the folder the typed path names are proposed, files first,
// whether the closing quote is typed yet or not (an editor that does not
// pair quotes leaves it open while the path is typed, and the analysis
// then reads the quote closed on its line).
func TestIncludePathCompletion(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"lib.wfl", "list.wfl", "sub/inner.wfl", "notes.txt", ".hidden/h.wfl"} {
		testfiles.Write(t, dir, name, "store x as 1\n")
	}
	doc := filepath.Join(dir, "main.wfl")
	testfiles.Write(t, dir, "main.wfl", "")
	for _, tc := range []struct {
		src  string // | marks the cursor
		want string
	}{
		{"include from \"|\"\n", "lib.wfl list.wfl sub/"},
		{"include from \"|", "lib.wfl list.wfl sub/"},
		{"include from \"li|", "lib.wfl list.wfl"},
		{"include from \"lib|\ndisplay x\n", "lib.wfl"},
		{"include from \"sub/|", "inner.wfl"},
		{"include from \"./sub/in|\"", "inner.wfl"},
		{"include from \"nowhere/|", ""},
		{"display \"li|", ""},
	} {
		at := strings.Index(tc.src, "|")
		src := tc.src[:at] + tc.src[at+1:]
		s := core.NewSnapshot(core.FileURI(doc), 1, src)
		_, items := List(s.Analysis(), at, Options{Path: doc, Text: s.Text})
		var got []string
		for _, it := range items {
			got = append(got, it.Label)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%q: %v, want %q", tc.src, got, tc.want)
		}
	}
}
