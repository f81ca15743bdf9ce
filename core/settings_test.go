package core

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/lang/config"
)

func TestParseSettings(t *testing.T) {
	for _, tc := range []struct {
		name, json   string
		over, under  string
		problemsLike []string
	}{
		{name: "null", json: `null`},
		{name: "empty", json: `{}`},
		{name: "snake", json: `{"max_line_length": 80, "snake_case_variables": false}`,
			over: "max_line_length = 80\nsnake_case_variables = false\n"},
		{name: "camel", json: `{"maxNestingDepth": 3, "trailingWhitespace": true, "consistentKeywordCase": "false"}`,
			over: "consistent_keyword_case = false\nmax_nesting_depth = 3\ntrailing_whitespace = true\n"},
		{name: "snake wins over camel", json: `{"indentSize": 3, "indent_size": 2}`,
			over: "indent_size = 3\nindent_size = 2\n"},
		{name: "extension names", json: `{"serverPath": "wfl-lsp", "format": {"enable": true, "indentSize": 2, "maxLineLength": 80}}`,
			under: "indent_size = 2\n"},
		{name: "null value unset", json: `{"max_line_length": null}`},
		{name: "bad values", json: `{"max_line_length": 5, "indent_size": 2.5, "snake_case_variables": "maybe", "max_nesting_depth": [1]}`,
			problemsLike: []string{"indent_size", "max_line_length: 5 is out of range", "max_nesting_depth", "snake_case_variables"}},
		{name: "not an object", json: `[1]`, problemsLike: []string{"want an object"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, problems := ParseSettings(json.RawMessage(tc.json))
			if s.Over != tc.over || s.Under != tc.under {
				t.Errorf("settings = %+v, want over %q under %q", s, tc.over, tc.under)
			}
			if len(problems) != len(tc.problemsLike) {
				t.Fatalf("problems = %v, want %d", problems, len(tc.problemsLike))
			}
			for i, p := range problems {
				if !strings.Contains(p.Error(), tc.problemsLike[i]) {
					t.Errorf("problem %d = %q, want it to mention %q", i, p, tc.problemsLike[i])
				}
			}
		})
	}
}

// TestConfigForSettings checks the precedence: client keys > nearest
// .wflcfg > the extension's format.indentSize > global file > defaults.
func TestConfigForSettings(t *testing.T) {
	root := t.TempDir()
	global := filepath.Join(root, "global.cfg")
	if err := os.WriteFile(global, []byte("max_nesting_depth = 7\nindent_size = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", global)
	proj := filepath.Join(root, "proj")
	plain := filepath.Join(root, "plain")
	for _, d := range []string{proj, plain} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(proj, ConfigFileName), []byte("max_line_length = 120\nindent_size = 8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	inProj := FileURI(filepath.Join(proj, "a.wfl"))
	inPlain := FileURI(filepath.Join(plain, "a.wfl"))
	elsewhere := FileURI(filepath.Join(t.TempDir(), "a.wfl"))

	before := ConfigFor(inProj)
	if before.MaxLineLength != 120 || before.IndentSize != 8 || before.MaxNestingDepth != 7 {
		t.Fatalf("without settings: %+v", before)
	}

	s, problems := ParseSettings(json.RawMessage(`{"max_line_length": 60, "snakeCaseVariables": false, "format": {"indentSize": 2}}`))
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	remove := SetSettings(root, s)
	want := func(u URI, length, indent, nesting int, snake bool) {
		t.Helper()
		c := ConfigFor(u)
		if c.MaxLineLength != length || c.IndentSize != indent || c.MaxNestingDepth != nesting || c.SnakeCaseVariables != snake {
			t.Errorf("%s: %+v, want length %d indent %d nesting %d snake %v", u, c, length, indent, nesting, snake)
		}
	}
	want(inProj, 60, 8, 7, false)  // client key > .wflcfg; .wflcfg > format.indentSize
	want(inPlain, 60, 2, 7, false) // format.indentSize > global file
	d := config.Default()
	want(elsewhere, d.MaxLineLength, 3, 7, d.SnakeCaseVariables) // outside the folder: files only

	// An inner folder's registration wins inside it.
	inner, _ := ParseSettings(json.RawMessage(`{"max_line_length": 70}`))
	removeInner := SetSettings(proj, inner)
	want(inProj, 70, 8, 7, true)
	want(inPlain, 60, 2, 7, false)
	removeInner()
	want(inProj, 60, 8, 7, false)

	remove()
	if got := ConfigFor(inProj); got != before {
		t.Errorf("after removal: %+v, want %+v", got, before)
	}
}
