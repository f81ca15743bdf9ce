package mcp

// This file tests the Streamable HTTP transport through real HTTP: the
// front door's checks, sessions, both eras, SSE answers and shutdown.
// Nothing sleeps: every wait is for a response, bounded by the guard.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"wfl-lsp/internal/testlog"
)

// httpTest is a server under test and a raw client for it.
type httpTest struct {
	t   *testing.T
	ts  *httptest.Server
	h   *httpHandler
	url string
}

// listening builds a server of opts and a listener on a loopback port for
// it to serve.
func listening(t *testing.T, opts Options) (*Server, net.Listener) {
	t.Helper()
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return s, ln
}

func startHTTP(t *testing.T, opts Options, cfg httpConfig) *httpTest {
	t.Helper()
	s := testServer(t, opts)
	cfg.checkHost = true
	h := newHTTPHandler(context.Background(), s, cfg)
	ts := httptest.NewServer(h)
	t.Cleanup(func() { ts.Close(); h.close(time.Second) })
	return &httpTest{t: t, ts: ts, h: h, url: ts.URL + httpPath}
}

// reply is one HTTP answer: its status, headers and the JSON-RPC messages
// of its body (one for JSON, each event's data for SSE).
type reply struct {
	status int
	header http.Header
	msgs   []*wire
	body   []byte
}

func (r *reply) last(t *testing.T) *wire {
	t.Helper()
	if len(r.msgs) == 0 {
		t.Fatalf("status %d, no message in the body %q", r.status, r.body)
	}
	return r.msgs[len(r.msgs)-1]
}

// do sends a request with the given headers ("Name: value" strings).
func (ht *httpTest) do(method, body string, headers ...string) *reply {
	ht.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, ht.url, strings.NewReader(body))
	if err != nil {
		ht.t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	given := map[string]bool{} // a header given twice is sent twice
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ":")
		if strings.EqualFold(k, "Host") {
			req.Host = strings.TrimSpace(v)
			continue
		}
		if k = http.CanonicalHeaderKey(k); given[k] {
			req.Header.Add(k, strings.TrimSpace(v))
		} else {
			req.Header.Set(k, strings.TrimSpace(v))
		}
		given[k] = true
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ht.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		ht.t.Fatal(err)
	}
	r := &reply{status: resp.StatusCode, header: resp.Header, body: b}
	switch ct := resp.Header.Get("Content-Type"); {
	case strings.HasPrefix(ct, "text/event-stream"):
		for _, ev := range strings.Split(string(b), "\n\n") {
			for _, line := range strings.Split(ev, "\n") {
				if data, ok := strings.CutPrefix(line, "data: "); ok {
					r.msgs = append(r.msgs, parseWire(ht.t, []byte(data)))
				}
			}
		}
	case strings.HasPrefix(ct, "application/json") && len(bytes.TrimSpace(b)) > 0 && b[0] == '{':
		r.msgs = append(r.msgs, parseWire(ht.t, bytes.TrimSpace(b)))
	}
	return r
}

func (ht *httpTest) post(body string, headers ...string) *reply {
	ht.t.Helper()
	return ht.do(http.MethodPost, body, headers...)
}

// stream opens the GET stream of session sid; the caller closes its body.
func (ht *httpTest) stream(ctx context.Context, sid string) *http.Response {
	ht.t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ht.url, nil)
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("Accept", "text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		ht.t.Fatal(err)
	}
	return resp
}

