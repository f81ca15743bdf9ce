package fixes

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

// fixSnapshot makes a snapshot of src in a folder with no .wflcfg, so the
// default configuration applies.
func fixSnapshot(t *testing.T, src string) *core.Snapshot {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	return core.NewSnapshot(core.FileURI(filepath.Join(dir, "a.wfl")), 1, src)
}

func hasParseError(a *core.Analysis) bool {
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
		want  string // the text after the fix; "" expects no fix with that title
		// preferred: the fix must be the diagnostic's preferred one;
		// otherwise it must not be.
		preferred bool
	}{
		{name: "strip trailing whitespace", code: "LINT-WHITESPACE", title: "Remove trailing whitespace", preferred: true,
			src: "display 1   \n", want: "display 1\n"},
		{name: "fix indentation", code: "LINT-INDENT", title: "Indent the line with 4 spaces", preferred: true,
			src: "check if 1 is 1:\n  display 1\nend check\n", want: "check if 1 is 1:\n    display 1\nend check\n"},
		{name: "lowercase a keyword", code: "LINT-KEYWORD", title: "Write 'Display' as the keyword 'display'", preferred: true,
			src: "store x as 1\nDisplay x\n", want: "store x as 1\ndisplay x\n"},
		{name: "lowercase a boolean", code: "LINT-KEYWORD", title: "Write 'YES'", preferred: true,
			src: "store x as YES\ndisplay x\n", want: "store x as yes\ndisplay x\n"},
		{name: "rename to snake_case everywhere", code: "LINT-NAME", title: "Rename 'userName' to 'user_name' everywhere", preferred: true,
			src:  "store userName as 1\nchange userName to userName plus 1\ndisplay userName\n",
			want: "store user_name as 1\nchange user_name to user_name plus 1\ndisplay user_name\n"},
		{name: "rename a multi-word name", code: "LINT-NAME", title: "Rename 'first name' to 'first_name'", preferred: true,
			src:  "store first name as \"Al\"\ndisplay first  name\n",
			want: "store first_name as \"Al\"\ndisplay first_name\n"},
		{name: "no rename onto an existing name", code: "LINT-NAME",
			src: "store user_name as 1\nstore userName as 2\ndisplay userName with user_name\n"},
		{name: "did you mean", code: "ANALYZE-SEMANTIC", title: "Change 'totl' to 'total'", preferred: true,
			src: "store total as 1\ndisplay totl\n", want: "store total as 1\ndisplay total\n"},
		{name: "did you mean an action", code: "ANALYZE-SEMANTIC", title: "Change 'gret' to 'greet'", preferred: true,
			src:  "define action called greet:\n    display \"hi\"\nend action\ncall gret\n",
			want: "define action called greet:\n    display \"hi\"\nend action\ncall greet\n"},
		{name: "did you mean a builtin", code: "ANALYZE-SEMANTIC", title: "Change 'lenght' to 'length'", preferred: true,
			src: "display lenght of \"abc\"\n", want: "display length of \"abc\"\n"},
		{name: "no name declared after the use", code: "ANALYZE-SEMANTIC", title: "Change",
			src: "display totl\nstore total as 1\n"},
		{name: "no close name", code: "ANALYZE-SEMANTIC", title: "Change",
			src: "store total as 1\ndisplay zebra\n"},
		{name: "declare an undefined variable", code: "ANALYZE-SEMANTIC", title: "Declare 'score'",
			src:  "check if 1 is 1:\n    display score\nend check\n",
			want: "check if 1 is 1:\n    store score as nothing\n    display score\nend check\n"},
		{name: "declare a variable used as a list as an empty list", code: "ANALYZE-SEMANTIC", title: "Declare 'fruits'",
			src:  "display \"sizes\"\nstore size as length of fruits\npush with fruits and \"pear\"\n",
			want: "display \"sizes\"\nstore fruits as []\nstore size as length of fruits\npush with fruits and \"pear\"\n"},
		{name: "declare a variable a loop reads as a list", code: "ANALYZE-SEMANTIC", title: "Declare 'names'",
			src:  "for each n in names:\n    display n\nend for\n",
			want: "store names as []\nfor each n in names:\n    display n\nend for\n"},
		{name: "declare a variable a builtin reads as text", code: "ANALYZE-SEMANTIC", title: "Declare 'word'",
			src:  "display trim of word\n",
			want: "store word as \"\"\ndisplay trim of word\n"},
		{name: "insert the missing closer", code: "PARSE-EOF", title: "Insert 'end count'", preferred: true,
			src:  "count from 1 to 2:\n    check if count is 1:\n        display 1\n    end check\n",
			want: "count from 1 to 2:\n    check if count is 1:\n        display 1\n    end check\nend count\n"},
		{name: "insert a nested closer where the indentation ends its block", code: "PARSE-EXPECTED", title: "Insert 'end check' after line 6", preferred: true,
			src:  "count from 1 to 2:\n    check if count is 1:\n        display 1\n    end check\n    check if count is 2:\n        display 2\nend count\n",
			want: "count from 1 to 2:\n    check if count is 1:\n        display 1\n    end check\n    check if count is 2:\n        display 2\n    end check\nend count\n"},
		{name: "insert a closer after a last line without a break", code: "PARSE-EOF", title: "Insert 'end repeat'", preferred: true,
			src:  "store x as 1\nrepeat while x is less than 3:\n    change x to x plus 1",
			want: "store x as 1\nrepeat while x is less than 3:\n    change x to x plus 1\nend repeat\n"},
		{name: "replace a wrong closer", code: "PARSE-EXPECTED", title: "Close the block with 'end check'", preferred: true,
			src:  "check if 1 is 1:\n    display 1\nend for\n",
			want: "check if 1 is 1:\n    display 1\nend check\n"},
		{name: "replace a wrong closer and the words after it", code: "PARSE-EXPECTED", title: "Close the block with 'end transaction'", preferred: true,
			src:  "open database at \"x\" as db\nin transaction on db:\n    store a as 1\n    display a\nend of transaction // done\n",
			want: "open database at \"x\" as db\nin transaction on db:\n    store a as 1\n    display a\nend transaction // done\n"},
		// Fixes that would break the program are not offered.
		{name: "no name of the wrong arity", code: "ANALYZE-SEMANTIC", title: "Change 'gret' to 'great'",
			src: "define action called greet with parameters who:\n    display who\nend action\n" +
				"define action called great:\n    display 1\nend action\ncall gret with \"Ada\"\n"},
		{name: "the name of the right arity, preferred", code: "ANALYZE-SEMANTIC", title: "Change 'gret' to 'greet'", preferred: true,
			src: "define action called greet with parameters who:\n    display who\nend action\n" +
				"define action called great:\n    display 1\nend action\ncall gret with \"Ada\"\n",
			want: "define action called greet with parameters who:\n    display who\nend action\n" +
				"define action called great:\n    display 1\nend action\ncall greet with \"Ada\"\n"},
		{name: "no name of the wrong type", code: "ANALYZE-SEMANTIC", title: "Change 'totl' to 'total'",
			src: "store total as \"a\"\ndisplay totl minus 1\n"},
		{name: "no name of the wrong type behind another error", code: "ANALYZE-SEMANTIC", title: "Change 'totl' to 'total'",
			src: "store total as \"a\"\ndisplay totl minus 1\ndisplay zzz\n"},
		{name: "no keyword for a name", code: "ANALYZE-SEMANTIC", title: "Change 'tests' to 'test'",
			src: "display tests\n"},
		{name: "end if closing a check if: replace the word", code: "PARSE-EXPECTED", title: "Close the block with 'end check'", preferred: true,
			src:  "check if 1 is 1:\n    display 1\nend if\n",
			want: "check if 1 is 1:\n    display 1\nend check\n"},
		{name: "end if closing a check if: no closer before it", code: "PARSE-EXPECTED", title: "Insert 'end check' before this line",
			src: "check if 1 is 1:\n    display 1\nend if\n"},
		{name: "a misspelled operator is not a name to declare", code: "ANALYZE-SEMANTIC", title: "Declare",
			src: "store i as 3\ndisplay i mod 2\n"},
		{name: "a misspelled operator", code: "ANALYZE-SEMANTIC", title: "Change 'mod' to 'modulo'", preferred: true,
			src: "store i as 3\ndisplay i mod 2\n", want: "store i as 3\ndisplay i modulo 2\n"},
		{name: "no declaration of a keyword", code: "ANALYZE-SEMANTIC", title: "Declare",
			src: "store items as [1]\ndisplay list items\n"},
		{name: "no declaration of a keyword as a name", code: "ANALYZE-SEMANTIC", title: "Declare",
			src: "display when\n"},

		// store -> change for a redeclaration.
		{name: "change a redeclared variable", code: "ANALYZE-SEMANTIC", title: "Change 'x' instead of declaring it again", preferred: true,
			src: "store x as 1\nstore x as 2\ndisplay x\n", want: "store x as 1\nchange x to 2\ndisplay x\n"},
		{name: "change a variable of an outer scope", code: "ANALYZE-SEMANTIC", title: "Change 'total' instead", preferred: true,
			src:  "store total as 0\ncount from 1 to 3:\n    store total as total plus count\nend count\ndisplay total\n",
			want: "store total as 0\ncount from 1 to 3:\n    change total to total plus count\nend count\ndisplay total\n"},
		{name: "change a variable created with create", code: "ANALYZE-SEMANTIC", title: "Change 'n' instead", preferred: true,
			src: "create n as 1\ncreate n as 2\ndisplay n\n", want: "create n as 1\nchange n to 2\ndisplay n\n"},
		{name: "no change of a constant", code: "ANALYZE-SEMANTIC", title: "Change 'limit' instead",
			src: "store new constant limit as 1\nstore limit as 2\ndisplay limit\n"},
		{name: "no change of a loop variable", code: "ANALYZE-SEMANTIC", title: "Change 'item' instead",
			src: "for each item in [1, 2]:\n    store item as 3\nend for\n"},

		// A missing keyword.
		{name: "insert a missing as", code: "PARSE-EXPECTED", title: "Insert 'as' before '5'", preferred: true,
			src: "store x 5\ndisplay x\n", want: "store x as 5\ndisplay x\n"},
		{name: "insert a missing as after a multi-word name", code: "PARSE-EXPECTED", title: "Insert 'as'", preferred: true,
			src: "store total amount \"hi\"\ndisplay total amount\n", want: "store total amount as \"hi\"\ndisplay total amount\n"},
		{name: "insert a missing to", code: "PARSE-EXPECTED", title: "Insert 'to' before '5'", preferred: true,
			src: "store x as 1\nchange x 5\ndisplay x\n", want: "store x as 1\nchange x to 5\ndisplay x\n"},
		{name: "no as at the end of the line", code: "PARSE-EXPECTED", title: "Insert",
			src: "store x\ndisplay 1\n"},
		{name: "no as before a statement", code: "PARSE-EXPECTED", title: "Insert 'as'",
			src: "store x change y to 2\n"},

		// Extra words after a closer.
		{name: "end for each", code: "PARSE-UNEXPECTED", title: "Write 'end for each' as 'end for'", preferred: true,
			src:  "for each i in [1, 2]:\n    display i\nend for each\n",
			want: "for each i in [1, 2]:\n    display i\nend for\n"},
		{name: "no end for for a check", code: "PARSE-EXPECTED", title: "Write",
			src: "check if yes:\n    display 1\nend for each\n"},

		// Creating the action a call names.
		{name: "create an action from a call", code: "ANALYZE-SEMANTIC", title: "Create the action 'greet'", preferred: true,
			src: "store name as \"Ada\"\ncall greet with name and 3\n",
			want: "store name as \"Ada\"\ndefine action called greet with parameters name and param2:\n    // TODO: what greet does\nend action\n\n" +
				"call greet with name and 3\n"},
		{name: "create an action from an of call", code: "ANALYZE-SEMANTIC", title: "Create the action 'double'", preferred: true,
			src:  "display double of 4\n",
			want: "define action called double with parameters param1:\n    // TODO: what double does\nend action\n\ndisplay double of 4\n"},
		{name: "create an action called from another, before it and its comment", code: "ANALYZE-SEMANTIC", title: "Create the action 'helper'", preferred: true,
			src: "// Main work.\ndefine action called main work:\n    call helper\nend action\ncall main work\n",
			want: "define action called helper:\n    // TODO: what helper does\nend action\n\n// Main work.\n" +
				"define action called main work:\n    call helper\nend action\ncall main work\n"},
		{name: "create is not preferred over a close name", code: "ANALYZE-SEMANTIC", title: "Create the action 'gret'",
			src:  "define action called greet:\n    display 1\nend action\ncall gret\n",
			want: "define action called greet:\n    display 1\nend action\ndefine action called gret:\n    // TODO: what gret does\nend action\n\ncall gret\n"},
		{name: "no action over a later variable", code: "ANALYZE-SEMANTIC", title: "Create",
			src: "call total with 1\nstore total as 5\ndisplay total\n"},
		{name: "no action for a name that is not called", code: "ANALYZE-SEMANTIC", title: "Create",
			src: "display greet\n"},

		// Removing an unused variable.
		{name: "remove an unused variable", code: "ANALYZE-UNUSED", title: "Remove the unused variable 'x'",
			src: "store y as 2\nstore x as y plus 1\ndisplay y\n", want: "store y as 2\ndisplay y\n"},
		{name: "remove an unused variable on the last line", code: "ANALYZE-UNUSED", title: "Remove the unused variable 'x'",
			src: "display 1\nstore x as [1, 2] with \"a\"", want: "display 1"},
		{name: "no removal of a call", code: "ANALYZE-UNUSED", title: "Remove",
			src: "store x as length of \"abc\"\n"},
		{name: "no removal of a bare builtin, a call", code: "ANALYZE-UNUSED", title: "Remove",
			src: "store x as random\n"},
		{name: "no removal of a division by a name", code: "ANALYZE-UNUSED", title: "Remove",
			src: "store y as 0\nstore x as 1 divided by y\ndisplay y\n"},
		{name: "no removal of a variable changed later", code: "ANALYZE-UNUSED", title: "Remove",
			src: "store x as 1\nchange x to 2\n"},

		// Implementing an interface.
		{name: "implement a required action", code: "TYPE-CONTAINER", title: "Add the action 'area' that 'Shape' requires", preferred: true,
			src: "create interface Shape:\n    requires action area: Number\n    requires action scale needs f: Number\nend\n" +
				"create container Box implements Shape:\n    property w: Number\n    action scale needs f: Number:\n        display f\n    end\nend\n",
			want: "create interface Shape:\n    requires action area: Number\n    requires action scale needs f: Number\nend\n" +
				"create container Box implements Shape:\n    property w: Number\n    action scale needs f: Number:\n        display f\n    end\n" +
				"    action area: Number\n        // TODO: what area does\n        return 0\n    end\nend\n"},
		{name: "implement a required action with parameters", code: "TYPE-CONTAINER", title: "Add the action 'scale'", preferred: true,
			src: "create interface Shape:\n    requires action scale needs f: Number, g\nend\n" +
				"create container Box implements Shape:\nend\n",
			want: "create interface Shape:\n    requires action scale needs f: Number, g\nend\n" +
				"create container Box implements Shape:\n    action scale needs f: Number, g\n        // TODO: what scale does\n    end\nend\n"},
		{name: "implement a required action with a typed parameter", code: "TYPE-CONTAINER", title: "Add the action 'scale'", preferred: true,
			src: "create interface Shape:\n    requires action scale needs g: Number\nend\n" +
				"create container Box implements Shape:\nend\n",
			want: "create interface Shape:\n    requires action scale needs g: Number\nend\n" +
				"create container Box implements Shape:\n    action scale needs g: Number:\n        // TODO: what scale does\n    end\nend\n"},
		{name: "implement every required action", code: "TYPE-CONTAINER", title: "Add all 2 actions that 'Shape' requires",
			src: "create interface Named:\n    requires action name: Text\nend\n" +
				"create interface Shape extends Named:\n    requires action area: Number\nend\n" +
				"create container Box implements Shape:\n    property w: Number\nend\n",
			want: "create interface Named:\n    requires action name: Text\nend\n" +
				"create interface Shape extends Named:\n    requires action area: Number\nend\n" +
				"create container Box implements Shape:\n    property w: Number\n" +
				"    action area: Number\n        // TODO: what area does\n        return 0\n    end\n" +
				"    action name: Text\n        // TODO: what name does\n        return \"\"\n    end\nend\n"},
		{name: "no action over a property of its name", code: "TYPE-CONTAINER", title: "Add",
			src: "create interface Shape:\n    requires action area: Number\nend\n" +
				"create container Box implements Shape:\n    property area: Number\nend\n"},
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
		// The container's closer closes the method left open inside it
		// first: its `end` alone would close the method.
		{name: "close the blocks inside first", code: "PARSE-EOF", title: "Insert 'end' and 'end' after line 3", preferred: true,
			src:  "create container Dog:\n    property name: Text\n    action show_i",
			want: "create container Dog:\n    property name: Text\n    action show_i\n    end\nend\n"},
		{name: "close a string at the line's end", code: "PARSE-OPEN-QUOTE", title: "Close the string: insert '\"' at the end of line 1", preferred: true,
			src: "display \"note\n", want: "display \"note\"\n"},
		// The string swallowed the `as` the statement needs: closed at the
		// line's end, it still lacks it.
		{name: "no string closed over the words its statement needs", code: "PARSE-OPEN-QUOTE", title: "Close the string: insert '\"' at the end",
			src: "wait for spawn command \"ls as p\ndisplay \"x\"\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := fixSnapshot(t, tt.src)
			var fix *Fix
			var all []string
			for _, f := range At(t.Context(), s, token.Span{Start: 0, End: len(tt.src)}) {
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
				for _, f := range At(t.Context(), s, token.Span{Start: 0, End: len(tt.src)}) {
					if f.Diagnostic.Code == tt.code && (tt.title == "" || strings.HasPrefix(f.Title, tt.title)) {
						t.Fatalf("unexpected fix %q", f.Title)
					}
				}
				return
			}
			if fix == nil {
				t.Fatalf("no fix %q for %s; fixes: %q", tt.title, tt.code, all)
			}
			if fix.Preferred != tt.preferred {
				t.Errorf("fix %q: preferred %v, want %v", fix.Title, fix.Preferred, tt.preferred)
			}
			got, err := core.ApplyEdits(tt.src, fix.Edits...)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Fatalf("after the fix:\n%q\nwant\n%q", got, tt.want)
			}
			after := core.NewSnapshot(s.URI, 2, got).Analysis()
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
	got, n, err := All(s)
	if err != nil {
		t.Fatal(err)
	}
	// Layout and the boolean are fixed; the undefined name is not touched.
	want := "check if 1 is 1:\n    display yes\n    display userName\nend check\n"
	if got != want || n != 5 {
		t.Errorf("FixAll = %q (%d fixes), want %q (5 fixes)", got, n, want)
	}
}

