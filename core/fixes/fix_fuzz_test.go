package fixes

import (
	"path/filepath"
	"testing"
	"unicode/utf8"

	"wfl-lsp/core"
	"wfl-lsp/lang/token"
)

// FuzzFixes computes every quick fix of arbitrary UTF-8 text: no panic, and
// every fix's edits apply to the text.
func FuzzFixes(f *testing.F) {
	for _, s := range []string{
		"store userName as 1   \nDisplay userName\ndisplay usrName\n",
		"count from 1 to 2:\n    check if count is 1:\n        display 1\n",
		"check if 1 is 1:\n    display 1\nend for\n",
		"display score\n",
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	f.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	f.Fuzz(func(t *testing.T, src string) {
		if !utf8.ValidString(src) {
			return // documents are UTF-8 (core.ApplyEdits refuses to split a byte sequence)
		}
		s := core.NewSnapshot(core.FileURI(filepath.Join(dir, "a.wfl")), 1, src)
		for _, fix := range At(t.Context(), s, token.Span{Start: 0, End: len(src)}) {
			if _, err := core.ApplyEdits(src, fix.Edits...); err != nil {
				t.Fatalf("fix %q: %v", fix.Title, err)
			}
		}
		if _, _, err := All(s); err != nil {
			t.Fatalf("FixAll: %v", err)
		}
	})
}
