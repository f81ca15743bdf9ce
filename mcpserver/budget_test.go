package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/internal/testfiles"
)

// bigProgram is a program of 5n+1 lines that gives every tool a lot to
// say: n actions, each reading and writing one variable, each line of
// them with a lint finding (a name not in snake_case, an indentation, a
// trailing blank) that formatting and the safe fixes change.
func bigProgram(n int) string {
	var b strings.Builder
	b.WriteString("store counter as 0\n")
	for i := range n {
		fmt.Fprintf(&b, "define action called Act%d needs value:\n   change counter to counter plus value\n    display    counter   \nend action\nstore Total%d as counter\n", i, i)
	}
	return b.String()
}

// sparseProgram is a program of 2n+2 lines that is all but one line in
// its canonical form: the line before last, which reads the variable
// declared on the first, is not indented as it should be.
func sparseProgram(n int) string {
	var b strings.Builder
	b.WriteString("store rare as 1\n")
	for i := range n {
		fmt.Fprintf(&b, "store item_%d as %d\ndisplay item_%d\n", i, i, i)
	}
	b.WriteString("   display rare\n")
	return b.String()
}

// bigWorkspace is a workspace of three big programs of 5,001 lines and
// one of 6,002 lines that formatting changes on one line.
func bigWorkspace(t *testing.T) string {
	t.Helper()
	skipBigUnderRace(t)
	root := t.TempDir()
	for _, name := range []string{"big.wfl", "sub/a.wfl", "sub/b.wfl", "sparse.wfl"} {
		text := bigProgram(1000)
		if name == "sparse.wfl" {
			text = sparseProgram(3000)
		}
		testfiles.Write(t, root, name, text)
	}
	return root
}

// skipBigUnderRace skips a test of what the tools answer about programs of
// thousands of lines under the race detector, which makes it three times
// slower (6 to 9 s a test) and adds nothing to what it checks (one call
// after another): CI runs it without the race detector too (.ci/run).
func skipBigUnderRace(t *testing.T) {
	t.Helper()
	if testcorpus.Race {
		t.Skip("programs of thousands of lines, one call after another: run without the race detector (CI's second test run)")
	}
}

// defaultCalls are a call of every WFL tool with its default arguments,
// on big.wfl where it takes a program; position tools at the declaration
// of counter (line 1, column 7), which every action uses.
var defaultCalls = map[string]string{
	"parse_wfl":          `{"path":"big.wfl"}`,
	"analyze_wfl":        `{"path":"big.wfl"}`,
	"typecheck_wfl":      `{"path":"big.wfl"}`,
	"lint_wfl":           `{"path":"big.wfl"}`,
	"format_wfl":         `{"path":"big.wfl"}`,
	"fix_wfl":            `{"path":"big.wfl"}`,
	"document_symbols":   `{"path":"big.wfl"}`,
	"workspace_symbols":  `{"query":""}`,
	"get_completions":    `{"path":"big.wfl","line":5,"column":5}`,
	"get_symbol_info":    `{"path":"big.wfl","line":1,"column":7}`,
	"find_definition":    `{"path":"big.wfl","line":3,"column":12}`,
	"find_references":    `{"path":"big.wfl","line":1,"column":7}`,
	"rename_symbol":      `{"path":"big.wfl","line":1,"column":7,"newName":"tally"}`,
	"move_file":          `{"from":"sub","to":"moved"}`,
	"check_workspace":    `{}`,
	"explain_diagnostic": `{"code":"LINT-NAME"}`,
	"lookup_builtin":     `{"name":"length"}`,
}

// TestAnswersWithinBudget calls every tool with its default arguments on
// programs of 5,001 lines (15,003 in the workspace): no answer's JSON (its
// text block) passes answerBudget, and each still answers (a page, a diff
// or edits instead of the whole program). Before, check_workspace
// answered 78 MB on such a workspace and format_wfl, fix_wfl and
// rename_symbol the whole program twice.
func TestAnswersWithinBudget(t *testing.T) {
	h := start(t, Options{Root: bigWorkspace(t)})
	h.Initialize("2025-06-18")
	for i, tool := range WFL().Tools {
		args, ok := defaultCalls[tool.Name]
		if !ok {
			t.Errorf("no default call of %s", tool.Name)
			continue
		}
		params := fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool.Name, args)
		res := h.Call(i+1, "tools/call", params).Tool(t)
		if res.IsError {
			t.Errorf("%s failed: %.300s", tool.Name, res.Content[0].Text)
			continue
		}
		checkOutputSchema(t, params, res)
		if n := len(res.Content[0].Text); n > answerBudget {
			t.Errorf("%s answered %d bytes, more than the budget of %d", tool.Name, n, answerBudget)
		}
	}
}

