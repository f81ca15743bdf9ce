package mcp

// This file tests the protocol through pipes: the handshake of each
// revision, the stateless revision, bad lines, batches, cancellation,
// progress, logging, panics, time limits and the drain at end of input.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestPipedPing(t *testing.T) {
	var out bytes.Buffer
	err := ServeStdio(context.Background(), strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"), &out, Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := out.String(), `{"jsonrpc":"2.0","id":1,"result":{}}`+"\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestEndOfInputDrain(t *testing.T) {
	// Everything is read at once and input ends at once: every request
	// already read must still be answered before ServeStdio returns.
	var in strings.Builder
	const n = 200
	for i := 1; i <= n; i++ {
		switch i % 4 {
		case 0:
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`+"\n", i)
		case 1:
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"t%d"}}}`+"\n", i, i)
		case 2:
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"tool_a","arguments":{"x":"1"}}}`+"\n", i)
		case 3:
			fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":"s%d","method":"tools/list"}`+"\n", i)
		}
	}
	in.WriteString(`{"jsonrpc":"2.0","id":"last","method":"ping"}`) // no final newline
	var out bytes.Buffer
	opts := Options{Root: testWorkspace(t), Workers: 2, Primitives: withTools(testTools()...)}
	if err := ServeStdio(context.Background(), strings.NewReader(in.String()), &out, opts); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		w := parseWire(t, []byte(line))
		if w.Error != nil {
			t.Errorf("error answer: %s", line)
		}
		seen[string(w.ID)]++
	}
	if len(seen) != n+1 {
		t.Errorf("got answers to %d requests, want %d", len(seen), n+1)
	}
	for id, k := range seen {
		if k != 1 {
			t.Errorf("id %s answered %d times", id, k)
		}
	}
	if seen[`"last"`] != 1 {
		t.Error("the last line, without a newline, was not answered")
	}
}

