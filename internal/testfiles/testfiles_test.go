package testfiles

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWrite: the file is written below its folders, which are made, and
// its path returned.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := Write(t, dir, "sub/deeper/a.wfl", "display 1\n")
	if want := filepath.Join(dir, "sub", "deeper", "a.wfl"); p != want {
		t.Errorf("path %q, want %q", p, want)
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != "display 1\n" {
		t.Errorf("read back %q, %v", b, err)
	}
}