// TestFixAllAsListed: All makes the safe fixes of the findings an editor
// is shown (Of's), no more and no fewer, while the text does not parse:
// the indentation of a block above a broken line is fixed, and the blanks
// at the end of a string left open (the string's text, as an editor reads
// it) are kept. Before, All read the findings of the text as it stands:
// no lint while a line is broken, and the open string's blanks stripped.
func TestFixAllAsListed(t *testing.T) {
	tests := []struct{ src, want string }{
		{"store x as 1\ncheck if x is greater than 0:\n  display \"a\"\nend check\nstore y as\n",
			"store x as 1\ncheck if x is greater than 0:\n    display \"a\"\nend check\nstore y as\n"},
		{"store x as 1\ndisplay x   \ndisplay \"abc   ", "store x as 1\ndisplay x\ndisplay \"abc   "},
	}
	for _, tt := range tests {
		s := fixSnapshot(t, tt.src)
		safe := 0
		for _, f := range Of(context.Background(), s, func(diag.Diagnostic) bool { return true }) {
			if f.Safe {
				safe++
			}
		}
		got, n, err := All(s)
		if err != nil || got != tt.want || n != safe {
			t.Errorf("All(%q) = %q, %d fixes, %v; want %q, the %d safe fixes listed", tt.src, got, n, err, tt.want, safe)
		}
	}
}

