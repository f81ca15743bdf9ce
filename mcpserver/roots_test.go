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
	"time"

	"wfl-lsp/internal/testfiles"
)

// folder makes a folder holding files (name -> text).
func folder(t *testing.T, name string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	os.MkdirAll(dir, 0o755)
	for f, text := range files {
		testfiles.Write(t, dir, f, text)
	}
	return dir
}

type symbolsOut struct {
	Symbols []struct{ Name, Path string }
}

func symbols(h *harness, id int) symbolsOut {
	h.T.Helper()
	var out symbolsOut
	res := h.Await(itoa(id)).Tool(h.T)
	if res.IsError {
		h.T.Fatalf("workspace_symbols failed: %s", res.Content[0].Text)
	}
	json.Unmarshal(res.StructuredContent, &out)
	return out
}

func TestClientRoots(t *testing.T) {
	front := folder(t, "front", map[string]string{"app.wfl": "define action called greet:\n    display \"hi\"\nend action\n"})
	back := folder(t, "back", map[string]string{"lib/db.wfl": "store connection_name as \"main\"\n"})
	outside := folder(t, "outside", map[string]string{"secret.wfl": "store secret as 1\n"})
	h := start(t, Options{Root: noRoot})
	h.InitializeWith("2025-11-25", `{"roots":{"listChanged":true}}`)

	// First use: the server asks for the roots, then answers from both.
	h.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"workspace_symbols","arguments":{"query":""}}}`)
	h.AnswerRoots(front, back)
	got := map[string]string{}
	for _, s := range symbols(h, 1).Symbols {
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
		res := h.Call(10+i, "tools/call", `{"name":"analyze_wfl","arguments":{"path":`+quote(tt.path)+`}}`).Tool(t)
		if !strings.Contains(res.Content[0].Text, tt.want) {
			t.Errorf("analyze_wfl %s: %s, want %s", tt.path, res.Content[0].Text, tt.want)
		}
	}
	// The roots are read once, not at every call.
	if s := h.Call(20, "tools/call", `{"name":"workspace_symbols","arguments":{"query":"greet"}}`); len(s.Tool(t).Content) == 0 {
		t.Fatal("no answer")
	}

	// After list_changed they are read again at next use.
	h.Send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	h.Send(`{"jsonrpc":"2.0","id":30,"method":"tools/call","params":{"name":"workspace_symbols","arguments":{"query":""}}}`)
	h.AnswerRoots(back)
	out := symbols(h, 30)
	if len(out.Symbols) != 1 || out.Symbols[0].Path != "lib/db.wfl" {
		t.Errorf("after list_changed, one folder: %+v", out)
	}
	res := h.Call(31, "resources/read", `{"uri":"workspace://files"}`).ResultMap(t)
	if text := res["contents"].([]any)[0].(map[string]any)["text"].(string); !strings.Contains(text, `"path":"lib/db.wfl"`) || strings.Contains(text, "app.wfl") {
		t.Errorf("workspace://files follows the roots: %s", text)
	}
}

func TestRootsNarrowTheRoot(t *testing.T) {
	// With --root, the client's roots can narrow the workspace, never widen it.
	root := testWorkspace(t)
	outside := folder(t, "outside", map[string]string{"secret.wfl": "store secret as 1\n"})
	h := start(t, Options{Root: root, RootsTimeout: guard})
	h.InitializeWith("2025-11-25", `{"roots":{"listChanged":true}}`)
	h.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"analyze_wfl","arguments":{"path":"nested.wfl"}}}`)
	h.AnswerRoots(filepath.Join(root, "sub"), outside)
	if res := h.Await("1").Tool(t); res.IsError {
		t.Errorf("a file inside the narrowed workspace: %s", res.Content[0].Text)
	}
	for i, p := range []string{filepath.Join(root, "hello.wfl"), filepath.Join(outside, "secret.wfl")} {
		res := h.Call(2+i, "tools/call", `{"name":"analyze_wfl","arguments":{"path":`+quote(p)+`}}`).Tool(t)
		if !res.IsError || !strings.Contains(res.Content[0].Text, "outside_workspace") {
			t.Errorf("%s, outside the narrowed workspace, was read: %s", p, res.Content[0].Text)
		}
	}
	// Roots that are all outside leave --root in force, and the client is told.
	h.Send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	h.Send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"analyze_wfl","arguments":{"path":"hello.wfl"}}}`)
	h.AnswerRoots(outside, "/")
	if res := h.Await("5").Tool(t); res.IsError {
		t.Errorf("hello.wfl with roots outside --root (and /, which holds it): %s", res.Content[0].Text)
	}
	h.Send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	h.Send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"analyze_wfl","arguments":{"path":"hello.wfl"}}}`)
	h.AnswerRoots(outside)
	if res := h.Await("6").Tool(t); res.IsError {
		t.Errorf("hello.wfl with every root outside --root: %s", res.Content[0].Text)
	}
	res := h.Call(7, "tools/call", `{"name":"analyze_wfl","arguments":{"path":`+quote(filepath.Join(outside, "secret.wfl"))+`}}`).Tool(t)
	if !strings.Contains(res.Content[0].Text, "outside_workspace") {
		t.Errorf("a root outside --root widened the workspace: %s", res.Content[0].Text)
	}
	// That the client is told once: mcp's TestRootsNarrowTheRoot.
}

