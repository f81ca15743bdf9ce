package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/config"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
)

// BenchmarkCheck lints about 10,000 lines made of corpus programs that
// parse (the tree rules run).
func BenchmarkCheck(b *testing.B) {
	var sb strings.Builder
	lines := 0
	dir := filepath.Join(testcorpus.Dir(b), "wfl")
	for lines < 10000 {
		before := lines
		filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".wfl") || lines >= 10000 {
				return nil
			}
			data, _ := os.ReadFile(path)
			if _, diags := parser.Parse(string(data)); hasError(diags) {
				return nil
			}
			sb.Write(data)
			sb.WriteString("\n")
			lines += strings.Count(string(data), "\n") + 1
			return nil
		})
		if lines == before {
			b.Skip("no corpus")
		}
	}
	src := sb.String()
	f, diags := parser.Parse(src)
	if hasError(diags) {
		b.Skip("the concatenation does not parse")
	}
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for b.Loop() {
		Check(src, f, nil, config.Default())
	}
}

func hasError(diags []diag.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}
