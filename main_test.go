package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), code
}

func TestCommandLine(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		wantCode   int
		wantStdout string // prefix
		wantStderr string // substring
	}{
		{"version flag", []string{"--version"}, 0, "wfl-lsp version ", ""},
		{"version command", []string{"version"}, 0, "wfl-lsp version ", ""},
		{"version after client flags", []string{"--stdio", "--clientProcessId=42", "--version"}, 0, "wfl-lsp version ", ""},
		{"help", []string{"--help"}, 0, "wfl-lsp: the WFL language server", ""},
		{"unknown flag", []string{"--bogus"}, 2, "", "flag provided but not defined: -bogus"},
		{"unknown command", []string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{"bad log level", []string{"--log-level", "loud"}, 2, "", "--log-level"},
		{"http without mcp", []string{"--http", "127.0.0.1:0"}, 2, "", "--http needs --mcp"},
		{"max connections without http", []string{"--mcp", "--max-connections", "5"}, 2, "", "--max-connections needs --http"},
		{"max connections below one", []string{"--mcp", "--http", "127.0.0.1:0", "--max-connections", "-1"}, 2, "", "--max-connections needs --http and a number from 1"},
		{"check without paths", []string{"check"}, 2, "", "usage: wfl-lsp check"},
		{"check of a missing file", []string{"check", "no/such/file.wfl"}, 2, "", "no such file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stdout, stderr, code := runCLI(t, tt.args...)
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d (stderr %q)", code, tt.wantCode, stderr)
			}
			if !strings.HasPrefix(stdout, tt.wantStdout) {
				t.Errorf("stdout %q, want prefix %q", stdout, tt.wantStdout)
			}
			if !strings.Contains(stderr, tt.wantStderr) {
				t.Errorf("stderr %q, want it to contain %q", stderr, tt.wantStderr)
			}
		})
	}
}

// TestCheckJSON checks the `check --json` contract of DESIGN.md on a folder
// holding one valid and one broken program.
func TestCheckJSON(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("good.wfl", "store greeting as \"hi\"\ndisplay greeting\n")
	write(".hidden/skipped.wfl", "check if:\n")
	bad := write("sub/bad.wfl", "store x as 1\ncheck if x is 1\n    display x\n")

	stdout, stderr, code := runCLI(t, "check", "--json", dir)
	if code != 1 {
		t.Fatalf("exit code %d, want 1 (stdout %q, stderr %q)", code, stdout, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	for _, l := range lines {
		var d map[string]any
		if err := json.Unmarshal([]byte(l), &d); err != nil {
			t.Fatalf("line %q is not JSON: %v", l, err)
		}
		for _, key := range []string{"file", "line", "column", "endLine", "endColumn", "severity", "category", "code", "message"} {
			if _, ok := d[key]; !ok {
				t.Errorf("line %q has no %q", l, key)
			}
		}
		if d["file"] != bad {
			t.Errorf("diagnostic for %v, want only %s (hidden folders are skipped, the valid file has none)", d["file"], bad)
		}
	}
	var first map[string]any
	json.Unmarshal([]byte(lines[0]), &first)
	if first["severity"] != "error" || first["category"] != "parse" {
		t.Errorf("first diagnostic %v, want a parse error", first)
	}

	// Without --json: file:line:column: severity: message [code].
	stdout, _, code = runCLI(t, "check", bad)
	if code != 1 || !strings.HasPrefix(stdout, bad+":") || !strings.Contains(stdout, ": error: ") {
		t.Errorf("plain check printed %q (exit %d)", stdout, code)
	}
	if _, _, code := runCLI(t, "check", filepath.Join(dir, "good.wfl")); code != 0 {
		t.Errorf("check of a valid program exited %d, want 0", code)
	}
}

// TestCheckAll: `check --all` adds the semantic errors of the statements
// that parse while one does not (the editor's list); without it, only the
// reference's parse error. The exit status is the same.
func TestCheckAll(t *testing.T) {
	p := filepath.Join(t.TempDir(), "typing.wfl")
	if err := os.WriteFile(p, []byte("change q to 1\nstore z as\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plain, _, code := runCLI(t, "check", p)
	if code != 1 || strings.Contains(plain, "'q'") || !strings.Contains(plain, "PARSE-UNEXPECTED") {
		t.Errorf("check printed %q (exit %d), want the parse error alone", plain, code)
	}
	all, _, code := runCLI(t, "check", "--all", p)
	want := p + ":1:8: error: Variable 'q' is not defined [ANALYZE-SEMANTIC]\n"
	if code != 1 || !strings.HasPrefix(all, want) || !strings.Contains(all, "PARSE-UNEXPECTED") {
		t.Errorf("check --all printed %q (exit %d), want it to start with %q and hold the parse error", all, code, want)
	}
}
