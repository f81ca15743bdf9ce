package completion

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"wfl-lsp/core"
)

// FuzzCompletion asks for completion and signature help at every line's
// end and at a chosen offset of arbitrary UTF-8 text: no panic, and each
// answer replaces a span of the text. The seeds are the places whose
// ranking reads the text's layout or the rest of the line (a header left
// without its condition, a container broken by the line typed in it,
// `extends` before `implements`, a name before `with`).
func FuzzCompletion(f *testing.F) {
	for _, s := range []struct{ src, after string }{
		{"for each a in b:\n    check if a is 1:\n        store c as 2\n    otherwise:\n        check if \n            store c as 3\n        end check\n    end check\nend for\n", "otherwise:\n        check if "},
		{"create container Lamp:\n    property lit: Boolean\n    action show:\n        check if lit is \n    end\nend\n", "lit is "},
		{"create container A:\n    action greet:\n    end\nend\ncreate container K extends  implements G:\nend\n", "extends "},
		{"store text as \"a\"\nstore r as contains of text and \ndisplay  with text\ncopy_file from \"a\" to \n", "display "},
		{"store line as [1]\ndisplay line at \ncheck if :\n", "check if "},
		{"\t\"k\" store is \"v\"\n  x as 1\n\"\n", "store"},
	} {
		f.Add(s.src, uint(strings.Index(s.src, s.after)+len(s.after)))
	}
	dir := f.TempDir()
	f.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	f.Fuzz(func(t *testing.T, src string, at uint) {
		if !utf8.ValidString(src) {
			return // documents are UTF-8
		}
		a := core.NewSnapshot(core.FileURI(filepath.Join(dir, "a.wfl")), 1, src).Analysis()
		offsets := []int{int(at % uint(len(src)+1))}
		for i := range len(src) {
			if src[i] == '\n' {
				offsets = append(offsets, i)
			}
		}
		for _, off := range offsets {
			span, _ := List(a, off, Options{Snippets: true, Max: 20})
			if span.Start < 0 || span.Start > span.End || span.End > len(src) {
				t.Fatalf("completion at %d replaces %v of a text of %d bytes", off, span, len(src))
			}
			SignatureHelp(a, off)
		}
	})
}