func TestRootsNeverAnswered(t *testing.T) {
	// A client that declares roots and never answers roots/list: the first
	// call that reads the workspace waits RootsTimeout (not the call's own
	// limit), then works in the server's workspace, and a tool that reads
	// no file (lookup_builtin) never asks for it.
	root := testWorkspace(t)
	h := start(t, Options{Root: root, RootsTimeout: 100 * time.Millisecond, CallTimeout: guard})
	h.InitializeWith("2025-11-25", `{"roots":{"listChanged":true}}`)
	if res := h.Call(1, "tools/call", `{"name":"lookup_builtin","arguments":{"name":"length"}}`).Tool(t); res.IsError {
		t.Fatalf("lookup_builtin: %s", res.Content[0].Text)
	}
	if asked := h.TakeHeld(func(w *wire) bool { return w.Method == "roots/list" }); len(asked) > 0 {
		t.Errorf("lookup_builtin, which reads no file, asked for the roots: %s", asked[0].Raw)
	}
	h.Send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"analyze_wfl","arguments":{"path":"hello.wfl"}}}`)
	h.AwaitRequest("roots/list") // never answered
	if res := h.Await("2").Tool(t); res.IsError {
		t.Errorf("analyze_wfl after roots/list went unanswered: %s", res.Content[0].Text)
	}
	if res := h.Call(3, "tools/call", `{"name":"workspace_symbols","arguments":{"query":""}}`).Tool(t); res.IsError {
		t.Errorf("workspace_symbols: %s", res.Content[0].Text)
	}
	// That the client is told once and not asked again: mcp's
	// TestRootsNeverAnswered.
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestWorkspaceNames(t *testing.T) {
	a := folder(t, "src", nil)
	b := folder(t, "src", nil)
	c := folder(t, "lib", nil)
	ws, err := newWorkspace([]string{a, b, c})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, r := range ws.roots {
		names = append(names, r.name)
	}
	if strings.Join(names, " ") != "src src~2 lib" {
		t.Errorf("folders %v, want src src~2 lib", names)
	}
	if rel := ws.rel(filepath.Join(b, "x.wfl")); rel != "src~2/x.wfl" {
		t.Errorf("a file of the second src shows as %q, want src~2/x.wfl", rel)
	}
	if _, err := newWorkspace([]string{filepath.Join(a, "missing")}); err == nil {
		t.Error("a missing folder was accepted")
	}
}
