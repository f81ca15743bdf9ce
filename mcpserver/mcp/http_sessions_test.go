package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestHTTPSessionCapEndsTheOldest fills the sessions' cap: a new client
// still gets a session, and the session unused the longest is the one
// ended (404), not one in use; only when every session has a request in
// progress is a new one refused. Before, 1,000 sessions never deleted
// locked every new client out with 503 for 30 minutes.
func TestHTTPSessionCapEndsTheOldest(t *testing.T) {
	started, release := make(chan struct{}, 3), make(chan struct{})
	hold := &Tool{Name: "hold", Description: "waits", Call: func(ctx context.Context, c *Call) Result {
		started <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
		}
		return Result{Text: "released"}
	}}
	ht := startHTTP(t, Options{Primitives: withTools(hold)}, httpConfig{maxSessions: 3})
	hd := func(sid string) []string {
		return []string{"Mcp-Session-Id: " + sid, "MCP-Protocol-Version: 2025-11-25"}
	}
	ping := func(sid string) int {
		return ht.post(`{"jsonrpc":"2.0","id":1,"method":"ping"}`, hd(sid)...).status
	}
	a := ht.initialize("2025-11-25")
	b := ht.initialize("2025-11-25")
	c := ht.initialize("2025-11-25")
	ping(a) // b is now the one unused the longest
	d := ht.initialize("2025-11-25")
	for sid, want := range map[string]int{a: 200, b: 404, c: 200, d: 200} {
		if got := ping(sid); got != want {
			t.Errorf("session %s: %d, want %d", sid[:6], got, want)
		}
	}

	// Every session busy: a new client is refused, and no session ends.
	var done []chan *reply
	for _, sid := range []string{a, c, d} {
		ch := make(chan *reply, 1)
		done = append(done, ch)
		go func() {
			ch <- ht.post(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"hold"}}`, hd(sid)...)
		}()
		<-started
	}
	r := ht.post(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if r.status != http.StatusServiceUnavailable || r.header.Get("Mcp-Session-Id") != "" {
		t.Errorf("initialize with every session busy: %d %s", r.status, r.body)
	}
	close(release)
	for _, ch := range done {
		if r := <-ch; r.status != 200 {
			t.Errorf("a call in progress when the cap was reached: %d %s", r.status, r.body)
		}
	}
}

// TestHTTPIdleSessionsEnd: a session unused for longer than its idle time
// ends without waiting for a new client to come (serveListener sweeps).
func TestHTTPIdleSessionsEnd(t *testing.T) {
	addr := serveRaw(t, Options{}, httpConfig{idle: 50 * time.Millisecond})
	ht := &httpTest{t: t, url: "http://" + addr + httpPath}
	sid := ht.initialize("2025-11-25")
	// Unused for four times its idle time (a call would use it again), the
	// session has ended; a slow machine gets longer.
	for wait := 200 * time.Millisecond; ; wait *= 2 {
		time.Sleep(wait)
		if ht.post(`{"jsonrpc":"2.0","id":1,"method":"ping"}`, "Mcp-Session-Id: "+sid).status == 404 {
			break
		}
		if wait > guard/4 {
			t.Fatal("the idle session did not end")
		}
	}
}

// TestHTTPReplayBounded: a POST answered as plain JSON is not kept (it has
// no event to resume from); answers streamed as events are kept for a
// resumption within maxReplayBytes a session: the oldest streams are
// forgotten first (a resumption of one is refused at once), the newest
// resumes. Before, every session kept its last 64 answers whole: 4
// sessions of 64 check_workspace answers took 538 MB.
func TestHTTPReplayBounded(t *testing.T) {
	ht := startHTTP(t, Options{Primitives: withTools(append(testTools(), stepsTool())...)}, httpConfig{})
	sid := ht.initialize("2025-11-25")
	hd := []string{"Mcp-Session-Id: " + sid, "MCP-Protocol-Version: 2025-11-25"}
	big := strings.Repeat("x", 100<<10)
	for i := range 20 {
		r := ht.post(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":%q}}}`, i, big), hd...)
		if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
			t.Fatalf("echo: %d %v", r.status, r.header)
		}
	}
	sess := ht.h.session(sid)
	sess.mu.Lock()
	kept, bytes := len(sess.streams), sess.replay
	sess.mu.Unlock()
	if kept != 0 || bytes != 0 {
		t.Errorf("after 20 answers as JSON the session keeps %d streams, %d bytes", kept, bytes)
	}

	// Answers as events (the calls ask for progress), 100 KB each.
	var ids []string
	for i := range 30 {
		r := ht.open(http.MethodPost, fmt.Sprintf(`{"jsonrpc":"2.0","id":"s%d","method":"tools/call","params":{"name":"steps","arguments":{"text":%q},"_meta":{"progressToken":%d}}}`, i, big, i), hd...)
		first := r.next(t)
		if first.id == "" {
			t.Fatalf("no event id: %+v", first)
		}
		ids = append(ids, first.id)
		for range r.items {
		}
	}
	sess.mu.Lock()
	bytes, total := sess.replay, ht.h.replay.Load()
	sess.mu.Unlock()
	if bytes > maxReplayBytes || bytes < maxReplayBytes/2 || total != int64(bytes) {
		t.Errorf("the session keeps %d bytes for replay (%d in all), want at most %d", bytes, total, maxReplayBytes)
	}
	resume := func(id string) int {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, ht.url, nil)
		for _, h := range append(hd, "Accept: text/event-stream", "Last-Event-ID: "+id) {
			k, v, _ := strings.Cut(h, ": ")
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := resume(ids[0]); s != 404 {
		t.Errorf("resuming the oldest stream: %d, want 404", s)
	}
	if s := resume(ids[len(ids)-1]); s != 200 {
		t.Errorf("resuming the newest stream: %d, want 200", s)
	}
	// Ending the session gives its bytes back.
	if r := ht.do(http.MethodDelete, "", hd...); r.status != http.StatusNoContent {
		t.Fatalf("DELETE: %d", r.status)
	}
	deadline := time.Now().Add(guard)
	for ht.h.replay.Load() != 0 && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond) // the session ends in the background
	}
	if n := ht.h.replay.Load(); n != 0 {
		t.Errorf("%d bytes kept for replay after the session ended", n)
	}
}

