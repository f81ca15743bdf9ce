package core

import (
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

// fixSnapshot makes a snapshot of src in a folder with no .wflcfg, so the
// default configuration applies.
func fixSnapshot(t *testing.T, src string) *Snapshot {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	return NewSnapshot(FileURI(filepath.Join(dir, "a.wfl")), 1, src)
}

func hasParseError(a *Analysis) bool {
	for _, d := range a.Diagnostics {
		if d.Category == diag.Parse && d.Severity == diag.Error {
			return true
		}
	}
	return false
}

func TestFixes(t *testing.T) {
	tests := []struct {
		name  string
		src   string
		code  string // the diagnostic's code
		title string // a prefix of the fix's title; "" expects no fix for code
		want  string // the text after the fix
	}{
		{name: "strip trailing whitespace", code: "LINT-WHITESPACE", title: "Remove trailing whitespace",
			src: "display 1   \n", want: "display 1\n"},
		{name: "fix indentation", code: "LINT-INDENT", title: "Indent the line with 4 spaces",
			src: "check if 1 is 1:\n  display 1\nend check\n", want: "check if 1 is 1:\n    display 1\nend check\n"},
		{name: "lowercase a keyword", code: "LINT-KEYWORD", title: "Write 'Display' as the keyword 'display'",
			src: "store x as 1\nDisplay x\n", want: "store x as 1\ndisplay x\n"},
		{name: "lowercase a boolean", code: "LINT-KEYWORD", title: "Write 'YES'",
			src: "store x as YES\ndisplay x\n", want: "store x as yes\ndisplay x\n"},
		{name: "rename to snake_case everywhere", code: "LINT-NAME", title: "Rename 'userName' to 'user_name' everywhere",
			src:  "store userName as 1\nchange userName to userName plus 1\ndisplay userName\n",
			want: "store user_name as 1\nchange user_name to user_name plus 1\ndisplay user_name\n"},
		{name: "rename a multi-word name", code: "LINT-NAME", title: "Rename 'first name' to 'first_name'",
			src:  "store first name as \"Al\"\ndisplay first  name\n",
			want: "store first_name as \"Al\"\ndisplay first_name\n"},
		{name: "no rename onto an existing name", code: "LINT-NAME",
			src: "store user_name as 1\nstore userName as 2\ndisplay userName with user_name\n"},
		{name: "did you mean", code: "ANALYZE-SEMANTIC", title: "Change 'totl' to 'total'",
			src: "store total as 1\ndisplay totl\n", want: "store total as 1\ndisplay total\n"},
		{name: "did you mean an action", code: "ANALYZE-SEMANTIC", title: "Change 'gret' to 'greet'",
			src:  "define action called greet:\n    display \"hi\"\nend action\ncall gret\n",
			want: "define action called greet:\n    display \"hi\"\nend action\ncall greet\n"},
		{name: "did you mean a builtin", code: "ANALYZE-SEMANTIC", title: "Change 'lenght' to 'length'",
			src: "display lenght of \"abc\"\n", want: "display length of \"abc\"\n"},
		{name: "no name declared after the use", code: "ANALYZE-SEMANTIC", title: "Change",
			src: "display totl\nstore total as 1\n"},
		{name: "no close name", code: "ANALYZE-SEMANTIC", title: "Change",
			src: "store total as 1\ndisplay zebra\n"},
		{name: "declare an undefined variable", code: "ANALYZE-SEMANTIC", title: "Declare 'score'",
			src:  "check if 1 is 1:\n    display score\nend check\n",
			want: "check if 1 is 1:\n    store score as nothing\n    display score\nend check\n"},
		{name: "insert the missing closer", code: "PARSE-EOF", title: "Insert 'end count'",
			src:  "count from 1 to 2:\n    check if count is 1:\n        display 1\n    end check\n",
			want: "count from 1 to 2:\n    check if count is 1:\n        display 1\n    end check\nend count\n"},
		{name: "insert a nested closer before a wrong one", code: "PARSE-EXPECTED", title: "Insert 'end check' before this line",
			src:  "count from 1 to 2:\n    check if count is 1:\n        display 1\n    end check\n    check if count is 2:\n        display 2\nend count\n",
			want: "count from 1 to 2:\n    check if count is 1:\n        display 1\n    end check\n    check if count is 2:\n        display 2\n    end check\nend count\n"},
		{name: "insert a closer after a last line without a break", code: "PARSE-EOF", title: "Insert 'end repeat'",
			src:  "store x as 1\nrepeat while x is less than 3:\n    change x to x plus 1",
			want: "store x as 1\nrepeat while x is less than 3:\n    change x to x plus 1\nend repeat\n"},
		{name: "replace a wrong closer", code: "PARSE-EXPECTED", title: "Close the block with 'end check'",
			src:  "check if 1 is 1:\n    display 1\nend for\n",
			want: "check if 1 is 1:\n    display 1\nend check\n"},
		{name: "no whitespace fix inside a string", code: "LINT-WHITESPACE", title: "Remove",
			src: "display \"a  \nb\"\n"},
		{name: "no indentation fix for canonical lines", code: "LINT-INDENT", title: "Indent",
			src: "check if 1 is 1:\n    display 1\nend check\n"},
		{name: "no keyword fix for a capitalised name", code: "LINT-KEYWORD", title: "Write",
			src: "store Total as 1\ndisplay Total\n"},
		{name: "no declaration for a defined name", code: "ANALYZE-SEMANTIC", title: "Declare",
			src: "store x as 1\ndisplay x\n"},
		{name: "no closer fix for other parse errors", code: "PARSE-UNEXPECTED", title: "",
			src: "store x as\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fixSnapshot(t, tt.src)
			var fix *Fix
			var all []string
			for _, f := range s.Fixes(token.Span{Start: 0, End: len(tt.src)}) {
				all = append(all, f.Diagnostic.Code+": "+f.Title)
				if f.Diagnostic.Code == tt.code && tt.title != "" && strings.HasPrefix(f.Title, tt.title) && fix == nil {
					f := f
					fix = &f
				}
			}
			if tt.want == "" {
				if fix != nil {
					t.Fatalf("unexpected fix %q", fix.Title)
				}
				for _, f := range s.Fixes(token.Span{Start: 0, End: len(tt.src)}) {
					if f.Diagnostic.Code == tt.code && (tt.title == "" || strings.HasPrefix(f.Title, tt.title)) {
						t.Fatalf("unexpected fix %q", f.Title)
					}
				}
				return
			}
			if fix == nil {
				t.Fatalf("no fix %q for %s; fixes: %q", tt.title, tt.code, all)
			}
			got, err := ApplyEdits(tt.src, fix.Edits...)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("after the fix:\n%q\nwant\n%q", got, tt.want)
			}
			after := NewSnapshot(s.URI, 2, got).Analysis()
			if hasParseError(after) {
				t.Errorf("the fixed text does not parse: %+v", after.Diagnostics)
			}
			line := s.Analysis().Lines.Line(fix.Diagnostic.Span.Start)
			for _, d := range after.Diagnostics {
				if d.Code == tt.code && d.Message == fix.Diagnostic.Message && after.Lines.Line(d.Span.Start) == line {
					t.Errorf("the diagnostic is still there: %+v", d)
				}
			}
		})
	}
}

func TestFixAll(t *testing.T) {
	src := "check if 1 is 1:   \n  display YES\n      display userName\nend check  \n"
	s := fixSnapshot(t, src)
	got, n, err := s.FixAll()
	if err != nil {
		t.Fatal(err)
	}
	// Layout and the boolean are fixed; the undefined name is not touched.
	want := "check if 1 is 1:\n    display yes\n    display userName\nend check\n"
	if got != want || n != 5 {
		t.Errorf("FixAll = %q (%d fixes), want %q (5 fixes)", got, n, want)
	}
}

// BenchmarkFixAll fixes a 10,000-line block whose every line is
// mis-indented and has trailing blanks.
func BenchmarkFixAll(b *testing.B) {
	dir := b.TempDir()
	b.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	src := "check if 1 is 1:\n" + strings.Repeat("  display 1  \n", 10000) + "end check\n"
	uri := FileURI(filepath.Join(dir, "a.wfl"))
	for b.Loop() {
		s := NewSnapshot(uri, 1, src)
		if _, n, err := s.FixAll(); err != nil || n != 20000 {
			b.Fatalf("FixAll: %d fixes, %v", n, err)
		}
	}
}
