package txtar

// This file implements Run, the loop every golden test shares: one subtest
// per archive, and the archive written back under -update.

import (
	"os"
	"path/filepath"
	"testing"
)

// Run runs test as a subtest, named for the file, on every archive that
// pattern (a filepath.Glob pattern) matches, and fails when none does.
// With update set, each archive is written back after test returns, with
// the files test changed (Set); a test that stops (t.Fatal) writes nothing.
func Run(t *testing.T, pattern string, update bool, test func(t *testing.T, a *Archive)) {
	t.Helper()
	paths, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatalf("no golden files match %s", pattern)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			a := Parse(string(data))
			test(t, a)
			if update {
				if err := os.WriteFile(path, []byte(a.Format()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}
