package mcpserver

// This file tests the tools, resources, prompts and completion answers:
// strict argument checks, confinement to the workspace, output schemas,
// pagination and the tools/list golden file.

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"wfl-lsp/internal/testfiles"
)

var update = flag.Bool("update", false, "rewrite golden files")

func TestToolArguments(t *testing.T) {
	h := start(t, Options{})
	tests := []struct {
		name, params string
		kind         string   // failure kind, "" for success
		problems     []string // substrings of the message
	}{
		{"unknown argument", `{"name":"analyze_wfl","arguments":{"source":"display 1","sauce":1}}`, "invalid_arguments", []string{`unknown argument "sauce"`}},
		{"mistyped", `{"name":"analyze_wfl","arguments":{"source":5}}`, "invalid_arguments", []string{`"source" must be a string, not the integer 5`}},
		{"neither source nor path", `{"name":"lint_wfl","arguments":{}}`, "invalid_arguments", []string{"source", "path"}},
		{"both", `{"name":"lint_wfl","arguments":{"source":"x","path":"hello.wfl"}}`, "invalid_arguments", []string{"not both"}},
		{"absent arguments", `{"name":"lookup_builtin"}`, "invalid_arguments", []string{`missing required argument "name"`}},
		{"null arguments", `{"name":"lookup_builtin","arguments":null}`, "invalid_arguments", []string{`missing required argument "name"`}},
		{"boolean mistyped", `{"name":"check_workspace","arguments":{"errorsOnly":"yes"}}`, "invalid_arguments", []string{`"errorsOnly" must be a boolean`}},
		{"unknown builtin", `{"name":"lookup_builtin","arguments":{"name":"substrin"}}`, "not_found", []string{"substring"}},
		{"dot dot", `{"name":"analyze_wfl","arguments":{"path":"../x.wfl"}}`, "outside_workspace", []string{".."}},
		{"absolute outside", `{"name":"analyze_wfl","arguments":{"path":"/etc/passwd"}}`, "outside_workspace", nil},
		{"symlink escape", `{"name":"analyze_wfl","arguments":{"path":"escape.wfl"}}`, "outside_workspace", []string{"symbolic link"}},
		{"missing file", `{"name":"analyze_wfl","arguments":{"path":"nope.wfl"}}`, "not_found", nil},
		{"folder", `{"name":"analyze_wfl","arguments":{"path":"sub"}}`, "not_wfl", nil},
		{"non-WFL file", `{"name":"analyze_wfl","arguments":{"path":"notes.txt"}}`, "not_wfl", nil},
		{"hidden folder", `{"name":"analyze_wfl","arguments":{"path":".hidden/skipped.wfl"}}`, "hidden", nil},
		{"folder outside", `{"name":"check_workspace","arguments":{"folder":"/"}}`, "outside_workspace", nil},
		{"folder that is a file", `{"name":"check_workspace","arguments":{"folder":"hello.wfl"}}`, "not_a_folder", []string{"hello.wfl is a file, not a folder"}},
		{"missing folder", `{"name":"check_workspace","arguments":{"folder":"nowhere"}}`, "not_found", []string{"no folder nowhere in the workspace"}},
		{"ok source", `{"name":"analyze_wfl","arguments":{"source":"display 1"}}`, "", nil},
		{"ok path", `{"name":"typecheck_wfl","arguments":{"path":"sub/nested.wfl"}}`, "", nil},
		{"ok absolute inside", fmt.Sprintf(`{"name":"lint_wfl","arguments":{"path":%q}}`, filepath.Join(h.Root, "hello.wfl")), "", nil},
		{"ok file uri", fmt.Sprintf(`{"name":"analyze_wfl","arguments":{"path":%q}}`, "file://"+filepath.Join(h.Root, "hello.wfl")), "", nil},
		{"ok builtin", `{"name":"lookup_builtin","arguments":{"name":"length"}}`, "", nil},
		{"ok workspace", `{"name":"check_workspace","arguments":{"folder":"sub"}}`, "", nil},
		{"integral float is an integer", `{"name":"echo","arguments":{"text":"1.0"}}`, "", nil},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.T = t
			res := h.Call(i+1, "tools/call", tt.params).Tool(t)
			if tt.kind == "" {
				if res.IsError {
					t.Fatalf("failed: %s", res.Content[0].Text)
				}
				checkOutputSchema(t, tt.params, res)
				return
			}
			var f toolFailure
			if !res.IsError || json.Unmarshal([]byte(res.Content[0].Text), &f) != nil || f.Error.Kind != tt.kind {
				t.Fatalf("got %+v, want failure %s", res, tt.kind)
			}
			if res.StructuredContent != nil {
				t.Errorf("an error result carries structuredContent (clients check it against the outputSchema)")
			}
			for _, p := range tt.problems {
				if !strings.Contains(f.Error.Message, p) {
					t.Errorf("message %q lacks %q", f.Error.Message, p)
				}
			}
		})
	}
	h.T = t
	for _, tt := range []struct{ params, msg string }{
		{`{"arguments":{}}`, `"name" is required`},
		{`{"name":5}`, `"name" must be a string`},
		{`{"name":"analyze_wfl","arguments":[1]}`, `"arguments" must be an object`},
		{`{"name":"no_such_tool"}`, "Unknown tool: no_such_tool"},
	} {
		if w := h.Call(500, "tools/call", tt.params); w.ErrCode() != -32602 || !strings.Contains(w.Error.Message, tt.msg) {
			t.Errorf("%s: got %s", tt.params, w.Raw)
		}
	}
}

