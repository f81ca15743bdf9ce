package mcp

// This file tests requests to the client over stdio: an answer, an error,
// no answer within the limit, cancellation, a client without the
// capability and malformed answers; and the input-required results that
// replace those requests under revision 2026-07-28.

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// askTool asks the client what its arguments say: {"ask":"sampling"},
// {"ask":"elicitation"}, {"ask":"roots"} or {"ask":"all"} (the three at
// once), and answers with the client's answers as text.
func askTool() *Tool {
	return &Tool{Name: "ask", Description: "asks the client", Call: func(ctx context.Context, c *Call) Result {
		var a struct{ Ask string }
		json.Unmarshal(c.Arguments, &a)
		qs := map[string]InputRequest{}
		if a.Ask == "sampling" || a.Ask == "all" {
			qs["sample"] = InputRequest{Method: "sampling/createMessage", Params: map[string]any{"messages": []any{}, "maxTokens": 5}}
		}
		if a.Ask == "elicitation" || a.Ask == "all" {
			qs["elicit"] = InputRequest{Method: "elicitation/create", Params: map[string]any{"message": "name?", "requestedSchema": map[string]any{"type": "object"}}}
		}
		if a.Ask == "roots" || a.Ask == "all" {
			qs["roots"] = InputRequest{Method: "roots/list", Params: map[string]any{}}
		}
		answers, err := c.Ask(ctx, qs)
		if err != nil {
			return Failed(err)
		}
		b, _ := json.Marshal(answers)
		return Result{Text: string(b)}
	}}
}

func TestRequestsToTheClient(t *testing.T) {
	const caps = `{"sampling":{},"elicitation":{},"roots":{}}`
	tests := []struct {
		name   string
		ask    string
		caps   string
		answer func(h *harness, id string) // how the client answers the request with id
		want   string                      // in the tool result's text
		isErr  bool
	}{
		{name: "answer", ask: "sampling", caps: caps,
			answer: func(h *harness, id string) {
				h.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":{"role":"assistant","content":{"type":"text","text":"Paris"},"model":"m"}}`)
			},
			want: `"Paris"`},
		{name: "error", ask: "elicitation", caps: caps,
			answer: func(h *harness, id string) {
				h.Send(`{"jsonrpc":"2.0","id":` + id + `,"error":{"code":-1,"message":"user declined to be asked"}}`)
			},
			want: "the client answered elicitation/create with error -1: user declined to be asked", isErr: true},
		{name: "result not an object", ask: "roots", caps: caps,
			answer: func(h *harness, id string) { h.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":42}`) },
			want:   "the client's answer to roots/list was malformed: the result is not an object", isErr: true},
		{name: "result and error", ask: "roots", caps: caps,
			answer: func(h *harness, id string) {
				h.Send(`{"jsonrpc":"2.0","id":` + id + `,"result":{},"error":{"code":1,"message":"x"}}`)
			},
			want: `it carries both "result" and "error"`, isErr: true},
		{name: "garbage first, then the answer", ask: "roots", caps: caps,
			answer: func(h *harness, id string) {
				h.Send(`{"jsonrpc":"2.0","id":"nobody","result":{}}`, // an id we never sent: dropped
					`{"jsonrpc":"2.0","result":{}}`, // no id: dropped
					`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}}`,
					`{"jsonrpc":"2.0","id":`+id+`,"result":{"roots":[]}}`)
			},
			want: `{"roots":{"roots":[]}}`},
		{name: "no capability", ask: "sampling", caps: `{"elicitation":{}}`,
			want: `sampling/createMessage needs the client's "sampling" capability`, isErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t, Options{Primitives: withTools(askTool())})
			h.InitializeWith("2025-11-25", tt.caps)
			h.Sendf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask","arguments":{"ask":%q}}}`, tt.ask)
			if tt.answer != nil {
				method := map[string]string{"sampling": "sampling/createMessage", "elicitation": "elicitation/create", "roots": "roots/list"}[tt.ask]
				req := h.AwaitRequest(method)
				tt.answer(h, string(req.ID))
			}
			res := h.Await("1").Tool(t)
			if res.IsError != tt.isErr || !strings.Contains(res.Content[0].Text, tt.want) {
				t.Errorf("got isError %v %q, want isError %v with %q", res.IsError, res.Content[0].Text, tt.isErr, tt.want)
			}
			// The session goes on: garbage never ends it.
			if w := h.Call(2, "ping", ""); w.Error != nil {
				t.Errorf("ping after: %s", w.Raw)
			}
			for _, w := range h.Finish() {
				if w.ID != nil && w.Method == "" {
					t.Errorf("a response to the client's garbage: %s", w.Raw)
				}
			}
		})
	}
}

