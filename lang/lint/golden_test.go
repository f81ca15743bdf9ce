package lint

import (
	"flag"
	"fmt"
	"os"
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
	paths, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "lint", "*.txtar"))
	if len(paths) == 0 {
		t.Fatal("no golden files")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			a := txtar.Parse(string(data))
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
			if *update {
				if err := os.WriteFile(path, []byte(a.Format()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
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
