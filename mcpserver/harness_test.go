package mcpserver

// This file is the wire-test harness: it runs the real server on pipes and
// talks to it in raw lines, like an MCP client would. Tests never sleep:
// every wait is for a line the server writes, bounded by a guard so that a
// broken server fails instead of hanging.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"wfl-lsp/internal/txtar"
)

const guard = 20 * time.Second

// testWorkspace copies testdata/mcp/workspace.txtar into a temporary folder and
// adds escape.wfl, a symbolic link to a file outside it.
func testWorkspace(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	data, err := os.ReadFile("../testdata/mcp/workspace.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range txtar.Parse(string(data)).Files {
		name, body := f.Name, f.Data
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outside := filepath.Join(t.TempDir(), "secret.wfl")
	os.WriteFile(outside, []byte("display \"secret\"\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "escape.wfl")); err != nil {
		t.Fatal(err)
	}
	return root
}

// harness is a raw MCP client connected to a running server.
type harness struct {
	t      *testing.T
	in     *io.PipeWriter
	lines  chan []byte
	served chan error
	held   []*wire // lines read while waiting for others
	root   string
}

// wire is one message the server wrote.
type wire struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
	raw []byte
}

func parseWire(t *testing.T, line []byte) *wire {
	t.Helper()
	var w wire
	if err := json.Unmarshal(line, &w); err != nil {
		t.Fatalf("server wrote a line that is not a JSON object: %q: %v", line, err)
	}
	if w.JSONRPC != "2.0" {
		t.Fatalf("server wrote a line without jsonrpc 2.0: %s", line)
	}
	w.raw = line
	return &w
}

// noRoot as Options.Root makes start run a server without --root.
const noRoot = "\x00client roots"

// start runs a server with opts (Root defaulting to a fresh workspace).
func start(t *testing.T, opts Options) *harness {
	t.Helper()
	switch opts.Root {
	case "":
		opts.Root = testWorkspace(t)
	case noRoot:
		opts.Root = "" // the workspace follows the client's roots
	}
	if opts.Primitives == nil {
		opts.Primitives = withTools(testTools()...)
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &harness{t: t, in: inW, lines: make(chan []byte, 4096), served: make(chan error, 1), root: opts.Root}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		err := s.ServeStream(ctx, inR, outW)
		outW.Close()
		h.served <- err
	}()
	go func() {
		r := bufio.NewReader(outR)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 {
				h.lines <- line
			}
			if err != nil {
				close(h.lines)
				return
			}
		}
	}()
	t.Cleanup(func() {
		cancel()
		inW.Close()
		for range h.lines {
		}
	})
	return h
}

func (h *harness) send(lines ...string) {
	h.t.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(h.in, l+"\n"); err != nil {
			h.t.Fatalf("writing to the server: %v", err)
		}
	}
}

// sendf sends a line built with fmt.Sprintf.
func (h *harness) sendf(format string, a ...any) { h.t.Helper(); h.send(fmt.Sprintf(format, a...)) }

// next returns the next line the server writes.
func (h *harness) next() *wire {
	h.t.Helper()
	if len(h.held) > 0 {
		w := h.held[0]
		h.held = h.held[1:]
		return w
	}
	return parseWire(h.t, h.nextLine())
}

// nextLine returns the next raw line the server writes.
func (h *harness) nextLine() []byte {
	h.t.Helper()
	select {
	case line, ok := <-h.lines:
		if !ok {
			h.t.Fatal("the server closed its output while a message was awaited")
		}
		if !bytes.HasSuffix(line, []byte("\n")) {
			h.t.Fatalf("line without a newline: %q", line)
		}
		return line
	case <-time.After(guard):
		h.t.Fatal("no message from the server within the guard")
	}
	return nil
}

// await returns the response with id (raw JSON), keeping other lines for later.
func (h *harness) await(id string) *wire {
	h.t.Helper()
	for i, w := range h.held {
		if w.Method == "" && string(w.ID) == id {
			h.held = append(h.held[:i:i], h.held[i+1:]...)
			return w
		}
	}
	var skipped []*wire
	for {
		w := h.nextFresh()
		if w.Method == "" && string(w.ID) == id {
			h.held = append(h.held, skipped...)
			return w
		}
		skipped = append(skipped, w)
	}
}

// awaitMethod returns the next notification of method, keeping others.
func (h *harness) awaitMethod(method string) *wire {
	h.t.Helper()
	for i, w := range h.held {
		if w.Method == method {
			h.held = append(h.held[:i:i], h.held[i+1:]...)
			return w
		}
	}
	var skipped []*wire
	for {
		w := h.nextFresh()
		if w.Method == method {
			h.held = append(h.held, skipped...)
			return w
		}
		skipped = append(skipped, w)
	}
}