func TestRequestToTheClientTimesOut(t *testing.T) {
	h := start(t, Options{Primitives: withTools(askTool()), RequestTimeout: 30 * time.Millisecond})
	h.InitializeWith("2025-11-25", `{"sampling":{}}`)
	h.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask","arguments":{"ask":"sampling"}}}`)
	req := h.AwaitRequest("sampling/createMessage")
	// Never answered: the client is told the request is given up, and the
	// tool fails with a clear message.
	c := h.AwaitMethod("notifications/cancelled")
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
		Reason    string          `json:"reason"`
	}
	json.Unmarshal(c.Params, &p)
	if string(p.RequestID) != string(req.ID) || !strings.Contains(p.Reason, "no answer within") {
		t.Errorf("notifications/cancelled %s for request %s", c.Raw, req.ID)
	}
	res := h.Await("1").Tool(t)
	if !res.IsError || !strings.Contains(res.Content[0].Text, "the client did not answer sampling/createMessage within 30ms") {
		t.Errorf("got %+v", res)
	}
	// A late answer is dropped.
	h.Sendf(`{"jsonrpc":"2.0","id":%s,"result":{}}`, req.ID)
	if w := h.Call(2, "ping", ""); w.Error != nil {
		t.Errorf("ping after a late answer: %s", w.Raw)
	}
}

func TestRequestToTheClientCancelled(t *testing.T) {
	h := start(t, Options{Primitives: withTools(askTool())})
	h.InitializeWith("2025-11-25", `{"elicitation":{}}`)
	h.Send(`{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"ask","arguments":{"ask":"elicitation"}}}`)
	req := h.AwaitRequest("elicitation/create")
	// The client cancels the tool call: the server gives up its own request
	// and tells the client, and the cancelled call gets no answer.
	h.Send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"call"}}`)
	c := h.AwaitMethod("notifications/cancelled")
	if !strings.Contains(string(c.Params), `"requestId":`+string(req.ID)) {
		t.Errorf("notifications/cancelled %s, want requestId %s", c.Raw, req.ID)
	}
	for _, w := range h.Finish() {
		if string(w.ID) == `"call"` {
			t.Errorf("the cancelled call was answered: %s", w.Raw)
		}
	}
}

func TestAskAtOnce(t *testing.T) {
	// Several questions go out together; the answers come back in any order.
	h := start(t, Options{Primitives: withTools(askTool())})
	h.InitializeWith("2025-11-25", `{"sampling":{},"elicitation":{},"roots":{}}`)
	h.Send(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"ask","arguments":{"ask":"all"}}}`)
	reqs := map[string]*wire{}
	for len(reqs) < 3 {
		w := h.Next()
		if w.Method != "" && w.ID != nil {
			reqs[w.Method] = w
		}
	}
	h.Sendf(`{"jsonrpc":"2.0","id":%s,"result":{"roots":[]}}`, reqs["roots/list"].ID)
	h.Sendf(`{"jsonrpc":"2.0","id":%s,"result":{"action":"decline"}}`, reqs["elicitation/create"].ID)
	h.Sendf(`{"jsonrpc":"2.0","id":%s,"result":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}}`, reqs["sampling/createMessage"].ID)
	res := h.Await("1").Tool(t)
	for _, want := range []string{`"roots":{"roots":[]}`, `"elicit":{"action":"decline"}`, `"text":"hi"`} {
		if !strings.Contains(res.Content[0].Text, want) {
			t.Errorf("answers %s lack %s", res.Content[0].Text, want)
		}
	}
}

