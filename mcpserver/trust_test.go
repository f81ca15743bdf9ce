package mcpserver

// This file tests the trust boundary: no tool, resource, template or
// prompt reads a file outside the workspace, a file that is not a WFL file
// or one in a hidden folder, by a path given to it or by an include it
// follows; and what it refuses says nothing of what exists outside.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/internal/testfiles"
)

// secrets are texts of files no answer may contain.
var secrets = []string{"Whispers the launch codes", "API_KEY", "leaked_note", "leaked_hidden", "leaked_there", "gitconfig"}

// trustTree makes a workspace whose files include, name and link to
// files they may not read, and returns it and the folder outside it.
func trustTree(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "ws"), filepath.Join(base, "outside")
	files := map[string]string{
		"ws/main.wfl": `include from "../outside/secret.wfl"
include from "` + filepath.ToSlash(filepath.Join(outside, "exists.wfl")) + `"
include from "notes.txt"
include from ".hidden/lib.wfl"
include from "escape.wfl"
include from "lib.wfl"
call whisper
display note_name
display util_value
`,
		"ws/lib.wfl":         "store util_value as 1\n",
		"ws/notes.txt":       "store leaked_note as 1\n",
		"ws/.env":            "API_KEY=1234\n",
		"ws/.hidden/lib.wfl": "store leaked_hidden as 1\n",
		"ws/.git/config":     "[gitconfig]\n",
		"outside/secret.wfl": "// Whispers the launch codes\ndefine action called whisper:\n    display \"launch codes\"\nend action\n",
		"outside/exists.wfl": "store leaked_there as 1\n",
	}
	for name, text := range files {
		testfiles.Write(t, base, name, text)
	}
	for link, target := range map[string]string{"escape.wfl": filepath.Join(outside, "secret.wfl"), "env.wfl": ".env"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	return root, outside
}

func noSecret(t *testing.T, what, text string) {
	t.Helper()
	for _, s := range secrets {
		if strings.Contains(text, s) {
			t.Errorf("%s: answered with %q, which only a file it may not read holds:\n%s", what, s, text)
		}
	}
}