// TestCorpusAnswersWithinBudget calls the tools that list what a program
// holds on every program of the corpus, and check_workspace on all of
// them: no answer passes the budget.
func TestCorpusAnswersWithinBudget(t *testing.T) {
	root := filepath.Join(testcorpus.Dir(t), "wfl")
	h := start(t, Options{Root: root})
	h.Initialize("2025-06-18")
	id := 0
	call := func(tool, args string) {
		id++
		res := h.Call(id, "tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool, args)).Tool(t)
		if n := len(res.Content[0].Text); n > answerBudget {
			t.Errorf("%s %s answered %d bytes, more than the budget of %d", tool, args, n, answerBudget)
		}
	}
	call("check_workspace", `{}`)
	call("workspace_symbols", `{"query":""}`)
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".wfl") {
			rel, _ := filepath.Rel(root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	for i, f := range files {
		if i%testcorpus.RaceStride(8) != 0 {
			continue // every 8th program under the race detector
		}
		for _, tool := range []string{"parse_wfl", "analyze_wfl", "lint_wfl", "document_symbols", "format_wfl", "fix_wfl"} {
			call(tool, fmt.Sprintf(`{"path":%q}`, f))
		}
	}
}

// pages calls tool with args and offset until the answer has no
// nextOffset, and returns the member list of each answer's JSON.
func pages(t *testing.T, h *harness, id *int, tool, args, list string) (items []json.RawMessage, answers []map[string]json.RawMessage) {
	t.Helper()
	offset := 0
	for range 1000 {
		*id++
		a := args
		if offset > 0 {
			a = strings.TrimSuffix(args, "}")
			if a != "{" {
				a += ","
			}
			a += fmt.Sprintf(`"offset":%d}`, offset)
		}
		params := fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool, a)
		res := h.Call(*id, "tools/call", params).Tool(t)
		if res.IsError {
			t.Fatalf("%s %s: %s", tool, a, res.Content[0].Text)
		}
		checkOutputSchema(t, params, res)
		if n := len(res.Content[0].Text); n > answerBudget {
			t.Errorf("%s %s answered %d bytes, more than the budget", tool, a, n)
		}
		var out map[string]json.RawMessage
		json.Unmarshal(res.StructuredContent, &out)
		answers = append(answers, out)
		var got []json.RawMessage
		json.Unmarshal(out[list], &got)
		items = append(items, got...)
		next, ok := out["nextOffset"]
		if !ok {
			return items, answers
		}
		var n int
		json.Unmarshal(next, &n)
		if n <= offset {
			t.Fatalf("%s: nextOffset %d does not move on from %d", tool, n, offset)
		}
		if len(got) == 0 && list != "" {
			t.Fatalf("%s: a page with nextOffset %d lists nothing", tool, n)
		}
		offset = n
	}
	t.Fatalf("%s: more than 1,000 pages", tool)
	return nil, nil
}

// TestPagesCoverTheList pages through the lists of a big program: the
// pages together hold every item once, in the list's order, as many as
// the answers count.
func TestPagesCoverTheList(t *testing.T) {
	skipBigUnderRace(t)
	root := t.TempDir()
	for _, name := range []string{"big.wfl", "sub/a.wfl", "sub/b.wfl"} {
		testfiles.Write(t, root, name, bigProgram(300))
	}
	h := start(t, Options{Root: root})
	h.Initialize("2025-06-18")
	id := 0
	count := func(answers []map[string]json.RawMessage, field string) int {
		var n int
		json.Unmarshal(answers[0][field], &n)
		return n
	}
	distinct := func(tool string, items []json.RawMessage) {
		seen := map[string]bool{}
		for _, it := range items {
			if seen[string(it)] {
				t.Errorf("%s lists %s twice", tool, it)
			}
			seen[string(it)] = true
		}
	}

	refs, answers := pages(t, h, &id, "find_references", `{"path":"big.wfl","line":1,"column":7,"limit":100}`, "references")
	if want := count(answers, "count"); len(refs) != want || want != 1201 || len(answers) != 13 {
		t.Errorf("find_references: %d places in %d pages, count %d", len(refs), len(answers), want)
	}
	distinct("find_references", refs)

	syms, answers := pages(t, h, &id, "workspace_symbols", `{"query":"act"}`, "symbols")
	if want := count(answers, "count"); len(syms) != want || want != 900 || len(answers) != 5 {
		t.Errorf("workspace_symbols: %d symbols in %d pages, count %d", len(syms), len(answers), want)
	}
	distinct("workspace_symbols", syms)

	outline, answers := pages(t, h, &id, "document_symbols", `{"path":"big.wfl","limit":100}`, "symbols")
	if want := count(answers, "count"); len(outline) != want || want != 601 || len(answers) != 7 {
		t.Errorf("document_symbols: %d top-level symbols in %d pages, count %d", len(outline), len(answers), want)
	}

	// The findings of analyze_wfl: errors first, then by severity, each
	// in source order; the same over the workspace, file by file.
	diags, answers := pages(t, h, &id, "analyze_wfl", `{"path":"big.wfl"}`, "diagnostics")
	var ec, wc int
	json.Unmarshal(answers[0]["errorCount"], &ec)
	json.Unmarshal(answers[0]["warningCount"], &wc)
	if len(diags) != ec+wc || len(diags) != 1500 {
		t.Errorf("analyze_wfl: %d findings listed in %d pages, %d errors and %d warnings", len(diags), len(answers), ec, wc)
	}
	rank := map[string]int{"error": 0, "warning": 1, "information": 2, "hint": 3}
	var prev *diagJSON
	for _, raw := range diags {
		var d diagJSON
		json.Unmarshal(raw, &d)
		if prev != nil && (rank[d.Severity] < rank[prev.Severity] ||
			d.Severity == prev.Severity && (d.Line < prev.Line || d.Line == prev.Line && d.Column < prev.Column)) {
			t.Fatalf("analyze_wfl lists %+v after %+v", d, *prev)
		}
		prev = &d
	}
	var listed int
	var reps []workspaceReport
	small := t.TempDir()
	for _, name := range []string{"a.wfl", "b.wfl", "c/d.wfl"} {
		os.MkdirAll(filepath.Join(small, "c"), 0o755)
		os.WriteFile(filepath.Join(small, name), []byte(bigProgram(100)), 0o644)
	}
	hs := start(t, Options{Root: small})
	hs.Initialize("2025-06-18")
	for _, a := range pagesOf(t, hs, &id, "check_workspace", `{}`) {
		var rep workspaceReport
		json.Unmarshal(a, &rep)
		reps = append(reps, rep)
		for _, f := range rep.Files {
			listed += len(f.Diagnostics)
		}
	}
	if listed != reps[0].FindingCount || reps[0].FindingCount < 1500 || reps[0].FileCount != 3 || len(reps) < 10 {
		t.Errorf("check_workspace: %d findings listed in %d pages; %+v", listed, len(reps), reps[0].Summary)
	}

	// Every edit of a rename, page after page (1,201 places).
	edits, answers := pages(t, h, &id, "rename_symbol", `{"path":"big.wfl","line":1,"column":7,"newName":"tally","output":"edits"}`, "edits")
	if want := count(answers, "count"); len(edits) != want || want != 1201 || len(answers) != 7 {
		t.Errorf("rename_symbol: %d edits, count %d", len(edits), want)
	}
	distinct("rename_symbol", edits)

	// The fixes of every finding, ten findings a page.
	fixes, answers := pages(t, h, &id, "fix_wfl", fmt.Sprintf(`{"source":%q,"output":"edits"}`, bigProgram(40)), "fixes")
	if n := count(answers, "findingCount"); n < 200 || len(answers) != (n+maxFixFindings-1)/maxFixFindings || len(fixes) < n {
		t.Errorf("fix_wfl: %d fixes of %d findings in %d pages", len(fixes), n, len(answers))
	}
	// Findings alike, at one place (tries left open, each reported at
	// the end of the text): a page makes the fixes of its own, not of
	// every finding alike.
	open := strings.Repeat("try:\n    display 1\ncatch:\n    display 2\n", 60)
	fixes, answers = pages(t, h, &id, "fix_wfl", fmt.Sprintf(`{"source":%q,"output":"edits"}`, open), "fixes")
	if n := count(answers, "findingCount"); n != 60 || len(answers) != 6 || len(fixes) < n || len(fixes) > 2*n {
		t.Errorf("fix_wfl on 60 tries left open: %d fixes of %d findings in %d pages", len(fixes), n, len(answers))
	}
	// A page asked larger than a call makes: cut at mostFixFindings.
	fixes, answers = pages(t, h, &id, "fix_wfl", fmt.Sprintf(`{"source":%q,"output":"edits","limit":1000}`, bigProgram(40)), "fixes")
	if n := count(answers, "findingCount"); len(answers) != (n+mostFixFindings-1)/mostFixFindings || len(fixes) < n {
		t.Errorf("fix_wfl with limit 1000: %d fixes of %d findings in %d pages, want %d findings a page", len(fixes), n, len(answers), mostFixFindings)
	}
}

// pagesOf is pages for an answer whose list is not one member: it
// returns the answers' JSON.
func pagesOf(t *testing.T, h *harness, id *int, tool, args string) []json.RawMessage {
	t.Helper()
	_, answers := pages(t, h, id, tool, args, "")
	var out []json.RawMessage
	for _, a := range answers {
		b, _ := json.Marshal(a)
		out = append(out, b)
	}
	return out
}

// TestChangeForms asks format_wfl, fix_wfl and rename_symbol for each form
// of the program they change: a small program comes whole with its edits
// by default; a big one as a diff, or a page of edits when even the diff
// does not fit; text and diff are given whole when asked.
func TestChangeForms(t *testing.T) {
	h := start(t, Options{Root: bigWorkspace(t)})
	h.Initialize("2025-06-18")
	small := fmt.Sprintf("%q", bigProgram(3))
	id := 0
	call := func(tool, args string) map[string]json.RawMessage {
		id++
		params := fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool, args)
		res := h.Call(id, "tools/call", params).Tool(t)
		if res.IsError {
			t.Fatalf("%s %s: %s", tool, args, res.Content[0].Text)
		}
		checkOutputSchema(t, params, res)
		var out map[string]json.RawMessage
		json.Unmarshal(res.StructuredContent, &out)
		return out
	}
	has := func(out map[string]json.RawMessage, form string, members ...string) string {
		var got []string
		for _, m := range []string{"formatted", "fixedSource", "newSource", "edits", "diff"} {
			if _, ok := out[m]; ok {
				got = append(got, m)
			}
		}
		var f string
		json.Unmarshal(out["output"], &f)
		if f != form || !slices.Equal(got, members) {
			return fmt.Sprintf("output %q with %v, want %q with %v", f, got, form, members)
		}
		return ""
	}
	tests := []struct {
		tool, args, form string
		members          []string
	}{
		{"format_wfl", `{"source":` + small + `}`, "text", []string{"formatted", "edits"}},
		{"format_wfl", `{"path":"sparse.wfl"}`, "diff", []string{"diff"}},
		{"format_wfl", `{"path":"big.wfl"}`, "edits", []string{"edits"}},
		{"format_wfl", `{"path":"sparse.wfl","output":"edits"}`, "edits", []string{"edits"}},
		{"format_wfl", `{"path":"big.wfl","output":"text"}`, "text", []string{"formatted", "edits"}},
		{"format_wfl", `{"source":` + small + `,"output":"diff"}`, "diff", []string{"diff"}},
		{"fix_wfl", `{"source":` + small + `}`, "text", []string{"fixedSource"}},
		{"fix_wfl", `{"path":"big.wfl"}`, "edits", nil},
		{"fix_wfl", `{"path":"sparse.wfl"}`, "diff", []string{"diff"}},
		{"fix_wfl", `{"path":"big.wfl","output":"diff"}`, "diff", []string{"diff"}},
		{"rename_symbol", `{"source":` + small + `,"line":1,"column":7,"newName":"tally"}`, "text", []string{"newSource", "edits"}},
		{"rename_symbol", `{"path":"sparse.wfl","line":1,"column":7,"newName":"seldom"}`, "diff", []string{"diff"}},
		{"rename_symbol", `{"path":"big.wfl","line":1,"column":7,"newName":"tally"}`, "edits", []string{"edits"}},
		{"rename_symbol", `{"path":"big.wfl","line":1,"column":7,"newName":"tally","output":"text"}`, "text", []string{"newSource", "edits"}},
	}
	for _, tt := range tests {
		out := call(tt.tool, tt.args)
		if msg := has(out, tt.form, tt.members...); msg != "" {
			t.Errorf("%s %.60s: %s", tt.tool, tt.args, msg)
		}
	}
	// The diff of a rename shows each changed line removed and added.
	out := call("rename_symbol", `{"source":`+small+`,"line":1,"column":7,"newName":"tally","output":"diff"}`)
	var diff string
	json.Unmarshal(out["diff"], &diff)
	for _, want := range []string{"-store counter as 0\n+store tally as 0\n", "-   change counter to counter plus value\n+   change tally to tally plus value\n"} {
		if !strings.Contains(diff, want) {
			t.Errorf("the rename's diff lacks %q:\n%s", want, diff)
		}
	}
}
