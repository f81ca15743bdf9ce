package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/uri"
)

// configProgram has a 47-byte line: LINT-LENGTH only under a limit below it.
const configProgram = "check if 1 is 1:\ndisplay \"a line of forty-seven bytes, or so!\"\nend check\n"

func hasCode(p *publishParams, code string) bool {
	for _, d := range p.Diagnostics {
		if d.Code == code {
			return true
		}
	}
	return false
}

// formatIndent formats the document and returns the new text of its
// second line's indentation (the formatter re-indents the block body).
func formatIndent(t *testing.T, c *client, u string) string {
	t.Helper()
	r := c.call("textDocument/formatting", map[string]any{
		"textDocument": map[string]any{"uri": u}, "options": map[string]any{"tabSize": 4, "insertSpaces": true}})
	if r.Error != nil {
		t.Fatalf("formatting: %+v", r.Error)
	}
	var edits []struct {
		Range   wireRange `json:"range"`
		NewText string    `json:"newText"`
	}
	if err := json.Unmarshal(r.Result, &edits); err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		for _, line := range strings.Split(e.NewText, "\n") {
			if strings.HasSuffix(strings.TrimLeft(line, " "), `or so!"`) {
				return line[:len(line)-len(strings.TrimLeft(line, " "))]
			}
		}
	}
	t.Fatalf("formatting %s: no edit re-indents the display line: %s", u, r.Result)
	return ""
}

func configWorkspace(t *testing.T, wflcfg string) (dir, docURI string) {
	t.Helper()
	dir = t.TempDir()
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "no-global"))
	if wflcfg != "" {
		if err := os.WriteFile(filepath.Join(dir, ".wflcfg"), []byte(wflcfg), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, string(uri.File(filepath.Join(dir, "a.wfl")))
}

// TestConfigurationPull: a client that answers workspace/configuration is
// asked after initialized (once per folder, section "wfl") and again on
// didChangeConfiguration; the answer changes the published lint
// diagnostics and the formatting, above the folder's .wflcfg.
func TestConfigurationPull(t *testing.T) {
	dir, u := configWorkspace(t, "indent_size = 3\n")
	c := newClient(t)
	c.initializeWith(map[string]any{"rootUri": string(uri.File(dir)), "capabilities": map[string]any{
		"workspace": map[string]any{"configuration": true, "didChangeConfiguration": map[string]any{"dynamicRegistration": true}}}})
	reg := c.await("registration", func(m *msg) bool { return m.Method == "client/registerCapability" })
	if !strings.Contains(string(reg.Params), `"workspace/didChangeConfiguration"`) || !strings.Contains(string(reg.Params), `"section":"wfl"`) {
		t.Errorf("registration %s", reg.Params)
	}
	c.sendBody(`{"jsonrpc":"2.0","id":` + string(reg.ID) + `,"result":null}`)
	req := c.await("workspace/configuration", func(m *msg) bool { return m.Method == "workspace/configuration" })
	var items struct {
		Items []struct {
			ScopeURI string `json:"scopeUri"`
			Section  string `json:"section"`
		} `json:"items"`
	}
	if err := json.Unmarshal(req.Params, &items); err != nil || len(items.Items) != 1 ||
		items.Items[0].Section != "wfl" || items.Items[0].ScopeURI != string(uri.File(dir)) {
		t.Fatalf("configuration params %s (%v)", req.Params, err)
	}

	// The document is analysed under the files alone until the answer comes.
	c.open(u, configProgram, 1)
	if p := c.diagnostics(u, 1); hasCode(p, "LINT-LENGTH") {
		t.Fatalf("LINT-LENGTH under the default limit: %s", p.raw)
	}
	if got := formatIndent(t, c, u); got != "   " {
		t.Errorf("indent before settings %q, want the .wflcfg's 3 spaces", got)
	}

	// The extension's format.indentSize ranks below the .wflcfg; our own key above it.
	c.sendBody(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":[{"serverPath":"wfl-lsp","maxLineLength":40,"format":{"indentSize":2}}]}`)
	if p := c.diagnostics(u, 1); !hasCode(p, "LINT-LENGTH") {
		t.Fatalf("no LINT-LENGTH after max_line_length 40: %s", p.raw)
	}
	if got := formatIndent(t, c, u); got != "   " {
		t.Errorf("indent %q: the extension's format.indentSize must not override the .wflcfg", got)
	}

	// didChangeConfiguration is only a signal: the server asks again.
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"wfl": map[string]any{"max_line_length": 20}}})
	req = c.await("workspace/configuration again", func(m *msg) bool { return m.Method == "workspace/configuration" })
	c.sendBody(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":[{"indent_size":2}]}`)
	if p := c.diagnostics(u, 1); hasCode(p, "LINT-LENGTH") {
		t.Fatalf("LINT-LENGTH after the limit was dropped (the payload must be ignored): %s", p.raw)
	}
	if got := formatIndent(t, c, u); got != "  " {
		t.Errorf("indent %q, want the client's 2 spaces", got)
	}
	// An edit keeps the settings.
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": 2},
		"contentChanges": []any{map[string]any{"text": configProgram + "display 2\n"}}})
	c.diagnostics(u, 2)
	if got := formatIndent(t, c, u); got != "  " {
		t.Errorf("indent after an edit %q, want 2 spaces", got)
	}
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
}