// BenchmarkFixAll fixes a 10,000-line block whose every line is
// mis-indented and has trailing blanks.
func BenchmarkFixAll(b *testing.B) {
	dir := b.TempDir()
	b.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	src := "check if 1 is 1:\n" + strings.Repeat("  display 1  \n", 10000) + "end check\n"
	uri := core.FileURI(filepath.Join(dir, "a.wfl"))
	for b.Loop() {
		s := core.NewSnapshot(uri, 1, src)
		if _, n, err := All(s); err != nil || n != 20000 {
			b.Fatalf("FixAll: %d fixes, %v", n, err)
		}
	}
}

// BenchmarkFixesLine computes the fixes of one line's diagnostics in a
// 10,000-line document with 4 warnings every 12 lines, as an editor asks
// for the code actions at the cursor; every fix that is not about layout is
// checked on a copy of the text first.
func BenchmarkFixesLine(b *testing.B) {
	benchFixesOn(b, benchdoc.Dense(10000), "store total c400")
}

// BenchmarkFixesAll computes the fixes of every diagnostic of the same
// document (as MCP's fix tool does for a whole file).
func BenchmarkFixesAll(b *testing.B) {
	dir := b.TempDir()
	b.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	src := benchdoc.Dense(10000)
	s := core.NewSnapshot(core.FileURI(filepath.Join(dir, "a.wfl")), 1, src)
	s.Diagnostics()
	for b.Loop() {
		if len(At(b.Context(), s, token.Span{Start: 0, End: len(src)})) == 0 {
			b.Fatal("no fixes")
		}
	}
}

