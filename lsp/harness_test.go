package lsp

// This file is the wire-test harness: it runs the real Serve on pipes and
// talks to it in raw frames, like an editor would.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

func init() {
	// Methods that exist only in tests, to drive the handler chain.
	testRequests["wfl/test/panic"] = request{prepare: async(func(*server, jsonrpc2.RawMessage) (work, error) {
		return func(context.Context) (any, error) { panic("boom") }, nil
	})}
	testRequests["wfl/test/panicPrepare"] = request{prepare: async(func(*server, jsonrpc2.RawMessage) (work, error) {
		panic("boom in prepare")
	})}
	testRequests["wfl/test/block"] = request{prepare: async(func(*server, jsonrpc2.RawMessage) (work, error) {
		return func(ctx context.Context) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}, nil
	})}
	testRequests["wfl/test/text"] = docRequest(func(p *textParams) uri.URI { return p.TextDocument.URI },
		func(_ context.Context, _ *server, d doc, _ *textParams) (any, error) {
			return map[string]any{"text": d.snap.Text, "version": d.snap.Version}, nil
		})
	// Gated requests wait for the test to close testGate after reading their
	// snapshot's text, so a test can change the document under them.
	gated := func(_ context.Context, _ *server, d doc, _ *textParams) (any, error) {
		text := d.snap.Text
		<-testGate
		return map[string]any{"text": text, "version": d.snap.Version}, nil
	}
	testRequests["wfl/test/gatedPosition"] = docRequest(func(p *textParams) uri.URI { return p.TextDocument.URI }, gated)
	testRequests["wfl/test/gatedWhole"] = wholeDocRequest(func(p *textParams) uri.URI { return p.TextDocument.URI }, gated)
	testRequests["wfl/test/gatedReceipt"] = receiptDocRequest(func(p *textParams) uri.URI { return p.TextDocument.URI }, gated)
	notifications["wfl/test/panicNotify"] = func(*server, jsonrpc2.RawMessage) error { panic("boom in notification") }
	notifications["wfl/test/failNotify"] = func(*server, jsonrpc2.RawMessage) error { return fmt.Errorf("failed on purpose") }
}

// testGate holds the gated test requests until a test closes it.
var testGate chan struct{}

type textParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
}

// msg is any message the server sent.
type msg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	raw []byte
	at  time.Time // when its last byte was read, before it was decoded
}

func (m *msg) isResponse() bool { return m.Method == "" }

// client is a raw LSP client connected to a server running Serve.
type client struct {
	t      testing.TB
	in     *io.PipeWriter // the server's input
	inbox  chan *msg
	served chan error // Serve's result
	seen   []*msg     // messages read while waiting for another

	mu     sync.Mutex
	nextID int
}

// guard bounds every wait so that a broken server fails the test instead of
// hanging it; tests never wait for time to pass.
const guard = 20 * time.Second

func newClient(t testing.TB, opts ...func(*Options)) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tw := &testWriter{t: t}
	t.Cleanup(tw.stop)
	o := Options{Version: "test", Logger: slog.New(slog.NewTextHandler(tw, &slog.HandlerOptions{Level: slog.LevelDebug}))}
	for _, f := range opts {
		f(&o)
	}
	c := &client{t: t, in: inW, inbox: make(chan *msg, 4096), served: make(chan error, 1)}
	go func() {
		err := Serve(context.Background(), inR, outW, o)
		outW.Close()
		c.served <- err
	}()
	go c.read(bufio.NewReader(outR))
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
	})
	return c
}

// testWriter sends server logs to the test log until the test ends.
type testWriter struct {
	t    testing.TB
	mu   sync.Mutex
	done bool
}

func (w *testWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done {
		w.t.Log(strings.TrimRight(string(p), "\n"))
	}
	return len(p), nil
}

func (w *testWriter) stop() {
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
}

func (c *client) read(r *bufio.Reader) {
	defer close(c.inbox)
	for {
		length := -1
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				break
			}
			if name, value, ok := strings.Cut(line, ":"); ok && strings.EqualFold(name, "Content-Length") {
				length, _ = strconv.Atoi(strings.TrimSpace(value))
			}
		}
		if length < 0 {
			c.t.Errorf("server sent a frame without Content-Length")
			return
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			return
		}
		m := &msg{raw: body, at: time.Now()}
		if err := json.Unmarshal(body, m); err != nil {
			c.t.Errorf("server sent invalid JSON %q: %v", body, err)
			return
		}
		c.inbox <- m
	}
}

// sendRaw writes bytes as they are.
func (c *client) sendRaw(b string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, b); err != nil {
		c.t.Fatalf("write: %v", err)
	}
}

// sendBody frames a body with a correct Content-Length.
func (c *client) sendBody(body string) {
	c.t.Helper()
	c.sendRaw(fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body))
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	c.sendBody(encode(c.t, map[string]any{"jsonrpc": "2.0", "method": method, "params": params}))
}

