package mcp

// This file tests, over Streamable HTTP, requests to the client on a
// request's event stream, resumption of a broken stream with
// Last-Event-ID, keep-alive comments, the health endpoint and session ids
// that name their instance.

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// An sseItem is one event (id and data) or comment of an event stream.
type sseItem struct {
	id, data, comment string
}

// liveStream is an HTTP response read as it comes.
type liveStream struct {
	resp   *http.Response
	items  chan sseItem
	cancel context.CancelFunc
}

// open sends a request and reads its event stream as it comes.
func (ht *httpTest) open(method, body string, headers ...string) *liveStream {
	ht.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), guard)
	req, _ := http.NewRequestWithContext(ctx, method, ht.url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ":")
		req.Header.Set(k, strings.TrimSpace(v))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		ht.t.Fatal(err)
	}
	ls := &liveStream{resp: resp, items: make(chan sseItem, 100), cancel: cancel}
	go func() {
		defer close(ls.items)
		defer resp.Body.Close()
		br := bufio.NewReader(resp.Body)
		var it sseItem
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\n")
			switch {
			case line == "":
				if it != (sseItem{}) {
					ls.items <- it
				}
				it = sseItem{}
			case strings.HasPrefix(line, ":"):
				ls.items <- sseItem{comment: line}
			case strings.HasPrefix(line, "id: "):
				it.id = line[4:]
			case strings.HasPrefix(line, "data: "):
				it.data = line[6:]
			}
		}
	}()
	ht.t.Cleanup(cancel)
	return ls
}

// next returns the next event (comments skipped), failing at the end.
func (ls *liveStream) next(t *testing.T) sseItem {
	t.Helper()
	for it := range ls.items {
		if it.comment == "" {
			return it
		}
	}
	t.Fatal("the stream ended while an event was awaited")
	return sseItem{}
}

func TestHTTPRequestToTheClient(t *testing.T) {
	ht := startHTTP(t, Options{Primitives: withTools(askTool())}, httpConfig{})
	r := ht.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"sampling":{}},"clientInfo":{"name":"t","version":"1"}}}`)
	sid := r.header.Get("Mcp-Session-Id")
	hd := []string{"Mcp-Session-Id: " + sid, "MCP-Protocol-Version: 2025-11-25"}
	ht.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, hd...)
	call := ht.open(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask","arguments":{"ask":"sampling"}}}`, hd...)
	// The request comes on the call's own event stream, with an event id.
	ev := call.next(t)
	req := parseWire(t, []byte(ev.data))
	if req.Method != "sampling/createMessage" || req.ID == nil || ev.id == "" {
		t.Fatalf("first event %+v", ev)
	}
	// The client answers with a POST of its own: 202, and the call ends.
	if a := ht.post(`{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m"}}`, hd...); a.status != 202 {
		t.Errorf("posting the answer: %d %s", a.status, a.body)
	}
	res := parseWire(t, []byte(call.next(t).data))
	if string(res.ID) != "1" || !strings.Contains(string(res.Result), "Paris") {
		t.Errorf("answer %s", res.Raw)
	}
	// A client without the capability gets a tool error, and no request.
	r = ht.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	hd2 := []string{"Mcp-Session-Id: " + r.header.Get("Mcp-Session-Id"), "MCP-Protocol-Version: 2025-11-25"}
	r = ht.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"ask","arguments":{"ask":"sampling"}}}`, hd2...)
	if len(r.msgs) != 1 || !strings.Contains(string(r.msgs[0].Result), `needs the client's \"sampling\" capability`) {
		t.Errorf("without the capability: %s", r.body)
	}
}

// gate is a tool that reports progress, then waits for release.
type gate struct {
	started chan struct{}
	release chan struct{}
}

func (g *gate) tool() *Tool {
	return &Tool{Name: "gate", Description: "waits", Call: func(ctx context.Context, c *Call) Result {
		c.Progress(1, 2, "waiting")
		close(g.started)
		select {
		case <-g.release:
		case <-ctx.Done():
		}
		return Result{Text: "released"}
	}}
}