// BenchmarkFixesLineWithErrors computes the fixes of a misspelled name in
// the same document with another undefined name elsewhere: every candidate
// is checked with all passes of the checker, since the other error hides
// the later passes' findings.
func BenchmarkFixesLineWithErrors(b *testing.B) {
	benchFixesOn(b, benchdoc.Dense(10000)+"display totl c400\ndisplay nowhere\n", "display totl c400")
}

// benchFixesOn times the fixes of the line of src that starts with line,
// whose diagnostics have a fix.
func benchFixesOn(b *testing.B, src, line string) {
	dir := b.TempDir()
	b.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	s := core.NewSnapshot(core.FileURI(filepath.Join(dir, "a.wfl")), 1, src)
	s.Diagnostics()
	at := strings.Index(src, line)
	span := token.Span{Start: at, End: at + len(line)}
	if len(At(b.Context(), s, span)) == 0 {
		b.Fatal("no fix on the line")
	}
	for b.Loop() {
		At(b.Context(), s, span)
	}
}

// TestFixesAcrossIncludes: the names an included file declares are
// offered for a misspelled one, and the fix is checked with them.
func TestFixesAcrossIncludes(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	lib := "store total as 5\ndefine action called greet with parameters who:\n    display who\nend action\n"
	if err := os.WriteFile(filepath.Join(dir, "lib.wfl"), []byte(lib), 0o644); err != nil {
		t.Fatal(err)
	}
	src := "include from \"lib.wfl\"\ndisplay totl plus 1\ncall gret with \"Ada\"\n"
	s := core.NewSnapshot(core.FileURI(filepath.Join(dir, "a.wfl")), 1, src)
	var got []string
	for _, f := range At(t.Context(), s, token.Span{Start: 0, End: len(src)}) {
		p := ""
		if f.Preferred {
			p = " (preferred)"
		}
		got = append(got, f.Title+p)
	}
	want := []string{
		"Change 'totl' to 'total' (preferred)",
		"Change 'gret' to 'greet' (preferred)",
		"Create the action 'gret'",
	}
	if !slices.Equal(got, want) {
		t.Errorf("fixes %q, want %q", got, want)
	}
}