// initialize opens a session of revision version and returns its id.
func (ht *httpTest) initialize(version string, headers ...string) string {
	ht.t.Helper()
	r := ht.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`, version), headers...)
	if r.status != 200 || r.last(ht.t).Result == nil {
		ht.t.Fatalf("initialize: %d %s", r.status, r.body)
	}
	sid := r.header.Get("Mcp-Session-Id")
	if sid == "" {
		ht.t.Fatal("initialize: no Mcp-Session-Id")
	}
	n := ht.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, append(headers, "Mcp-Session-Id: "+sid, "MCP-Protocol-Version: "+version)...)
	if n.status != http.StatusAccepted || len(n.body) != 0 {
		ht.t.Fatalf("notifications/initialized: %d %q, want 202 and no body", n.status, n.body)
	}
	return sid
}

// modernHeaders are the headers of a conformant 2026-07-28 request.
func modernHeaders(method, name string) []string {
	h := []string{"MCP-Protocol-Version: " + modernVersion, "Mcp-Method: " + method}
	if name != "" {
		h = append(h, "Mcp-Name: "+name)
	}
	return h
}

func TestHTTPAuthentication(t *testing.T) {
	const token = "s3cret-token-value"
	var logs testlog.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	ht := startHTTP(t, Options{Token: token, Logger: logger, Info: Info{Name: "fixture"}}, httpConfig{token: token})
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	tests := []struct {
		name    string
		headers []string
		status  int
		wwwAuth string
	}{
		{"no token", nil, 401, `Bearer realm="fixture"`},
		{"wrong token", []string{"Authorization: Bearer wrong"}, 401, `Bearer realm="fixture", error="invalid_token"`},
		{"token as prefix", []string{"Authorization: Bearer " + token + "x"}, 401, `Bearer realm="fixture", error="invalid_token"`},
		{"other scheme", []string{"Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte("u:"+token))}, 401, `Bearer realm="fixture", error="invalid_token"`},
		{"right token", []string{"Authorization: Bearer " + token}, 200, ""},
		{"scheme in lower case", []string{"Authorization: bearer " + token}, 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ht.post(init, tt.headers...)
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			if got := r.header.Get("WWW-Authenticate"); got != tt.wwwAuth {
				t.Errorf("WWW-Authenticate %q, want %q", got, tt.wwwAuth)
			}
			if tt.status == 401 && bytes.Contains(r.body, []byte(token)) {
				t.Errorf("the 401 body shows the token: %s", r.body)
			}
		})
	}
	// GET and DELETE are guarded too.
	for _, m := range []string{http.MethodGet, http.MethodDelete} {
		if r := ht.do(m, "", "Mcp-Session-Id: x"); r.status != 401 {
			t.Errorf("%s without a token: %d, want 401", m, r.status)
		}
	}
	if strings.Contains(logs.String(), token) {
		t.Errorf("the token appears in the logs:\n%s", logs.String())
	}
}

func TestHTTPOriginAndHost(t *testing.T) {
	ht := startHTTP(t, Options{}, httpConfig{
		allowedOrigins: map[string]bool{"https://app.example.com": true},
		allowedHosts:   map[string]bool{"mcp.example.com": true},
	})
	ping := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + modernMeta("") + `}}`
	tests := []struct {
		name    string
		headers []string
		status  int
	}{
		{"no origin", nil, 200},
		{"foreign origin", []string{"Origin: http://evil.example.com"}, 403},
		{"foreign origin on a loopback port", []string{"Origin: http://evil.example.com:" + ht.ts.URL[strings.LastIndex(ht.ts.URL, ":")+1:]}, 403},
		{"null origin", []string{"Origin: null"}, 403},
		{"loopback origin", []string{"Origin: http://localhost:5173"}, 200},
		{"loopback IP origin", []string{"Origin: http://127.0.0.1:8080"}, 200},
		{"IPv6 loopback origin", []string{"Origin: http://[::1]:8080"}, 200},
		{"allowed origin", []string{"Origin: https://app.example.com"}, 200},
		{"allowed origin, other scheme", []string{"Origin: http://app.example.com"}, 403},
		{"foreign host (DNS rebinding)", []string{"Host: evil.example.com"}, 403},
		{"foreign host with port", []string{"Host: evil.example.com:80"}, 403},
		{"localhost host", []string{"Host: localhost:1234"}, 200},
		{"allowed host", []string{"Host: mcp.example.com"}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ht.post(ping, append(modernHeaders("tools/list", ""), tt.headers...)...)
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			if tt.status == 403 && r.last(t).ErrCode() != codeInvalidRequest {
				t.Errorf("403 body %s", r.body)
			}
		})
	}
	r := ht.post(ping, append(modernHeaders("tools/list", ""), "Origin: https://app.example.com")...)
	if got := r.header.Get("Access-Control-Allow-Origin"); got != "https://app.example.com" {
		t.Errorf("Access-Control-Allow-Origin %q", got)
	}
	pre := ht.do(http.MethodOptions, "", "Origin: http://localhost:5173", "Access-Control-Request-Method: POST")
	if pre.status != http.StatusNoContent || !strings.Contains(pre.header.Get("Access-Control-Allow-Headers"), "Mcp-Session-Id") {
		t.Errorf("preflight: %d %v", pre.status, pre.header)
	}
	if pre := ht.do(http.MethodOptions, "", "Origin: http://evil.example.com"); pre.status != 403 {
		t.Errorf("preflight from a foreign origin: %d, want 403", pre.status)
	}
}

func TestHTTPLimitsAndBadRequests(t *testing.T) {
	ht := startHTTP(t, Options{}, httpConfig{maxBody: 1024})
	big := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + strings.Repeat("x", 2000) + `"},` + modernMeta("") + `}}`
	tests := []struct {
		name, method, body string
		headers            []string
		status, code       int
	}{
		{"body over the limit", "POST", big, modernHeaders("tools/call", "echo"), 413, codeInvalidRequest},
		{"not JSON", "POST", `{"jsonrpc":`, nil, 400, codeParseError},
		{"not a request", "POST", `{"jsonrpc":"1.0","id":1,"method":"x"}`, nil, 400, codeInvalidRequest},
		{"no session", "POST", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil, 400, codeInvalidRequest},
		{"batch without a session", "POST", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, nil, 400, codeInvalidRequest},
		{"wrong content type", "POST", `{}`, []string{"Content-Type: text/plain"}, 415, codeInvalidRequest},
		{"accepts neither type", "POST", `{}`, []string{"Accept: text/html"}, 406, codeInvalidRequest},
		{"unknown session", "POST", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, []string{"Mcp-Session-Id: nope"}, 404, codeInvalidRequest},
		{"other path", "PUT", ``, nil, 405, codeInvalidRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ht.do(tt.method, tt.body, tt.headers...)
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			if got := r.last(t).ErrCode(); got != tt.code {
				t.Errorf("code %d, want %d: %s", got, tt.code, r.body)
			}
		})
	}
	// A body just under the limit is served.
	small := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"` + strings.Repeat("x", 500) + `"},` + modernMeta("") + `}}`
	if r := ht.post(small, modernHeaders("tools/call", "echo")...); r.status != 200 || r.last(t).Tool(t).Content[0].Text != strings.Repeat("x", 500) {
		t.Errorf("small body: %d %s", r.status, r.body)
	}
	resp, err := http.Get(ht.ts.URL + "/other")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("GET /other: %d, want 404", resp.StatusCode)
	}
}

func TestHTTPSessionLifecycle(t *testing.T) {
	ht := startHTTP(t, Options{}, httpConfig{})
	sid := ht.initialize("2025-11-25")
	hdr := []string{"Mcp-Session-Id: " + sid, "MCP-Protocol-Version: 2025-11-25"}

	r := ht.post(`{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`, hdr...)
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("tools/call: %d %v %s", r.status, r.header, r.body)
	}
	if w := r.last(t); string(w.ID) != `"a"` || w.Tool(t).Content[0].Text != "hi" {
		t.Errorf("tools/call answer %s", w.Raw)
	}
	// The session remembers the handshake: a second initialize is refused.
	if w := ht.post(`{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`, hdr...).last(t); w.ErrCode() != codeInvalidRequest {
		t.Errorf("second initialize: %s", w.Raw)
	}
	// A session's MCP-Protocol-Version must be a handshake-era revision.
	// Each method: the GET stream is not opened, the session not ended.
	for _, m := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		for _, pv := range []string{"1999-01-01", "banana", modernVersion} {
			r := ht.do(m, `{"jsonrpc":"2.0","id":3,"method":"ping"}`, "Mcp-Session-Id: "+sid, "MCP-Protocol-Version: "+pv, "Accept: application/json, text/event-stream")
			if r.status != 400 {
				t.Errorf("%s with MCP-Protocol-Version %s: %d, want 400", m, pv, r.status)
			}
		}
	}
	// Without the header, 2025-03-26 is assumed and the request served.
	if r := ht.post(`{"jsonrpc":"2.0","id":4,"method":"ping"}`, "Mcp-Session-Id: "+sid); r.status != 200 || string(r.last(t).Result) != "{}" {
		t.Errorf("ping without MCP-Protocol-Version: %d %s", r.status, r.body)
	}
	// Responses the client sends are accepted with 202.
	if r := ht.post(`{"jsonrpc":"2.0","id":99,"result":{}}`, hdr...); r.status != 202 {
		t.Errorf("client response: %d", r.status)
	}
	// Sessions are separate: another session does not know this one's ids.
	other := ht.initialize("2025-06-18")
	if other == sid {
		t.Fatal("two sessions share an id")
	}
	if r := ht.do(http.MethodDelete, "", hdr...); r.status != http.StatusNoContent {
		t.Fatalf("DELETE: %d %s", r.status, r.body)
	}
	for _, m := range []string{http.MethodPost, http.MethodGet, http.MethodDelete} {
		r := ht.do(m, `{"jsonrpc":"2.0","id":5,"method":"ping"}`, append(hdr, "Accept: application/json, text/event-stream")...)
		if r.status != 404 {
			t.Errorf("%s after DELETE: %d, want 404", m, r.status)
		}
	}
	if r := ht.do(http.MethodDelete, ""); r.status != 400 {
		t.Errorf("DELETE without a session id: %d, want 400", r.status)
	}
	if r := ht.post(`{"jsonrpc":"2.0","id":6,"method":"ping"}`, "Mcp-Session-Id: "+other, "MCP-Protocol-Version: 2025-06-18"); r.status != 200 {
		t.Errorf("the other session after DELETE: %d", r.status)
	}
	// A failed initialize starts no session.
	bad := ht.post(`{"jsonrpc":"2.0","id":7,"method":"initialize","params":{}}`)
	if bad.header.Get("Mcp-Session-Id") != "" || bad.last(t).ErrCode() != codeInvalidParams {
		t.Errorf("failed initialize: %v %s", bad.header, bad.body)
	}
}

func TestHTTPBatchIn20250326(t *testing.T) {
	ht := startHTTP(t, Options{}, httpConfig{})
	sid := ht.initialize("2025-03-26")
	r := ht.post(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"b"}}}]`, "Mcp-Session-Id: "+sid)
	var arr []json.RawMessage
	if r.status != 200 || json.Unmarshal(r.body, &arr) != nil || len(arr) != 2 {
		t.Fatalf("batch: %d %s", r.status, r.body)
	}
	if r := ht.post(`[{"jsonrpc":"2.0","method":"notifications/x"}]`, "Mcp-Session-Id: "+sid); r.status != 202 {
		t.Errorf("batch of notifications: %d", r.status)
	}
	// An empty batch is one error (JSON-RPC 2.0), as on stdio; it was
	// answered 202, as a batch of notifications.
	if r := ht.post(`[]`, "Mcp-Session-Id: "+sid); r.status != 400 || r.last(t).ErrCode() != codeInvalidRequest {
		t.Errorf("empty batch: %d %s", r.status, r.body)
	}
	// A request of the stateless revision is refused in a batch, the
	// others answered: a subscriptions/listen held the whole answer back.
	listen := `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"notifications":{},` + modernMeta("") + `}}`
	if r := ht.post(`[{"jsonrpc":"2.0","id":"p","method":"ping"},`+listen+`]`, "Mcp-Session-Id: "+sid); r.status != 200 || json.Unmarshal(r.body, &arr) != nil ||
		len(arr) != 2 || !bytes.Contains(r.body, []byte(`"id":"p","result":{}`)) || !bytes.Contains(r.body, []byte(`"id":"L","error":{"code":-32600`)) {
		t.Errorf("batch with a listen: %d %s", r.status, r.body)
	}
	long := "[" + strings.Repeat(`{"jsonrpc":"2.0","id":1,"method":"ping"},`, maxBatch) + `{"jsonrpc":"2.0","id":1,"method":"ping"}]`
	if r := ht.post(long, "Mcp-Session-Id: "+sid); r.status != 400 || !bytes.Contains(r.body, []byte("at most")) {
		t.Errorf("a batch of %d messages: %d %.200s", maxBatch+1, r.status, r.body)
	}
	sid2 := ht.initialize("2025-11-25")
	if r := ht.post(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, "Mcp-Session-Id: "+sid2); r.status != 400 {
		t.Errorf("batch in a 2025-11-25 session: %d, want 400", r.status)
	}
}

