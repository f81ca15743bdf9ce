package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/lang/config"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/format"
	"wfl-lsp/lang/parser"
)

// TestFormattedCorpusIsClean checks that the linter and the formatter agree:
// a formatted corpus program draws no LINT-INDENT or LINT-WHITESPACE finding,
// with the default indent size and with 2.
func TestFormattedCorpusIsClean(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "wfl")
	var n, findings int
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".wfl") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, size := range []int{4, 2} {
			out, err := format.Source(string(data), format.Options{IndentSize: size})
			if err != nil {
				return nil // does not parse
			}
			if size == 4 {
				n++
			}
			f, diags := parser.Parse(out)
			for _, d := range diags {
				if d.Severity == diag.Error {
					t.Errorf("%s: formatted text does not parse", path)
					return nil
				}
			}
			cfg := config.Default()
			cfg.IndentSize = size
			for _, d := range Check(out, f, nil, cfg) {
				if d.Code == CodeIndent || d.Code == CodeWhitespace {
					findings++
					t.Errorf("%s (indent %d): %s at %d", path, size, d.Message, d.Span.Start)
				}
			}
		}
		return nil
	})
	if err != nil || n == 0 {
		t.Skipf("corpus not available: %v", err)
	}
	t.Logf("%d formatted corpus programs, %d indentation or whitespace findings", n, findings)
}