func TestBadLines(t *testing.T) {
	h := start(t, Options{MaxLineBytes: 4096})
	tests := []struct {
		name string
		line string
		code int
		id   string
	}{
		{"garbage", `garbage`, -32700, "null"},
		{"truncated", `{"jsonrpc":"2.0","id":1,"method":"ping"`, -32700, "null"},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xffing\"}", -32700, "null"},
		{"number", `42`, -32600, "null"},
		{"string", `"ping"`, -32600, "null"},
		{"null", `null`, -32600, "null"},
		{"empty batch", `[]`, -32600, "null"},
		{"batch before 2025-03-26 negotiated", `[{"jsonrpc":"2.0","id":1,"method":"ping"}]`, -32600, "null"},
		{"no jsonrpc", `{"id":2,"method":"ping"}`, -32600, "2"},
		{"jsonrpc 1.0", `{"jsonrpc":"1.0","id":3,"method":"ping"}`, -32600, "3"},
		{"jsonrpc number", `{"jsonrpc":2.0,"id":4,"method":"ping"}`, -32600, "4"},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, -32600, "null"},
		{"id float", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, "null"},
		{"id object", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, -32600, "null"},
		{"id bool", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, -32600, "null"},
		{"no method", `{"jsonrpc":"2.0","id":5}`, -32600, "5"},
		{"empty method", `{"jsonrpc":"2.0","id":6,"method":""}`, -32600, "6"},
		{"method number", `{"jsonrpc":"2.0","id":7,"method":7}`, -32600, "7"},
		{"duplicate member", `{"jsonrpc":"2.0","id":8,"method":"ping","method":"ping"}`, -32600, "8"},
		{"params string", `{"jsonrpc":"2.0","id":9,"method":"ping","params":"x"}`, -32600, "9"},
		{"params array", `{"jsonrpc":"2.0","id":10,"method":"ping","params":[]}`, -32602, "10"},
		{"request with result", `{"jsonrpc":"2.0","id":11,"method":"ping","result":{}}`, -32600, "11"},
		{"unknown method", `{"jsonrpc":"2.0","id":12,"method":"no/such"}`, -32601, "12"},
		{"string id echoed", `{"jsonrpc":"2.0","id":"a\u0062","method":"no/such"}`, -32601, `"ab"`},
		// A line too long is answered with its id when it can be read: from
		// the members before the long one, or from the last member.
		{"too long", `{"jsonrpc":"2.0","id":13,"method":"ping","params":{"x":"` + strings.Repeat("x", 5000) + `"}}`, -32600, "13"},
		{"too long, id last", `{"jsonrpc":"2.0","method":"ping","params":{"x":"` + strings.Repeat("x", 5000) + `"},"id":"a\"}"}`, -32600, `"a\"}"`},
		{"too long, id only in params", `{"jsonrpc":"2.0","method":"ping","params":{"x":"` + strings.Repeat("x", 5000) + `","id":15}}`, -32600, "null"},
		{"too long, id in a string", `{"jsonrpc":"2.0","method":"ping","params":{"x":"` + strings.Repeat("x", 5000) + `\"id\":16}"}}`, -32600, "null"},
		{"too long, no id", strings.Repeat(" ", 5000) + `{"jsonrpc":"2.0","id":17,"method":"ping"}`, -32600, "null"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.T = t
			h.Send(tt.line)
			w := h.Next()
			if w.ErrCode() != tt.code || string(w.ID) != tt.id {
				t.Errorf("got %s, want code %d with id %s", w.Raw, tt.code, tt.id)
			}
			// The session survives: a ping still gets its answer.
			pingID := 1000 + i
			if p := h.Call(pingID, "ping", ""); p.Error != nil || string(p.Result) != "{}" {
				t.Errorf("ping after the bad line: %s", p.Raw)
			}
		})
	}
	h.T = t
	// A response from the client and notifications are never answered.
	h.Send(`{"jsonrpc":"2.0","id":77,"result":{}}`, `{"jsonrpc":"2.0","method":"notifications/unknown"}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"never-sent"}}`, ``, `   `)
	if w := h.Call(2000, "ping", ""); string(w.ID) != "2000" {
		t.Fatalf("something answered a message that must not be answered: %s", w.Raw)
	}
	if rest := h.Finish(); len(rest) != 0 {
		t.Fatalf("unexpected lines: %s", rest[0].Raw)
	}
}

func TestNegotiation(t *testing.T) {
	tests := []struct{ requested, want string }{
		{"2024-11-05", "2024-11-05"},
		{"2025-03-26", "2025-03-26"},
		{"2025-06-18", "2025-06-18"},
		{"2025-11-25", "2025-11-25"},
		{"2026-07-28", "2025-11-25"}, // the stateless revision has no handshake
		{"2099-01-01", "2025-11-25"}, // unknown: never echoed
		{"garbage", "2025-11-25"},
	}
	for _, tt := range tests {
		t.Run(tt.requested, func(t *testing.T) {
			h := start(t, Options{Info: Info{Name: "fixture", Title: "Fixture"}})
			m := h.Initialize(tt.requested).ResultMap(t)
			if m["protocolVersion"] != tt.want {
				t.Errorf("protocolVersion = %v, want %s", m["protocolVersion"], tt.want)
			}
			caps := m["capabilities"].(map[string]any)
			if _, ok := caps["completions"]; ok != atLeast(tt.want, "2025-03-26") {
				t.Errorf("completions capability present=%v under %s", ok, tt.want)
			}
			info := m["serverInfo"].(map[string]any)
			if _, ok := info["title"]; info["name"] != "fixture" || ok != atLeast(tt.want, "2025-06-18") {
				t.Errorf("serverInfo = %v under %s", info, tt.want)
			}
			// A second initialize is refused; the session goes on.
			if w := h.Call(1, "initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"x","version":"1"}}`); w.ErrCode() != -32600 {
				t.Errorf("second initialize: %s", w.Raw)
			}
			tools := h.Call(2, "tools/list", "").ResultMap(t)["tools"].([]any)
			first := tools[0].(map[string]any)
			if _, ok := first["outputSchema"]; ok != atLeast(tt.want, "2025-06-18") {
				t.Errorf("outputSchema present=%v under %s", ok, tt.want)
			}
			if _, ok := first["annotations"]; ok != atLeast(tt.want, "2025-03-26") {
				t.Errorf("annotations present=%v under %s", ok, tt.want)
			}
			res := h.Call(3, "tools/call", `{"name":"tool_a","arguments":{"x":"y"}}`).Tool(t)
			if (res.StructuredContent != nil) != atLeast(tt.want, "2025-06-18") {
				t.Errorf("structuredContent present=%v under %s", res.StructuredContent != nil, tt.want)
			}
		})
	}
	t.Run("missing version", func(t *testing.T) {
		h := start(t, Options{})
		if w := h.Call(1, "initialize", `{"capabilities":{}}`); w.ErrCode() != -32602 {
			t.Errorf("got %s", w.Raw)
		}
		if w := h.Call(2, "initialize", `{"protocolVersion":5}`); w.ErrCode() != -32602 {
			t.Errorf("got %s", w.Raw)
		}
		// After refused attempts a good one still works.
		if m := h.Initialize("2025-06-18").ResultMap(t); m["protocolVersion"] != "2025-06-18" {
			t.Errorf("got %v", m)
		}
	})
}

