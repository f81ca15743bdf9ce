package mcp

// This file defines the Call, a handler's view of the request it answers
// and of its session: the arguments, progress and log notifications, the
// client's capabilities, the workspace, and questions to the client
// (sampling, elicitation, roots) that work in both eras: as requests the
// session sends in the handshake era (outgoing.go), as the input-required
// results of revision 2026-07-28, whose handler is run again with the
// answers when the client retries.

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// A Call is one request to a primitive, seen from its handler.
type Call struct {
	// Arguments is a tool's arguments object as sent ({} when absent).
	Arguments json.RawMessage
	// Args are a tool's arguments decoded, when the tool has an Input
	// schema (numbers as json.Number).
	Args map[string]any

	srv    *Server
	conn   *conn
	req    *request // nil for the resource watcher
	ctx    context.Context
	wsOnce sync.Once
	ws     *workspace // the folders this call may read (workspace)

	mu      sync.Mutex
	answers map[string]json.RawMessage // 2026-07-28: answers known, from requestState and inputResponses
	asked   map[string]InputRequest    // 2026-07-28: questions asked this round without an answer
}

// An InputRequest is a request a handler needs the client to answer:
// sampling/createMessage, elicitation/create or roots/list with its params.
type InputRequest struct {
	Method string `json:"method"`
	Params any    `json:"params"`
}

// capabilityOf is the client capability a server-to-client request needs.
func capabilityOf(method string) string {
	switch method {
	case "sampling/createMessage":
		return "sampling"
	case "elicitation/create":
		return "elicitation"
	case "roots/list":
		return "roots"
	}
	return ""
}

// Modern reports whether the request is served under revision 2026-07-28.
func (c *Call) Modern() bool { return c.req != nil && c.req.meta.modern }

// Progress sends notifications/progress when the request asked for it.
// Values must increase; others are dropped.
func (c *Call) Progress(progress, total float64, msg string) {
	if c.req != nil {
		c.req.progress(progress, total, msg)
	}
}

// Log sends notifications/message at level (debug, info, notice, warning,
// error, ...) when the client's threshold lets it through.
func (c *Call) Log(lvl string, data any) {
	if lv, ok := parseLevel(lvl); ok {
		c.log(lv, data)
	}
}

func (c *Call) log(lv level, data any) {
	if c.req != nil {
		c.req.log(lv, data)
	}
}

// ClientCapabilities is the capabilities object the client declared: in
// initialize (handshake era) or in the request's _meta (2026-07-28).
func (c *Call) ClientCapabilities() json.RawMessage {
	if c.Modern() {
		return c.req.meta.caps
	}
	c.conn.mu.Lock()
	defer c.conn.mu.Unlock()
	return c.conn.clientCaps
}

// Declared reports whether the client declared capability (e.g. "sampling").
func (c *Call) Declared(capability string) bool {
	caps := c.ClientCapabilities()
	v := objectMember(caps, capability)
	return v != nil && v[0] != 'n'
}

// Folders are the workspace's folders, as real absolute paths.
func (c *Call) Folders() []string { return c.workspace().folders }

// Workspace is what Primitives.OpenWorkspace made of the call's folders, or
// nil without it. The folders are found at first use: over stdio they
// may be the client's roots, which a call waits for (at most
// Options.RootsTimeout) only when it asks.
func (c *Call) Workspace() any { return c.workspace().value }

// workspace returns the folders this call may read, found at first use:
// a call that reads no file (lookup_builtin) never waits on the client's
// roots.
func (c *Call) workspace() *workspace {
	c.wsOnce.Do(func() {
		if c.ws == nil {
			c.ws = c.conn.workspace(c.ctx, c.req)
		}
	})
	return c.ws
}

// Sample asks the client's model (sampling/createMessage) and returns its
// CreateMessageResult. key names the question under 2026-07-28.
func (c *Call) Sample(ctx context.Context, key string, params any) (json.RawMessage, error) {
	return c.ask1(ctx, key, InputRequest{Method: "sampling/createMessage", Params: params})
}