func TestHTTPGetStream(t *testing.T) {
	ht := startHTTP(t, Options{}, httpConfig{})
	if r := ht.do(http.MethodGet, "", "MCP-Protocol-Version: 2025-11-25", "Accept: text/event-stream"); r.status != 400 {
		t.Errorf("GET without a session: %d, want 400", r.status)
	}
	sid := ht.initialize("2025-11-25")
	if r := ht.do(http.MethodGet, "", "Mcp-Session-Id: "+sid, "Accept: application/json"); r.status != 406 {
		t.Errorf("GET accepting only JSON: %d, want 406", r.status)
	}
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	defer cancel()
	resp := ht.stream(ctx, sid)
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("GET: %d %v", resp.StatusCode, resp.Header)
	}
	br := bufio.NewReader(resp.Body)
	if line, _ := br.ReadString('\n'); !strings.HasPrefix(line, ":") {
		t.Fatalf("first line of the stream %q, want a comment", line)
	}
	// Only one GET stream per session.
	if r := ht.do(http.MethodGet, "", "Mcp-Session-Id: "+sid, "Accept: text/event-stream"); r.status != 409 {
		t.Errorf("second GET: %d, want 409", r.status)
	}
	// A message that belongs to no waiting POST goes to the GET stream.
	sess := ht.h.session(sid)
	sess.send(appendNotification(nil, "notifications/resources/updated", []byte(`{"uri":"workspace://files"}`)))
	var data string
	for data == "" {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		if d, ok := strings.CutPrefix(strings.TrimSpace(line), "data: "); ok {
			data = d
		}
	}
	if w := parseWire(t, []byte(data)); w.Method != "notifications/resources/updated" {
		t.Errorf("GET stream carried %s", data)
	}
	// DELETE ends the stream.
	ht.do(http.MethodDelete, "", "Mcp-Session-Id: "+sid)
	if _, err := io.ReadAll(br); err != nil {
		t.Errorf("reading the stream to its end: %v", err)
	}
}

