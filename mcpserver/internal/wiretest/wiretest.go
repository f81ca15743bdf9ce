// Package wiretest is the wire-test harness of the MCP server's tests
// (mcpserver and mcpserver/mcp): it runs a server on pipes and talks to it
// in raw lines, as an MCP client would. Tests never sleep: every wait is
// for a line the server writes, bounded by [Guard] so that a broken server
// fails instead of hanging. Start with [Start]. It is imported by tests
// only.
package wiretest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Guard bounds every wait for the server.
const Guard = 20 * time.Second

// A Harness is a raw MCP client connected to a running server.
type Harness struct {
	T      *testing.T
	in     *io.PipeWriter
	lines  chan []byte
	served chan error
	held   []*Wire // lines read while waiting for others
	Root   string
}

// A Wire is one message the server wrote.
type Wire struct {
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
	Raw []byte
}

// ParseWire decodes a line the server wrote, which must be a JSON-RPC 2.0
// message.
func ParseWire(t *testing.T, line []byte) *Wire {
	t.Helper()
	var w Wire
	if err := json.Unmarshal(line, &w); err != nil {
		t.Fatalf("server wrote a line that is not a JSON object: %q: %v", line, err)
	}
	if w.JSONRPC != "2.0" {
		t.Fatalf("server wrote a line without jsonrpc 2.0: %s", line)
	}
	w.Raw = line
	return &w
}

// Start runs serve (a server's ServeStream) on pipes until the test ends.
// root is the server's workspace folder, for the tests to read.
func Start(t *testing.T, root string, serve func(ctx context.Context, in io.Reader, out io.Writer) error) *Harness {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &Harness{T: t, in: inW, lines: make(chan []byte, 4096), served: make(chan error, 1), Root: root}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		err := serve(ctx, inR, outW)
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

// Send writes lines to the server, each with its newline.
func (h *Harness) Send(lines ...string) {
	h.T.Helper()
	for _, l := range lines {
		if _, err := io.WriteString(h.in, l+"\n"); err != nil {
			h.T.Fatalf("writing to the server: %v", err)
		}
	}
}

// Sendf sends a line built with fmt.Sprintf.
func (h *Harness) Sendf(format string, a ...any) { h.T.Helper(); h.Send(fmt.Sprintf(format, a...)) }

// Next returns the next line the server writes.
func (h *Harness) Next() *Wire {
	h.T.Helper()
	if len(h.held) > 0 {
		w := h.held[0]
		h.held = h.held[1:]
		return w
	}
	return ParseWire(h.T, h.NextLine())
}

// NextLine returns the next raw line the server writes.
func (h *Harness) NextLine() []byte {
	h.T.Helper()
	select {
	case line, ok := <-h.lines:
		if !ok {
			h.T.Fatal("the server closed its output while a message was awaited")
		}
		if !bytes.HasSuffix(line, []byte("\n")) {
			h.T.Fatalf("line without a newline: %q", line)
		}
		return line
	case <-time.After(Guard):
		h.T.Fatal("no message from the server within the Guard")
	}
	return nil
}

// Await returns the response with id (raw JSON), keeping other lines for later.
func (h *Harness) Await(id string) *Wire {
	h.T.Helper()
	for i, w := range h.held {
		if w.Method == "" && string(w.ID) == id {
			h.held = append(h.held[:i:i], h.held[i+1:]...)
			return w
		}
	}
	var skipped []*Wire
	for {
		w := h.NextFresh()
		if w.Method == "" && string(w.ID) == id {
			h.held = append(h.held, skipped...)
			return w
		}
		skipped = append(skipped, w)
	}
}

// AwaitMethod returns the next notification of method, keeping others.
func (h *Harness) AwaitMethod(method string) *Wire {
	h.T.Helper()
	for i, w := range h.held {
		if w.Method == method {
			h.held = append(h.held[:i:i], h.held[i+1:]...)
			return w
		}
	}
	var skipped []*Wire
	for {
		w := h.NextFresh()
		if w.Method == method {
			h.held = append(h.held, skipped...)
			return w
		}
		skipped = append(skipped, w)
	}
}

// TakeHeld removes the lines held while others were awaited that match
// keep, and returns them in order.
func (h *Harness) TakeHeld(keep func(*Wire) bool) []*Wire {
	var out []*Wire
	rest := h.held[:0:0]
	for _, w := range h.held {
		if keep(w) {
			out = append(out, w)
		} else {
			rest = append(rest, w)
		}
	}
	h.held = rest
	return out
}

// AnswerRoots answers the next roots/list request with the folders, as
// file URIs.
func (h *Harness) AnswerRoots(dirs ...string) {
	h.T.Helper()
	req := h.AwaitRequest("roots/list")
	type root struct {
		URI  string `json:"uri"`
		Name string `json:"name"`
	}
	roots := []root{}
	for _, d := range dirs {
		u := url.URL{Scheme: "file", Path: filepath.ToSlash(d)}
		roots = append(roots, root{URI: u.String(), Name: filepath.Base(d)})
	}
	b, _ := json.Marshal(roots)
	h.Sendf(`{"jsonrpc":"2.0","id":%s,"result":{"roots":%s}}`, req.ID, b)
}

// NextFresh returns the next line the server writes, not one held.
func (h *Harness) NextFresh() *Wire {
	h.T.Helper()
	held := h.held
	h.held = nil
	w := h.Next()
	h.held = held
	return w
}

// Finish closes the input and returns every line written after it, checking
// that the server returned nil.
func (h *Harness) Finish() []*Wire {
	h.T.Helper()
	h.in.Close()
	rest := h.held
	h.held = nil
	deadline := time.After(Guard)
	for {
		select {
		case line, ok := <-h.lines:
			if !ok {
				select {
				case err := <-h.served:
					if err != nil {
						h.T.Fatalf("ServeStream returned %v", err)
					}
				case <-deadline:
					h.T.Fatal("ServeStream did not return")
				}
				return rest
			}
			rest = append(rest, ParseWire(h.T, line))
		case <-deadline:
			h.T.Fatal("the server did not finish within the Guard")
		}
	}
}

// Call sends a request and returns its response.
func (h *Harness) Call(id int, method, params string) *Wire {
	h.T.Helper()
	if params == "" {
		h.Sendf(`{"jsonrpc":"2.0","id":%d,"method":%q}`, id, method)
	} else {
		h.Sendf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, id, method, params)
	}
	return h.Await(fmt.Sprint(id))
}

