package mcp

// This file defines how a server's primitives are declared: a [Tool], a
// [Resource], a [Template] and a [Prompt], gathered in [Primitives], and
// the [Result] a tool answers with. WFL's own primitives (mcpserver.WFL)
// and the conformance fixture's (internal/conformance) are declared the
// same way; a handler reaches its session through a [Call] (call.go).

import (
	"context"
	"errors"
	"strconv"
	"strings"
)

// Primitives are what a server offers, each kind in the order its list
// method shows them. mcpserver.WFL returns wfl-lsp's.
type Primitives struct {
	Tools     []*Tool
	Resources []*Resource
	Templates []*Template
	Prompts   []*Prompt

	// OpenWorkspace, when set, makes what the primitives read from the
	// folders of a workspace (real absolute paths, none inside another):
	// once for the server's own folder when the server is built, and once
	// each time a session reads its client's roots. A handler gets it
	// from [Call.Workspace]. An error refuses the folders: New fails, and
	// a session keeps the workspace it had.
	OpenWorkspace func(folders []string) (any, error)
}

// A Tool is one tool.
type Tool struct {
	Name        string
	Title       string // shown to people; "" for none
	Description string

	// Input is the schema of the arguments, checked before Call runs: an
	// argument that is missing, unknown or of the wrong type makes an
	// isError result naming it. nil takes any object unchecked (Call then
	// reads Call.Arguments).
	Input *Schema
	// Output is the schema of the structured content, or nil for none.
	Output *Schema

	ReadOnly, Idempotent, Destructive bool // annotations from revision 2025-03-26 on

	// Call answers a call. It runs under the call time limit
	// (Options.CallTimeout); ctx ends with it or when the client cancels.
	Call func(ctx context.Context, c *Call) Result
}

// A Result is a tool's answer.
type Result struct {
	// Structured conforms to the tool's Output schema; it is sent as
	// structuredContent (from revision 2025-06-18 on) and as JSON text.
	Structured any
	// Content are the content blocks; nil means one text block holding
	// Text, or the JSON of Structured when Text is "".
	Content []any
	Text    string
	IsError bool

	err error // see Failed
}

// Failed is the result of a tool that could not do its work because of
// err: an [*Error] is answered as that JSON-RPC error, [ErrInputRequired]
// (from [Call.Ask]) as the input-required result of revision 2026-07-28,
// and anything else as an isError result carrying its text.
func Failed(err error) Result { return Result{err: err} }

// A Resource is one fixed resource.
type Resource struct {
	URI, Name, Title, Description, MimeType string

	// Read returns the items of the contents array: objects with "uri",
	// "mimeType" and either "text" or "blob" (base64).
	Read func(ctx context.Context, c *Call) ([]any, error)
	// Version returns a value that changes when the contents do; the
	// watcher polls it for subscribers. nil: the contents never change.
	Version func(c *Call) string
}

// A Template is a resource template (RFC 6570): {name} matches one path
// segment, {+name} the rest of the URI.
type Template struct {
	URITemplate, Name, Title, Description, MimeType string

	// Match, when set, replaces matching by URITemplate (to accept more
	// spellings of a URI than the template shows).
	Match    func(uri string) (vars map[string]string, ok bool)
	Read     func(ctx context.Context, c *Call, uri string, vars map[string]string) ([]any, error)
	Complete func(c *Call, variable, prefix string) []string // completion/complete values, or nil
	Version  func(c *Call, uri string, vars map[string]string) string
}

// A Prompt is one prompt template.
type Prompt struct {
	Name, Title, Description string
	Arguments                []Argument
	// Get returns the messages of the prompts/get result; required
	// arguments are present and unknown ones were refused before.
	Get func(ctx context.Context, c *Call, args map[string]string) ([]any, error)
}

// An Argument is one argument of a prompt.
type Argument struct {
	Name, Title, Description string
	Required                 bool
	Complete                 func(c *Call, prefix string) []string // completion/complete values, or nil
}

// An Error is a JSON-RPC error a handler answers with instead of a result.
type Error struct {
	Code    int
	Message string
	Data    any
}

// CodeInvalidParams is the code of an [Error] that refuses a request's
// arguments (JSON-RPC's -32602, "Invalid params").
const CodeInvalidParams = codeInvalidParams

func (e *Error) Error() string { return e.Message + " (" + strconv.Itoa(e.Code) + ")" }

// Errors a handler may return or meet.
var (
	// ErrResourceNotFound, wrapped by a Read's error, is answered as the
	// request's revision wants: -32002 in the handshake era, -32602 under
	// 2026-07-28.
	ErrResourceNotFound = errors.New("resource not found")
	// ErrInputRequired is returned by Call.Ask under revision 2026-07-28
	// when the client must answer first: the handler returns it (through
	// Failed, or as its error) and the request is answered with an
	// input-required result; the client retries with the answers.
	ErrInputRequired = errors.New("input required from the client")
	// ErrNoCapability is returned by Call.Ask for a request the client did
	// not declare the capability for; nothing was sent. A handler that
	// fails with it is answered with an isError result in the handshake
	// era, with error -32021 (naming the capability) under 2026-07-28.
	ErrNoCapability = errors.New("the client did not declare the capability")
)

// rpcErrorOf converts a handler's error into the JSON-RPC error that
// answers r, or nil when err is not one.
func rpcErrorOf(r *request, err error) *rpcError {
	var e *Error
	var ce *capabilityError
	switch {
	case errors.As(err, &ce) && r.meta.modern:
		return &rpcError{Code: codeMissingRequiredCapability, Message: "Missing required client capability: " + ce.capability,
			Data: map[string]any{"requiredCapabilities": map[string]any{ce.capability: map[string]any{}}}}
	case errors.As(err, &e):
		return &rpcError{Code: e.Code, Message: e.Message, Data: e.Data}
	case errors.Is(err, ErrResourceNotFound):
		code := codeResourceNotFound
		if r.meta.modern {
			code = codeInvalidParams
		}
		uri, _ := decodeString(objectMember(r.params, "uri"))
		why := strings.TrimSuffix(err.Error(), ": "+ErrResourceNotFound.Error()) // said once, in front
		return &rpcError{Code: code, Message: "Resource not found: " + why, Data: map[string]any{"uri": uri}}
	}
	return nil
}
