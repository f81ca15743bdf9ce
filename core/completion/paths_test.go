package completion

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/core/internal/featuretest"
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
	if err := os.Symlink(filepath.Join(dir, "sub"), filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		src  string // | marks the cursor
		want string
	}{
		{"include from \"|\"\n", "lib.wfl list.wfl linked/ sub/"},
		{"include from \"|", "lib.wfl list.wfl linked/ sub/"},
		{"include from \"li|", "lib.wfl list.wfl linked/"},
		{"include from \"lib|\ndisplay x\n", "lib.wfl"},
		{"include from \"sub/|", "inner.wfl"},
		{"include from \"./sub/in|\"", "inner.wfl"},
		{"include from \"nowhere/|", ""},
		{"display \"li|", ""},
		{"include\tfrom  \"li|", "lib.wfl list.wfl linked/"},
		{"\uFEFFinclude from \"li|", "lib.wfl list.wfl linked/"},
		{"include from\"su|", "sub/"},
		{"include from \"lin|", "linked/"},
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

// TestIncludePathCompletionEdit: a proposal replaces the name typed and
// what follows it up to the next slash or quote, and a name holding a
// backslash or a quote is inserted escaped.
func TestIncludePathCompletionEdit(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"lib/util.wfl", `q"x.wfl`, `back\slash.wfl`} {
		testfiles.Write(t, dir, name, "store x as 1\n")
	}
	doc := filepath.Join(dir, "main.wfl")
	for _, tc := range []struct {
		src, label, insert, replaced string
	}{
		{"include from \"lib/ut|XX.wfl\"\n", "util.wfl", "util.wfl", "utXX.wfl"},
		{"include from \"lib/|\"\n", "util.wfl", "util.wfl", ""},
		{"include from \"li|b/util.wfl\"\n", "lib/", "lib/", "lib"},
		{"include from \"q|", `q"x.wfl`, `q\"x.wfl`, "q"},
		{"include from \"ba|", `back\slash.wfl`, `back\\slash.wfl`, "ba"},
	} {
		at := strings.Index(tc.src, "|")
		src := tc.src[:at] + tc.src[at+1:]
		s := core.NewSnapshot(core.FileURI(doc), 1, src)
		span, items := List(s.Analysis(), at, Options{Path: doc, Text: s.Text})
		i := slices.IndexFunc(items, func(it Item) bool { return it.Label == tc.label })
		if i < 0 {
			t.Errorf("%q: no %s among %v", tc.src, tc.label, items)
			continue
		}
		if items[i].Insert != tc.insert || src[span.Start:span.End] != tc.replaced {
			t.Errorf("%q: inserts %q over %q, want %q over %q", tc.src, items[i].Insert, src[span.Start:span.End], tc.insert, tc.replaced)
		}
	}
}

// TestIncludePathAtEveryOffset asks for completion at every offset of
// texts with an include being typed, their lines ended by "\r\n", one of
// them after a quote left open on an earlier line: the offset between a
// line's "\r" and its "\n" is past the line's end, and the path's
// completion sliced the rest of the line from there and panicked (found
// by TestQueryEqualsFull -stress=1).
func TestIncludePathAtEveryOffset(t *testing.T) {
	for _, src := range []string{
		"store a as \"x\r\ninclude from \"lib/\r\n",
		"store a as \"x\r\ninclude from \"\r\ndisplay 1\r\n",
		"include from \"a\r\n",
		"include from \"x.wfl\"\r\n",
	} {
		a := featuretest.AnalysisOf(t, src)
		for off := 0; off <= len(src); off++ {
			List(a, off, Options{Snippets: true})
		}
	}
}
