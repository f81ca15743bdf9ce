package mcp

// This file tests the session: cancellation, duplicate ids, panics, time
// limits, progress and logging.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"
)

func TestCancellation(t *testing.T) {
	h := start(t, Options{})
	h.Initialize("2025-11-25")
	h.Send(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"block","arguments":{"n":7}}}`)
	waitChan(t, blockStarted)
	// The same id cannot be reused while the call runs.
	if w := h.Call(7, "ping", ""); w.ErrCode() != -32600 {
		t.Errorf("duplicate id: %s", w.Raw)
	}
	h.Send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"test"}}`)
	waitChan(t, blockEnded) // the handler's context was cancelled
	if w := h.Call(8, "ping", ""); w.Error != nil {
		t.Fatalf("ping after cancel: %s", w.Raw)
	}
	// initialize cannot be cancelled, and cancelling what is unknown or done is ignored.
	h.Send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":0}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":8}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}`)
	for _, w := range h.Finish() {
		if string(w.ID) == "7" {
			t.Errorf("the cancelled request was answered: %s", w.Raw)
		}
		t.Errorf("unexpected line: %s", w.Raw)
	}
}

func TestPanicBecomesInternalError(t *testing.T) {
	h := start(t, Options{})
	w := h.Call(1, "tools/call", `{"name":"panic"}`)
	if w.ErrCode() != -32603 || !strings.Contains(w.Error.Message, "boom") {
		t.Fatalf("got %s", w.Raw)
	}
	if w := h.Call(2, "ping", ""); w.Error != nil {
		t.Fatalf("the session did not survive the panic: %s", w.Raw)
	}
}

func TestCallTimeout(t *testing.T) {
	h := start(t, Options{CallTimeout: 20 * time.Millisecond})
	res := h.Call(1, "tools/call", `{"name":"block","arguments":{}}`).Tool(t)
	waitChan(t, blockStarted)
	waitChan(t, blockEnded)
	var f toolFailure
	if !res.IsError || json.Unmarshal([]byte(res.Content[0].Text), &f) != nil || f.Error.Kind != "timeout" || f.Error.LimitMs != 20 {
		t.Fatalf("got %+v", res)
	}
}

func TestProgressOrdering(t *testing.T) {
	h := start(t, Options{})
	h.Initialize("2025-11-25")
	h.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"work","arguments":{},"_meta":{"progressToken":"tok"}}}`)
	var progress []float64
	for {
		w := h.Next()
		if w.Method == "notifications/progress" {
			var p struct {
				Token    string  `json:"progressToken"`
				Progress float64 `json:"progress"`
				Total    float64 `json:"total"`
				Message  string  `json:"message"`
			}
			json.Unmarshal(w.Params, &p)
			if p.Token != "tok" || p.Total != 3 || !strings.HasPrefix(p.Message, "checked ") {
				t.Errorf("progress %s", w.Raw)
			}
			progress = append(progress, p.Progress)
			continue
		}
		if string(w.ID) != "1" {
			t.Fatalf("unexpected %s", w.Raw)
		}
		break // the response: nothing more may follow for this request
	}
	if len(progress) != 3 {
		t.Fatalf("progress notifications %v, want one per step (3)", progress)
	}
	for i := 1; i < len(progress); i++ {
		if progress[i] <= progress[i-1] {
			t.Errorf("progress not increasing: %v", progress)
		}
	}
	if rest := h.Finish(); len(rest) != 0 {
		t.Errorf("lines after the response: %s", rest[0].Raw)
	}
}

func TestLogging(t *testing.T) {
	h := start(t, Options{})
	h.Initialize("2025-11-25")
	for _, bad := range []string{`{"level":"loud"}`, `{}`, `{"level":3}`} {
		if w := h.Call(1, "logging/setLevel", bad); w.ErrCode() != -32602 {
			t.Errorf("setLevel %s: %s", bad, w.Raw)
		}
	}
	if w := h.Call(2, "logging/setLevel", `{"level":"info"}`); w.Error != nil || string(w.Result) != "{}" {
		t.Fatalf("got %s", w.Raw)
	}
	h.Send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"work","arguments":{}}}`)
	if w := h.Next(); w.Method != "notifications/message" || !strings.Contains(string(w.Params), `"level":"info"`) {
		t.Fatalf("want an info log before the answer, got %s", w.Raw)
	}
	h.Await("3")
	// Above the level of the message, nothing is logged.
	h.Call(4, "logging/setLevel", `{"level":"error"}`)
	h.Call(5, "tools/call", `{"name":"work","arguments":{}}`)
	if rest := h.Finish(); len(rest) != 0 {
		t.Errorf("unexpected %s", rest[0].Raw)
	}
}

func TestShutdownByContext(t *testing.T) {
	// A signal ends the context: calls in progress are cancelled, answered,
	// and ServeStream returns nil although the input is still open.
	s, err := New(Options{Root: t.TempDir(), Primitives: withTools(testTools()...)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	inR, inW := io.Pipe()
	defer inW.Close()
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- s.ServeStream(ctx, inR, &out) }()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"block","arguments":{}}}`+"\n")
	waitChan(t, blockStarted)
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(guard):
		t.Fatal("ServeStream did not return after its context ended")
	}
	waitChan(t, blockEnded)
	w := parseWire(t, bytes.TrimSpace(out.Bytes()))
	if string(w.ID) != `"slow"` || !strings.Contains(string(w.Result), `cancelled`) {
		t.Errorf("got %s", out.Bytes())
	}
}