// start sends a request and returns its id.
func (c *client) start(method string, params any) int {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.mu.Unlock()
	m := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		m["params"] = params
	}
	c.sendBody(encode(c.t, m))
	return id
}

// call sends a request and waits for its response.
func (c *client) call(method string, params any) *msg {
	c.t.Helper()
	return c.response(c.start(method, params))
}

// response waits for the response to request id.
func (c *client) response(id int) *msg {
	c.t.Helper()
	want := strconv.Itoa(id)
	return c.await(fmt.Sprintf("response to %d", id), func(m *msg) bool {
		return m.isResponse() && string(m.ID) == want
	})
}

// await returns the first message, in arrival order, that matches; messages
// that do not match are kept for later waits.
func (c *client) await(what string, match func(*msg) bool) *msg {
	c.t.Helper()
	for i, m := range c.seen {
		if match(m) {
			c.seen = append(c.seen[:i:i], c.seen[i+1:]...)
			return m
		}
	}
	timeout := time.After(guard)
	for {
		select {
		case m, ok := <-c.inbox:
			if !ok {
				c.t.Fatalf("server closed the stream while waiting for %s", what)
			}
			if match(m) {
				return m
			}
			c.seen = append(c.seen, m)
		case <-timeout:
			c.t.Fatalf("no %s within %v", what, guard)
		}
	}
}

// diagnostics waits for the publishDiagnostics of uri at version.
func (c *client) diagnostics(uri string, version int) *publishParams {
	c.t.Helper()
	var p publishParams
	c.await(fmt.Sprintf("diagnostics for %s version %d", uri, version), func(m *msg) bool {
		if m.Method != "textDocument/publishDiagnostics" {
			return false
		}
		var q publishParams
		if err := json.Unmarshal(m.Params, &q); err != nil {
			c.t.Fatalf("publishDiagnostics params: %v", err)
		}
		if q.URI == uri && q.Version != nil && *q.Version == version {
			p = q
			p.raw, p.at = m.Params, m.at
			return true
		}
		return false
	})
	return &p
}

type publishParams struct {
	URI         string          `json:"uri"`
	Version     *int            `json:"version"`
	Diagnostics []wireDiag      `json:"diagnostics"`
	raw         json.RawMessage `json:"-"`
	at          time.Time       // when the message was read (msg.at)
}

type wireDiag struct {
	Range    wireRange `json:"range"`
	Severity int       `json:"severity"`
	Code     string    `json:"code"`
	Source   string    `json:"source"`
	Message  string    `json:"message"`
	Tags     []int     `json:"tags"`
	Related  []struct {
		Location struct {
			URI   string    `json:"uri"`
			Range wireRange `json:"range"`
		} `json:"location"`
		Message string `json:"message"`
	} `json:"relatedInformation"`
}

type wirePos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type wireRange struct {
	Start wirePos `json:"start"`
	End   wirePos `json:"end"`
}

// initialize runs the initialize handshake with the given client capabilities.
func (c *client) initialize(caps any) *msg {
	c.t.Helper()
	if caps == nil {
		caps = map[string]any{}
	}
	return c.initializeWith(map[string]any{"processId": nil, "rootUri": nil, "capabilities": caps})
}

// initializeWith is initialize with all of the request's params given.
func (c *client) initializeWith(params map[string]any) *msg {
	c.t.Helper()
	r := c.call("initialize", params)
	if r.Error != nil {
		c.t.Fatalf("initialize: %+v", r.Error)
	}
	c.notify("initialized", map[string]any{})
	return r
}

func (c *client) open(uri, text string, version int) {
	c.t.Helper()
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "wfl", "version": version, "text": text}})
}

// finish sends shutdown and exit and returns Serve's result.
func (c *client) finish() error {
	c.t.Helper()
	if r := c.call("shutdown", nil); r.Error != nil || string(r.Result) != "null" {
		c.t.Fatalf("shutdown: result %s, error %+v", r.Result, r.Error)
	}
	c.notify("exit", nil)
	return c.wait()
}

// wait returns Serve's result.
func (c *client) wait() error {
	c.t.Helper()
	select {
	case err := <-c.served:
		return err
	case <-time.After(guard):
		c.t.Fatalf("Serve did not return within %v", guard)
		return nil
	}
}

// wantError checks that a response is an error with the given code.
func wantError(t *testing.T, what string, m *msg, code int) {
	t.Helper()
	if m.Error == nil {
		t.Errorf("%s: got result %s, want error %d", what, m.Result, code)
		return
	}
	if m.Error.Code != code {
		t.Errorf("%s: got error %d %q, want code %d", what, m.Error.Code, m.Error.Message, code)
	}
}

func encode(t testing.TB, v any) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimRight(buf.String(), "\n")
}
