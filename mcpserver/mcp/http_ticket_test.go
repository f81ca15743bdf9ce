package mcp

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestHTTPSessionMovesBetweenInstances: instances that share a session key
// take up each other's handshake-era sessions (a restart is an instance
// that has never seen the session), with the revision initialize settled;
// an instance with another key, a forged id or one ended with DELETE (in
// any spelling) gets 404. Before, a session lived only in the process that made it: after a
// restart or a move every call of a client that does not re-initialize
// (no tested SDK does) failed with 404.
func TestHTTPSessionMovesBetweenInstances(t *testing.T) {
	key := []byte("a session key of more than 16 bytes")
	a := startHTTP(t, Options{SessionKey: key, Instance: "a"}, httpConfig{})
	b := startHTTP(t, Options{SessionKey: key, Instance: "b"}, httpConfig{})
	other := startHTTP(t, Options{SessionKey: []byte("another key of more than 16 bytes")}, httpConfig{})
	plain := startHTTP(t, Options{}, httpConfig{})

	call := func(ht *httpTest, sid, body string) *reply {
		t.Helper()
		return ht.post(body, "Mcp-Session-Id: "+sid, "MCP-Protocol-Version: 2025-03-26")
	}
	const echo = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"text":"moved"}}}`
	// A batch is served only in a session of revision 2025-03-26: the
	// revision moved with the session.
	const batch = `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]`

	sid := a.initialize("2025-03-26")
	if !strings.HasPrefix(sid, "a.") {
		t.Errorf("session id %q does not name its instance first", sid)
	}
	for _, ht := range []*httpTest{a, b} {
		r := call(ht, sid, echo)
		if r.status != 200 || !strings.Contains(string(r.last(t).Result), "moved") {
			t.Fatalf("echo on %s: %d %s", ht.url, r.status, r.body)
		}
		r = call(ht, sid, batch)
		if b := string(r.body); r.status != 200 || !strings.HasPrefix(b, `[{"jsonrpc":"2.0","id":1,"result":{}},{"jsonrpc":"2.0","id":2,"result":{"tools":`) {
			t.Errorf("batch on %s: %d %.200s", ht.url, r.status, b)
		}
	}

	forged := []byte(sid)
	i := strings.LastIndexByte(sid, '.') - 3
	forged[i] ^= 1 // a changed ticket
	for _, c := range []struct {
		name string
		ht   *httpTest
		sid  string
	}{
		{"another key", other, sid},
		{"no key", plain, sid},
		{"a forged ticket", b, string(forged)},
		{"a cut id", b, sid[:strings.LastIndexByte(sid, '.')]},
	} {
		if r := call(c.ht, c.sid, echo); r.status != http.StatusNotFound {
			t.Errorf("%s: %d %s, want 404", c.name, r.status, r.body)
		}
	}

	// Ended with DELETE on b, where b holds it: b does not take it up again.
	if r := b.do(http.MethodDelete, "", "Mcp-Session-Id: "+sid); r.status != http.StatusNoContent {
		t.Fatalf("DELETE: %d", r.status)
	}
	if r := call(b, sid, echo); r.status != http.StatusNotFound {
		t.Errorf("after DELETE: %d %s, want 404", r.status, r.body)
	}
	// Nor another spelling of its id: the last character of the MAC's
	// base64 has unused bits, which a lenient decoding ignores.
	for _, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_" {
		if variant := sid[:len(sid)-1] + string(c); variant != sid {
			if r := call(b, variant, echo); r.status != http.StatusNotFound {
				t.Errorf("after DELETE, the id spelt %q: %d %s, want 404", variant[len(variant)-4:], r.status, r.body)
			}
		}
	}
	// A DELETE of a signed session this instance never held is a success.
	sid2 := a.initialize("2025-11-25")
	if r := b.do(http.MethodDelete, "", "Mcp-Session-Id: "+sid2); r.status != http.StatusNoContent {
		t.Errorf("DELETE of a session held by another instance: %d", r.status)
	}
}

// TestRequestStateAcrossInstances: with a shared session key, the
// requestState of a multi-round 2026-07-28 call made by one process is
// accepted by another (a retry that reaches another instance, or comes
// after a restart); with another key it is refused. Before, the key was
// made at random by each process.
func TestRequestStateAcrossInstances(t *testing.T) {
	key := []byte("a session key of more than 16 bytes")
	mk := func(key []byte) *Server {
		s, err := New(Options{Root: testWorkspace(t), SessionKey: key})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	one, two, three := mk(key), mk(key), mk([]byte("another key of more than 16 bytes"))
	req := &request{method: one.methods["tools/call"], params: []byte(`{"name":"ask"}`)}
	answers := map[string]json.RawMessage{"roots": json.RawMessage(`{"roots":[]}`)}
	state, err := one.sealState(answers, req)
	if err != nil {
		t.Fatal(err)
	}
	got, err := two.openState(state, req)
	if err != nil || string(got["roots"]) != `{"roots":[]}` {
		t.Errorf("another instance with the key: %v %v", got, err)
	}
	if _, err := three.openState(state, req); err == nil {
		t.Error("an instance with another key accepted the state")
	}
}

// TestHTTPEventIDsAcrossInstances: the event ids of a session taken up by
// another instance sharing the key (or by a restarted one) are never those
// its streams had before, and resuming from one of those is a 404, not
// another stream's events. Before, each instance numbered its streams
// from p1: a client resuming its lost stream from p1_1 was given the new
// instance's stream p1, with the answer to another request.
func TestHTTPEventIDsAcrossInstances(t *testing.T) {
	key := []byte("a session key of more than 16 bytes")
	var hts []*httpTest
	for _, inst := range []string{"a", "b"} {
		g := &gate{started: make(chan struct{}), release: make(chan struct{})}
		close(g.release)
		hts = append(hts, startHTTP(t, Options{SessionKey: key, Instance: inst, Primitives: withTools(g.tool())}, httpConfig{}))
	}
	sid := hts[0].initialize("2025-11-25")
	hd := []string{"Mcp-Session-Id: " + sid, "MCP-Protocol-Version: 2025-11-25"}
	ids := func(ht *httpTest) []string {
		t.Helper()
		call := ht.open(http.MethodPost, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"gate","_meta":{"progressToken":"p"}}}`, hd...)
		var out []string
		for it := range call.items {
			if it.id != "" {
				out = append(out, it.id)
			}
		}
		if len(out) == 0 {
			t.Fatalf("%s: no event", ht.url)
		}
		return out
	}
	before := ids(hts[0])
	var after []string
	for range 3 {
		after = append(after, ids(hts[1])...)
	}
	for _, id := range after {
		if slices.Contains(before, id) {
			t.Errorf("event id %s used again by the instance that took the session up (before %v, after %v)", id, before, after)
		}
	}
	if r := hts[1].do(http.MethodGet, "", append(hd, "Accept: text/event-stream", "Last-Event-ID: "+before[0])...); r.status != http.StatusNotFound {
		t.Errorf("resuming from an event of the other instance: %d %s, want 404", r.status, r.body)
	}
}
