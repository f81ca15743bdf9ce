package mcp

// This file tests the workspace that follows a client's roots over stdio
// (outgoing.go): through the fixture's folders tool, which answers the
// folders of its call.

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// realDir is a fresh folder, named name, as a real path.
func realDir(t *testing.T, name string) string {
	t.Helper()
	d := filepath.Join(t.TempDir(), name)
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(d)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// folders calls the folders tool and returns its answer.
func folders(h *harness, id int) string {
	h.T.Helper()
	h.Sendf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"folders","arguments":{}}}`, id)
	return h.Await(strconv.Itoa(id)).Tool(h.T).Content[0].Text
}

// TestRootsFollowTheClient: over stdio without a root, a client that
// declares roots is asked for them at the first call that needs its
// workspace, once, and again after notifications/roots/list_changed; the
// folders are real paths, none inside another.
func TestRootsFollowTheClient(t *testing.T) {
	front, back := realDir(t, "front"), realDir(t, "back")
	inner := filepath.Join(front, "inner")
	os.Mkdir(inner, 0o755)
	s, err := New(Options{Primitives: withTools()}) // no Root: over stdio, the client's roots
	if err != nil {
		t.Fatal(err)
	}
	h := startServer(t, s)
	h.InitializeWith("2025-11-25", `{"roots":{"listChanged":true}}`)

	h.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"folders","arguments":{}}}`)
	h.AnswerRoots(front, back, inner, front)
	if got := h.Await("1").Tool(t).Content[0].Text; got != front+"\n"+back {
		t.Errorf("folders %q, want the roots %s and %s (the one inside front and the repeated one dropped)", got, front, back)
	}
	if got := folders(h, 2); got != front+"\n"+back {
		t.Errorf("second call: %q", got)
	}
	h.Send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	h.Send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"folders","arguments":{}}}`)
	h.AnswerRoots(back)
	if got := h.Await("3").Tool(t).Content[0].Text; got != back {
		t.Errorf("after list_changed: %q, want %s", got, back)
	}
	for _, w := range h.Finish() {
		if w.Method == "roots/list" {
			t.Errorf("roots/list asked again without a change: %s", w.Raw)
		}
	}
}

// TestRootsNarrowTheRoot: with a root, the client's roots narrow the
// workspace, never widen it; roots all outside it leave it in force, and
// the client is told once.
func TestRootsNarrowTheRoot(t *testing.T) {
	root, outside := realDir(t, "root"), realDir(t, "outside")
	sub := filepath.Join(root, "sub")
	os.Mkdir(sub, 0o755)
	h := start(t, Options{Root: root, RootsTimeout: guard})
	h.InitializeWith("2025-11-25", `{"roots":{"listChanged":true}}`)
	h.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"folders","arguments":{}}}`)
	h.AnswerRoots(sub, outside)
	if got := h.Await("1").Tool(t).Content[0].Text; got != sub {
		t.Errorf("roots sub and outside: folders %q, want %s", got, sub)
	}
	h.Send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
	h.Send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"folders","arguments":{}}}`)
	h.AnswerRoots("/")
	if got := h.Await("2").Tool(t).Content[0].Text; got != root {
		t.Errorf("root /: folders %q, want the server's %s", got, root)
	}
	for i := range 2 {
		h.Send(`{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}`)
		h.Sendf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"folders","arguments":{}}}`, 3+i)
		h.AnswerRoots(outside)
		if got := h.Await(strconv.Itoa(3 + i)).Tool(t).Content[0].Text; got != root {
			t.Errorf("every root outside: folders %q, want the server's %s", got, root)
		}
	}
	told := 0
	for _, w := range h.Finish() {
		if w.Method == "notifications/message" && strings.Contains(string(w.Params), "none of the client's roots is inside") {
			told++
		}
	}
	if told != 1 {
		t.Errorf("the client was told %d times that its roots are outside the workspace, want once", told)
	}
}

// TestRootsNeverAnswered: a client that declares roots and never answers
// roots/list: a call that does not ask for its workspace never waits; the
// first that does waits RootsTimeout, then works in the server's folder;
// the client is told once, and not asked again until its roots change.
func TestRootsNeverAnswered(t *testing.T) {
	root := realDir(t, "root")
	h := start(t, Options{Root: root, Info: Info{Name: "fixture"}, RootsTimeout: 100 * time.Millisecond, CallTimeout: guard})
	h.InitializeWith("2025-11-25", `{"roots":{"listChanged":true}}`)
	if res := h.Call(1, "tools/call", `{"name":"tool_a","arguments":{}}`).Tool(t); res.IsError {
		t.Fatalf("tool_a: %s", res.Content[0].Text)
	}
	h.Send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"folders","arguments":{}}}`)
	h.AwaitRequest("roots/list") // never answered
	if got := h.Await("2").Tool(t).Content[0].Text; got != root {
		t.Errorf("after roots/list went unanswered: folders %q, want %s", got, root)
	}
	if got := folders(h, 3); got != root {
		t.Errorf("then: folders %q", got)
	}
	asked, told := 0, 0
	for _, w := range h.Finish() {
		if w.Method == "roots/list" {
			asked++
		}
		if w.Method == "notifications/message" && strings.Contains(string(w.Params), "fixture could not use the client's roots (the client did not answer roots/list within 100ms)") {
			told++
		}
	}
	if asked != 0 || told != 1 {
		t.Errorf("after the first: roots/list sent %d more times (want 0), the client told %d times (want once)", asked, told)
	}
}

// TestRootsAskedAfterInitialized: the roots are asked for only once the
// client has sent notifications/initialized (the lifecycle allows only
// pings and logs before it); a call made before it waits for it, and a
// client that does not send it within RootsTimeout is asked all the same.
func TestRootsAskedAfterInitialized(t *testing.T) {
	front := realDir(t, "front")
	s, err := New(Options{Primitives: withTools(), RootsTimeout: guard})
	if err != nil {
		t.Fatal(err)
	}
	h := startServer(t, s)
	h.Call(0, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"test","version":"1"}}`)
	h.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"folders","arguments":{}}}`)
	for i := range 3 {
		h.Call(10+i, "ping", `{}`)
	}
	if early := h.TakeHeld(func(w *wire) bool { return w.Method == "roots/list" }); len(early) > 0 {
		t.Fatalf("roots/list sent before notifications/initialized: %s", early[0].Raw)
	}
	h.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	h.AnswerRoots(front)
	if got := h.Await("1").Tool(t).Content[0].Text; got != front {
		t.Errorf("folders %q, want the root %s", got, front)
	}
	h.Finish()

	// Without notifications/initialized: asked once RootsTimeout has
	// passed, never before (the server's timer starts when the call comes).
	const wait = 200 * time.Millisecond
	s, err = New(Options{Primitives: withTools(), RootsTimeout: wait})
	if err != nil {
		t.Fatal(err)
	}
	h = startServer(t, s)
	h.Call(0, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{"roots":{}},"clientInfo":{"name":"test","version":"1"}}`)
	sent := time.Now()
	h.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"folders","arguments":{}}}`)
	req := h.AwaitRequest("roots/list")
	if waited := time.Since(sent); waited < wait {
		t.Errorf("roots/list sent %v after the call, before notifications/initialized could have come (%v)", waited, wait)
	}
	h.Sendf(`{"jsonrpc":"2.0","id":%s,"result":{"roots":[{"uri":%q}]}}`, req.ID, "file://"+filepath.ToSlash(front))
	if got := h.Await("1").Tool(t).Content[0].Text; got != front {
		t.Errorf("without notifications/initialized: folders %q, want the root %s", got, front)
	}
	h.Finish()
}
