package mcpserver

// This file tests the tools built on the core's position queries, outline,
// formatter and quick fixes.

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"wfl-lsp/lang/diag/explain"
)

const navProgram = "define action called twice with n:\n    give back n times 2\nend action\n" +
	"store result as twice of 21\ndisplay result\nstore userName as 5\ndisplay userName\n"

func TestNavigationTools(t *testing.T) {
	h := start(t, Options{})
	h.Initialize("2025-11-25")
	src, _ := json.Marshal(navProgram)
	call := func(name, extra string) map[string]any {
		t.Helper()
		params := fmt.Sprintf(`{"name":%q,"arguments":{"source":%s%s}}`, name, src, extra)
		res := h.Call(1, "tools/call", params).Tool(t)
		if res.IsError {
			t.Fatalf("%s failed: %s", name, res.Content[0].Text)
		}
		checkOutputSchema(t, params, res)
		var m map[string]any
		json.Unmarshal(res.StructuredContent, &m)
		return m
	}
	parse := call("parse_wfl", "")
	if parse["valid"] != true || parse["statementCount"].(float64) != 5 {
		t.Errorf("parse_wfl %v", parse)
	}
	outline := fmt.Sprint(parse["outline"])
	for _, want := range []string{"name:twice", "kind:action", "name:n", "kind:parameter", "name:result", "name:userName"} {
		if !strings.Contains(outline, want) {
			t.Errorf("outline lacks %s: %s", want, outline)
		}
	}
	if noPos := call("parse_wfl", `,"include_positions":false`); strings.Contains(fmt.Sprint(noPos["outline"]), "line:") {
		t.Errorf("positions without include_positions: %v", noPos["outline"])
	}
	if syms := call("document_symbols", ""); len(syms["symbols"].([]any)) != 3 {
		t.Errorf("document_symbols %v", syms)
	}
	// "twice" in `store result as twice of 21` is line 4, columns 17-21.
	info := call("get_symbol_info", `,"line":4,"column":18`)
	if info["found"] != true || info["kind"] != "action" || info["name"] != "twice" || info["declarationLine"].(float64) != 1 {
		t.Errorf("get_symbol_info %v", info)
	}
	if none := call("get_symbol_info", `,"line":3,"column":1`); none["found"] != true && none["found"] != false {
		t.Errorf("get_symbol_info on a keyword %v", none)
	}
	def := call("find_definition", `,"line":4,"column":18`)
	if d := def["definitions"].([]any); len(d) != 1 || d[0].(map[string]any)["line"].(float64) != 1 {
		t.Errorf("find_definition %v", def)
	}
	refs := call("find_references", `,"line":5,"column":10`)
	if refs["count"].(float64) != 2 {
		t.Errorf("find_references %v", refs)
	}
	if refs := call("find_references", `,"line":5,"column":10,"includeDeclaration":false`); refs["count"].(float64) != 1 {
		t.Errorf("find_references without declarations %v", refs)
	}
	fix := call("fix_wfl", "")
	if !strings.Contains(fmt.Sprint(fix["fixes"]), "user_name") {
		t.Errorf("fix_wfl %v", fix)
	}
	if only := call("fix_wfl", `,"line":1`); len(only["fixes"].([]any)) != 0 {
		t.Errorf("fix_wfl restricted to line 1 %v", only)
	}
	fm := call("format_wfl", "")
	if fm["formatted"] == nil || fm["changed"] == nil {
		t.Errorf("format_wfl %v", fm)
	}

	res := h.Call(2, "tools/call", fmt.Sprintf(`{"name":"find_definition","arguments":{"source":%s,"line":99,"column":1}}`, src)).Tool(t)
	var f toolFailure
	if !res.IsError || json.Unmarshal([]byte(res.Content[0].Text), &f) != nil || f.Error.Kind != "invalid_position" {
		t.Errorf("position outside: %+v", res)
	}
	res = h.Call(3, "tools/call", fmt.Sprintf(`{"name":"find_definition","arguments":{"source":%s,"line":0,"column":1}}`, src)).Tool(t)
	if !res.IsError || !strings.Contains(res.Content[0].Text, "at least 1") {
		t.Errorf("line 0: %+v", res)
	}
	res = h.Call(4, "tools/call", `{"name":"format_wfl","arguments":{"source":"store x as\n"}}`).Tool(t)
	if !res.IsError {
		t.Errorf("formatting a program that does not parse: %+v", res)
	}
	ws := h.Call(5, "tools/call", `{"name":"workspace_symbols","arguments":{"query":"TWI"}}`).Tool(t)
	checkOutputSchema(t, `{"name":"workspace_symbols"}`, ws)
	if !strings.Contains(string(ws.StructuredContent), `"path":"sub/nested.wfl"`) {
		t.Errorf("workspace_symbols %s", ws.StructuredContent)
	}
}