func TestHTTPStatelessEra(t *testing.T) {
	ht := startHTTP(t, Options{}, httpConfig{})
	meta := modernMeta("")
	call := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hé"},` + meta + `}}`
	r := ht.post(call, modernHeaders("tools/call", "echo")...)
	if r.status != 200 || r.header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("stateless call: %d %v %s", r.status, r.header, r.body)
	}
	if m := r.last(t).ResultMap(t); m["resultType"] != "complete" {
		t.Errorf("result %v", m)
	}
	// Mcp-Name in the Base64 sentinel form.
	b64 := "=?base64?" + base64.StdEncoding.EncodeToString([]byte("echo")) + "?="
	if r := ht.post(call, modernHeaders("tools/call", b64)...); r.status != 200 {
		t.Errorf("Base64 Mcp-Name: %d %s", r.status, r.body)
	}
	// A header given twice alike is one value.
	if r := ht.post(call, append(modernHeaders("tools/call", "echo"), "Mcp-Method: tools/call", "Mcp-Name: echo")...); r.status != 200 {
		t.Errorf("Mcp-Method and Mcp-Name given twice alike: %d %s", r.status, r.body)
	}
	if r := ht.do(http.MethodGet, "", "MCP-Protocol-Version: "+modernVersion, "Accept: text/event-stream"); r.status != 405 {
		t.Errorf("GET under 2026-07-28: %d, want 405", r.status)
	}
	if r := ht.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,`+meta+`}}`, modernHeaders("notifications/cancelled", "")...); r.status != 202 {
		t.Errorf("notification: %d, want 202", r.status)
	}
	v := func(pv string) string {
		return `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"` + pv + `","io.modelcontextprotocol/clientCapabilities":{}}}}`
	}
	tests := []struct {
		name, body   string
		headers      []string
		status, code int
	}{
		{"no MCP-Protocol-Version", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + meta + `}}`, []string{"Mcp-Method: tools/list"}, 400, codeHeaderMismatch},
		{"header differs from _meta", v(modernVersion), []string{"MCP-Protocol-Version: 2030-01-01", "Mcp-Method: tools/list"}, 400, codeHeaderMismatch},
		{"unsupported version", v("2030-01-01"), []string{"MCP-Protocol-Version: 2030-01-01", "Mcp-Method: tools/list"}, 400, codeUnsupportedProtocolVersion},
		{"no clientCapabilities", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, modernHeaders("tools/list", ""), 400, codeInvalidParams},
		{"no _meta", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, modernHeaders("tools/list", ""), 400, codeInvalidParams},
		{"version not a string", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":2026,"io.modelcontextprotocol/clientCapabilities":{}}}}`, modernHeaders("tools/list", ""), 400, codeInvalidParams},
		// The rest of _meta is checked where stdio checks it (readMeta), before the request is served.
		{"bad log level", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + modernMeta(`"io.modelcontextprotocol/logLevel":"loud"`) + `}}`, modernHeaders("tools/list", ""), 400, codeInvalidParams},
		{"bad progress token", `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{` + modernMeta(`"progressToken":1.5`) + `}}`, modernHeaders("tools/list", ""), 400, codeInvalidParams},
		{"no Mcp-Method", call, []string{"MCP-Protocol-Version: " + modernVersion, "Mcp-Name: echo"}, 400, codeHeaderMismatch},
		{"Mcp-Method differs", call, modernHeaders("tools/list", "echo"), 400, codeHeaderMismatch},
		{"Mcp-Name differs", call, modernHeaders("tools/call", "other"), 400, codeHeaderMismatch},
		{"no Mcp-Name", call, modernHeaders("tools/call", ""), 400, codeHeaderMismatch},
		{"bad Base64 Mcp-Name", call, modernHeaders("tools/call", "=?base64?!!!?="), 400, codeHeaderMismatch},
		{"Mcp-Name outside ASCII not in Base64", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"échó",` + meta + `}}`, modernHeaders("tools/call", "échó"), 400, codeHeaderMismatch},
		{"Mcp-Method given twice, differently", call, append(modernHeaders("tools/call", "echo"), "Mcp-Method: prompts/list"), 400, codeHeaderMismatch},
		{"Mcp-Name given twice, differently", call, append(modernHeaders("tools/call", "echo"), "Mcp-Name: other"), 400, codeHeaderMismatch},
		{"unknown method", `{"jsonrpc":"2.0","id":1,"method":"nope/nope","params":{` + meta + `}}`, modernHeaders("nope/nope", ""), 404, codeMethodNotFound},
		{"ping is gone", `{"jsonrpc":"2.0","id":1,"method":"ping","params":{` + meta + `}}`, modernHeaders("ping", ""), 404, codeMethodNotFound},
		{"initialize is gone", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2026-07-28",` + meta + `}}`, modernHeaders("initialize", ""), 404, codeMethodNotFound},
		{"unknown tool is a 200 error", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"nope",` + meta + `}}`, modernHeaders("tools/call", "nope"), 200, codeInvalidParams},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := ht.post(tt.body, tt.headers...)
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			w := r.last(t)
			if w.ErrCode() != tt.code {
				t.Errorf("code %d, want %d: %s", w.ErrCode(), tt.code, r.body)
			}
			var req struct{ ID json.RawMessage }
			json.Unmarshal([]byte(tt.body), &req)
			if !bytes.Equal(w.ID, req.ID) {
				t.Errorf("error id %s, want the request's %s", w.ID, req.ID)
			}
		})
	}
}

// progressTool reports progress twice, then answers.
func progressTools() *Primitives {
	return &Primitives{Tools: []*Tool{{Name: "steps", Description: "reports progress",
		Call: func(ctx context.Context, c *Call) Result {
			c.Progress(1, 2, "one")
			c.Log("info", "between")
			c.Progress(2, 2, "two")
			return Result{Text: "done"}
		}}}}
}

func TestHTTPProgressBeforeTheAnswer(t *testing.T) {
	ht := startHTTP(t, Options{Primitives: progressTools()}, httpConfig{})
	check := func(t *testing.T, r *reply, wantLog bool) {
		t.Helper()
		if r.status != 200 || r.header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("%d %v %s", r.status, r.header, r.body)
		}
		var methods []string
		for _, w := range r.msgs {
			methods = append(methods, w.Method)
		}
		want := "notifications/progress,notifications/progress,"
		if wantLog {
			want = "notifications/progress,notifications/message,notifications/progress,"
		}
		if got := strings.Join(methods, ","); got != want {
			t.Errorf("messages %q, want %q: %s", got, want, r.body)
		}
		if w := r.last(t); string(w.ID) != "5" || w.Tool(t).Content[0].Text != "done" {
			t.Errorf("answer %s", w.Raw)
		}
	}
	t.Run("handshake era", func(t *testing.T) {
		sid := ht.initialize("2025-11-25")
		hdr := []string{"Mcp-Session-Id: " + sid, "MCP-Protocol-Version: 2025-11-25"}
		ht.post(`{"jsonrpc":"2.0","id":4,"method":"logging/setLevel","params":{"level":"info"}}`, hdr...)
		check(t, ht.post(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"steps","_meta":{"progressToken":"p"}}}`, hdr...), true)
		// Without a progress token the logs alone make it a stream.
		r := ht.post(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"steps"}}`, "Mcp-Session-Id: "+sid)
		if r.header.Get("Content-Type") != "text/event-stream" || len(r.msgs) != 2 {
			t.Errorf("with logs only: %v %s", r.header, r.body)
		}
	})
	t.Run("2026-07-28", func(t *testing.T) {
		body := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"steps",` + modernMeta(`"progressToken":9`) + `}}`
		check(t, ht.post(body, modernHeaders("tools/call", "steps")...), false)
		body = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"steps",` + modernMeta(`"io.modelcontextprotocol/logLevel":"debug"`) + `}}`
		r := ht.post(body, modernHeaders("tools/call", "steps")...)
		if len(r.msgs) != 2 || r.msgs[0].Method != "notifications/message" {
			t.Errorf("logs only: %s", r.body)
		}
		// A client that takes only JSON gets the answer alone.
		body = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"steps",` + modernMeta(`"progressToken":9`) + `}}`
		r = ht.post(body, append(modernHeaders("tools/call", "steps"), "Accept: application/json")...)
		if r.header.Get("Content-Type") != "application/json" || len(r.msgs) != 1 {
			t.Errorf("JSON only: %v %s", r.header, r.body)
		}
	})
}

