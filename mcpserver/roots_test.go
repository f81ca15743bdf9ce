package mcpserver

// This file tests the workspace that follows the client's roots: read at
// first use, read again after notifications/roots/list_changed, several
// folders, and paths confined to them.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/core"
)

// folder makes a folder holding files (name -> text).
func folder(t *testing.T, name string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	os.MkdirAll(dir, 0o755)
	for f, text := range files {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// answerRoots answers the next roots/list with the folders.
func (h *harness) answerRoots(dirs ...string) {
	h.t.Helper()
	req := h.awaitRequest("roots/list")
	var roots []string
	for _, d := range dirs {
		roots = append(roots, `{"uri":"`+string(core.FileURI(d))+`","name":"`+filepath.Base(d)+`"}`)
	}
	h.sendf(`{"jsonrpc":"2.0","id":%s,"result":{"roots":[%s]}}`, req.ID, strings.Join(roots, ","))
}

type symbolsOut struct {
	Symbols []struct{ Name, Path string }
}

func (h *harness) symbols(id int) symbolsOut {
	h.t.Helper()
	var out symbolsOut
	res := h.await(itoa(id)).tool(h.t)
	if res.IsError {
		h.t.Fatalf("workspace_symbols failed: %s", res.Content[0].Text)
	}
	json.Unmarshal(res.StructuredContent, &out)
	return out
}

func TestClientRoots(t *testing.T) {
	front := folder(t, "front", map[string]string{"app.wfl": "define action called greet:\n    display \"hi\"\nend action\n"})
	back := folder(t, "back", map[string]string{"lib/db.wfl": "store connection_name as \"main\"\n"})
	outside := folder(t, "outside", map[string]string{"secret.wfl": "store secret as 1\n"})
	h := start(t, Options{Root: noRoot})
	h.initializeWith("2025-11-25", `{"roots":{"listChanged":true}}`)

	// First use: the server asks for the roots, then answers from both.
	h.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace_symbols","arguments":{"query":""}}}`)
	h.answerRoots(front, back)
	got := map[string]string{}
	for _, s := range h.symbols(1).Symbols {
		got[s.Name] = s.Path
	}
	if got["greet"] != "front/app.wfl" || got["connection_name"] != "back/lib/db.wfl" {
		t.Errorf("symbols of both folders, by folder name: %v", got)
	}
	// Paths are confined to the folders: by folder name, by absolute path,
	// and never outside.
	tests := []struct {
		path, want string
	}{
		{"back/lib/db.wfl", `"valid":true`},
		{"lib/db.wfl", `"valid":true`},
		{filepath.Join(front, "app.wfl"), `"valid":true`},
		{filepath.Join(outside, "secret.wfl"), `outside_workspace`},
		{"front/../../outside/secret.wfl", `outside_workspace`},
	}
	for i, tt := range tests {
		res := h.call(10+i, "tools/call", `{"name":"analyze_wfl","arguments":{"path":`+quote(tt.path)+`}}`).tool(t)
		if !strings.Contains(res.Content[0].Text, tt.want) {
			t.Errorf("analyze_wfl %s: %s, want %s", tt.path, res.Content[0].Text, tt.want)
		}
	}
	// The roots are read once, not at every call.
	if s := h.call(20, "tools/call", `{"name":"workspace_symbols","arguments":{"query":"greet"}}`); len(s.tool(t).Content) == 0 {
		t.Fatal("no answer")
	}

	// After list_changed they are read again at next use.
	h.send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	h.send(`{"jsonrpc":"2.0","id":30,"method":"tools/call","params":{"name":"workspace_symbols","arguments":{"query":""}}}`)
	h.answerRoots(back)
	out := h.symbols(30)
	if len(out.Symbols) != 1 || out.Symbols[0].Path != "lib/db.wfl" {
		t.Errorf("after list_changed, one folder: %+v", out)
	}
	res := h.call(31, "resources/read", `{"uri":"workspace://files"}`).resultMap(t)
	if text := res["contents"].([]any)[0].(map[string]any)["text"].(string); !strings.Contains(text, `"path":"lib/db.wfl"`) || strings.Contains(text, "app.wfl") {
		t.Errorf("workspace://files follows the roots: %s", text)
	}
}

func TestRootOptionWins(t *testing.T) {
	// With --root, the client's roots change nothing and are never asked for.
	h := start(t, Options{})
	h.initializeWith("2025-11-25", `{"roots":{"listChanged":true}}`)
	res := h.call(1, "tools/call", `{"name":"analyze_wfl","arguments":{"path":"hello.wfl"}}`).tool(t)
	if res.IsError {
		t.Fatalf("analyze_wfl hello.wfl: %s", res.Content[0].Text)
	}
	for _, w := range h.finish() {
		if w.Method == "roots/list" {
			t.Errorf("roots/list sent although --root was given: %s", w.raw)
		}
	}
}

func TestRootsUnanswered(t *testing.T) {
	// A client that declares roots but cannot list them leaves the server's
	// own workspace (the current folder) in force; the call still answers.
	h := start(t, Options{Root: noRoot})
	h.initializeWith("2025-11-25", `{"roots":{}}`)
	h.send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace_symbols","arguments":{"query":"zzz_no_such_name"}}}`)
	req := h.awaitRequest("roots/list")
	h.sendf(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"no roots here"}}`, req.ID)
	if res := h.await("1").tool(t); res.IsError {
		t.Errorf("workspace_symbols: %s", res.Content[0].Text)
	}
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestNewWorkspace(t *testing.T) {
	a := folder(t, "src", nil)
	b := folder(t, "src", nil)
	os.MkdirAll(filepath.Join(a, "inner"), 0o755)
	ws, err := newWorkspace([]string{a, b, filepath.Join(a, "inner"), a})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range ws.roots {
		names = append(names, r.name)
	}
	if strings.Join(names, " ") != "src src~2" {
		t.Errorf("folders %v, want src src~2 (nested and repeated ones dropped)", names)
	}
	if _, err := newWorkspace([]string{filepath.Join(a, "missing")}); err == nil {
		t.Error("a missing folder was accepted")
	}
}