func TestExplainDiagnostic(t *testing.T) {
	h := start(t, Options{})
	params := `{"name":"explain_diagnostic","arguments":{"code":"lint-name"}}`
	res := h.Call(1, "tools/call", params).Tool(t)
	checkOutputSchema(t, params, res)
	if res.IsError || !strings.Contains(string(res.StructuredContent), "snake_case") {
		t.Errorf("explain LINT-NAME: %s", res.StructuredContent)
	}
	// With the message, the case it is about.
	for _, tt := range []struct{ code, message, want string }{
		{"TYPE-SIGNAL", "Undefined signal handler 'on_stop'", "names no action"},
		{"TYPE-CONTAINER", "Container 'Box' does not satisfy interface 'Shape': missing required action 'area'", "requires"},
		{"TYPE-CONTAINER", "Container type 'Person' not found", "create new C as x"},
		{"ANALYZE-INCLUDE", "Includes go round in a cycle: a.wfl includes b.wfl includes a.wfl", "includes this one again"},
	} {
		params := fmt.Sprintf(`{"name":"explain_diagnostic","arguments":{"code":%q,"message":%q}}`, tt.code, tt.message)
		res := h.Call(5, "tools/call", params).Tool(t)
		checkOutputSchema(t, params, res)
		var out struct {
			Case           struct{ Message, Meaning, Fix string }
			Cases          []any
			Example, Fixed string
			Files          []struct{ Name, Text string }
		}
		json.Unmarshal(res.StructuredContent, &out)
		if res.IsError || !strings.Contains(out.Case.Meaning, tt.want) || out.Cases != nil || out.Example == "" || out.Fixed == "" {
			t.Errorf("explain %s %q: %s", tt.code, tt.message, res.StructuredContent)
		}
		// An include's case comes with the files its programs include.
		if wantFiles := tt.code == "ANALYZE-INCLUDE"; wantFiles != (len(out.Files) > 0) {
			t.Errorf("explain %s: files %+v", tt.code, out.Files)
		}
	}
	// Without it, every case of the code.
	params = `{"name":"explain_diagnostic","arguments":{"code":"TYPE-CONTAINER"}}`
	res = h.Call(6, "tools/call", params).Tool(t)
	var listed struct{ Cases []struct{ Message string } }
	json.Unmarshal(res.StructuredContent, &listed)
	if e, _ := explain.Of("TYPE-CONTAINER"); len(listed.Cases) != len(e.Cases) || listed.Cases[0].Message != e.Cases[0].Message {
		t.Errorf("explain TYPE-CONTAINER without a message: %s", res.StructuredContent)
	}
	res = h.Call(2, "tools/call", `{"name":"explain_diagnostic","arguments":{"code":"NOPE-1"}}`).Tool(t)
	if !res.IsError || !strings.Contains(res.Content[0].Text, "PARSE-EXPECTED") {
		t.Errorf("unknown code: %+v", res)
	}
	// Every code the checker reports on the fixtures is explained.
	for _, file := range []string{"broken.wfl", "hello.wfl", "sub/nested.wfl"} {
		r := h.Call(3, "tools/call", fmt.Sprintf(`{"name":"analyze_wfl","arguments":{"path":%q}}`, file)).Tool(t)
		var out checkOutput
		json.Unmarshal(r.StructuredContent, &out)
		for _, d := range out.Diagnostics {
			e := h.Call(4, "tools/call", fmt.Sprintf(`{"name":"explain_diagnostic","arguments":{"code":%q}}`, d.Code)).Tool(t)
			if e.IsError {
				t.Errorf("%s reported on %s has no explanation", d.Code, file)
			}
		}
	}
}

