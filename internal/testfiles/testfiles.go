// Package testfiles writes the files a test sets up in a folder of its own
// (a t.TempDir): the programs of a workspace, included files, settings.
// Each test that writes such a tree writes it here, so that a failure to
// write fails the test where it happens.
//
// Tests import it; the binary does not.
package testfiles

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes text to the file name (a slash-separated path below dir),
// making the folders it lies in, and returns the file's path. It fails the
// test when the file cannot be written.
func Write(tb testing.TB, dir, name, text string) string {
	tb.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}