// TestTrustBoundaryTools calls every tool that takes a path or a source
// with includes on a file that includes what it may not read, and with
// paths it may not read.
func TestTrustBoundaryTools(t *testing.T) {
	root, outside := trustTree(t)
	h := start(t, Options{Root: root, Primitives: wflOnly()})
	h.Initialize("2025-11-25")
	id := 0
	call := func(name, args string) (string, bool) {
		t.Helper()
		id++
		res := h.Call(id, "tools/call", fmt.Sprintf(`{"name":%q,"arguments":{%s}}`, name, args)).Tool(t)
		text := res.Content[0].Text + string(res.StructuredContent)
		noSecret(t, name+"("+args+")", text)
		return text, res.IsError
	}
	pos := `"path":"main.wfl","line":7,"column":6` // whisper in `call whisper`
	for _, tc := range []struct{ tool, args string }{
		{"parse_wfl", `"path":"main.wfl"`},
		{"analyze_wfl", `"path":"main.wfl"`},
		{"typecheck_wfl", `"path":"main.wfl"`},
		{"lint_wfl", `"path":"main.wfl"`},
		{"format_wfl", `"path":"main.wfl"`},
		{"fix_wfl", `"path":"main.wfl"`},
		{"document_symbols", `"path":"main.wfl"`},
		{"workspace_symbols", `"query":""`},
		{"check_workspace", ``},
		{"get_completions", `"path":"main.wfl","line":9,"column":9`},
		{"get_symbol_info", pos},
		{"find_definition", pos},
		{"find_references", pos},
		{"rename_symbol", pos + `,"newName":"speak"`},
		{"get_symbol_info", `"path":"main.wfl","line":8,"column":10`},
		{"find_definition", `"path":"main.wfl","line":8,"column":10`},
	} {
		call(tc.tool, tc.args)
	}
	// What analyze_wfl says of each include: outside the workspace for both
	// the file that exists and the one that does not; the name's problem for
	// the others; the file inside is followed.
	text, _ := call("analyze_wfl", `"path":"main.wfl"`)
	for _, want := range []string{
		"../outside/secret.wfl is outside the workspace",
		filepath.ToSlash(filepath.Join(outside, "exists.wfl")) + " is outside the workspace",
		"notes.txt is not a WFL file",
		".hidden/lib.wfl is in a hidden folder",
		"escape.wfl is outside the workspace",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("analyze_wfl main.wfl does not say %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "'util_value'") {
		t.Errorf("the include inside the workspace was not followed:\n%s", text)
	}
	// Includes of a file that exists outside and of one that does not are
	// reported alike (no existence oracle).
	for _, name := range []string{"exists.wfl", "none.wfl"} {
		os.WriteFile(filepath.Join(root, "probe.wfl"), []byte(`include from "../outside/`+name+`"`+"\n"), 0o644)
		text, _ := call("analyze_wfl", `"path":"probe.wfl"`)
		if !strings.Contains(text, "../outside/"+name+" is outside the workspace") || strings.Contains(text, "there is no file") {
			t.Errorf("include of ../outside/%s: %s", name, text)
		}
	}
	os.Remove(filepath.Join(root, "probe.wfl"))

	// Paths no tool reads, by every way of naming them.
	for _, tc := range []struct{ path, kind string }{
		{"../outside/secret.wfl", "outside_workspace"},
		{filepath.Join(outside, "secret.wfl"), "outside_workspace"},
		{string(core.FileURI(filepath.Join(outside, "secret.wfl"))), "outside_workspace"},
		{"escape.wfl", "outside_workspace"},
		{"env.wfl", "not_wfl"},
		{".env", "not_wfl"},
		{"notes.txt", "not_wfl"},
		{string(core.FileURI(filepath.Join(root, "notes.txt"))), "not_wfl"},
		{".git/config", "hidden"},
		{".hidden/lib.wfl", "hidden"},
	} {
		for _, tool := range []string{"parse_wfl", "analyze_wfl", "typecheck_wfl", "lint_wfl", "format_wfl", "fix_wfl", "document_symbols"} {
			text, isErr := call(tool, fmt.Sprintf(`"path":%q`, tc.path))
			if !isErr || !strings.Contains(text, `"kind":"`+tc.kind+`"`) {
				t.Errorf("%s %s: %s, want %s", tool, tc.path, text, tc.kind)
			}
		}
		for _, tool := range []string{"get_completions", "get_symbol_info", "find_definition", "find_references"} {
			if text, isErr := call(tool, fmt.Sprintf(`"path":%q,"line":1,"column":1`, tc.path)); !isErr || !strings.Contains(text, tc.kind) {
				t.Errorf("%s %s: %s, want %s", tool, tc.path, text, tc.kind)
			}
		}
		if text, isErr := call("rename_symbol", fmt.Sprintf(`"path":%q,"line":1,"column":1,"newName":"x"`, tc.path)); !isErr || !strings.Contains(text, tc.kind) {
			t.Errorf("rename_symbol %s: %s, want %s", tc.path, text, tc.kind)
		}
	}
	if text, isErr := call("check_workspace", `"folder":".hidden"`); !isErr {
		t.Errorf("check_workspace of a hidden folder: %s", text)
	}
	if text, isErr := call("check_workspace", fmt.Sprintf(`"folder":%q`, outside)); !isErr || !strings.Contains(text, "outside_workspace") {
		t.Errorf("check_workspace of a folder outside: %s", text)
	}
}

// TestTrustBoundaryResources reads every resource and template, and the
// prompts that read a file, for what they may and may not read.
func TestTrustBoundaryResources(t *testing.T) {
	root, outside := trustTree(t)
	h := start(t, Options{Root: root, Primitives: wflOnly()})
	h.Initialize("2025-11-25")
	id := 0
	read := func(uri string) (string, bool) {
		t.Helper()
		id++
		w := h.Call(id, "resources/read", fmt.Sprintf(`{"uri":%q}`, uri))
		text := string(w.Raw)
		noSecret(t, uri, text)
		return text, w.Error == nil
	}
	for _, uri := range []string{"workspace://files", "workspace://symbols", "workspace://diagnostics", "workspace://config",
		"workspace://file/main.wfl", "workspace://diagnostics/main.wfl", "workspace://symbols/main.wfl"} {
		if text, ok := read(uri); !ok {
			t.Errorf("%s: %s", uri, text)
		}
	}
	if text, _ := read("workspace://files"); strings.Contains(text, "escape.wfl") || strings.Contains(text, "env.wfl") || !strings.Contains(text, "lib.wfl") {
		t.Errorf("workspace://files lists a file it may not read, or misses lib.wfl: %s", text)
	}
	for _, p := range []string{"../outside/secret.wfl", "escape.wfl", "env.wfl", ".env", "notes.txt", ".git/config", ".hidden/lib.wfl",
		filepath.ToSlash(filepath.Join(outside, "secret.wfl"))} {
		for _, prefix := range []string{fileTemplatePrefix, diagnosticsTemplatePrefix, symbolsTemplatePrefix} {
			if text, ok := read(prefix + p); ok {
				t.Errorf("%s%s was read: %s", prefix, p, text)
			}
		}
	}
	for _, p := range []string{filepath.Join(outside, "secret.wfl"), filepath.Join(root, ".env"), filepath.Join(root, "escape.wfl")} {
		if text, ok := read(string(core.FileURI(p))); ok {
			t.Errorf("%s was read: %s", core.FileURI(p), text)
		}
	}
	for _, name := range []string{"fix_wfl_errors", "explain_wfl_program"} {
		for _, p := range []string{"escape.wfl", ".env", "notes.txt", "../outside/secret.wfl"} {
			id++
			w := h.Call(id, "prompts/get", fmt.Sprintf(`{"name":%q,"arguments":{"path":%q}}`, name, p))
			noSecret(t, name+" "+p, string(w.Raw))
			if w.Error == nil {
				t.Errorf("prompt %s read %s: %s", name, p, w.Raw)
			}
		}
		id++
		noSecret(t, name+" main.wfl", string(h.Call(id, "prompts/get", fmt.Sprintf(`{"name":%q,"arguments":{"path":"main.wfl"}}`, name)).Raw))
	}
}

// TestTrustBoundaryIncludeCompletion: get_completions after `include from
// "` lists the WFL files and folders of the workspace it may read, and
// nothing of a folder outside it, by a relative path or an absolute one.
func TestTrustBoundaryIncludeCompletion(t *testing.T) {
	root, outside := trustTree(t)
	h := start(t, Options{Root: root, Primitives: wflOnly()})
	h.Initialize("2025-11-25")
	for i, tc := range []struct {
		typed string
		want  string // the labels, in order
	}{
		{``, "lib.wfl main.wfl"},
		{`../outside/`, ""},
		{filepath.ToSlash(outside) + "/", ""},
		{`../`, ""},
		{`.hidden/`, ""},
	} {
		src := "include from \"" + tc.typed
		os.WriteFile(filepath.Join(root, "probe.wfl"), []byte(src+"\n"), 0o644)
		res := h.Call(i+1, "tools/call", fmt.Sprintf(`{"name":"get_completions","arguments":{"path":"probe.wfl","line":1,"column":%d}}`, len(src)+1)).Tool(t)
		noSecret(t, "get_completions after "+src, res.Content[0].Text+string(res.StructuredContent))
		var got struct {
			Items []struct{ Label, Kind string }
		}
		if err := json.Unmarshal(res.StructuredContent, &got); err != nil {
			t.Fatal(err)
		}
		var labels []string
		for _, it := range got.Items {
			labels = append(labels, it.Label)
		}
		if strings.Join(labels, " ") != tc.want {
			t.Errorf("after %q: %v, want %q", src, labels, tc.want)
		}
	}
}