func TestRenameSymbol(t *testing.T) {
	h := start(t, Options{})
	src, _ := json.Marshal(navProgram)
	// "result" is declared on line 4 and read on line 5.
	params := fmt.Sprintf(`{"name":"rename_symbol","arguments":{"source":%s,"line":5,"column":10,"newName":"answer"}}`, src)
	res := h.Call(1, "tools/call", params).Tool(t)
	if res.IsError {
		t.Fatalf("rename: %s", res.Content[0].Text)
	}
	checkOutputSchema(t, params, res)
	var out struct {
		OldName, NewName, NewSource string
		Count                       int
	}
	json.Unmarshal(res.StructuredContent, &out)
	if out.OldName != "result" || out.Count != 2 || !strings.Contains(out.NewSource, "store answer as twice of 21\ndisplay answer\n") {
		t.Errorf("rename: %+v", out)
	}
	for _, tt := range []struct{ args, why string }{
		{`"line":5,"column":10,"newName":"twice"`, "clash"},
		{`"line":5,"column":10,"newName":"display"`, "keyword"},
		{`"line":5,"column":1,"newName":"x"`, "keyword position"},
	} {
		r := h.Call(2, "tools/call", fmt.Sprintf(`{"name":"rename_symbol","arguments":{"source":%s,%s}}`, src, tt.args)).Tool(t)
		var f toolFailure
		if !r.IsError || json.Unmarshal([]byte(r.Content[0].Text), &f) != nil || f.Error.Kind != "cannot_rename" {
			t.Errorf("%s: %+v", tt.why, r)
		}
	}
}

func TestGetCompletions(t *testing.T) {
	h := start(t, Options{})
	src, _ := json.Marshal(navProgram + "display res")
	params := fmt.Sprintf(`{"name":"get_completions","arguments":{"source":%s,"line":8,"column":12}}`, src)
	res := h.Call(1, "tools/call", params).Tool(t)
	if res.IsError {
		t.Fatalf("completions: %s", res.Content[0].Text)
	}
	checkOutputSchema(t, params, res)
	var out struct {
		Items []completionJSON
		Count int
	}
	json.Unmarshal(res.StructuredContent, &out)
	found := false
	for _, it := range out.Items {
		found = found || it.Label == "result" && it.Kind == "variable"
	}
	if !found {
		t.Errorf("the variable result is not proposed after 'display res': %s", res.StructuredContent)
	}
}

// TestGetCompletionsKinds: every item says its kind; an interface's said
// nothing ("kind": "").
func TestGetCompletionsKinds(t *testing.T) {
	h := start(t, Options{})
	src, _ := json.Marshal("create interface Shape:\n    requires action area\nend interface\ncreate container Box implements Sha\n")
	res := h.Call(1, "tools/call", fmt.Sprintf(`{"name":"get_completions","arguments":{"source":%s,"line":4,"column":36}}`, src)).Tool(t)
	var out struct{ Items []completionJSON }
	json.Unmarshal(res.StructuredContent, &out)
	if len(out.Items) == 0 || out.Items[0].Label != "Shape" || out.Items[0].Kind != "interface" {
		t.Errorf("after 'implements Sha': %s, want the interface Shape of kind interface", res.StructuredContent)
	}
}
