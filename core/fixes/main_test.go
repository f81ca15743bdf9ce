package fixes

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/internal/gcpolicy"
	"wfl-lsp/internal/testcorpus"
)

// TestMain runs the tests as core's run (core/main_test.go): with no
// global configuration file, and with the collector set as the server
// runs it, except under benchmarks.
func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "wfl-fixes-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	if flag.Lookup("test.bench").Value.String() == "" {
		gcpolicy.ForServer()
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// corpusPrograms returns the corpus programs and every stride-th mutant,
// by path; nil when ../shared is absent (failing tb under CI=true, see
// testcorpus). Under the race detector, which makes them about ten times
// slower, it returns a sixteenth as many of each, every sixteenth in path
// order (CI runs the tests without it too, on the whole sample).
func corpusPrograms(tb testing.TB, stride int) map[string]string {
	tb.Helper()
	out := map[string]string{}
	root, ok := testcorpus.Optional(tb)
	if !ok {
		return nil
	}
	progStride := testcorpus.RaceStride(16)
	stride *= progStride
	n, m := 0, 0
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".wfl") {
			return nil
		}
		if strings.Contains(path, "wfl-mutants") {
			n++
			if n%stride != 0 {
				return nil
			}
		} else if m++; m%progStride != 0 {
			return nil
		}
		if data, err := os.ReadFile(path); err == nil {
			out[path] = string(data)
		}
		return nil
	})
	return out
}

// corpusOrSkip is corpusPrograms, skipping the test when there is no
// corpus beside the project.
func corpusOrSkip(tb testing.TB, stride int) map[string]string {
	tb.Helper()
	progs := corpusPrograms(tb, stride)
	if len(progs) == 0 {
		tb.SkipNow()
	}
	return progs
}

var stress = flag.Int("stress", 0, "edit every program and mutant 60 times with this seed")