// Initialize performs the handshake with version.
func (h *Harness) Initialize(version string) *Wire {
	h.T.Helper()
	w := h.Call(0, "initialize", fmt.Sprintf(`{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"test","version":"1"}}`, version))
	h.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return w
}

// ModernMeta is the _meta of a 2026-07-28 request, plus extra members.
func ModernMeta(extra string) string {
	m := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"test","version":"1"}`
	if extra != "" {
		m += "," + extra
	}
	return m + "}"
}

// ErrCode is the code of the message's error, or 0.
func (w *Wire) ErrCode() int {
	if w.Error == nil {
		return 0
	}
	return w.Error.Code
}

// ResultMap decodes the result into a map.
func (w *Wire) ResultMap(t *testing.T) map[string]any {
	t.Helper()
	if w.Error != nil {
		t.Fatalf("unexpected error: %s", w.Raw)
	}
	var m map[string]any
	if err := json.Unmarshal(w.Result, &m); err != nil {
		t.Fatalf("result is not an object: %s", w.Raw)
	}
	return m
}

// ToolCall is a decoded CallToolResult.
type ToolCall struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// Tool decodes the CallToolResult, which must have a text block.
func (w *Wire) Tool(t *testing.T) ToolCall {
	t.Helper()
	if w.Error != nil {
		t.Fatalf("tools/call failed: %s", w.Raw)
	}
	var tc ToolCall
	if err := json.Unmarshal(w.Result, &tc); err != nil {
		t.Fatal(err)
	}
	if len(tc.Content) == 0 || tc.Content[0].Type != "text" {
		t.Fatalf("no text block: %s", w.Raw)
	}
	return tc
}

// InitializeWith performs the handshake declaring caps.
func (h *Harness) InitializeWith(version, caps string) *Wire {
	h.T.Helper()
	w := h.Call(0, "initialize", `{"protocolVersion":"`+version+`","capabilities":`+caps+`,"clientInfo":{"name":"test","version":"1"}}`)
	h.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return w
}

// AwaitRequest returns the next request the server sends to the client,
// checking that its line does not start as a response's does.
func (h *Harness) AwaitRequest(method string) *Wire {
	h.T.Helper()
	w := h.AwaitMethod(method)
	if w.ID == nil {
		h.T.Fatalf("%s came without an id: %s", method, w.Raw)
	}
	if strings.HasPrefix(string(w.Raw), `{"jsonrpc":"2.0","id":`) {
		h.T.Fatalf("a request line starts like a response: %s", w.Raw)
	}
	return w
}