// TestHTTPSameAnswersAsStdio calls the same tools over HTTP and over
// stdio and compares the results byte for byte.
func TestHTTPSameAnswersAsStdio(t *testing.T) {
	root := testWorkspace(t)
	ht := startHTTP(t, Options{Root: root}, httpConfig{})
	h := start(t, Options{Root: root})
	calls := []string{
		`{"name":"tool_a","arguments":{"x":"store x as 1\ndisplay x plus \"a\"\n"}}`,
		`{"name":"tool_b","arguments":{}}`,
		`{"name":"tool_c","arguments":{"x":5}}`,
		`{"name":"echo","arguments":{"text":"<b>&</b>"}}`,
		`{"name":"echo","arguments":{"nome":"x"}}`,
		`{"name":"work","arguments":{}}`,
		`{"name":"folders","arguments":{}}`,
	}
	for _, era := range []string{"2025-11-25", "2025-06-18", modernVersion} {
		t.Run(era, func(t *testing.T) {
			var hdr []string
			var sh *harness
			if era != modernVersion {
				sid := ht.initialize(era)
				hdr = []string{"Mcp-Session-Id: " + sid, "MCP-Protocol-Version: " + era}
				sh = start(t, Options{Root: root})
				sh.Initialize(era)
			} else {
				sh = h
			}
			for i, params := range append(calls, "") {
				method, name := "tools/call", ""
				if params == "" {
					method, params = "tools/list", "{}"
				} else {
					var p struct{ Name string }
					json.Unmarshal([]byte(params), &p)
					name = p.Name
				}
				if era == modernVersion {
					params = params[:len(params)-1]
					if params != "{" {
						params += ","
					}
					params += modernMeta("") + "}"
					hdr = modernHeaders(method, name)
				}
				r := ht.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, i+1, method, params), hdr...)
				if r.status != 200 {
					t.Fatalf("%s: HTTP %d %s", params, r.status, r.body)
				}
				overHTTP := r.last(t)
				overStdio := sh.Call(i+1, method, params)
				if a, b := bytes.TrimSpace(overHTTP.Raw), bytes.TrimSpace(overStdio.Raw); !bytes.Equal(a, b) {
					i := 0
					for i < len(a) && i < len(b) && a[i] == b[i] {
						i++
					}
					t.Errorf("%s %s: answers differ at byte %d:\nHTTP  …%.120s\nstdio …%.120s", method, params, i, a[max(0, i-40):], b[max(0, i-40):])
				}
				if overHTTP.Result == nil {
					t.Errorf("%s: no result: %s", params, overHTTP.Raw)
				}
			}
		})
	}
}

