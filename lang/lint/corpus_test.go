package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/config"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/format"
	"wfl-lsp/lang/parser"
)

// TestFormattedCorpusIsClean checks that the linter and the formatter agree:
// a formatted corpus program draws no LINT-INDENT or LINT-WHITESPACE finding,
// with the default indent size and with 2.
func TestFormattedCorpusIsClean(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(testcorpus.Dir(t), "wfl")
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
		t.Fatalf("no corpus program formatted at %s: %v", dir, err)
	}
	t.Logf("%d formatted corpus programs, %d indentation or whitespace findings", n, findings)
}

// TestCheckModesEqualsCheck checks that CheckModes finds, for every corpus
// program and mutant, what Check finds with the tree and without it, under
// the default configuration and one that turns the text rules around
// (every 32nd mutant under the race detector).
func TestCheckModesEqualsCheck(t *testing.T) {
	t.Parallel()
	shared := testcorpus.Dir(t)
	var n, mutants int
	for _, dir := range []string{"wfl", "wfl-mutants"} {
		filepath.WalkDir(filepath.Join(shared, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".wfl") {
				return nil
			}
			if dir == "wfl-mutants" {
				if mutants++; mutants%testcorpus.RaceStride(32) != 0 {
					return nil
				}
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return nil
			}
			src := string(data)
			f, _ := parser.Parse(src)
			other := config.Default()
			other.TrailingWhitespace, other.MaxLineLength = true, 40
			for _, cfg := range []config.Config{config.Default(), other} {
				tree, tok := CheckModes(src, f, nil, cfg)
				if want := Check(src, f, nil, cfg); !reflect.DeepEqual(tree, want) {
					t.Errorf("%s: with the tree, CheckModes finds %v, Check %v", path, tree, want)
				}
				if want := Check(src, nil, nil, cfg); !reflect.DeepEqual(tok, want) {
					t.Errorf("%s: without the tree, CheckModes finds %v, Check %v", path, tok, want)
				}
			}
			n++
			return nil
		})
	}
	if n == 0 {
		t.Fatalf("no corpus program at %s", shared)
	}
	t.Logf("%d programs", n)
}