// TestConfigurationPush: a client without workspace/configuration sends its
// settings in didChangeConfiguration; bad values are reported and ignored.
func TestConfigurationPush(t *testing.T) {
	dir, u := configWorkspace(t, "")
	c := newClient(t)
	c.initializeWith(map[string]any{"rootUri": string(uri.File(dir)), "capabilities": map[string]any{}})
	c.open(u, configProgram, 1)
	if p := c.diagnostics(u, 1); hasCode(p, "LINT-LENGTH") {
		t.Fatalf("LINT-LENGTH under the default limit: %s", p.raw)
	}
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{
		"wfl": map[string]any{"max_line_length": 40, "indent_size": 2, "max_nesting_depth": "deep"}}})
	warn := c.await("warning", func(m *msg) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "max_nesting_depth")
	})
	if !strings.Contains(string(warn.Params), "expected a whole number") {
		t.Errorf("warning %s", warn.Params)
	}
	if p := c.diagnostics(u, 1); !hasCode(p, "LINT-LENGTH") {
		t.Fatalf("no LINT-LENGTH after max_line_length 40: %s", p.raw)
	}
	if got := formatIndent(t, c, u); got != "  " {
		t.Errorf("indent %q, want 2 spaces", got)
	}
	// The same settings again change nothing and publish nothing; the
	// section given bare (without the "wfl" key) is read too.
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"max_line_length": 40, "indent_size": 2}})
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": nil})
	if p := c.diagnostics(u, 1); hasCode(p, "LINT-LENGTH") {
		t.Fatalf("LINT-LENGTH after the settings were cleared: %s", p.raw)
	}
	if got := formatIndent(t, c, u); got != "    " {
		t.Errorf("indent %q, want the default 4 spaces", got)
	}
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
}

// TestConfigurationInitOptions: settings given as initializationOptions
// (Helix's config) apply from the start.
func TestConfigurationInitOptions(t *testing.T) {
	dir, u := configWorkspace(t, "")
	c := newClient(t)
	c.initializeWith(map[string]any{"rootUri": string(uri.File(dir)), "capabilities": map[string]any{},
		"initializationOptions": map[string]any{"wfl": map[string]any{"maxLineLength": 40}}})
	c.open(u, configProgram, 1)
	if p := c.diagnostics(u, 1); !hasCode(p, "LINT-LENGTH") {
		t.Fatalf("no LINT-LENGTH under initializationOptions maxLineLength 40: %s", p.raw)
	}
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
}

