// Package testcorpus finds the WFL corpus the tests read: the programs,
// mutants and reference verdicts kept in ../shared/corpus beside the
// repository (never copied into it). Every test that reads the corpus finds
// it here, so that its absence is handled one way: a test that needs it is
// skipped, and fails instead when the environment variable CI is "true", as
// CI sets it, so that a run without the corpus cannot pass as a run with it.
//
// It also tells the tests whether they run under the race detector, which
// makes the corpus properties about ten times slower: those take a smaller
// sample then (RaceStride), and their whole sample without it (CI runs both).
//
// Tests import it; the binary does not.
package testcorpus

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Race is true when the test binary was built with -race.
const Race = race

// RaceStride returns n under the race detector and 1 without it: the
// stride of a sample that takes every item without the race detector and
// every nth under it.
func RaceStride(n int) int {
	if Race {
		return n
	}
	return 1
}

// CI reports whether the tests run in CI (CI=true), where a missing corpus
// fails a test instead of skipping it.
func CI() bool { return os.Getenv("CI") == "true" }

var find = sync.OnceValues(func() (string, error) { return locate(".") })

// locate returns the corpus's folder for a test working in folder wd: the
// module's root is the nearest folder up from wd that holds go.mod, and the
// corpus is ../shared/corpus from there. The path stays relative when wd
// is, as the tests print it.
func locate(wd string) (string, error) {
	root := wd
	for range 16 {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		root = filepath.Join(root, "..")
	}
	dir := filepath.Join(root, "..", "shared", "corpus")
	st, err := os.Stat(dir)
	if err == nil && !st.IsDir() {
		err = &os.PathError{Op: "stat", Path: dir, Err: os.ErrNotExist}
	}
	return dir, err
}

// Dir returns the corpus's folder (../shared/corpus from the repository's
// root, as a path relative to the working directory). When there is none it
// skips tb, or fails it under CI=true.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, ok := Optional(tb)
	if !ok {
		tb.SkipNow()
	}
	return dir
}

// Path returns the path of elem (slash-separated) in the corpus, as Dir
// does: skipping tb, or failing it under CI=true, when the corpus or that
// file is missing.
func Path(tb testing.TB, elem string) string {
	tb.Helper()
	p := filepath.Join(Dir(tb), filepath.FromSlash(elem))
	if _, err := os.Stat(p); err != nil {
		missing(tb, err)
		tb.SkipNow()
	}
	return p
}

// Optional is Dir for the tests that check made-up cases too and read the
// corpus when it is there: it returns the folder and true, or logs that the
// corpus is missing and returns false; under CI=true a missing corpus
// fails tb (which goes on with the made-up cases).
func Optional(tb testing.TB) (string, bool) {
	tb.Helper()
	dir, err := find()
	if err != nil {
		missing(tb, err)
		return dir, false
	}
	return dir, true
}

func missing(tb testing.TB, err error) {
	tb.Helper()
	if CI() {
		tb.Errorf("no corpus (CI=true, so this fails instead of skipping): %v", err)
	} else {
		tb.Logf("no corpus, skipped: %v", err)
	}
}

// Read returns the text of the file at elem (slash-separated) in the
// corpus, as Path finds it.
func Read(tb testing.TB, elem string) string {
	tb.Helper()
	b, err := os.ReadFile(Path(tb, elem))
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// Glob returns the corpus's files matching pattern (slash-separated,
// relative to the corpus's folder, as filepath.Match reads it), or none
// when there is no corpus (failing tb under CI=true, as Optional does).
// It fails tb when the corpus is there but nothing matches.
func Glob(tb testing.TB, pattern string) []string {
	tb.Helper()
	dir, ok := Optional(tb)
	if !ok {
		return nil
	}
	files, err := filepath.Glob(filepath.Join(dir, filepath.FromSlash(pattern)))
	if err != nil || len(files) == 0 {
		tb.Fatalf("the corpus at %s has no %s (%v)", dir, pattern, err)
	}
	return files
}

// Programs returns the text of every corpus program (the .wfl files below
// the corpus's wfl folder) by path, or none when there is no corpus
// (failing tb under CI=true, as Optional does). It fails tb when the
// corpus is there but holds no program.
func Programs(tb testing.TB) map[string]string {
	tb.Helper()
	out := map[string]string{}
	dir, ok := Optional(tb)
	if !ok {
		return out
	}
	root := filepath.Join(dir, "wfl")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".wfl") {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out[path] = string(data)
		}
		return nil
	})
	if err != nil || len(out) == 0 {
		tb.Fatalf("no corpus programs at %s: %v", root, err)
	}
	return out
}
