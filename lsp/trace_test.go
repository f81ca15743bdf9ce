package lsp

import (
	"encoding/json"
	"log/slog"
	"strings"
	"testing"

	"wfl-lsp/internal/testlog"
)

// traceSession runs a short session with the server logging at level into
// a buffer (what `--log-file PATH --log-level LEVEL` does) and returns the log.
func traceSession(t *testing.T, level slog.Level, text string) string {
	t.Helper()
	var log testlog.Buffer
	c := newClient(t, func(o *Options) {
		o.Logger = slog.New(slog.NewJSONHandler(&log, &slog.HandlerOptions{Level: level}))
	})
	c.initialize(nil)
	const u = "file:///trace/a.wfl"
	c.open(u, text, 1)
	c.diagnostics(u, 1)
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": 0, "character": 7}})
	c.call("no/suchMethod", nil)
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
	return log.String()
}

// TestTraceEveryMessage: at debug level every message in and out is logged
// whole, in wire order for each direction; at info level no message (and so
// no document text) is.
func TestTraceEveryMessage(t *testing.T) {
	const secret = "store sekrit value as \"do not log me\"\n"
	var recv, sent []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(traceSession(t, slog.LevelDebug, secret)), "\n") {
		if !json.Valid([]byte(line)) {
			t.Fatalf("log line %q is not JSON", line)
		}
		// The trace's attribute is named msg like the record's message, so
		// the JSON handler writes the key twice: read the raw line.
		var m map[string]any
		if i := strings.Index(line, `"msg":"<- recv","msg":`); i >= 0 {
			json.Unmarshal([]byte(unquote(t, line[i+len(`"msg":"<- recv","msg":`):])), &m)
			recv = append(recv, m)
		} else if i := strings.Index(line, `"msg":"-> send","msg":`); i >= 0 {
			json.Unmarshal([]byte(unquote(t, line[i+len(`"msg":"-> send","msg":`):])), &m)
			sent = append(sent, m)
		}
	}
	methods := func(ms []map[string]any) (out []string) {
		for _, m := range ms {
			if method, ok := m["method"].(string); ok {
				out = append(out, method)
			} else {
				out = append(out, "response")
			}
		}
		return out
	}
	wantRecv := []string{"initialize", "initialized", "textDocument/didOpen", "textDocument/hover", "no/suchMethod", "shutdown", "exit"}
	if got := methods(recv); strings.Join(got, " ") != strings.Join(wantRecv, " ") {
		t.Errorf("traced incoming %v, want %v", got, wantRecv)
	}
	// Out: four responses and the diagnostics, whose order against the
	// responses is free.
	got := methods(sent)
	if n := strings.Count(strings.Join(got, " "), "response"); n != 4 || !strings.Contains(strings.Join(got, " "), "textDocument/publishDiagnostics") {
		t.Errorf("traced outgoing %v, want 4 responses and publishDiagnostics", got)
	}
	opened := false
	for _, m := range recv {
		if m["method"] == "textDocument/didOpen" {
			b, _ := json.Marshal(m)
			opened = strings.Contains(string(b), "do not log me")
		}
	}
	if !opened {
		t.Errorf("the didOpen trace does not hold the whole message")
	}

	if info := traceSession(t, slog.LevelInfo, secret); strings.Contains(info, "sekrit") || strings.Contains(info, "<- recv") {
		t.Errorf("info-level log traces messages:\n%s", info)
	}
}

// unquote reads the JSON string at the start of s.
func unquote(t *testing.T, s string) string {
	t.Helper()
	var v string
	if err := json.NewDecoder(strings.NewReader(s)).Decode(&v); err != nil {
		t.Fatalf("unquote %q: %v", s, err)
	}
	return v
}
