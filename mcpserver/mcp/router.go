package mcp

// This file implements the router: the table of methods of both protocol
// eras, the handshake, and how a handler's value becomes a result.

import (
	"encoding/json"
)

// A method is one request method the server answers.
type method struct {
	name   string
	legacy bool // served in the handshake era
	modern bool // served under the stateless revision
	inline bool // handled on the reader, in wire order (quick, order-sensitive)
	handle func(s *Server, r *request) (any, *rpcError)
}

// A handler's value is one of:
//   - ready: a complete result for the request's era, sent as is;
//   - []byte: a JSON object, completed for the era (see [Server.complete]);
//   - nil with a nil error: the request stays open (subscriptions/listen);
//   - anything else: marshaled, then completed.
type ready []byte

// A cacheHint is the ttlMs and cacheScope of a stateless list or read result.
type cacheHint struct {
	ttlMs int64
	scope string // "public" or "private"
}

var (
	hintStatic   = &cacheHint{ttlMs: 3_600_000, scope: "public"} // never changes while the process lives
	hintVolatile = &cacheHint{ttlMs: 0, scope: "private"}        // workspace contents
)

func methodTable() map[string]*method {
	both := func(name string, h func(*Server, *request) (any, *rpcError)) *method {
		return &method{name: name, legacy: true, modern: true, handle: h}
	}
	ms := []*method{
		{name: "initialize", legacy: true, inline: true, handle: (*Server).initialize},
		{name: "ping", legacy: true, inline: true, handle: func(*Server, *request) (any, *rpcError) { return []byte(`{}`), nil }},
		{name: "logging/setLevel", legacy: true, inline: true, handle: (*Server).setLevel},
		{name: "resources/subscribe", legacy: true, inline: true, handle: (*Server).subscribe},
		{name: "resources/unsubscribe", legacy: true, inline: true, handle: (*Server).unsubscribe},
		{name: "server/discover", modern: true, inline: true, handle: (*Server).discover},
		{name: "subscriptions/listen", modern: true, inline: true, handle: (*Server).listen},
		both("tools/list", (*Server).listTools),
		both("tools/call", (*Server).callTool),
		both("prompts/list", (*Server).listPrompts),
		both("prompts/get", (*Server).getPrompt),
		both("resources/list", (*Server).listResources),
		both("resources/templates/list", (*Server).listTemplates),
		both("resources/read", (*Server).readResource),
		both("completion/complete", (*Server).completeArgument),
	}
	t := make(map[string]*method, len(ms))
	for _, m := range ms {
		t[m.name] = m
	}
	return t
}

// route finds the method a request names, for the request's era.
func (s *Server) route(name string, modern bool) (*method, *rpcError) {
	m := s.methods[name]
	switch {
	case m == nil:
		return nil, &rpcError{Code: codeMethodNotFound, Message: "Method not found: " + name}
	case modern && !m.modern:
		return nil, &rpcError{Code: codeMethodNotFound, Message: "Method not found: " + name + " is not part of revision " + modernVersion}
	case !modern && !m.legacy:
		return nil, errInvalidParams(name + " belongs to revision " + modernVersion + `: params._meta must carry "` +
			metaProtocolVersion + `" and "` + metaClientCapabilities + `"`)
	}
	return m, nil
}

// call runs r's handler and returns its result as JSON, or nil when the
// request stays open.
func (s *Server) call(r *request) ([]byte, *rpcError) {
	v, rerr := r.method.handle(s, r)
	if rerr != nil {
		return nil, rerr
	}
	switch v := v.(type) {
	case nil:
		return nil, nil
	case ready:
		return v, nil
	case []byte:
		return s.complete(r, v, nil), nil
	case withHint:
		return s.complete(r, v.obj, v.hint), nil
	}
	b, err := marshal(v)
	if err != nil {
		return nil, &rpcError{Code: codeInternalError, Message: "Internal error: encoding the result: " + err.Error()}
	}
	return s.complete(r, b, nil), nil
}

// withHint is a result object with the cache hint the stateless revision wants.
type withHint struct {
	obj  []byte
	hint *cacheHint
}