// TestConfigurationPullDiagnosticsRefresh: a client that pulls diagnostics
// is asked to refresh them after a settings change, and the pulled report
// follows the new settings.
func TestConfigurationPullDiagnosticsRefresh(t *testing.T) {
	dir, u := configWorkspace(t, "")
	c, _ := pullingClient(t, dir)
	c.open(u, configProgram, 1)
	pull := func() string { return c.pull(t, u) }
	if got := pull(); strings.Contains(got, "LINT-LENGTH") {
		t.Fatalf("LINT-LENGTH under the default limit: %s", got)
	}
	c.notify("workspace/didChangeConfiguration", map[string]any{"settings": map[string]any{"wfl": map[string]any{"max_line_length": 40}}})
	ref := c.await("workspace/diagnostic/refresh", func(m *msg) bool { return m.Method == "workspace/diagnostic/refresh" })
	c.sendBody(`{"jsonrpc":"2.0","id":` + string(ref.ID) + `,"result":null}`)
	if got := pull(); !strings.Contains(got, "LINT-LENGTH") {
		t.Fatalf("no LINT-LENGTH after max_line_length 40: %s", got)
	}
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
}

// TestWatchedConfigFile: the server keeps what it read of the .wflcfg
// files for a second (core.CacheConfig), and forgets it when the editor
// reports a change of one (workspace/didChangeWatchedFiles, whose watcher
// it registers): the next edit is checked under the new file.
func TestWatchedConfigFile(t *testing.T) {
	dir, u := configWorkspace(t, "max_line_length = 100\n")
	c := newClient(t)
	c.initializeWith(map[string]any{"rootUri": string(uri.File(dir)), "capabilities": map[string]any{
		"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}})
	reg := c.await("registration", func(m *msg) bool { return m.Method == "client/registerCapability" })
	if !strings.Contains(string(reg.Params), `"globPattern":"**/.wflcfg"`) {
		t.Errorf("the watchers registered do not name .wflcfg: %s", reg.Params)
	}
	c.sendBody(`{"jsonrpc":"2.0","id":` + string(reg.ID) + `,"result":null}`)
	c.open(u, configProgram, 1)
	if p := c.diagnostics(u, 1); hasCode(p, "LINT-LENGTH") {
		t.Fatalf("LINT-LENGTH under max_line_length 100: %s", p.raw)
	}
	cfg := filepath.Join(dir, ".wflcfg")
	if err := os.WriteFile(cfg, []byte("max_line_length = 20\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
		map[string]any{"uri": string(uri.File(cfg)), "type": 2}}})
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": 2},
		"contentChanges": []any{map[string]any{"text": configProgram + "display 2\n"}}})
	if p := c.diagnostics(u, 2); !hasCode(p, "LINT-LENGTH") {
		t.Fatalf("no LINT-LENGTH after the .wflcfg changed to max_line_length 20: %s", p.raw)
	}
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
}

