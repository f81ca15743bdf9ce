package lint

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
			comment, names, files := splitArchive(string(data))
			cfg := config.Default()
			if text, ok := files[".wflcfg"]; ok {
				var errs []*config.Error
				if cfg, errs = config.Parse(cfg, text); len(errs) > 0 {
					t.Fatalf(".wflcfg: %v", errs[0])
				}
			}
			changed := false
			for _, name := range names {
				if !strings.HasSuffix(name, ".wfl") {
					continue
				}
				got := findings(files[name], cfg)
				key := strings.TrimSuffix(name, ".wfl") + ".findings"
				if *update {
					if _, ok := files[key]; !ok {
						names = append(names, key)
					}
					files[key] = got
					changed = true
					continue
				}
				if want := files[key]; got != want {
					t.Errorf("%s findings:\n%s\nwant:\n%s", name, got, want)
				}
			}
			if changed {
				var b strings.Builder
				b.WriteString(comment)
				for _, n := range names {
					fmt.Fprintf(&b, "-- %s --\n%s", n, files[n])
				}
				if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
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

// splitArchive reads a minimal txtar: a comment, then "-- name --" files.
func splitArchive(data string) (comment string, names []string, files map[string]string) {
	files = map[string]string{}
	name := ""
	var b strings.Builder
	flush := func() {
		if name == "" {
			comment = b.String()
		} else {
			files[name] = b.String()
			names = append(names, name)
		}
		b.Reset()
	}
	for _, line := range strings.SplitAfter(data, "\n") {
		t := strings.TrimRight(line, "\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			flush()
			name = strings.TrimSpace(t[3 : len(t)-3])
			continue
		}
		b.WriteString(line)
	}
	flush()
	return comment, names, files
}