// complete returns the result object obj as the request's era wants it: as
// is in the handshake era; with resultType, cache hints and serverInfo under
// the stateless revision.
func (s *Server) complete(r *request, obj []byte, hint *cacheHint) []byte {
	if !r.meta.modern {
		return obj
	}
	return s.modernize(obj, hint)
}

func (s *Server) modernize(obj []byte, hint *cacheHint) []byte {
	return s.modernizeWith(obj, hint, nil)
}

// modernizeWith is modernize, with meta's members (`"key":value,`, each
// followed by a comma) in _meta before serverInfo.
func (s *Server) modernizeWith(obj []byte, hint *cacheHint, meta []byte) []byte {
	out := make([]byte, 0, len(obj)+len(meta)+160)
	out = append(out, obj[:len(obj)-1]...)
	if len(trimSpace(obj[1:len(obj)-1])) > 0 {
		out = append(out, ',')
	}
	out = append(out, `"resultType":"complete"`...)
	if hint != nil {
		out = append(out, `,"ttlMs":`...)
		out = appendInt(out, hint.ttlMs)
		out = append(out, `,"cacheScope":"`...)
		out = append(out, hint.scope...)
		out = append(out, '"')
	}
	out = append(out, `,"_meta":{`...)
	out = append(out, meta...)
	out = append(out, `"`+metaServerInfo+`":`...)
	out = append(out, s.static.serverInfo[modernVersion]...)
	return append(out, '}', '}')
}

func appendInt(b []byte, n int64) []byte {
	j, _ := json.Marshal(n)
	return append(b, j...)
}

// initialize answers the handshake of the legacy era.
func (s *Server) initialize(r *request) (any, *rpcError) {
	var p struct {
		ProtocolVersion *string         `json:"protocolVersion"`
		Capabilities    json.RawMessage `json:"capabilities"`
		ClientInfo      json.RawMessage `json:"clientInfo"`
	}
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if p.ProtocolVersion == nil {
		return nil, errInvalidParams(`initialize: "protocolVersion" (a string) is required`)
	}
	c := r.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.phase != phaseNew {
		return nil, &rpcError{Code: codeInvalidRequest, Message: "Invalid Request: the session is already initialized with revision " + c.version}
	}
	v := negotiate(*p.ProtocolVersion)
	c.phase, c.version = phaseInitialized, v
	if len(p.Capabilities) > 0 && p.Capabilities[0] == '{' {
		c.clientCaps = append([]byte(nil), p.Capabilities...)
		roots := objectMember(c.clientCaps, "roots")
		c.roots.wanted = roots != nil && roots[0] == '{'
	}
	return ready(s.static.initialize[v]), nil
}

// discover answers server/discover of the stateless revision.
func (s *Server) discover(r *request) (any, *rpcError) {
	return ready(s.static.discover), nil
}

// setLevel answers logging/setLevel.
func (s *Server) setLevel(r *request) (any, *rpcError) {
	var p struct {
		Level *string `json:"level"`
	}
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if p.Level == nil {
		return nil, errInvalidParams(`logging/setLevel: "level" is required, one of ` + levelList)
	}
	lv, ok := parseLevel(*p.Level)
	if !ok {
		return nil, errInvalidParams(`logging/setLevel: unknown level "` + *p.Level + `", want one of ` + levelList)
	}
	r.c.mu.Lock()
	r.c.logLevel = lv
	r.c.mu.Unlock()
	return []byte(`{}`), nil
}

// decodeParams decodes a params object into v; absent params decode as {}.
func decodeParams(params []byte, v any) *rpcError {
	if params == nil {
		return nil
	}
	if err := json.Unmarshal(params, v); err != nil {
		return errInvalidParams("invalid params: " + jsonProblem(err))
	}
	return nil
}

// jsonProblem says what went wrong decoding params, without Go type names.
func jsonProblem(err error) string {
	if te, ok := err.(*json.UnmarshalTypeError); ok {
		if te.Field != "" {
			return `"` + te.Field + `" must be ` + jsonKind(te.Type.Kind().String()) + ", not " + te.Value
		}
		return "wrong type: " + te.Value
	}
	return err.Error()
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "a boolean"
	case "int", "int64", "int32", "float64", "uint", "uint64":
		return "a number"
	case "slice", "array":
		return "an array"
	case "map", "struct", "ptr":
		return "an object"
	}
	return "of another type"
}