func TestBatches(t *testing.T) {
	h := start(t, Options{})
	h.Initialize("2025-03-26")
	h.Send(`[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},` +
		`{"jsonrpc":"1.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}},5]`)
	var arr []map[string]any
	if line := h.NextLine(); json.Unmarshal(line, &arr) != nil {
		t.Fatalf("the answer to a batch is not an array: %s", line)
	}
	got := map[string]float64{}
	for _, m := range arr {
		id, _ := json.Marshal(m["id"])
		code := 0.0
		if e, ok := m["error"].(map[string]any); ok {
			code = e["code"].(float64)
		}
		got[string(id)] = code
	}
	want := map[string]float64{"1": 0, "2": -32600, "3": 0, "null": -32600}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("batch answers %v, want %v", got, want)
	}
	// A batch of notifications only gets no answer at all.
	h.Send(`[{"jsonrpc":"2.0","method":"notifications/initialized"}]`)
	if w := h.Call(9, "ping", ""); string(w.ID) != "9" {
		t.Fatalf("got %s", w.Raw)
	}
	// Under 2025-06-18 batches are refused and the session goes on.
	h2 := start(t, Options{})
	h2.Initialize("2025-06-18")
	h2.Send(`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`)
	if w := h2.Next(); w.ErrCode() != -32600 || !strings.Contains(w.Error.Message, "2025-06-18") {
		t.Errorf("got %s", w.Raw)
	}
	if w := h2.Call(2, "ping", ""); w.Error != nil {
		t.Errorf("got %s", w.Raw)
	}
}

// TestBatchesBounded sends batches whose answer would be large: one of
// more than maxBatch messages is refused whole, and once a batch's answers
// hold maxBatchAnswer bytes, the ones after are errors. A batch of 50,000
// tools/list (3.5 MB) made a 738 MB answer; the process grew to 3 GB.
func TestBatchesBounded(t *testing.T) {
	big := strings.Repeat("x", 100<<10)
	h := start(t, Options{Primitives: withTools(textTool("big", func(ctx context.Context, args json.RawMessage) (string, error) {
		return big, nil
	}))})
	h.Initialize("2025-03-26")
	var sb strings.Builder
	sb.WriteByte('[')
	for i := range maxBatch + 1 {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"jsonrpc":"2.0","id":%d,"method":"ping"}`, i+1)
	}
	sb.WriteByte(']')
	h.Send(sb.String())
	if w := h.Next(); w.ErrCode() != -32600 || !strings.Contains(w.Error.Message, "at most") {
		t.Fatalf("a batch of %d messages: %.200s", maxBatch+1, w.Raw)
	}
	const calls = 2 * maxBatchAnswer / (100 << 10)
	sb.Reset()
	sb.WriteByte('[')
	for i := range calls {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"big"}}`, i+1)
	}
	sb.WriteByte(']')
	h.Send(sb.String())
	line := h.NextLine()
	var arr []map[string]any
	if err := json.Unmarshal(line, &arr); err != nil {
		t.Fatalf("the answer to a batch is not an array: %v", err)
	}
	errs := 0
	for _, m := range arr {
		if _, ok := m["error"]; ok {
			errs++
		}
	}
	if len(arr) != calls || errs == 0 || len(line) > maxBatchAnswer+calls*300 {
		t.Errorf("%d answers (%d errors) in %d bytes to %d calls of 100 KB each", len(arr), errs, len(line), calls)
	}
	if w := h.Call(9999, "ping", ""); w.Error != nil {
		t.Errorf("the session after the batches: %s", w.Raw)
	}
}