// TestFixesOfIncludedNameMoved checks that the fix for an operator the
// lexer merged into a name (`i mod 2` reads `i mod`) does not depend on
// where the included file that declares `i` declares it: that span is of
// the included file, and moving it does not refresh the includer
// (exportKey).
func TestFixesOfIncludedNameMoved(t *testing.T) {
	dir := t.TempDir()
	libURI, mainURI := core.FileURI(filepath.Join(dir, "lib.wfl")), core.FileURI(filepath.Join(dir, "main.wfl"))
	main := "include from \"lib.wfl\"\ndisplay i mod 2\n"
	for _, lines := range []int{0, 40} { // i declared before, then after, the offset of `i mod`
		ws := core.NewWorkspace()
		ws.Open(libURI, 1, strings.Repeat("\n", lines)+"store i as 1\n")
		m := ws.Open(mainURI, 1, main)
		var got []string
		for _, f := range At(t.Context(), m, token.Span{Start: 0, End: len(main)}) {
			got = append(got, f.Title)
		}
		if !slices.Contains(got, "Change 'mod' to 'modulo'") {
			t.Errorf("%d lines above the declaration: fixes %q, want the operator's", lines, got)
		}
	}
}

// TestFixesWithoutAnalysis checks that asking for the fixes where there is
// nothing to fix, as an editor's light bulb does at every move of the
// cursor, and for the fix of every layout problem when there is none,
// leaves the edited document without a full analysis, as do the fixes of
// a parse error and those of an undefined name.
func TestFixesWithoutAnalysis(t *testing.T) {
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(t.TempDir(), "none"))
	text := benchdoc.Clean(600)
	ws := core.NewWorkspace()
	uri := core.FileURI(filepath.Join(t.TempDir(), "typed.wfl"))
	s := ws.Open(uri, 1, text)
	s.Diagnostics()
	s.Analysis()
	at := strings.Index(text, "\ndisplay call") + 1 // a statement at the top level
	s, err := ws.Change(uri, 2, core.Edit{Start: at, End: at, Text: "display 1\n"})
	if err != nil {
		t.Fatal(err)
	}
	if fx := At(t.Context(), s, token.Span{Start: at + 3, End: at + 3}); len(fx) != 0 {
		t.Fatalf("fixes where there is no finding: %v", fx)
	}
	if _, n, err := All(s); n != 0 || err != nil {
		t.Fatalf("fix all of a text without layout problems: %d fixes, %v", n, err)
	}
	if s.Analysed() {
		t.Fatal("the fixes of a place without findings made a full analysis")
	}
	// A parse error at the cursor, as while a line is typed: its fixes are
	// made from the text, and checked on copies whose diagnostics are
	// derived.
	s, err = ws.Change(uri, 3, core.Edit{Start: at, End: at, Text: "store y 5\n"})
	if err != nil {
		t.Fatal(err)
	}
	if fx := At(t.Context(), s, token.Span{Start: at + 8, End: at + 8}); len(fx) == 0 || fx[0].Kind != InsertKeyword {
		t.Fatalf("the fixes of a missing 'as': %v", fx)
	}
	if s.Analysed() {
		t.Fatal("the fixes of a parse error made a full analysis")
	}
	// An undefined name at the cursor: its fixes come from the partial
	// analysis there, which has the names of the rest of the file.
	s, err = ws.Change(uri, 4, core.Edit{Start: at, End: at, Text: "display totl_c0\n"})
	if err != nil {
		t.Fatal(err)
	}
	if fx := At(t.Context(), s, token.Span{Start: at + 10, End: at + 10}); len(fx) == 0 || fx[0].Kind != DidYouMean || fx[0].Edits[0].Text != "total_c0" {
		t.Fatalf("the fixes of an undefined name spelled like one the file declares: %v", fx)
	}
	if s.Analysed() {
		t.Fatal("the fixes of an undefined name made a full analysis")
	}
}

