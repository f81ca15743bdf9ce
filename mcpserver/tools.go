package mcpserver

// This file implements tools/call and the parts every tool shares: the
// listing per revision, strict argument validation, the per-call
// time limit, and how a tool's answer becomes a CallToolResult. Each tool
// lives in its own tool_*.go file.

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sort"
	"strings"
	"time"

	"wfl-lsp/core"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

// A toolFailure is the structured data of a tool execution error; it is
// sent as the JSON text of the result's text block.
type toolFailure struct {
	Error failureInfo `json:"error"`
}

type failureInfo struct {
	Kind     string   `json:"kind"` // invalid_arguments, timeout, cancelled, not_found, outside_workspace, ...
	Message  string   `json:"message"`
	Problems []string `json:"problems,omitempty"`
	Path     string   `json:"path,omitempty"`
	Line     int      `json:"line,omitempty"` // not_utf8: the line of the first bad byte
	Byte     int      `json:"byte,omitempty"` // not_utf8: its byte in that line
	LimitMs  int64    `json:"limitMs,omitempty"`
}

func failure(kind, msg string) Result {
	return Result{Structured: toolFailure{failureInfo{Kind: kind, Message: msg}}, Text: msg, IsError: true}
}

func pathFailure(e *pathError) Result {
	return Result{Structured: toolFailure{failureInfo{Kind: e.Kind, Message: e.Message, Path: e.Path, Line: e.Line, Byte: e.Byte}}, Text: e.Message, IsError: true}
}

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
		res = c.interrupted(ctx)
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
			res = c.interrupted(ctx)
		}
	}
	// A tool that gave up because its context ended answers as the
	// interruption itself, whichever of the two the select above saw first.
	if res.IsError && ctx.Err() != nil {
		res = c.interrupted(ctx)
	}
	return s.toolAnswer(r, res)
}

