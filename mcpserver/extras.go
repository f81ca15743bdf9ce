package mcpserver

// This file lets a test fixture mount its own tools, resources and prompts
// on the protocol machinery in place of WFL's, so that a conformance suite
// written against fixed fixture names tests the transport, session, router
// and codec rather than the language tools. Options.Extras is set only by
// internal/conformance; the product never sets it, so its tools/list is
// unchanged.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Extras are a fixture's primitives. The handlers return result objects
// as JSON; the server adds what the request's revision needs (resultType,
// serverInfo, cache hints under 2026-07-28).
type Extras struct {
	Tools     []ExtraTool
	Resources []ExtraResource
	Templates []ExtraTemplate
	Prompts   []ExtraPrompt
}

// An ExtraTool is a listed tool with a handler.
type ExtraTool struct {
	Name, Title, Description string
	InputSchema              json.RawMessage // nil is {"type":"object"}
	// Call returns a CallToolResult object ({"content":[...]}); an error
	// becomes an isError result carrying its text. A result that already
	// names its resultType (an input_required result) is sent as is.
	Call func(ctx context.Context, c *ExtraCall) (json.RawMessage, error)
}

// An ExtraError returned by ExtraTool.Call is answered as a JSON-RPC error
// (a protocol error) instead of an isError result.
type ExtraError struct {
	Code    int
	Message string
	Data    any
}

func (e *ExtraError) Error() string { return e.Message }

// An ExtraCall is one call of an extra tool or prompt.
type ExtraCall struct {
	Arguments json.RawMessage // the arguments object, {} when absent
	Params    json.RawMessage // the whole params object
	Modern    bool            // served under revision 2026-07-28
	r         *request
}

// Progress sends notifications/progress when the request asked for it.
func (c *ExtraCall) Progress(progress, total float64, msg string) { c.r.progress(progress, total, msg) }

// Log sends notifications/message at level when the client's threshold lets it through.
func (c *ExtraCall) Log(lvl string, data any) {
	if lv, ok := parseLevel(lvl); ok {
		c.r.log(lv, data)
	}
}

// ClientCapabilities is the capabilities object the request declared
// (2026-07-28), or nil.
func (c *ExtraCall) ClientCapabilities() json.RawMessage { return c.r.meta.caps }

// An ExtraResource is a fixed resource.
type ExtraResource struct {
	URI, Name, Title, Description, MimeType string
	// Read returns the contents array items for the resource.
	Read func(ctx context.Context, uri string) ([]any, error)
}

// An ExtraTemplate is a resource template whose variables each match one
// path segment, like test://template/{id}/data.
type ExtraTemplate struct {
	URITemplate, Name, Title, Description, MimeType string
	Read                                            func(ctx context.Context, uri string, vars map[string]string) ([]any, error)
	re                                              *regexp.Regexp
	names                                           []string
}

// An ExtraPrompt is a prompt with string arguments.
type ExtraPrompt struct {
	Name, Title, Description string
	Arguments                []ExtraArgument
	// Get returns the messages array of the prompts/get result.
	Get func(ctx context.Context, args map[string]string) ([]any, error)
}

// An ExtraArgument is one argument of an extra prompt.
type ExtraArgument struct {
	Name, Description string
	Required          bool
}

var templateVar = regexp.MustCompile(`\{([A-Za-z0-9_]+)\}`)

// mountExtras replaces the method handlers of the primitives with ones
// that serve x.
func (s *Server) mountExtras(x *Extras) {
	for i := range x.Templates {
		t := &x.Templates[i]
		pat := regexp.QuoteMeta(t.URITemplate)
		pat = regexp.MustCompile(`\\\{([A-Za-z0-9_]+)\\\}`).ReplaceAllString(pat, `([^/]+)`)
		t.re = regexp.MustCompile("^" + pat + "$")
		for _, m := range templateVar.FindAllStringSubmatch(t.URITemplate, -1) {
			t.names = append(t.names, m[1])
		}
	}
	set := func(name string, h func(*Server, *request) (any, *rpcError)) {
		m := *s.methods[name]
		m.handle = h
		s.methods[name] = &m
	}
	list := func(key string, items func() []any) func(*Server, *request) (any, *rpcError) {
		return func(s *Server, r *request) (any, *rpcError) {
			if _, err := readCursor(key, r.params, 1); err != nil {
				return nil, err
			}
			b, err := marshal(map[string]any{key: items()})
			if err != nil {
				return nil, &rpcError{Code: codeInternalError, Message: "Internal error: " + err.Error()}
			}
			return withHint{obj: b, hint: hintStatic}, nil
		}
	}
	set("tools/list", list("tools", func() []any {
		out := []any{}
		for _, t := range x.Tools {
			schema := t.InputSchema
			if schema == nil {
				schema = json.RawMessage(`{"type":"object"}`)
			}
			m := map[string]any{"name": t.Name, "description": t.Description, "inputSchema": schema}
			if t.Title != "" {
				m["title"] = t.Title
			}
			out = append(out, m)
		}
		return out
	}))
	set("resources/list", list("resources", func() []any {
		out := []any{}
		for _, res := range x.Resources {
			out = append(out, map[string]any{"uri": res.URI, "name": res.Name, "title": res.Title, "description": res.Description, "mimeType": res.MimeType})
		}
		return out
	}))
	set("resources/templates/list", list("resourceTemplates", func() []any {
		out := []any{}
		for _, t := range x.Templates {
			out = append(out, map[string]any{"uriTemplate": t.URITemplate, "name": t.Name, "title": t.Title, "description": t.Description, "mimeType": t.MimeType})
		}
		return out
	}))
	set("prompts/list", list("prompts", func() []any {
		out := []any{}
		for _, p := range x.Prompts {
			args := []any{}
			for _, a := range p.Arguments {
				args = append(args, map[string]any{"name": a.Name, "description": a.Description, "required": a.Required})
			}
			out = append(out, map[string]any{"name": p.Name, "title": p.Title, "description": p.Description, "arguments": args})
		}
		return out
	}))
	set("tools/call", func(s *Server, r *request) (any, *rpcError) { return s.extraCall(x, r) })
	set("resources/read", func(s *Server, r *request) (any, *rpcError) { return s.extraRead(x, r) })
	set("prompts/get", func(s *Server, r *request) (any, *rpcError) { return s.extraPrompt(x, r) })
	accept := func(s *Server, r *request) (any, *rpcError) {
		if _, err := uriParam(r, r.method.name); err != nil {
			return nil, err
		}
		return []byte(`{}`), nil
	}
	set("resources/subscribe", accept)
	set("resources/unsubscribe", accept)
	set("completion/complete", func(s *Server, r *request) (any, *rpcError) {
		return []byte(`{"completion":{"values":[],"total":0,"hasMore":false}}`), nil
	})
}