// TestHTTPDrainPeriod stops a server with a drain period: for that period
// /healthz answers 503 while requests are still served, then the listener
// closes. Before, /healthz never answered 503: the listener closed at once.
func TestHTTPDrainPeriod(t *testing.T) {
	s, ln := listening(t, Options{Root: testWorkspace(t)})
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	start := time.Now()
	const drain = 300 * time.Millisecond
	go func() { served <- serveListener(ctx, ln, s, httpConfig{checkHost: true, drain: drain}) }()
	ht := &httpTest{t: t, url: "http://" + ln.Addr().String() + httpPath}
	if r := ht.doPath(http.MethodGet, "/healthz"); r.status != 200 {
		t.Fatalf("healthz: %d", r.status)
	}
	sid := ht.initialize("2025-11-25")
	cancel() // SIGTERM
	deadline := time.Now().Add(guard)
	for ht.doPath(http.MethodGet, "/healthz").status != 503 {
		if time.Now().After(deadline) {
			t.Fatal("/healthz did not answer 503 once asked to stop")
		}
	}
	// Still serving: a session's call and a new session.
	if r := ht.post(`{"jsonrpc":"2.0","id":1,"method":"ping"}`, "Mcp-Session-Id: "+sid); r.status != 200 {
		t.Errorf("a call while draining: %d %s", r.status, r.body)
	}
	ht.initialize("2025-11-25")
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d < drain {
		t.Errorf("the server stopped after %v, within its drain period of %v", d, drain)
	}
	if _, err := net.Dial("tcp", ln.Addr().String()); err == nil {
		t.Error("the listener still accepts connections")
	}
}

// steps is a test tool that answers its text after two progress steps.
func stepsTool() *Tool {
	return &Tool{Name: "steps", Description: "test tool steps", Call: func(ctx context.Context, c *Call) Result {
		var a struct{ Text string }
		json.Unmarshal(c.Arguments, &a)
		c.Progress(1, 2, "one")
		c.Progress(2, 2, "two")
		return Result{Text: a.Text}
	}}
}