func TestHTTPGracefulShutdown(t *testing.T) {
	started := make(chan struct{})
	release := make(chan struct{})
	opts := Options{Root: testWorkspace(t), Primitives: withTools(textTool("slow", func(ctx context.Context, args json.RawMessage) (string, error) {
		close(started)
		select {
		case <-release:
			return "finished", nil
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}))}
	s, ln := listening(t, opts)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- serveListener(ctx, ln, s, httpConfig{checkHost: true}) }()
	url := "http://" + ln.Addr().String() + httpPath

	// One session with its GET stream open, one request in flight.
	ht := &httpTest{t: t, url: url}
	sid := ht.initialize("2025-11-25")
	getResp := ht.stream(context.Background(), sid)
	defer getResp.Body.Close()
	// A stateless subscriptions/listen stream, acknowledged.
	listenBody := `{"jsonrpc":"2.0","id":"L","method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + modernMeta("") + `}}`
	listenReq, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(listenBody))
	for _, h := range append(modernHeaders("subscriptions/listen", ""), "Content-Type: application/json", "Accept: application/json, text/event-stream") {
		k, v, _ := strings.Cut(h, ": ")
		listenReq.Header.Set(k, v)
	}
	listenResp, err := http.DefaultClient.Do(listenReq)
	if err != nil {
		t.Fatal(err)
	}
	defer listenResp.Body.Close()
	listen := bufio.NewReader(listenResp.Body)
	for {
		line, err := listen.ReadString('\n')
		if err != nil {
			t.Fatalf("listen stream: %v", err)
		}
		if strings.Contains(line, "notifications/subscriptions/acknowledged") {
			break
		}
	}
	answered := make(chan *reply, 1)
	go func() {
		answered <- ht.post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}`, "Mcp-Session-Id: "+sid)
	}()
	select {
	case <-started:
	case <-time.After(guard):
		t.Fatal("the tool did not start")
	}
	cancel() // SIGINT
	// The GET stream ends so that shutdown can proceed.
	if _, err := io.ReadAll(getResp.Body); err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Logf("GET stream ended with %v", err)
	}
	// The listen request ends with a result.
	rest, _ := io.ReadAll(listen)
	if !strings.Contains(string(rest), `"id":"L","result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/subscriptionId":"L",`) {
		t.Errorf("listen stream ended with %q, want its result", rest)
	}
	select {
	case err := <-served:
		t.Fatalf("the server stopped (%v) before the request in flight was answered", err)
	default:
	}
	close(release)
	r := <-answered
	if r.status != 200 || r.last(t).Tool(t).Content[0].Text != "finished" {
		t.Fatalf("request in flight: %d %s", r.status, r.body)
	}
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("serveListener: %v", err)
		}
	case <-time.After(guard):
		t.Fatal("the server did not stop")
	}
	if _, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		t.Error("the listener still accepts connections")
	}
}

