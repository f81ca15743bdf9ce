package lint

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/internal/txtar"
	"wfl-lsp/lang/config"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/lint")

// TestGolden lints every *.wfl file of each testdata/lint/*.txtar archive
// under the archive's .wflcfg (if any) and compares the findings with the
// archive's "<name>.findings" file.
func TestGolden(t *testing.T) {
	txtar.Run(t, filepath.Join("..", "..", "testdata", "lint", "*.txtar"), *update, func(t *testing.T, a *txtar.Archive) {
		cfg := config.Default()
		if text, ok := a.Get(".wflcfg"); ok {
			var errs []*config.Error
			if cfg, errs = config.Parse(cfg, text); len(errs) > 0 {
				t.Fatalf(".wflcfg: %v", errs[0])
			}
		}
		for _, f := range a.Files {
			if !strings.HasSuffix(f.Name, ".wfl") {
				continue
			}
			got := findings(f.Data, cfg)
			key := strings.TrimSuffix(f.Name, ".wfl") + ".findings"
			if *update {
				a.Set(key, got)
				continue
			}
			if want, _ := a.Get(key); got != want {
				t.Errorf("%s findings:\n%s\nwant:\n%s", f.Name, got, want)
			}
		}
	})
}

// findings lints src as core does and prints one line a finding.
func findings(src string, cfg config.Config) string {
	f, diags := parser.Parse(src)
	for _, d := range diags {
		if d.Severity == diag.Error {
			f = nil
		}
	}
	lines := token.NewLines(src)
	var b strings.Builder
	for _, d := range Check(src, f, nil, cfg) {
		l, c := lines.OffsetPosition(d.Span.Start)
		fmt.Fprintf(&b, "%d:%d %s %s\n", l, c, d.Code, d.Message)
	}
	return b.String()
}