// checkOutputSchema validates a successful result's structuredContent
// against the tool's declared outputSchema, and checks the text block
// carries the same JSON.
func checkOutputSchema(t *testing.T, params string, res toolCall) {
	t.Helper()
	var p struct {
		Name string `json:"name"`
	}
	json.Unmarshal([]byte(params), &p)
	var tl *Tool
	for _, x := range WFL().Tools {
		if x.Name == p.Name {
			tl = x
		}
	}
	if tl == nil {
		return // a test tool
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(res.StructuredContent))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	if problems := tl.Output.Validate(v); len(problems) > 0 {
		t.Errorf("structuredContent does not match the outputSchema: %v\n%s", problems, res.StructuredContent)
	}
	var a, b any
	json.Unmarshal([]byte(res.Content[0].Text), &a)
	json.Unmarshal(res.StructuredContent, &b)
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Errorf("text block and structuredContent differ")
	}
}

func TestToolsListGolden(t *testing.T) {
	h := start(t, Options{Primitives: wflOnly()})
	h.Initialize("2025-11-25")
	w := h.Call(1, "tools/list", "")
	var pretty strings.Builder
	var v any
	json.Unmarshal(w.Result, &v)
	b, _ := json.MarshalIndent(v, "", "  ")
	pretty.Write(b)
	pretty.WriteString("\n")
	golden := "../testdata/mcp/tools-list.golden.json"
	if *update {
		os.WriteFile(golden, []byte(pretty.String()), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != pretty.String() {
		t.Errorf("tools/list differs from %s (run go test -update):\n%s", golden, pretty.String())
	}
	// Every tool has what the spec and clients want.
	for _, tl := range v.(map[string]any)["tools"].([]any) {
		m := tl.(map[string]any)
		for _, k := range []string{"name", "title", "description", "inputSchema", "outputSchema", "annotations"} {
			if m[k] == nil {
				t.Errorf("tool %v lacks %s", m["name"], k)
			}
		}
		if m["inputSchema"].(map[string]any)["type"] != "object" {
			t.Errorf("tool %v: inputSchema is not an object schema", m["name"])
		}
		if ann := m["annotations"].(map[string]any); ann["readOnlyHint"] != true {
			t.Errorf("tool %v is not read-only", m["name"])
		}
	}
}

func TestResourcesRead(t *testing.T) {
	h := start(t, Options{})
	h.Initialize("2025-11-25")
	read := func(uri string) (string, *wire) {
		w := h.Call(1, "resources/read", fmt.Sprintf(`{"uri":%q}`, uri))
		if w.Error != nil {
			return "", w
		}
		var r struct {
			Contents []struct{ URI, MimeType, Text string } `json:"contents"`
		}
		json.Unmarshal(w.Result, &r)
		if len(r.Contents) != 1 || r.Contents[0].URI != uri {
			t.Fatalf("contents %s", w.Raw)
		}
		return r.Contents[0].Text, w
	}
	files, _ := read("workspace://files")
	for _, want := range []string{`"hello.wfl"`, `"sub/nested.wfl"`, `"broken.wfl"`} {
		if !strings.Contains(files, want) {
			t.Errorf("workspace://files lacks %s: %s", want, files)
		}
	}
	for _, not := range []string{"skipped.wfl", "notes.txt", "escape.wfl"} {
		if strings.Contains(files, not) {
			t.Errorf("workspace://files lists %s", not)
		}
	}
	if text, _ := read("workspace://file/sub/nested.wfl"); !strings.HasPrefix(text, "define action called twice") {
		t.Errorf("file text %q", text)
	}
	if text, _ := read("file://" + filepath.Join(h.Root, "hello.wfl")); !strings.Contains(text, "greeting") {
		t.Errorf("file:// text %q", text)
	}
	if text, _ := read("wfl://builtin/length"); !strings.HasPrefix(text, "# length") {
		t.Errorf("builtin doc %q", text)
	}
	if text, _ := read("workspace://config"); !strings.Contains(text, `"max_line_length":100`) {
		t.Errorf("config %q", text)
	}
	if text, _ := read("workspace://symbols"); !strings.Contains(text, `"name":"twice"`) || !strings.Contains(text, `"path":"sub/nested.wfl"`) {
		t.Errorf("symbols %q", text)
	}
	if text, _ := read("workspace://diagnostics"); !strings.Contains(text, `"fileCount":3`) ||
		!strings.Contains(text, `"uri":"workspace://diagnostics/broken.wfl"`) || !strings.Contains(text, `"errors":[{"path":"broken.wfl"`) {
		t.Errorf("diagnostics summary %q", text)
	}
	if text, _ := read("workspace://diagnostics/broken.wfl"); !strings.Contains(text, `"path":"broken.wfl"`) || !strings.Contains(text, `"severity":"error"`) {
		t.Errorf("a file's diagnostics %q", text)
	}
	if text, _ := read("workspace://symbols"); !strings.Contains(text, `"uri":"workspace://symbols/sub/nested.wfl"`) || !strings.Contains(text, `"topLevelCount":`) {
		t.Errorf("symbols summary %q", text)
	}
	if text, _ := read("workspace://symbols/sub/nested.wfl"); !strings.Contains(text, `"name":"twice"`) || strings.Contains(text, `"path":"hello.wfl"`) {
		t.Errorf("a file's symbols %q", text)
	}
	for _, uri := range []string{"workspace://nope", "workspace://file/../etc/passwd", "workspace://file/escape.wfl",
		"file:///etc/passwd", "wfl://builtin/nope", "workspace://file/notthere.wfl", "workspace://diagnostics/../etc/passwd",
		"workspace://symbols/notthere.wfl"} {
		if _, w := read(uri); w.ErrCode() != -32002 {
			t.Errorf("%s: %s", uri, w.Raw)
		} else if m := strings.ToLower(w.Error.Message); strings.Count(m, "not found") != 1 {
			t.Errorf("%s: the message says it was not found %d times: %s", uri, strings.Count(m, "not found"), w.Error.Message)
		}
	}
	if w := h.Call(2, "resources/read", `{}`); w.ErrCode() != -32602 {
		t.Errorf("no uri: %s", w.Raw)
	}
}

func TestPromptsAndCompletion(t *testing.T) {
	h := start(t, Options{})
	h.Initialize("2025-11-25")
	get := h.Call(1, "prompts/get", `{"name":"fix_wfl_errors","arguments":{"path":"broken.wfl"}}`).ResultMap(t)
	msgs := get["messages"].([]any)
	text := msgs[0].(map[string]any)["content"].(map[string]any)["text"].(string)
	if !strings.Contains(text, "store x as") {
		t.Errorf("prompt text lacks the file: %s", text)
	}
	for _, tt := range []struct{ params, msg string }{
		{`{"name":"nope"}`, "Unknown prompt"},
		{`{"name":"fix_wfl_errors"}`, `needs the argument "path"`},
		{`{"name":"fix_wfl_errors","arguments":{"path":"../x"}}`, ".."},
		{`{"name":"fix_wfl_errors","arguments":{"path":"a","extra":"b"}}`, `no argument "extra"`},
		{`{"name":"write_wfl_program","arguments":{"task":5}}`, "must be a string"},
	} {
		if w := h.Call(2, "prompts/get", tt.params); w.ErrCode() != -32602 || !strings.Contains(w.Error.Message, tt.msg) {
			t.Errorf("%s: %s", tt.params, w.Raw)
		}
	}
	for _, name := range []string{"explain_wfl_program", "write_wfl_program", "translate_to_wfl"} {
		args := map[string]string{"explain_wfl_program": `{"path":"hello.wfl"}`, "write_wfl_program": `{"task":"count to 3"}`,
			"translate_to_wfl": `{"code":"print(1)","language":"python"}`}[name]
		if m := h.Call(3, "prompts/get", fmt.Sprintf(`{"name":%q,"arguments":%s}`, name, args)).ResultMap(t); len(m["messages"].([]any)) == 0 {
			t.Errorf("%s: no messages", name)
		}
	}
	complete := func(params string) []any {
		m := h.Call(4, "completion/complete", params).ResultMap(t)
		return m["completion"].(map[string]any)["values"].([]any)
	}
	if v := complete(`{"ref":{"type":"ref/prompt","name":"explain_wfl_program"},"argument":{"name":"path","value":"su"}}`); fmt.Sprint(v) != "[sub/nested.wfl]" {
		t.Errorf("path completion %v", v)
	}
	if v := complete(`{"ref":{"type":"ref/prompt","name":"translate_to_wfl"},"argument":{"name":"language","value":"py"}}`); fmt.Sprint(v) != "[python]" {
		t.Errorf("language completion %v", v)
	}
	if v := complete(`{"ref":{"type":"ref/resource","uri":"wfl://builtin/{name}"},"argument":{"name":"name","value":"substr"}}`); len(v) == 0 || v[0] != "substring" {
		t.Errorf("builtin completion %v", v)
	}
	if v := complete(`{"ref":{"type":"ref/resource","uri":"workspace://file/{+path}"},"argument":{"name":"path","value":""}}`); len(v) != 3 {
		t.Errorf("file completion %v", v)
	}
	for _, bad := range []string{`{}`, `{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"x","value":""}}`,
		`{"ref":{"type":"ref/other"},"argument":{"name":"x","value":""}}`,
		`{"ref":{"type":"ref/resource","uri":"x://{y}"},"argument":{"name":"y","value":""}}`} {
		if w := h.Call(5, "completion/complete", bad); w.ErrCode() != -32602 {
			t.Errorf("%s: %s", bad, w.Raw)
		}
	}
}

// TestDiagnosticsCapped calls the diagnostic tools on a program with far
// more findings than an answer lists: at most maxDiagnostics are listed,
// the errors first whatever their place, then the others in source order,
// and the counts, omitted and nextOffset say how many there are and where
// the next page starts; parse_wfl lists the first maxParseErrors. 160,000
// findings on one line made a 65 MB answer.
func TestDiagnosticsCapped(t *testing.T) {
	h := start(t, Options{})
	const drops = 3 * maxDiagnostics
	// Dropped characters (warnings) on the first lines, then undefined
	// names (errors) far after them. (Two a line: a run of them side by
	// side is one finding, and a line has at most parser.MaxDroppedOnLine.)
	src := "store x as 1\n" + strings.Repeat("@ @\n", (drops+1)/2) + "display x\n" + strings.Repeat("display nowhere\n", 3)
	for i, tool := range []string{"analyze_wfl", "lint_wfl", "parse_wfl"} {
		params := fmt.Sprintf(`{"name":%q,"arguments":{"source":%q}}`, tool, src)
		res := h.Call(i+1, "tools/call", params).Tool(t)
		if res.IsError {
			t.Fatalf("%s failed: %s", tool, res.Content[0].Text)
		}
		checkOutputSchema(t, params, res)
		var out struct {
			ErrorCount, WarningCount, Omitted, DiagnosticsOmitted int
			NextOffset                                            *int
			Diagnostics                                           []diagJSON
			Summary                                               string
		}
		if err := json.Unmarshal(res.StructuredContent, &out); err != nil {
			t.Fatal(err)
		}
		total, limit, omitted := out.ErrorCount+out.WarningCount, maxDiagnostics, out.Omitted
		if tool == "parse_wfl" { // no counts: dropped characters are all it lists
			limit, omitted = maxParseErrors, out.DiagnosticsOmitted
			total = len(out.Diagnostics) + omitted
		}
		if len(out.Diagnostics) > limit {
			t.Errorf("%s lists %d findings, more than %d", tool, len(out.Diagnostics), limit)
		}
		if tool != "lint_wfl" && (total < drops || omitted != total-len(out.Diagnostics)) {
			t.Errorf("%s: %d errors, %d warnings, %d listed, %d omitted", tool, out.ErrorCount, out.WarningCount, len(out.Diagnostics), omitted)
		}
		if tool != "parse_wfl" && out.Omitted > 0 && (out.NextOffset == nil || *out.NextOffset != len(out.Diagnostics) ||
			!strings.Contains(out.Summary, fmt.Sprintf("call again with offset %d", len(out.Diagnostics)))) {
			t.Errorf("%s: the answer does not say where the next page starts: %v, %q", tool, out.NextOffset, out.Summary)
		}
		errs := 0
		for k, d := range out.Diagnostics {
			if d.Severity == "error" {
				errs++
				if errs != k+1 {
					t.Errorf("%s: error %d listed after another finding", tool, k)
				}
			} else if k > 0 && out.Diagnostics[k-1].Severity != "error" &&
				(d.Line < out.Diagnostics[k-1].Line || d.Line == out.Diagnostics[k-1].Line && d.Column < out.Diagnostics[k-1].Column) {
				t.Errorf("%s: finding %d is before the one listed before it", tool, k)
			}
		}
		if errs != min(out.ErrorCount, limit) {
			t.Errorf("%s lists %d of its %d errors", tool, errs, out.ErrorCount)
		}
	}
}

// TestToolOutOfTimeStopsTheAnalysis calls analyze_wfl on a program whose
// analysis takes longer than the call's time limit: the answer is the
// timeout, never what the analysis, stopped at the limit, left (the
// program's snapshot is made for the call: core.NewSnapshotContext).
func TestToolOutOfTimeStopsTheAnalysis(t *testing.T) {
	h := start(t, Options{CallTimeout: time.Millisecond})
	src := strings.Repeat("store total as 1\nchange total to total plus 1\ndisplay totl\n", 40000)
	params := fmt.Sprintf(`{"name":"analyze_wfl","arguments":{"source":%q}}`, src)
	res := h.Call(1, "tools/call", params).Tool(t)
	var f toolFailure
	if !res.IsError || json.Unmarshal([]byte(res.Content[0].Text), &f) != nil || f.Error.Kind != "timeout" {
		t.Fatalf("got %.300s, want the timeout failure", res.Content[0].Text)
	}
}

// TestSchemasSayWhatIsRequired: every tool that reads a program says in
// its input schema that it takes exactly one of source and path (the
// schema alone refuses {} and both), with if/then/else: a model API
// refuses oneOf, anyOf and allOf at the top level of an input schema and
// the client then drops the tool, so no tool has them there. Before, only
// the descriptions said "Give either source or path".
func TestSchemasSayWhatIsRequired(t *testing.T) {
	taking := 0
	for _, tool := range WFL().Tools {
		b, err := json.Marshal(tool.Input)
		if err != nil {
			t.Fatal(err)
		}
		var top map[string]json.RawMessage
		json.Unmarshal(b, &top)
		for _, k := range []string{"oneOf", "anyOf", "allOf"} {
			if top[k] != nil {
				t.Errorf("%s: %s at the top level of its input schema", tool.Name, k)
			}
		}
		if tool.Input.Properties["source"] == nil || tool.Input.Properties["path"] == nil {
			continue
		}
		taking++
		args := map[string]any{}
		for _, r := range tool.Input.Required {
			args[r] = json.Number("1")
			if tool.Input.Properties[r].Type == "string" {
				args[r] = "x"
			}
		}
		if p := tool.Input.Validate(args); len(p) != 1 || !strings.Contains(p[0], `give "source"`) {
			t.Errorf("%s without source or path: %q", tool.Name, p)
		}
		args["source"], args["path"] = "display 1", "hello.wfl"
		if p := tool.Input.Validate(args); len(p) != 1 || !strings.Contains(p[0], "not both") {
			t.Errorf("%s with both: %q", tool.Name, p)
		}
		delete(args, "path")
		if p := tool.Input.Validate(args); len(p) != 0 {
			t.Errorf("%s with source: %q", tool.Name, p)
		}
	}
	if taking < 10 {
		t.Errorf("%d tools take source or path", taking)
	}
}

// TestToolCallsTakeTurns fills every turn of the calls that analyse
// (analysing): a call then waits for one, and is answered with the
// timeout when its limit passes first; once a turn is free, the same call
// is answered. A tool that reads a table (explain_diagnostic) does not
// wait.
func TestToolCallsTakeTurns(t *testing.T) {
	h := start(t, Options{CallTimeout: 200 * time.Millisecond})
	for range cap(analysing) {
		analysing <- struct{}{}
	}
	free := func() {
		for len(analysing) > 0 {
			<-analysing
		}
	}
	defer free()
	params := `{"name":"analyze_wfl","arguments":{"source":"store x as 1\ndisplay x\n"}}`
	res := h.Call(1, "tools/call", params).Tool(t)
	var f toolFailure
	if !res.IsError || json.Unmarshal([]byte(res.Content[0].Text), &f) != nil || f.Error.Kind != "timeout" {
		t.Fatalf("with every turn taken: got %.300s, want the timeout failure", res.Content[0].Text)
	}
	if res := h.Call(2, "tools/call", `{"name":"explain_diagnostic","arguments":{"code":"PARSE-DROPPED-CHAR"}}`).Tool(t); res.IsError {
		t.Errorf("explain_diagnostic waited for a turn: %.300s", res.Content[0].Text)
	}
	free()
	if res := h.Call(3, "tools/call", params).Tool(t); res.IsError {
		t.Errorf("with the turns free: got %.300s", res.Content[0].Text)
	}
}

// TestFailureQuotesCut: a failure that quotes what it was given (a
// builtin's name, a path) cuts it: a 1 MB name was answered with a 1 MB
// message.
func TestFailureQuotesCut(t *testing.T) {
	h := start(t, Options{})
	long := strings.Repeat("x", 1<<20)
	for i, params := range []string{
		fmt.Sprintf(`{"name":"lookup_builtin","arguments":{"name":%q}}`, long),
		fmt.Sprintf(`{"name":"analyze_wfl","arguments":{"path":%q}}`, long+".wfl"),
	} {
		res := h.Call(i+1, "tools/call", params).Tool(t)
		if !res.IsError {
			t.Fatalf("call %d succeeded", i)
		}
		if n := len(res.Content[0].Text); n > 8<<10 {
			t.Errorf("call %d: a failure of %d bytes", i, n)
		}
		if !strings.Contains(res.Content[0].Text, "bytes more)") {
			t.Errorf("call %d: the failure does not say it was cut: %.200s", i, res.Content[0].Text)
		}
	}
}

// TestSummariesOfManyFiles: in a workspace of more files than a summary
// lists (maxSummaryFiles), workspace://files, workspace://symbols and
// workspace://diagnostics list that many and count the others
// (filesOmitted); the whole count stays. 3,182 files made 300 KB answers.
func TestSummariesOfManyFiles(t *testing.T) {
	dir := t.TempDir()
	n := maxSummaryFiles + 3
	for i := range n {
		testfiles.Write(t, dir, fmt.Sprintf("f%04d.wfl", i), fmt.Sprintf("store v%d as %d\ndisplay nope%d\n", i, i, i))
	}
	h := start(t, Options{Root: dir})
	h.Initialize("2025-11-25")
	for i, uri := range []string{"workspace://files", "workspace://symbols", "workspace://diagnostics"} {
		w := h.Call(i+1, "resources/read", fmt.Sprintf(`{"uri":%q}`, uri))
		var r struct {
			Contents []struct{ Text string } `json:"contents"`
		}
		if w.Error != nil || json.Unmarshal(w.Result, &r) != nil || len(r.Contents) != 1 {
			t.Fatalf("%s: %s", uri, w.Raw)
		}
		var sum struct {
			Files   []json.RawMessage `json:"files"`
			Omitted int               `json:"filesOmitted"`
		}
		if err := json.Unmarshal([]byte(r.Contents[0].Text), &sum); err != nil {
			t.Fatal(err)
		}
		if len(sum.Files) != maxSummaryFiles || sum.Omitted != 3 {
			t.Errorf("%s lists %d files, %d omitted; want %d and 3", uri, len(sum.Files), sum.Omitted, maxSummaryFiles)
		}
	}
}

// TestFileURIsReadBack holds that every URI workspace://files lists, and
// every path completion/complete proposes for workspace://file/{+path}
// once expanded as RFC 6570 expands a reserved variable, reads the file it
// names back, whatever the file's name holds: a space, a percent sign
// that reads like an escape, a character outside ASCII, '#' and '?'.
func TestFileURIsReadBack(t *testing.T) {
	root := t.TempDir()
	names := []string{"per%20cent.wfl", "sp ace.wfl", "ünï cødé.wfl", "a#b?.wfl", "sub/x%y.wfl"}
	for i, n := range names {
		testfiles.Write(t, root, n, fmt.Sprintf("display %d\n", i))
	}
	h := start(t, Options{Root: root})
	h.Initialize("2025-11-25")
	read := func(uri string) string {
		t.Helper()
		w := h.Call(1, "resources/read", fmt.Sprintf(`{"uri":%q}`, uri))
		if w.Error != nil {
			t.Errorf("%s: %s", uri, w.Raw)
			return ""
		}
		var r struct {
			Contents []struct{ Text string } `json:"contents"`
		}
		json.Unmarshal(w.Result, &r)
		if len(r.Contents) != 1 {
			t.Fatalf("%s: %s", uri, w.Raw)
		}
		return r.Contents[0].Text
	}
	var listed struct {
		Files []struct{ Path, URI string } `json:"files"`
	}
	json.Unmarshal([]byte(read("workspace://files")), &listed)
	if len(listed.Files) != len(names) {
		t.Fatalf("workspace://files lists %d files, want %d", len(listed.Files), len(names))
	}
	for _, f := range listed.Files {
		if _, err := url.Parse(f.URI); err != nil || strings.ContainsAny(f.URI, " #?") || !utf8ASCII(f.URI) {
			t.Errorf("%s: not a URI (%v)", f.URI, err)
		}
		i := slices.Index(names, f.Path)
		if got, want := read(f.URI), fmt.Sprintf("display %d\n", i); got != want {
			t.Errorf("%s (%s) reads %q, want %q", f.URI, f.Path, got, want)
		}
	}
	for i, n := range names {
		m := h.Call(2, "completion/complete", fmt.Sprintf(`{"ref":{"type":"ref/resource","uri":"workspace://file/{+path}"},"argument":{"name":"path","value":%q}}`, n[:3])).ResultMap(t)
		values := m["completion"].(map[string]any)["values"].([]any)
		if len(values) != 1 {
			t.Fatalf("%s: completion %v", n, values)
		}
		uri := "workspace://file/" + reservedExpansion(values[0].(string))
		if got, want := read(uri), fmt.Sprintf("display %d\n", i); got != want {
			t.Errorf("%s: completed as %q, %s reads %q, want %q", n, values[0], uri, got, want)
		}
	}
}

func utf8ASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// reservedExpansion expands a value as RFC 6570's {+var}: the unreserved
// and reserved characters and a percent-encoded triplet stay, every other
// byte is percent-encoded.
func reservedExpansion(v string) string {
	const kept = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#[]@!$&'()*+,;="
	isHex := func(c byte) bool { return strings.IndexByte("0123456789abcdefABCDEF", c) >= 0 }
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case strings.IndexByte(kept, c) >= 0:
			b.WriteByte(c)
		case c == '%' && i+2 < len(v) && isHex(v[i+1]) && isHex(v[i+2]):
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