// TestConfigurationAnswerCancelsNothing: in 20 sessions in a row, a client
// that answers workspace/configuration (as VS Code, Neovim and Emacs do)
// opens a document and at once asks for completion, hover, symbols,
// semantic tokens, folding, code lens and inlay hints, answering the
// configuration request in the middle of them: half the sessions with an
// empty section, half with settings that change the lint findings (the
// documents are analysed again). Every request is answered: the text never
// changed, so none is refused with ContentModified.
func TestConfigurationAnswerCancelsNothing(t *testing.T) {
	dir, u := configWorkspace(t, "")
	const program = "define action called tally with parameters scores:\n    store total as 0\n    for each score in scores:\n        change total to total + score\n    end for\n    return total\nend action\n\nstore result as tally with [1, 2, 3]\ndisplay \"the result of the tally is, in a line long enough to be linted: \" with result\n"
	pos := func(line, char int) map[string]any { return map[string]any{"line": line, "character": char} }
	doc := map[string]any{"uri": u}
	requests := []struct {
		method string
		params map[string]any
	}{
		{"textDocument/completion", map[string]any{"textDocument": doc, "position": pos(9, 2)}},
		{"textDocument/hover", map[string]any{"textDocument": doc, "position": pos(8, 8)}},
		{"textDocument/documentSymbol", map[string]any{"textDocument": doc}},
		{"textDocument/semanticTokens/full", map[string]any{"textDocument": doc}},
		{"textDocument/foldingRange", map[string]any{"textDocument": doc}},
		{"textDocument/codeLens", map[string]any{"textDocument": doc}},
		{"textDocument/inlayHint", map[string]any{"textDocument": doc, "range": map[string]any{"start": pos(0, 0), "end": pos(10, 0)}}},
	}
	for session := range 20 {
		c := newClient(t)
		c.initializeWith(map[string]any{"rootUri": string(uri.File(dir)), "capabilities": map[string]any{
			"workspace": map[string]any{"configuration": true}}})
		c.open(u, program, 1)
		ids := make([]int, len(requests))
		for i, q := range requests {
			ids[i] = c.start(q.method, q.params)
			if i == 2 {
				req := c.await("workspace/configuration", func(m *msg) bool { return m.Method == "workspace/configuration" })
				answer := `[{}]`
				if session%2 == 1 {
					answer = `[{"maxLineLength":40}]`
				}
				c.sendBody(`{"jsonrpc":"2.0","id":` + string(req.ID) + `,"result":` + answer + `}`)
			}
		}
		for i, id := range ids {
			if m := c.response(id); m.Error != nil {
				t.Errorf("session %d: %s: %+v", session+1, requests[i].method, m.Error)
			} else if requests[i].method != "textDocument/codeLens" && string(m.Result) == "null" {
				t.Errorf("session %d: %s answered null", session+1, requests[i].method)
			}
		}
		if err := c.finish(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestPullDiagnosticsAcrossIncludes: a client that pulls diagnostics is
// told that a document's depend on other files (interFileDependencies) and,
// when an edit of an included file changes the names it gives, asked to
// pull again (workspace/diagnostic/refresh): the including document's
// pull then names the action the edit renamed. Before, it kept showing the
// old list until the including document itself was edited.
func TestPullDiagnosticsAcrossIncludes(t *testing.T) {
	dir, _ := configWorkspace(t, "")
	mainURI := string(uri.File(filepath.Join(dir, "main.wfl")))
	libURI := string(uri.File(filepath.Join(dir, "lib.wfl")))
	lib := "define action called greet:\n    display \"hi\"\nend action\n"
	if err := os.WriteFile(filepath.Join(dir, "lib.wfl"), []byte(lib), 0o644); err != nil {
		t.Fatal(err)
	}
	c, init := pullingClient(t, dir)
	if !strings.Contains(string(init.Result), `"interFileDependencies":true`) {
		t.Errorf("the diagnostic provider does not say a document's depend on others: %s", init.Result)
	}
	c.open(mainURI, "include from \"lib.wfl\"\ncall greet\n", 1)
	c.open(libURI, lib, 1)
	pull := func() string { return c.pull(t, mainURI) }
	if got := pull(); strings.Contains(got, "greet") {
		t.Fatalf("main.wfl's diagnostics name greet before the edit: %s", got)
	}
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": libURI, "version": 2},
		"contentChanges": []any{map[string]any{"text": strings.Replace(lib, "greet", "welcome", 1)}}})
	ref := c.await("workspace/diagnostic/refresh", func(m *msg) bool { return m.Method == "workspace/diagnostic/refresh" })
	c.sendBody(`{"jsonrpc":"2.0","id":` + string(ref.ID) + `,"result":null}`)
	if got := pull(); !strings.Contains(got, "greet") {
		t.Fatalf("main.wfl's diagnostics do not name greet after lib.wfl renamed it: %s", got)
	}
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
}

// pullingClient is a client of the workspace dir that pulls diagnostics
// and takes workspace/diagnostic/refresh, initialized; and the answer to
// its initialize.
func pullingClient(t *testing.T, dir string) (*client, *msg) {
	t.Helper()
	c := newClient(t)
	init := c.initializeWith(map[string]any{"rootUri": string(uri.File(dir)), "capabilities": map[string]any{
		"textDocument": map[string]any{"diagnostic": map[string]any{}},
		"workspace":    map[string]any{"diagnostics": map[string]any{"refreshSupport": true}}}})
	return c, init
}

// pull returns the result of a textDocument/diagnostic request for u.
func (c *client) pull(t *testing.T, u string) string {
	t.Helper()
	m := c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": u}})
	if m.Error != nil {
		t.Fatalf("pull: %+v", m.Error)
	}
	return string(m.Result)
}