func TestServeHTTPRefusesOpenAddressWithoutToken(t *testing.T) {
	root := t.TempDir()
	for _, addr := range []string{"0.0.0.0:0", "[::]:0", "192.0.2.1:0", "example.com:0"} {
		err := ServeHTTP(context.Background(), addr, Options{Root: root})
		if err == nil || !strings.Contains(err.Error(), "without a token") {
			t.Errorf("%s: %v, want a refusal", addr, err)
		}
	}
	if err := ServeHTTP(context.Background(), "nonsense", Options{Root: root}); err == nil || !strings.Contains(err.Error(), "HOST:PORT") {
		t.Errorf("bad address: %v", err)
	}
	// ":0" binds loopback and serves until the context ends.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := ServeHTTP(ctx, ":0", Options{Root: root}); err != nil {
		t.Errorf(":0 with an ended context: %v", err)
	}
}

func TestIsLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1": true, "127.1.2.3": true, "::1": true, "[::1]": true, "localhost": true, "LocalHost": true,
		"0.0.0.0": false, "::": false, "10.0.0.1": false, "example.com": false, "localhost.evil.com": false, "": false,
	} {
		if got := isLoopbackHost(host); got != want {
			t.Errorf("isLoopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}

// TestHTTPStatelessDisconnectCancels checks that under 2026-07-28 closing
// the response cancels the request, while in a session it does not.
func TestHTTPStatelessDisconnectCancels(t *testing.T) {
	ht := startHTTP(t, Options{}, httpConfig{})
	ctx, cancel := context.WithCancel(context.Background())
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block","arguments":{"n":"modern"},` + modernMeta("") + `}}`
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, ht.url, strings.NewReader(body))
	for _, h := range append(modernHeaders("tools/call", "block"), "Content-Type: application/json", "Accept: application/json, text/event-stream") {
		k, v, _ := strings.Cut(h, ": ")
		req.Header.Set(k, v)
	}
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	if got := waitChan(t, blockStarted); got != `{"n":"modern"}` {
		t.Fatalf("started %s", got)
	}
	cancel()
	if got := waitChan(t, blockEnded); got != `{"n":"modern"}` {
		t.Errorf("ended %s", got)
	}
	if err := <-done; err == nil {
		t.Error("the cancelled request got an answer")
	}
}

// TestHTTPSessionCancel checks that notifications/cancelled ends the POST of
// the request it names, without an answer.
func TestHTTPSessionCancel(t *testing.T) {
	ht := startHTTP(t, Options{}, httpConfig{})
	sid := ht.initialize("2025-11-25")
	hdr := []string{"Mcp-Session-Id: " + sid, "MCP-Protocol-Version: 2025-11-25"}
	answered := make(chan *reply, 1)
	go func() {
		answered <- ht.post(`{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"block","arguments":{"n":"session"}}}`, hdr...)
	}()
	waitChan(t, blockStarted)
	if r := ht.post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"c1","reason":"test"}}`, hdr...); r.status != 202 {
		t.Fatalf("cancel: %d", r.status)
	}
	waitChan(t, blockEnded)
	select {
	case r := <-answered:
		if r.status != http.StatusOK || r.header.Get("Content-Type") != "text/event-stream" || len(r.msgs) != 0 {
			t.Errorf("cancelled POST: %d %s %s, want an event stream that ends with no answer", r.status, r.header.Get("Content-Type"), r.body)
		}
	case <-time.After(guard):
		t.Fatal("the cancelled POST stayed open")
	}
	// The session still answers.
	if r := ht.post(`{"jsonrpc":"2.0","id":"c2","method":"ping"}`, hdr...); r.status != 200 {
		t.Errorf("ping after cancel: %d", r.status)
	}
}

// BenchmarkHTTPToolCall measures one stateless tools/call of the echo test
// tool over HTTP (keep-alive connection, JSON answer), client included.
func BenchmarkHTTPToolCall(b *testing.B) {
	s, err := New(Options{Root: b.TempDir(), Primitives: withTools(testTools()...)})
	if err != nil {
		b.Fatal(err)
	}
	h := newHTTPHandler(context.Background(), s, httpConfig{checkHost: true, token: "t"})
	ts := httptest.NewServer(h)
	defer ts.Close()
	body := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"},` + modernMeta("") + `}}`)
	b.ReportAllocs()
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+httpPath, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Authorization", "Bearer t")
		req.Header.Set("MCP-Protocol-Version", modernVersion)
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", "echo")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatal(resp.Status)
		}
	}
}
