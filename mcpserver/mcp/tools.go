package mcp

// This file implements tools/call and the parts every tool shares: the
// listing per revision, strict argument validation, the per-call
// time limit, and how a tool's answer becomes a CallToolResult.

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"unicode/utf8"
)

// A toolFailure is the structured data of a tool execution error; it is
// sent as the JSON text of the result's text block.
type toolFailure struct {
	Error Failure `json:"error"`
}

// A Failure is why a tool could not do its work, as a client reads it:
// the structured data of an isError result, {"error": {...}}, also sent
// as its text. Kind is a word a client can test: invalid_arguments,
// timeout and cancelled come from the server itself; a tool adds its own
// (not_found, outside_workspace, ...).
type Failure struct {
	Kind     string   `json:"kind"`
	Message  string   `json:"message"`
	Problems []string `json:"problems,omitempty"`
	Path     string   `json:"path,omitempty"`
	Line     int      `json:"line,omitempty"` // the line of a place in the file at Path, 1-based
	Byte     int      `json:"byte,omitempty"` // its byte in that line, 1-based
	LimitMs  int64    `json:"limitMs,omitempty"`
}

// Result is the isError result that carries f, its texts cut to
// maxFailureText bytes each: they quote what the call was given (a name,
// a path), which may be megabytes.
func (f Failure) Result() Result {
	f.Message, f.Path = clipText(f.Message), clipText(f.Path)
	if len(f.Problems) > 0 {
		problems := make([]string, len(f.Problems))
		for i, p := range f.Problems {
			problems[i] = clipText(p)
		}
		f.Problems = problems
	}
	return Result{Structured: toolFailure{f}, Text: f.Message, IsError: true}
}

// maxFailureText is the most bytes of a failure's text kept whole.
const maxFailureText = 2048

// clipText returns s, or its first maxFailureText bytes (whole
// characters) and what was cut.
func clipText(s string) string {
	if len(s) <= maxFailureText {
		return s
	}
	cut := maxFailureText
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + fmt.Sprintf("… (%d bytes more)", len(s)-cut)
}

func failure(kind, msg string) Result { return Failure{Kind: kind, Message: msg}.Result() }

// toolListing is the tool as tools/list shows it under revision v:
// annotations from 2025-03-26, title and outputSchema from 2025-06-18.
func toolListing(t *Tool, v string) map[string]any {
	input := t.Input
	if input == nil {
		input = &Schema{Type: "object"}
	}
	m := map[string]any{"name": t.Name, "description": t.Description, "inputSchema": input}
	if atLeast(v, "2025-03-26") {
		ann := map[string]any{
			"readOnlyHint":    t.ReadOnly,
			"destructiveHint": t.Destructive,
			"idempotentHint":  t.Idempotent,
			"openWorldHint":   false,
		}
		if t.Title != "" {
			ann["title"] = t.Title
		}
		m["annotations"] = ann
	}
	if atLeast(v, "2025-06-18") {
		if t.Title != "" {
			m["title"] = t.Title
		}
		if t.Output != nil {
			m["outputSchema"] = t.Output
		}
	}
	return m
}