// interrupted is the answer of a call stopped by its time limit or by
// cancellation (the latter is normally dropped unanswered).
func (c *Call) interrupted(ctx context.Context) Result {
	if c.req.ctx.Err() != nil {
		return failure("cancelled", "the call was cancelled")
	}
	limit := c.srv.opts.CallTimeout
	msg := fmt.Sprintf("the call took longer than the %v limit and was stopped", limit)
	return Result{Structured: toolFailure{failureInfo{Kind: "timeout", Message: msg, LimitMs: limit.Milliseconds()}}, Text: msg, IsError: true}
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
	if problems := t.Input.validate(v); len(problems) > 0 {
		msg := "invalid arguments for " + t.Name + ": " + strings.Join(problems, "; ")
		return Result{Structured: toolFailure{failureInfo{Kind: "invalid_arguments", Message: msg, Problems: problems}}, Text: msg, IsError: true}
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

// A document is the program a tool works on: given inline or read from the
// workspace.
type document struct {
	snap *core.Snapshot
	a    *core.Analysis
	path string // slash path relative to the root, or "" for inline source
}

// sourceOrPath is the input schema part every tool that takes a program shares.
func sourceOrPath() map[string]*Schema {
	return map[string]*Schema{
		"source": str("The WFL program text. Give either source or path."),
		"path":   str("A .wfl file in the workspace, relative to its root (or absolute inside it, or a file:// URI). Give either source or path."),
	}
}

// document reads the program named by the source or path argument.
func (c *Call) document(ctx context.Context) (*document, *Result) {
	return c.workspace().document(ctx, c.Args)
}

// onDocument makes the Call of a tool that reads one program, named by the
// source or path argument: f runs on it, and a missing or unreadable
// program is the answer instead. The program's analysis stops soon after
// the call's context ends (its time limit, a cancellation), and the answer
// is then the interruption, never what the stopped analysis left.
func onDocument(f func(ctx context.Context, c *Call, d *document) Result) func(context.Context, *Call) Result {
	return func(ctx context.Context, c *Call) Result {
		d, fail := c.document(ctx)
		if fail != nil {
			return *fail
		}
		if d.snap.Err() != nil {
			return c.interrupted(ctx)
		}
		res := f(ctx, c, d)
		if d.snap.Err() != nil {
			return c.interrupted(ctx)
		}
		return res
	}
}

// document reads the program the arguments name, and analyses it for the
// request ctx is the context of (core.NewSnapshotContext).
func (ws *workspace) document(ctx context.Context, args map[string]any) (*document, *Result) {
	src, hasSrc := strArg(args, "source")
	p, hasPath := strArg(args, "path")
	switch {
	case hasSrc && hasPath:
		f := failure("invalid_arguments", `give either "source" or "path", not both`)
		return nil, &f
	case !hasSrc && !hasPath:
		f := failure("invalid_arguments", `missing required argument: give "source" (the program text) or "path" (a workspace file)`)
		return nil, &f
	case hasSrc:
		snap := ws.files.NewSnapshotContext(ctx, "untitled:source.wfl", 0, src) // no path: its includes are not followed
		return &document{snap: snap, a: snap.Analysis()}, nil
	}
	text, rel, err := ws.readFile(p)
	if err != nil {
		f := pathFailure(err)
		return nil, &f
	}
	snap := ws.snapshot(ctx, rel, text)
	return &document{snap: snap, a: snap.Analysis(), path: rel}, nil
}

// diagJSON is a diagnostic as tools and resources show it.
type diagJSON struct {
	Line      int           `json:"line"`
	Column    int           `json:"column"`
	EndLine   int           `json:"endLine"`
	EndColumn int           `json:"endColumn"`
	Severity  string        `json:"severity"`
	Category  string        `json:"category"`
	Code      string        `json:"code"`
	Message   string        `json:"message"`
	Related   []relatedJSON `json:"related,omitempty"`
}

type relatedJSON struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

var diagSchema = object([]string{"line", "column", "endLine", "endColumn", "severity", "category", "code", "message"}, map[string]*Schema{
	"line":      integer("1-based line where the problem starts", 1),
	"column":    integer("1-based column (in characters) where the problem starts", 1),
	"endLine":   integer("1-based line where the problem ends", 1),
	"endColumn": integer("1-based column just past the problem", 1),
	"severity":  enum("how serious it is", "error", "warning", "information", "hint"),
	"category":  enum("the stage that found it", "parse", "semantic", "type", "lint"),
	"code":      str("stable diagnostic code, e.g. PARSE-EXPECTED or TYPE-OPERAND"),
	"message":   str("what is wrong"),
	"related": array("other places that explain this one", object([]string{"line", "column", "message"}, map[string]*Schema{
		"line":    integer("1-based line", 1),
		"column":  integer("1-based column", 1),
		"message": str("what is there"),
	})),
})

// maxDiagnostics is how many diagnostics one answer lists by default
// (each tool's, check_workspace's, the fix_wfl_errors prompt's): a model
// reads the first ones, and 160,000 findings on one line made a 65 MB
// answer. The counts of errors and warnings are those of every finding,
// and the answer says how many were left out and where the next page
// starts.
const maxDiagnostics = 200

// diagCounts counts a list of findings and says what its page left out.
type diagCounts struct {
	total, errors, warnings int
	listed                  int
	pageOut
}

// diagnostics converts the page p of the document's diagnostics that keep
// returns true for: the list an editor shows (core.Snapshot.Tolerant:
// while a statement does not parse, the findings of the others too),
// ordered as listDiagnostics orders them.
func (d *document) diagnostics(keep func(diag.Diagnostic) bool, p page) ([]diagJSON, diagCounts) {
	_, shown := d.snap.Tolerant()
	kept := shown[:0:0]
	for _, x := range shown {
		if keep == nil || keep(x) {
			kept = append(kept, x)
		}
	}
	return listDiagnostics(d.a.Lines, kept, p)
}

// listDiagnostics converts the page p of ds to the answer's form, with
// the counts of all of ds. They are ordered by severity (errors first),
// then in source order; positions are computed for the listed ones only.
func listDiagnostics(lines *token.Lines, ds []diag.Diagnostic, p page) ([]diagJSON, diagCounts) {
	var n diagCounts
	for _, x := range ds {
		n.total++
		switch x.Severity {
		case diag.Error:
			n.errors++
		case diag.Warning:
			n.warnings++
		}
	}
	out, po := listDiagnosticsSorted(lines, sortedDiagnostics(ds), p)
	n.pageOut = po
	n.listed = len(out)
	return out, n
}

// listDiagnosticsSorted converts the page p of ds, ordered already.
func listDiagnosticsSorted(lines *token.Lines, ds []diag.Diagnostic, p page) ([]diagJSON, pageOut) {
	out := []diagJSON{}
	end, po := paged(len(ds), p, func(i int) int {
		dj := toDiagJSON(lines, ds[i])
		out = append(out, dj)
		return jsonSize(dj)
	})
	return out[:end-min(p.offset, len(ds))], po
}

// listedNote is what a summary adds when findings were left out.
func (n diagCounts) listedNote() string {
	return n.pageOut.note(n.listed, "findings, errors first,")
}

func toDiagJSON(lines *token.Lines, x diag.Diagnostic) diagJSON {
	l, c := lines.OffsetPosition(x.Span.Start)
	el, ec := lines.OffsetPosition(x.Span.End)
	dj := diagJSON{Line: l, Column: c, EndLine: el, EndColumn: ec,
		Severity: x.Severity.String(), Category: x.Category.String(), Code: x.Code, Message: x.Message}
	for _, rel := range x.Related {
		rl, rc := lines.OffsetPosition(rel.Span.Start)
		dj.Related = append(dj.Related, relatedJSON{Line: rl, Column: rc, Message: rel.Message})
	}
	return dj
}

// sortedDiagnostics returns the diagnostics by severity, errors first,
// then in source order (stable).
func sortedDiagnostics(ds []diag.Diagnostic) []diag.Diagnostic {
	out := append([]diag.Diagnostic(nil), ds...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Severity != out[j].Severity {
			return out[i].Severity < out[j].Severity
		}
		return out[i].Span.Start < out[j].Span.Start
	})
	return out
}

// elapsed is a helper for tools that report their own timing.
func elapsed(start time.Time) float64 { return float64(time.Since(start).Microseconds()) / 1000 }
