package mcpserver

import (
	"strings"
	"testing"
)

// TestWFLIdentity: the server main runs says it is wfl-lsp, tells the
// model how to use WFL's tools, and names itself in its log messages; the
// protocol package names none of this itself.
func TestWFLIdentity(t *testing.T) {
	h := start(t, Options{Primitives: wflOnly()})
	m := h.Initialize("2025-11-25").ResultMap(t)
	info := m["serverInfo"].(map[string]any)
	if info["name"] != "wfl-lsp" || info["title"] != "WFL language server" || info["websiteUrl"] != "https://github.com/WebFirstLanguage/wfl" || info["description"] == nil {
		t.Errorf("serverInfo = %v", info)
	}
	if ins, _ := m["instructions"].(string); !strings.Contains(ins, "analyze_wfl") {
		t.Errorf("instructions = %q", ins)
	}
	h.Call(1, "logging/setLevel", `{"level":"info"}`)
	h.Send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"check_workspace","arguments":{}}}`)
	if w := h.AwaitMethod("notifications/message"); !strings.Contains(string(w.Params), `"logger":"wfl-lsp"`) {
		t.Errorf("log message %s, want the logger wfl-lsp", w.Raw)
	}
	h.Await("2")
}

// TestAllowedFromEnvironment: the origins and hosts the HTTP checks allow
// beyond loopback come from wfl-lsp's environment unless given.
func TestAllowedFromEnvironment(t *testing.T) {
	t.Setenv("WFL_MCP_ALLOWED_ORIGINS", "https://app.example.com")
	t.Setenv("WFL_MCP_ALLOWED_HOSTS", "mcp.example.com")
	o := wflOptions(Options{})
	if o.AllowedOrigins != "https://app.example.com" || o.AllowedHosts != "mcp.example.com" {
		t.Errorf("from the environment: origins %q, hosts %q", o.AllowedOrigins, o.AllowedHosts)
	}
	if o := wflOptions(Options{AllowedHosts: "other.example.com"}); o.AllowedHosts != "other.example.com" {
		t.Errorf("given hosts replaced by the environment's: %q", o.AllowedHosts)
	}
}
