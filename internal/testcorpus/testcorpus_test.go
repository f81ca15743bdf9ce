package testcorpus

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that records what a helper does with it
// instead of ending the test.
type recorder struct {
	testing.TB
	failed, skipped bool
	logs            []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(f string, args ...any) {
	r.failed = true
	r.logs = append(r.logs, fmt.Sprintf(f, args...))
}
func (r *recorder) Logf(f string, args ...any)   { r.logs = append(r.logs, fmt.Sprintf(f, args...)) }
func (r *recorder) Fatalf(f string, args ...any) { r.Errorf(f, args...) }
func (r *recorder) SkipNow()                     { r.skipped = true }

// TestMissingCorpus checks what a test without the corpus does: skips,
// saying so, and fails instead under CI=true.
func TestMissingCorpus(t *testing.T) {
	for _, ci := range []string{"", "false", "true"} {
		t.Run("CI="+ci, func(t *testing.T) {
			t.Setenv("CI", ci)
			r := &recorder{}
			missing(r, os.ErrNotExist)
			if r.failed != (ci == "true") || len(r.logs) != 1 {
				t.Errorf("failed %v (want %v), logs %q", r.failed, ci == "true", r.logs)
			}
		})
	}
}

// TestLocate checks that the corpus is found beside the module's root from
// any folder of the module, and reported missing otherwise.
func TestLocate(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	pkg := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := locate(pkg); err == nil {
		t.Fatal("found a corpus where there is none")
	}
	corpus := filepath.Join(top, "shared", "corpus")
	if err := os.MkdirAll(corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, wd := range []string{repo, pkg} {
		dir, err := locate(wd)
		if err != nil || dir != corpus {
			t.Errorf("from %s: %q, %v; want %q", wd, dir, err, corpus)
		}
	}
}
