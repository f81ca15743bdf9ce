package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/internal/testfiles"
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
		{"bad log level with check", []string{"--log-level", "loud", "check", "no/such/file.wfl"}, 2, "", `--log-level "loud"`},
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

// TestCheckEmptyFolder: a folder that holds no program is not an error,
// but check says so on stderr (a mistyped path would pass silently), and
// says nothing of a folder that holds one.
func TestCheckEmptyFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("not a program\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := runCLI(t, "check", dir)
	if code != 0 || stdout != "" || !strings.Contains(stderr, "no .wfl file in "+dir) {
		t.Errorf("check of a folder without programs: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if err := os.WriteFile(filepath.Join(dir, "ok.wfl"), []byte("display 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, stderr, code := runCLI(t, "check", dir); code != 0 || stderr != "" {
		t.Errorf("check of a folder with a valid program: exit %d, stderr %q", code, stderr)
	}
}

// TestCheckJSON checks the `check --json` contract (see jsonDiagnostic) on a folder
// holding one valid and one broken program.
func TestCheckJSON(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return testfiles.Write(t, dir, name, text) }
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

// TestReadToken reads --token-file: a token shorter than 16 bytes is
// refused (a one-character token was accepted without a word), a file
// other users may read is served with a warning.
func TestReadToken(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		name, content string
		mode          fs.FileMode
		want, err     string // the token, or a part of the error
		warn          bool
	}{
		{"private and long", "  0123456789abcdef0123\n", 0o600, "0123456789abcdef0123", "", false},
		{"sixteen bytes", "0123456789abcdef", 0o400, "0123456789abcdef", "", false},
		{"one character", "x\n", 0o600, "", "the secret is 1 bytes; use at least 16", false},
		{"fifteen bytes", "0123456789abcde", 0o600, "", "use at least 16", false},
		{"empty", " \n", 0o600, "", "is empty", false},
		{"two lines", "0123456789abcdef\n0123456789abcdef\n", 0o600, "", "write it on one line", false},
		{"a blank inside", "0123456789 abcdef", 0o600, "", "write it on one line", false},
		{"readable by all", "0123456789abcdef0123", 0o644, "0123456789abcdef0123", "", true},
		{"readable by the group", "0123456789abcdef0123", 0o640, "0123456789abcdef0123", "", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "-"))
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(path, tt.mode); err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			got, err := readSecret("--token-file", path, slog.New(slog.NewTextHandler(&log, nil)))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("token %q, %v; want %q", got, err, tt.want)
			}
			if warned := strings.Contains(log.String(), "chmod 600"); warned != tt.warn {
				t.Errorf("warned %t, want %t: %s", warned, tt.warn, log.String())
			}
			if strings.Contains(log.String(), tt.want) {
				t.Errorf("the token appears in the log: %s", log.String())
			}
		})
	}
}
