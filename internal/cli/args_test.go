package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFlagsAmongPaths: check and fmt read their flags wherever they stand
// (`check a.wfl --json`; before, --json was taken for a file and the run
// failed with exit 2), `--` ends them, and --help exits 0.
func TestFlagsAmongPaths(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.wfl")
	if err := os.WriteFile(a, []byte("display nope\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		run  func(stdout, stderr *bytes.Buffer) int
		code int
		out  string // a substring of stdout
	}{
		{"check PATH --json", func(o, e *bytes.Buffer) int { return Check([]string{a, "--json"}, nil, o, e) }, 1, `"code":"ANALYZE-SEMANTIC"`},
		{"check --json PATH", func(o, e *bytes.Buffer) int { return Check([]string{"--json", a}, nil, o, e) }, 1, `"code":"ANALYZE-SEMANTIC"`},
		{"check -- PATH", func(o, e *bytes.Buffer) int { return Check([]string{"--", a}, nil, o, e) }, 1, "a.wfl:1:"},
		{"check --help", func(o, e *bytes.Buffer) int { return Check([]string{"--help"}, nil, o, e) }, 0, ""},
		{"check --bogus", func(o, e *bytes.Buffer) int { return Check([]string{a, "--bogus"}, nil, o, e) }, 2, ""},
		{"fmt PATH -l", func(o, e *bytes.Buffer) int { return Fmt([]string{a, "-l"}, strings.NewReader(""), o, e) }, 0, ""},
		{"fmt --help", func(o, e *bytes.Buffer) int { return Fmt([]string{"--help"}, strings.NewReader(""), o, e) }, 0, ""},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		if code := tt.run(&stdout, &stderr); code != tt.code || !strings.Contains(stdout.String(), tt.out) {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want exit %d and %q", tt.name, code, stdout.String(), stderr.String(), tt.code, tt.out)
		}
	}
}

// TestFileNamedTwice: a file named twice, or a folder and a file in it,
// is checked once, under the name it had first.
func TestFileNamedTwice(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.wfl")
	if err := os.WriteFile(a, []byte("display nope\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Check([]string{a, a, dir}, nil, &stdout, &stderr); code != 1 || strings.Count(stdout.String(), "nope") != 1 || stderr.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want the finding once", code, stdout.String(), stderr.String())
	}
}