func (h *harness) nextFresh() *wire {
	h.t.Helper()
	held := h.held
	h.held = nil
	w := h.next()
	h.held = held
	return w
}

// finish closes the input and returns every line written after it, checking
// that the server returned nil.
func (h *harness) finish() []*wire {
	h.t.Helper()
	h.in.Close()
	rest := h.held
	h.held = nil
	deadline := time.After(guard)
	for {
		select {
		case line, ok := <-h.lines:
			if !ok {
				select {
				case err := <-h.served:
					if err != nil {
						h.t.Fatalf("ServeStream returned %v", err)
					}
				case <-deadline:
					h.t.Fatal("ServeStream did not return")
				}
				return rest
			}
			rest = append(rest, parseWire(h.t, line))
		case <-deadline:
			h.t.Fatal("the server did not finish within the guard")
		}
	}
}

// call sends a request and returns its response.
func (h *harness) call(id int, method, params string) *wire {
	h.t.Helper()
	if params == "" {
		h.sendf(`{"jsonrpc":"2.0","id":%d,"method":%q}`, id, method)
	} else {
		h.sendf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
	}
	return h.await(fmt.Sprint(id))
}

// initialize performs the handshake with version.
func (h *harness) initialize(version string) *wire {
	h.t.Helper()
	w := h.call(0, "initialize", fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"test","version":"1"}}`, version))
	h.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return w
}

// modernMeta is the _meta of a 2026-07-28 request, plus extra members.
func modernMeta(extra string) string {
	m := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"}`
	if extra != "" {
		m += "," + extra
	}
	return m + "}"
}

func (w *wire) errCode() int {
	if w.Error == nil {
		return 0
	}
	return w.Error.Code
}

// result decodes the result into a map.
func (w *wire) resultMap(t *testing.T) map[string]any {
	t.Helper()
	if w.Error != nil {
		t.Fatalf("unexpected error: %s", w.raw)
	}
	var m map[string]any
	if err := json.Unmarshal(w.Result, &m); err != nil {
		t.Fatalf("result is not an object: %s", w.raw)
	}
	return m
}

// toolCall is a decoded CallToolResult.
type toolCall struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

func (w *wire) tool(t *testing.T) toolCall {
	t.Helper()
	if w.Error != nil {
		t.Fatalf("tools/call failed: %s", w.raw)
	}
	var tc toolCall
	if err := json.Unmarshal(w.Result, &tc); err != nil {
		t.Fatal(err)
	}
	if len(tc.Content) == 0 || tc.Content[0].Type != "text" {
		t.Fatalf("no text block: %s", w.raw)
	}
	return tc
}

// Test tools: echo, block (until cancelled), panic, and gate (waits for the
// test to release it).
var errBoom = errors.New("boom")

var (
	blockStarted = make(chan string, 16)
	blockEnded   = make(chan string, 16)
)

// textTool is a test tool without an input schema: raw arguments in, text
// out, an error as an isError result.
func textTool(name string, f func(ctx context.Context, args json.RawMessage) (string, error)) *Tool {
	return &Tool{Name: name, Description: "test tool " + name, Call: func(ctx context.Context, c *Call) Result {
		text, err := f(ctx, c.Arguments)
		if err != nil {
			return Result{Text: err.Error(), IsError: true}
		}
		return Result{Text: text}
	}}
}

// withTools returns WFL's primitives with more tools after its own.
func withTools(tools ...*Tool) *Primitives {
	p := WFL()
	p.Tools = append(append([]*Tool{}, p.Tools...), tools...)
	return &p
}

// wflOnly returns WFL's primitives as the product serves them.
func wflOnly() *Primitives {
	p := WFL()
	return &p
}

func testTools() []*Tool {
	return []*Tool{
		textTool("echo", func(ctx context.Context, args json.RawMessage) (string, error) {
			var a struct {
				Text *string `json:"text"`
			}
			if err := json.Unmarshal(args, &a); err != nil || a.Text == nil {
				return "", errors.New(`echo needs "text", a string`)
			}
			return *a.Text, nil
		}),
		textTool("block", func(ctx context.Context, args json.RawMessage) (string, error) {
			blockStarted <- string(args)
			<-ctx.Done()
			blockEnded <- string(args)
			return "", ctx.Err()
		}),
		textTool("panic", func(ctx context.Context, args json.RawMessage) (string, error) {
			panic(errBoom)
		}),
	}
}

func waitChan(t *testing.T, ch chan string) string {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(guard):
		t.Fatal("a test tool did not report within the guard")
	}
	return ""
}