// TestCloserFixBesideAnOpenQuote checks the fix of a block's missing closer
// in a program whose last line holds a quote with no end. The reference
// drops such a quote and reads the words after it as names, an error the
// program has whether or not the block is closed; the features read the
// text with the quote closed on its line (as while the string is typed),
// but the fix is checked against what the text itself holds, so the error
// is not taken for one the fix makes.
func TestCloserFixBesideAnOpenQuote(t *testing.T) {
	text := "store n as 3\ncheck if n is greater than 2:\n    display n\n\ndisplay \"Final Report"
	s := core.NewSnapshot("file:///nowhere/quote.wfl", 1, text)
	_, shown := s.Tolerant()
	i := slices.IndexFunc(shown, func(d diag.Diagnostic) bool { return d.Kind == diag.Unclosed })
	if i < 0 {
		t.Fatalf("no finding of the missing 'end check' among %v", shown)
	}
	var fix *Fix
	for _, f := range At(t.Context(), s, shown[i].Span) {
		if f.Preferred && f.Kind == InsertCloser {
			fix = &f
		}
	}
	if fix == nil {
		t.Fatalf("no preferred fix inserts 'end check'; fixes: %v", At(t.Context(), s, shown[i].Span))
	}
	out, err := core.ApplyEdits(text, fix.Edits...)
	if want := "store n as 3\ncheck if n is greater than 2:\n    display n\nend check\n\ndisplay \"Final Report"; err != nil || out != want {
		t.Errorf("the fix %q makes\n%s\nnot\n%s (%v)", fix.Title, out, want, err)
	}
}