func TestHTTPResumption(t *testing.T) {
	g := &gate{started: make(chan struct{}), release: make(chan struct{})}
	ht := startHTTP(t, Options{Primitives: withTools(g.tool())}, httpConfig{})
	sid := ht.initialize("2025-11-25")
	hd := []string{"Mcp-Session-Id: " + sid, "MCP-Protocol-Version: 2025-11-25"}
	get := ht.open(http.MethodGet, "", append(hd, "Accept: text/event-stream")...)
	<-get.items // ": stream open"
	call := ht.open(http.MethodPost, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"gate","_meta":{"progressToken":"p"}}}`, hd...)
	first := call.next(t)
	if !strings.Contains(first.data, "notifications/progress") || first.id == "" {
		t.Fatalf("first event %+v", first)
	}
	<-g.started
	// The POST's stream breaks; the answer comes later.
	call.cancel()
	for range call.items {
	}
	close(g.release)
	// Resuming after the progress event gives the rest of that stream: the
	// answer, and the stream ends.
	resumed := ht.open(http.MethodGet, "", append(hd, "Accept: text/event-stream", "Last-Event-ID: "+first.id)...)
	if resumed.resp.StatusCode != 200 {
		t.Fatalf("resuming: %d", resumed.resp.StatusCode)
	}
	ans := resumed.next(t)
	w := parseWire(t, []byte(ans.data))
	if string(w.ID) != "7" || !strings.Contains(string(w.Result), "released") || ans.id == first.id {
		t.Errorf("resumed stream carried %+v", ans)
	}
	for it := range resumed.items {
		if it.comment == "" {
			t.Errorf("more after the answer: %+v", it)
		}
	}
	// The answer never went to the GET stream.
	get.cancel()
	for it := range get.items {
		if strings.Contains(it.data, `"id":7`) {
			t.Errorf("the answer went to the GET stream: %+v", it)
		}
	}
	// Resuming from an event this session never sent: 404.
	if r := ht.do(http.MethodGet, "", append(hd, "Accept: text/event-stream", "Last-Event-ID: p99_1")...); r.status != 404 {
		t.Errorf("unknown Last-Event-ID: %d", r.status)
	}
}

func TestHTTPKeepAliveOnListen(t *testing.T) {
	// A 2026-07-28 subscriptions/listen stream gets keep-alive comments
	// while nothing happens, so that a proxy's idle timeout keeps it.
	ht := startHTTP(t, Options{}, httpConfig{keepAlive: time.Millisecond})
	body := `{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},` + modernMeta("") + `}}`
	ls := ht.open(http.MethodPost, body, modernHeaders("subscriptions/listen", "")...)
	if ack := ls.next(t); !strings.Contains(ack.data, "notifications/subscriptions/acknowledged") {
		t.Fatalf("first event %+v", ack)
	}
	for it := range ls.items {
		if it.comment == ": keep-alive" {
			return
		}
	}
	t.Error("the stream ended without a keep-alive comment")
}

func TestHTTPHealth(t *testing.T) {
	const token = "secret-token"
	ht := startHTTP(t, Options{Token: token}, httpConfig{token: token})
	for _, hd := range [][]string{nil, {"Host: evil.example"}, {"Origin: https://evil.example"}} {
		r := ht.doPath(http.MethodGet, "/healthz", hd...)
		if r.status != 200 || len(r.body) != 0 {
			t.Errorf("healthz %v: %d %q, want 200 and no body", hd, r.status, r.body)
		}
	}
	if r := ht.doPath(http.MethodPost, "/healthz"); r.status == 200 {
		t.Errorf("POST /healthz: %d", r.status)
	}
	ht.h.beginShutdown()
	if r := ht.doPath(http.MethodGet, "/healthz"); r.status != 503 || len(r.body) != 0 {
		t.Errorf("healthz while shutting down: %d %q, want 503", r.status, r.body)
	}
}

func TestHTTPSessionIDNamesInstance(t *testing.T) {
	ht := startHTTP(t, Options{Instance: "east"}, httpConfig{})
	sid := ht.initialize("2025-11-25")
	if !strings.HasPrefix(sid, "east.") || len(sid) < len("east.")+32 {
		t.Errorf("session id %q, want east.<random>", sid)
	}
	if _, err := New(Options{Root: t.TempDir(), Instance: "a.b"}); err == nil {
		t.Error("an instance name with a dot was accepted")
	}
}

// doPath is do at another path than the endpoint.
func (ht *httpTest) doPath(method, path string, headers ...string) *reply {
	ht.t.Helper()
	saved := ht.url
	ht.url = strings.TrimSuffix(ht.url, httpPath) + path
	defer func() { ht.url = saved }()
	return ht.do(method, "", headers...)
}

func TestHTTPRootsOnlyNarrow(t *testing.T) {
	// Over HTTP a client's roots name folders of the server's machine: they
	// narrow the server's folder, never widen it (issue 28: roots
	// [file:///etc] then workspace://file/passwd returned /etc/passwd).
	outside := t.TempDir()
	ht := startHTTP(t, Options{}, httpConfig{})
	root := ht.h.srv.ws.String() // the server's one folder
	r := ht.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"t","version":"1"}}}`)
	hd := []string{"Mcp-Session-Id: " + r.header.Get("Mcp-Session-Id"), "MCP-Protocol-Version: 2025-11-25"}
	ht.post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, hd...)
	call := ht.open(http.MethodPost, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"folders","arguments":{}}}`, hd...)
	req := parseWire(t, []byte(call.next(t).data))
	if req.Method != "roots/list" {
		t.Fatalf("first event %s", req.Raw)
	}
	ht.post(`{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"roots":[{"uri":"`+"file://"+filepath.ToSlash(outside)+`"}]}}`, hd...)
	var answer *wire
	for answer == nil {
		if w := parseWire(t, []byte(call.next(t).data)); string(w.ID) == "1" {
			answer = w
		}
	}
	if got := answer.Tool(t).Content[0].Text; got != root {
		t.Errorf("a root outside the server's folder %s changed the workspace to %q", root, got)
	}
	r = ht.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"folders","arguments":{}}}`, hd...)
	if got := r.last(t).Tool(t).Content[0].Text; got != root {
		t.Errorf("the workspace after roots outside it: %q, want the server's folder %s", got, root)
	}
}

func TestHTTPWorkspaceDefaultsToCurrentFolder(t *testing.T) {
	// Over HTTP without --root the workspace is the current folder, fixed:
	// client roots may only narrow it (see TestHTTPRootsOnlyNarrow).
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := newHTTPHandler(context.Background(), s, httpConfig{})
	defer h.close(time.Second)
	cwd, _ := os.Getwd()
	if real, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = real
	}
	if !s.fixedRoot || s.ws.String() != cwd {
		t.Errorf("workspace %s (fixed: %v), want the current folder %s, fixed", s.ws, s.fixedRoot, cwd)
	}
}