// callTool answers tools/call.
func (s *Server) callTool(r *request) (any, *rpcError) {
	var name string
	var rawArgs []byte
	if r.params == nil {
		return nil, errInvalidParams(`tools/call: "name" is required`)
	}
	var perr *rpcError
	scanObject(r.params, func(k string, v []byte) {
		switch k {
		case "name":
			n, ok := decodeString(v)
			if !ok {
				perr = errInvalidParams(`tools/call: "name" must be a string`)
			}
			name = n
		case "arguments":
			switch v[0] {
			case '{':
				rawArgs = v
			case 'n':
			default:
				perr = errInvalidParams(`tools/call: "arguments" must be an object`)
			}
		}
	})
	if perr != nil {
		return nil, perr
	}
	if name == "" {
		return nil, errInvalidParams(`tools/call: "name" is required`)
	}
	t := s.byName[name]
	if t == nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: "Unknown tool: " + name, Data: map[string]any{"name": name}}
	}
	ctx, cancel := context.WithTimeout(r.ctx, s.opts.CallTimeout)
	defer cancel()
	c, rerr := s.newCall(ctx, r)
	if rerr != nil {
		return nil, rerr
	}
	type outcome struct {
		res   Result
		panic any
		stack []byte
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- outcome{panic: p, stack: debug.Stack()}
			}
		}()
		done <- outcome{res: s.runTool(ctx, c, t, rawArgs)}
	}()
	var res Result
	select {
	case o := <-done:
		if o.panic != nil {
			s.logger.Error("mcp tool panicked", "tool", name, "panic", o.panic, "stack", string(o.stack))
			return nil, &rpcError{Code: codeInternalError, Message: fmt.Sprintf("Internal error: tool %s failed: %v", name, o.panic)}
		}
		res = o.res
	case <-ctx.Done():
		res = c.Interrupted(ctx)
	}
	if res.err != nil {
		if errors.Is(res.err, ErrInputRequired) && r.meta.modern {
			b, rerr := s.inputRequired(c)
			if rerr != nil {
				return nil, rerr
			}
			return ready(b), nil
		}
		if rerr := rpcErrorOf(r, res.err); rerr != nil {
			return nil, rerr
		}
		res = Result{Text: res.err.Error(), IsError: true}
		if ctx.Err() != nil {
			res = c.Interrupted(ctx)
		}
	}
	// A tool that gave up because its context ended answers as the
	// interruption itself, whichever of the two the select above saw first.
	if res.IsError && ctx.Err() != nil {
		res = c.Interrupted(ctx)
	}
	return s.toolAnswer(r, res)
}

// Interrupted is the answer of a call stopped by its time limit or by
// cancellation (the latter is normally dropped unanswered): a tool whose
// work gave up because ctx ended answers with it.
func (c *Call) Interrupted(ctx context.Context) Result {
	if c.req.ctx.Err() != nil {
		return failure("cancelled", "the call was cancelled")
	}
	limit := c.srv.opts.CallTimeout
	msg := fmt.Sprintf("the call took longer than the %v limit and was stopped", limit)
	return Failure{Kind: "timeout", Message: msg, LimitMs: limit.Milliseconds()}.Result()
}

// runTool checks the arguments and runs the tool.
func (s *Server) runTool(ctx context.Context, c *Call, t *Tool, rawArgs []byte) Result {
	if rawArgs == nil {
		rawArgs = []byte(`{}`)
	}
	c.Arguments = rawArgs
	if t.Input == nil {
		return t.Call(ctx, c)
	}
	v, err := decodeArgs(rawArgs)
	if err != nil {
		return failure("invalid_arguments", "cannot read the arguments: "+err.Error())
	}
	if problems := t.Input.Validate(v); len(problems) > 0 {
		msg := "invalid arguments for " + t.Name + ": " + strings.Join(problems, "; ")
		return Failure{Kind: "invalid_arguments", Message: msg, Problems: problems}.Result()
	}
	c.Args, _ = v.(map[string]any)
	return t.Call(ctx, c)
}

// toolAnswer builds the CallToolResult: the content blocks (a text block
// by default), structuredContent from revision 2025-06-18 on, and isError.
func (s *Server) toolAnswer(r *request, res Result) (any, *rpcError) {
	v := r.meta.version
	if v == "" {
		v = legacyVersions[0]
	}
	var structured []byte
	if res.Structured != nil {
		b, err := marshal(res.Structured)
		if err != nil {
			return nil, &rpcError{Code: codeInternalError, Message: "Internal error: encoding the tool result: " + err.Error()}
		}
		structured = b
	}
	out := make([]byte, 0, len(res.Text)+len(structured)+64)
	if res.Content != nil {
		b, err := marshal(res.Content)
		if err != nil {
			return nil, &rpcError{Code: codeInternalError, Message: "Internal error: encoding the tool result: " + err.Error()}
		}
		out = append(out, `{"content":`...)
		out = append(out, b...)
	} else {
		text := res.Text
		if text == "" && structured != nil || res.IsError && structured != nil {
			// Clients check structuredContent against the outputSchema even on
			// errors, so a failure's structured data travels in the text block.
			text = string(structured)
		}
		out = append(out, `{"content":[{"type":"text","text":`...)
		tb, _ := marshal(text)
		out = append(out, tb...)
		out = append(out, `}]`...)
	}
	if structured != nil && !res.IsError && atLeast(v, "2025-06-18") {
		out = append(out, `,"structuredContent":`...)
		out = append(out, structured...)
	}
	if res.IsError {
		out = append(out, `,"isError":true`...)
	}
	out = append(out, '}')
	return out, nil
}
