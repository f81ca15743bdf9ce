package lint

import (
	"testing"
	"unicode/utf8"

	"wfl-lsp/lang/config"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
)

// FuzzCheck lints arbitrary text, with and without a tree: it must not
// panic, and every finding must lie inside the text, in order.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{
		"store userName as 1   \nDisplay userName\n",
		"check if 1 is 1:\n  count from 1 to 2:\n display \"a\nb  \"\n  end count\nend check\n",
		"create container P:\nproperty n: Text\nend\n",
		"\t\f\r\n# c  \r",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		tree, diags := parser.Parse(src)
		for _, d := range diags {
			if d.Severity == diag.Error {
				tree = nil
			}
		}
		cfg := config.Default()
		cfg.MaxLineLength, cfg.MaxNestingDepth = 20, 1
		prev := 0
		for _, d := range Check(src, tree, nil, cfg) {
			if d.Span.Start < prev || d.Span.Start > d.Span.End || d.Span.End > len(src) {
				t.Fatalf("finding %+v out of order or outside a text of %d bytes", d, len(src))
			}
			prev = d.Span.Start
			if !utf8.ValidString(d.Message) {
				t.Fatalf("finding's message is not UTF-8: %q", d.Message)
			}
		}
	})
}