func TestInputRequiredResults(t *testing.T) {
	h := start(t, Options{Primitives: withTools(askTool())})
	meta := func(caps string) string {
		return `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":` + caps + `}`
	}
	call := func(id int, caps, extra string) *wire {
		return h.Call(id, "tools/call", `{"name":"ask","arguments":{"ask":"all"},`+meta(caps)+extra+`}`)
	}
	all := `{"sampling":{},"elicitation":{},"roots":{}}`
	// Round 1: no request is sent; the answer asks for all three.
	w := call(1, all, "")
	var ir struct {
		ResultType    string                  `json:"resultType"`
		InputRequests map[string]InputRequest `json:"inputRequests"`
		RequestState  string                  `json:"requestState"`
	}
	if err := json.Unmarshal(w.Result, &ir); err != nil || ir.ResultType != "input_required" || len(ir.InputRequests) != 3 || ir.RequestState == "" {
		t.Fatalf("round 1: %s", w.Raw)
	}
	if ir.InputRequests["roots"].Method != "roots/list" {
		t.Errorf("inputRequests: %s", w.Raw)
	}
	// Round 2 answers two: the third is asked again, with a new state.
	w = call(2, all, `,"inputResponses":{"roots":{"roots":[]},"elicit":{"action":"accept","content":{}}},"requestState":"`+ir.RequestState+`"`)
	var ir2 struct {
		ResultType    string                  `json:"resultType"`
		InputRequests map[string]InputRequest `json:"inputRequests"`
		RequestState  string                  `json:"requestState"`
	}
	json.Unmarshal(w.Result, &ir2)
	if ir2.ResultType != "input_required" || len(ir2.InputRequests) != 1 || ir2.InputRequests["sample"].Method != "sampling/createMessage" || ir2.RequestState == ir.RequestState {
		t.Fatalf("round 2: %s", w.Raw)
	}
	// Round 3 answers the last: the state carries the first two.
	w = call(3, all, `,"inputResponses":{"sample":{"role":"assistant","content":{"type":"text","text":"hi"},"model":"m"}},"requestState":"`+ir2.RequestState+`"`)
	res := w.Tool(t)
	if res.IsError || !strings.Contains(res.Content[0].Text, `"roots":{"roots":[]}`) || !strings.Contains(res.Content[0].Text, `"text":"hi"`) {
		t.Fatalf("round 3: %s", w.Raw)
	}
	if !strings.Contains(string(w.Result), `"resultType":"complete"`) {
		t.Errorf("round 3 is not complete: %s", w.Raw)
	}
	tests := []struct{ name, caps, extra string }{
		{"tampered state", all, `,"requestState":"` + ir.RequestState + `x"`},
		{"answer not an object", all, `,"inputResponses":{"roots":12345}`},
		{"inputResponses not an object", all, `,"inputResponses":[1]`},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.T = t
			if w := call(10+i, tt.caps, tt.extra); w.ErrCode() != -32602 {
				t.Errorf("got %s, want -32602", w.Raw)
			}
		})
	}
	h.T = t
	// A capability the client did not declare: -32021 naming it.
	w = call(20, `{"sampling":{},"elicitation":{}}`, "")
	if w.ErrCode() != -32021 || !strings.Contains(string(w.Raw), `"requiredCapabilities":{"roots":{}}`) {
		t.Errorf("undeclared capability: %s", w.Raw)
	}
}

func TestRequestStateNamesItsRequest(t *testing.T) {
	s, err := New(Options{Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	req := func(name string) *request {
		return &request{method: s.methods["tools/call"], params: []byte(`{"name":"` + name + `"}`)}
	}
	state, err := s.sealState(map[string]json.RawMessage{"k": json.RawMessage(`{}`)}, req("one"))
	if err != nil {
		t.Fatal(err)
	}
	if a, err := s.openState(state, req("one")); err != nil || string(a["k"]) != "{}" {
		t.Errorf("own state: %v %v", a, err)
	}
	if _, err := s.openState(state, req("two")); err == nil {
		t.Error("a state given for tool one was accepted for tool two")
	}
	other, _ := New(Options{Root: t.TempDir()})
	if _, err := other.openState(state, req("one")); err == nil {
		t.Error("a state signed by another server was accepted")
	}
}

func TestCapabilityErrorIs(t *testing.T) {
	err := error(&capabilityError{method: "roots/list", capability: "roots"})
	if !errors.Is(err, ErrNoCapability) {
		t.Error("a capabilityError is not ErrNoCapability")
	}
}

// FuzzOpenState: a requestState from a client is either the one this
// server sealed for the request, or refused; never a panic.
func FuzzOpenState(f *testing.F) {
	s, err := New(Options{Root: f.TempDir()})
	if err != nil {
		f.Fatal(err)
	}
	r := &request{method: s.methods["tools/call"], params: []byte(`{"name":"ask"}`)}
	good, _ := s.sealState(map[string]json.RawMessage{"k": json.RawMessage(`{"a":1}`)}, r)
	for _, seed := range []string{good, good + "x", "", ".", "e30.", "e30.AAAA", strings.Replace(good, ".", "", 1)} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, state string) {
		a, err := s.openState(state, r)
		if err == nil && state != good {
			t.Errorf("a state this server did not seal was accepted: %q -> %v", state, a)
		}
	})
}