// batchOf is a batch of n calls of method with params.
func batchOf(n int, method, params string) string {
	var sb strings.Builder
	sb.WriteByte('[')
	for i := range n {
		if i > 0 {
			sb.WriteByte(',')
		}
		fmt.Fprintf(&sb, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`, i+1, method, params)
	}
	sb.WriteByte(']')
	return sb.String()
}

// TestGrowthBatch measures the bytes allocated to answer a batch of n and
// of 4n tools/list and tools/call calls: they grow at most as n log n.
func TestGrowthBatch(t *testing.T) {
	h := start(t, Options{Primitives: wflOnly()})
	h.Initialize("2025-03-26")
	const n = 60
	for _, c := range []struct{ method, params string }{
		{"tools/list", "{}"},
		{"tools/call", `{"name":"tool_a","arguments":{"x":"store x as 1\ndisplay y\n"}}`},
	} {
		allocated := func(k int) (uint64, int) {
			batch := batchOf(k, c.method, c.params)
			var a, b runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&a)
			h.Send(batch)
			line := h.NextLine()
			runtime.ReadMemStats(&b)
			return b.TotalAlloc - a.TotalAlloc, len(line)
		}
		allocated(n)
		a, la := allocated(n)
		b, lb := allocated(4 * n)
		growth := 4 * math.Log(4*n) / math.Log(n)
		if r := float64(b) / float64(a); r > 1.1*growth {
			t.Errorf("%s: %d bytes allocated for %d calls, %d for %d: %.1f times, more than n log n (%.1f)", c.method, a, n, b, 4*n, r, growth)
		}
		if r := float64(lb) / float64(la); r > 4.2 {
			t.Errorf("%s: an answer of %d bytes for %d calls, %d for %d", c.method, la, n, lb, 4*n)
		}
	}
}

// BenchmarkGrowthBatch times the answer to a batch of n and of 4n
// tools/list calls and reports how much it grows.
func BenchmarkGrowthBatch(b *testing.B) {
	for _, n := range []int{250} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			s, err := New(Options{Root: b.TempDir(), Primitives: wflOnly()})
			if err != nil {
				b.Fatal(err)
			}
			small, large := batchOf(n, "tools/list", "{}"), batchOf(4*n, "tools/list", "{}")
			var ts, tl time.Duration
			for b.Loop() {
				for k, batch := range []string{small, large} {
					in := `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}` + "\n" + batch + "\n"
					t0 := time.Now()
					if err := s.ServeStream(context.Background(), strings.NewReader(in), io.Discard); err != nil {
						b.Fatal(err)
					}
					if k == 0 {
						ts += time.Since(t0)
					} else {
						tl += time.Since(t0)
					}
				}
			}
			b.ReportMetric(float64(ts.Microseconds())/float64(b.N), "µs/n")
			b.ReportMetric(float64(tl.Microseconds())/float64(b.N), "µs/4n")
			b.ReportMetric(float64(tl)/float64(ts), "growth")
		})
	}
}