// Elicit asks the user (elicitation/create) and returns the ElicitResult.
func (c *Call) Elicit(ctx context.Context, key string, params any) (json.RawMessage, error) {
	return c.ask1(ctx, key, InputRequest{Method: "elicitation/create", Params: params})
}

// ListRoots asks for the client's roots (roots/list) and returns the
// ListRootsResult.
func (c *Call) ListRoots(ctx context.Context, key string) (json.RawMessage, error) {
	return c.ask1(ctx, key, InputRequest{Method: "roots/list", Params: map[string]any{}})
}

func (c *Call) ask1(ctx context.Context, key string, q InputRequest) (json.RawMessage, error) {
	a, err := c.Ask(ctx, map[string]InputRequest{key: q})
	if err != nil {
		return nil, err
	}
	return a[key], nil
}

// Ask puts questions to the client and returns its answers by key. A
// question whose capability the client did not declare is never sent:
// Ask fails with an error wrapping [ErrNoCapability].
//
// In the handshake era the questions are sent as requests at once and Ask
// waits for every answer, within Options.RequestTimeout and until ctx
// ends (the client is then told with notifications/cancelled). Under
// 2026-07-28 the answers come with the client's retry of the request: Ask
// returns those it has, or [ErrInputRequired] after noting the questions
// still open, which the request's answer then carries.
func (c *Call) Ask(ctx context.Context, qs map[string]InputRequest) (map[string]json.RawMessage, error) {
	keys := make([]string, 0, len(qs))
	for k, q := range qs {
		if capabilityOf(q.Method) == "" {
			return nil, fmt.Errorf("mcp: %s is not a request a server may send", q.Method)
		}
		if !c.Declared(capabilityOf(q.Method)) {
			return nil, &capabilityError{method: q.Method, capability: capabilityOf(q.Method)}
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if c.req == nil {
		return nil, fmt.Errorf("mcp: no request to ask the client in")
	}
	if c.Modern() {
		if !inputMethod(c.req.method.name) {
			return nil, fmt.Errorf("mcp: %s cannot ask the client for input", c.req.method.name)
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		out := map[string]json.RawMessage{}
		for _, k := range keys {
			if a, ok := c.answers[k]; ok {
				out[k] = a
				continue
			}
			if c.asked == nil {
				c.asked = map[string]InputRequest{}
			}
			c.asked[k] = qs[k]
		}
		if len(c.asked) > 0 {
			return nil, ErrInputRequired
		}
		return out, nil
	}
	type got struct {
		key string
		res json.RawMessage
		err error
	}
	ch := make(chan got, len(keys))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for _, k := range keys {
		go func() {
			res, err := c.conn.request(ctx, c.req, qs[k].Method, qs[k].Params)
			ch <- got{k, res, err}
		}()
	}
	out := map[string]json.RawMessage{}
	var first error
	for range keys {
		g := <-ch
		if g.err != nil && first == nil {
			first = g.err
			cancel() // the other questions are moot
		}
		out[g.key] = g.res
	}
	if first != nil {
		return nil, first
	}
	return out, nil
}

// A capabilityError is ErrNoCapability for one request.
type capabilityError struct{ method, capability string }

func (e *capabilityError) Error() string {
	return fmt.Sprintf("%s: %s needs the client's %q capability", ErrNoCapability, e.method, e.capability)
}

func (e *capabilityError) Is(target error) bool { return target == ErrNoCapability }

// inputMethod reports whether a method may answer with an input-required
// result (revision 2026-07-28).
func inputMethod(name string) bool {
	return name == "tools/call" || name == "prompts/get" || name == "resources/read"
}

// newCall makes the Call of a request to a primitive. Under 2026-07-28 it
// reads the answers the client sent back (inputResponses) and the state
// of earlier rounds (requestState, which must be the one this server
// signed for the same request).
func (s *Server) newCall(ctx context.Context, r *request) (*Call, *rpcError) {
	c := &Call{srv: s, conn: r.c, req: r, ctx: ctx}
	if !r.meta.modern || !inputMethod(r.method.name) {
		return c, nil
	}
	c.answers = map[string]json.RawMessage{}
	if st := objectMember(r.params, "requestState"); st != nil && st[0] != 'n' {
		str, ok := decodeString(st)
		if !ok {
			return nil, errInvalidParams(`"requestState" must be a string`)
		}
		answers, err := s.openState(str, r)
		if err != nil {
			return nil, errInvalidParams("requestState: " + err.Error())
		}
		c.answers = answers
	}
	if ir := objectMember(r.params, "inputResponses"); ir != nil && ir[0] != 'n' {
		if ir[0] != '{' {
			return nil, errInvalidParams(`"inputResponses" must be an object`)
		}
		var bad string
		scanObject(ir, func(k string, v []byte) {
			if v[0] != '{' && bad == "" {
				bad = k
			}
			c.answers[k] = append(json.RawMessage(nil), v...)
		})
		if bad != "" {
			return nil, errInvalidParams(`inputResponses.` + bad + ` must be an object (the client's result for that request)`)
		}
	}
	return c, nil
}

// inputRequired is the answer of a request whose handler asked questions
// under 2026-07-28: the open questions and the state to send back.
func (s *Server) inputRequired(c *Call) ([]byte, *rpcError) {
	c.mu.Lock()
	defer c.mu.Unlock()
	state, err := s.sealState(c.answers, c.req)
	if err != nil {
		return nil, &rpcError{Code: codeInternalError, Message: "Internal error: " + err.Error()}
	}
	b, err := marshal(map[string]any{"resultType": "input_required", "inputRequests": c.asked, "requestState": state})
	if err != nil {
		return nil, &rpcError{Code: codeInternalError, Message: "Internal error: " + err.Error()}
	}
	out := append(b[:len(b)-1:len(b)-1], `,"_meta":{"`+metaServerInfo+`":`...)
	out = append(out, s.static.serverInfo[modernVersion]...)
	return append(out, '}', '}'), nil
}

// requestState is opaque to clients: base64url of a JSON payload naming
// the request and the answers so far, a dot, and base64url of its
// HMAC-SHA256 under a key made when the server starts, or derived from
// Options.SessionKey. A state from a process with another key, another
// request or altered in transit is refused.
type statePayload struct {
	Method  string                     `json:"m"`
	Target  string                     `json:"t"` // the tool or prompt name, or the resource URI
	Answers map[string]json.RawMessage `json:"a"`
}

func target(r *request) string {
	raw := objectMember(r.params, nameField(r.method.name))
	s, _ := decodeString(raw)
	return s
}

func (s *Server) sealState(answers map[string]json.RawMessage, r *request) (string, error) {
	p, err := json.Marshal(statePayload{Method: r.method.name, Target: target(r), Answers: answers})
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, s.stateKey[:])
	m.Write(p)
	return base64.RawURLEncoding.EncodeToString(p) + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil)), nil
}

func (s *Server) openState(state string, r *request) (map[string]json.RawMessage, error) {
	body, sig, ok := strings.Cut(state, ".")
	p, err1 := strict64.DecodeString(body)
	mac, err2 := strict64.DecodeString(sig)
	if !ok || err1 != nil || err2 != nil {
		return nil, fmt.Errorf("malformed: it was not given by this server")
	}
	m := hmac.New(sha256.New, s.stateKey[:])
	m.Write(p)
	if !hmac.Equal(mac, m.Sum(nil)) {
		return nil, fmt.Errorf("it fails its integrity check (altered, or given by a server process with another session key)")
	}
	var sp statePayload
	if err := json.Unmarshal(p, &sp); err != nil {
		return nil, fmt.Errorf("malformed payload")
	}
	if sp.Method != r.method.name || sp.Target != target(r) {
		return nil, fmt.Errorf("it was given for %s %s, not for this request", sp.Method, sp.Target)
	}
	if sp.Answers == nil {
		sp.Answers = map[string]json.RawMessage{}
	}
	return sp.Answers, nil
}
