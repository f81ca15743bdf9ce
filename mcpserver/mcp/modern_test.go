package mcp

// This file tests the stateless 2026-07-28 revision on the same server.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestModernEra(t *testing.T) {
	h := start(t, Options{Info: Info{Name: "fixture"}})
	meta := modernMeta("")

	d := h.Call(1, "server/discover", "{"+meta+"}").ResultMap(t)
	if d["resultType"] != "complete" || d["cacheScope"] != "public" || d["ttlMs"] == nil {
		t.Errorf("discover: %v", d)
	}
	if v := d["supportedVersions"].([]any); v[0] != "2026-07-28" || len(v) != 5 {
		t.Errorf("supportedVersions %v", v)
	}
	if info := d["_meta"].(map[string]any)["io.modelcontextprotocol/serverInfo"].(map[string]any); info["name"] != "fixture" {
		t.Errorf("serverInfo %v", info)
	}

	for _, list := range []string{"tools/list", "prompts/list", "resources/list", "resources/templates/list"} {
		m := h.Call(2, list, "{"+meta+"}").ResultMap(t)
		if m["resultType"] != "complete" || m["ttlMs"] == nil || m["cacheScope"] == nil || m["_meta"] == nil {
			t.Errorf("%s: %v", list, m)
		}
	}
	read := h.Call(3, "resources/read", `{"uri":"test://listing",`+meta+`}`).ResultMap(t)
	if read["cacheScope"] != "private" || read["resultType"] != "complete" {
		t.Errorf("read: %v", read)
	}
	call := h.Call(4, "tools/call", `{"name":"echo","arguments":{"text":"hi"},`+meta+`}`).ResultMap(t)
	if call["resultType"] != "complete" || call["_meta"] == nil {
		t.Errorf("call: %v", call)
	}

	tests := []struct {
		name, method, params string
		code                 int
	}{
		{"unsupported version", "tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2030-01-01","io.modelcontextprotocol/clientCapabilities":{}}}`, -32022},
		{"version not a string", "tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":1}}`, -32602},
		{"no capabilities", "tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, -32602},
		{"bad log level", "tools/list", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"loud"}}`, -32602},
		{"ping is gone", "ping", "{" + meta + "}", -32601},
		{"setLevel is gone", "logging/setLevel", `{"level":"info",` + meta + "}", -32601},
		{"subscribe is gone", "resources/subscribe", `{"uri":"test://listing",` + meta + "}", -32601},
		{"initialize is legacy", "initialize", `{"protocolVersion":"2026-07-28",` + meta + "}", -32601},
		{"not found is -32602", "resources/read", `{"uri":"test://nope",` + meta + "}", -32602},
		{"discover needs _meta", "server/discover", `{}`, -32602},
		{"listen needs _meta", "subscriptions/listen", `{"notifications":{}}`, -32602},
		{"unknown tool", "tools/call", `{"name":"nope",` + meta + "}", -32602},
		{"bad cursor", "tools/list", `{"cursor":"zzz",` + meta + "}", -32602},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.T = t
			w := h.Call(100+i, tt.method, tt.params)
			if w.ErrCode() != tt.code {
				t.Errorf("got %s, want %d", w.Raw, tt.code)
			}
			if tt.code == -32022 {
				var data struct {
					Supported []string `json:"supported"`
					Requested string   `json:"requested"`
				}
				json.Unmarshal(w.Error.Data, &data)
				if data.Requested != "2030-01-01" || len(data.Supported) == 0 {
					t.Errorf("data %s", w.Error.Data)
				}
			}
		})
	}
	h.T = t
	// Logs flow only for a request that asked for them.
	h.Call(200, "tools/call", `{"name":"work","arguments":{},`+meta+`}`)
	h.Send(`{"jsonrpc":"2.0","id":201,"method":"tools/call","params":{"name":"work","arguments":{},` +
		modernMeta(`"io.modelcontextprotocol/logLevel":"debug","progressToken":9`) + `}}`)
	var sawLog, sawProgress bool
	for {
		w := h.Next()
		if w.Method == "notifications/message" {
			sawLog = true
			continue
		}
		if w.Method == "notifications/progress" {
			sawProgress = true
			continue
		}
		if string(w.ID) != "201" {
			t.Fatalf("unexpected %s", w.Raw)
		}
		break
	}
	if !sawLog || !sawProgress {
		t.Errorf("log %v, progress %v", sawLog, sawProgress)
	}
	if rest := h.Finish(); len(rest) != 0 {
		t.Errorf("unexpected %s", rest[0].Raw)
	}
}

func TestSubscriptionsListen(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "hello.txt"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	h := start(t, Options{Root: root, PollInterval: 2e6})
	h.Send(`{"jsonrpc":"2.0","id":"sub","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true,` +
		`"resourceSubscriptions":["test://file/hello.txt","test://nope"]},` + modernMeta("") + `}}`)
	ack := h.AwaitMethod("notifications/subscriptions/acknowledged")
	var p struct {
		Meta          map[string]any `json:"_meta"`
		Notifications map[string]any `json:"notifications"`
	}
	json.Unmarshal(ack.Params, &p)
	// The lists never change (listChanged false): not acknowledged.
	if _, listChanged := p.Notifications["toolsListChanged"]; p.Meta["io.modelcontextprotocol/subscriptionId"] != "sub" || listChanged {
		t.Errorf("ack %s", ack.Raw)
	}
	if subs := p.Notifications["resourceSubscriptions"].([]any); len(subs) != 1 || subs[0] != "test://file/hello.txt" {
		t.Errorf("honoured %v", subs)
	}
	os.WriteFile(filepath.Join(h.Root, "hello.txt"), []byte("changed"), 0o644)
	up := h.AwaitMethod("notifications/resources/updated")
	if !strings.Contains(string(up.Params), `"uri":"test://file/hello.txt"`) || !strings.Contains(string(up.Params), `"io.modelcontextprotocol/subscriptionId":"sub"`) {
		t.Errorf("update %s", up.Raw)
	}
	// Cancelling the listen ends it without an answer; a second listen
	// ends with a result when the input ends.
	h.Send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"sub"}}`)
	h.Send(`{"jsonrpc":"2.0","id":"sub2","method":"subscriptions/listen","params":{"notifications":{}},` + modernMeta("") + `}`)
	h.Send(`{"jsonrpc":"2.0","id":"sub2b","method":"subscriptions/listen","params":{"notifications":{},` + modernMeta("") + `}}`)
	h.AwaitMethod("notifications/subscriptions/acknowledged")
	var ended bool
	for _, w := range h.Finish() {
		switch {
		case string(w.ID) == `"sub"`:
			t.Errorf("cancelled listen answered: %s", w.Raw)
		case string(w.ID) == `"sub2b"`:
			var r struct {
				ResultType string         `json:"resultType"`
				Meta       map[string]any `json:"_meta"`
			}
			json.Unmarshal(w.Result, &r)
			ended = w.Error == nil && r.ResultType == "complete" && r.Meta["io.modelcontextprotocol/subscriptionId"] == "sub2b"
		}
	}
	if !ended {
		t.Error("the open listen did not end with a result that names its subscription at end of input")
	}
}

func TestResourcesSubscribe(t *testing.T) {
	h := start(t, Options{PollInterval: 2e6})
	h.Initialize("2025-11-25")
	if w := h.Call(1, "resources/subscribe", `{"uri":"test://nope"}`); w.ErrCode() != -32002 {
		t.Errorf("got %s", w.Raw)
	}
	if w := h.Call(2, "resources/subscribe", `{}`); w.ErrCode() != -32602 {
		t.Errorf("got %s", w.Raw)
	}
	h.Call(3, "resources/subscribe", `{"uri":"test://listing"}`)
	os.WriteFile(filepath.Join(h.Root, "new.txt"), []byte("new"), 0o644)
	up := h.AwaitMethod("notifications/resources/updated")
	if string(up.Params) != `{"uri":"test://listing"}` {
		t.Errorf("update %s", up.Raw)
	}
	h.Call(4, "resources/unsubscribe", `{"uri":"test://listing"}`)
	h.Finish()
}