// extraCall answers tools/call for an extra tool.
func (s *Server) extraCall(x *Extras, r *request) (any, *rpcError) {
	var p struct {
		Name      *string         `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if p.Name == nil || *p.Name == "" {
		return nil, errInvalidParams(`tools/call: "name" is required`)
	}
	var t *ExtraTool
	for i := range x.Tools {
		if x.Tools[i].Name == *p.Name {
			t = &x.Tools[i]
		}
	}
	if t == nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: "Unknown tool: " + *p.Name, Data: map[string]any{"name": *p.Name}}
	}
	args := p.Arguments
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage(`{}`)
	}
	ctx, cancel := context.WithTimeout(r.ctx, s.opts.CallTimeout)
	defer cancel()
	res, err := t.Call(ctx, &ExtraCall{Arguments: args, Params: r.params, Modern: r.meta.modern, r: r})
	if xe := (*ExtraError)(nil); errors.As(err, &xe) {
		return nil, &rpcError{Code: xe.Code, Message: xe.Message, Data: xe.Data}
	}
	if err != nil {
		b, _ := marshal(err.Error())
		return []byte(`{"content":[{"type":"text","text":` + string(b) + `}],"isError":true}`), nil
	}
	return s.extraResult(r, res, nil), nil
}

// extraResult completes a fixture's result for the request's era; one that
// names its own resultType is only given serverInfo.
func (s *Server) extraResult(r *request, obj []byte, hint *cacheHint) any {
	if r.meta.modern && objectMember(obj, "resultType") != nil {
		out := append([]byte{}, obj[:len(obj)-1]...)
		out = append(out, `,"_meta":{"`+metaServerInfo+`":`...)
		out = append(out, s.static.serverInfo[modernVersion]...)
		return ready(append(out, '}', '}'))
	}
	return withHint{obj: obj, hint: hint}
}

// extraRead answers resources/read from the extra resources and templates.
func (s *Server) extraRead(x *Extras, r *request) (any, *rpcError) {
	uri, rerr := uriParam(r, "resources/read")
	if rerr != nil {
		return nil, rerr
	}
	var contents []any
	var err error
	found := false
	for _, res := range x.Resources {
		if res.URI == uri {
			found = true
			contents, err = res.Read(r.ctx, uri)
		}
	}
	for i := range x.Templates {
		t := &x.Templates[i]
		if found {
			break
		}
		if m := t.re.FindStringSubmatch(uri); m != nil {
			found = true
			vars := map[string]string{}
			for j, n := range t.names {
				vars[n] = m[j+1]
			}
			contents, err = t.Read(r.ctx, uri, vars)
		}
	}
	if !found {
		return nil, notFound(r, uri, "unknown resource "+uri)
	}
	if err != nil {
		return nil, &rpcError{Code: codeInternalError, Message: "Internal error: reading " + uri + ": " + err.Error()}
	}
	b, merr := marshal(map[string]any{"contents": contents})
	if merr != nil {
		return nil, &rpcError{Code: codeInternalError, Message: "Internal error: " + merr.Error()}
	}
	return s.extraResult(r, b, hintVolatile), nil
}

// extraPrompt answers prompts/get from the extra prompts.
func (s *Server) extraPrompt(x *Extras, r *request) (any, *rpcError) {
	var p struct {
		Name      *string           `json:"name"`
		Arguments map[string]string `json:"arguments"`
	}
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if p.Name == nil {
		return nil, errInvalidParams(`prompts/get: "name" is required`)
	}
	var pr *ExtraPrompt
	for i := range x.Prompts {
		if x.Prompts[i].Name == *p.Name {
			pr = &x.Prompts[i]
		}
	}
	if pr == nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: "Unknown prompt: " + *p.Name, Data: map[string]any{"name": *p.Name}}
	}
	var missing []string
	for _, a := range pr.Arguments {
		if a.Required && p.Arguments[a.Name] == "" {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return nil, errInvalidParams(fmt.Sprintf("prompt %s needs the arguments %s", pr.Name, strings.Join(missing, ", ")))
	}
	msgs, err := pr.Get(r.ctx, p.Arguments)
	if err != nil {
		return nil, &rpcError{Code: codeInternalError, Message: "Internal error: " + err.Error()}
	}
	b, merr := marshal(map[string]any{"description": pr.Description, "messages": msgs})
	if merr != nil {
		return nil, &rpcError{Code: codeInternalError, Message: "Internal error: " + merr.Error()}
	}
	return s.extraResult(r, b, nil), nil
}
