package mcpserver

// This file starts the wire-test harness (internal/wiretest) on a server
// of WFL's primitives and a test tool.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"wfl-lsp/internal/testfiles"
	"wfl-lsp/internal/txtar"
	"wfl-lsp/mcpserver/internal/wiretest"
	"wfl-lsp/mcpserver/mcp"
)

// The harness (internal/wiretest), under the names the tests use.
type (
	harness  = wiretest.Harness
	wire     = wiretest.Wire
	toolCall = wiretest.ToolCall
)

const guard = wiretest.Guard

// toolFailure is the structured data of a tool's isError result.
type toolFailure struct {
	Error mcp.Failure `json:"error"`
}

// testWorkspace copies the files of testdata/mcp/workspace.txtar into a
// temporary folder and adds escape.wfl, a symbolic link to a file outside
// it.
func testWorkspace(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	data, err := os.ReadFile("../testdata/mcp/workspace.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range txtar.Parse(string(data)).Files {
		testfiles.Write(t, root, f.Name, f.Data)
	}
	outside := filepath.Join(t.TempDir(), "secret.wfl")
	os.WriteFile(outside, []byte("display \"secret\"\n"), 0o644)
	if err := os.Symlink(outside, filepath.Join(root, "escape.wfl")); err != nil {
		t.Fatal(err)
	}
	return root
}

// noRoot as Options.Root makes start run a server without --root.
const noRoot = "\x00client roots"

// start runs a server with opts (Root defaulting to a fresh workspace).
func start(t *testing.T, opts Options) *harness {
	t.Helper()
	switch opts.Root {
	case "":
		opts.Root = testWorkspace(t)
	case noRoot:
		opts.Root = "" // the workspace follows the client's roots
	}
	if opts.Primitives == nil {
		opts.Primitives = withTools(echo)
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return wiretest.Start(t, opts.Root, s.ServeStream)
}

// echo is a test tool beside WFL's, without an input schema: it answers
// its "text" argument.
var echo = &Tool{Name: "echo", Description: "test tool echo", Call: func(ctx context.Context, c *Call) Result {
	var a struct {
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(c.Arguments, &a); err != nil || a.Text == nil {
		return Result{Text: `echo needs "text", a string`, IsError: true}
	}
	return Result{Text: *a.Text}
}}

// withTools returns WFL's primitives with more tools after its own.
func withTools(tools ...*Tool) *Primitives {
	p := WFL()
	p.Tools = append(append([]*Tool{}, p.Tools...), tools...)
	return &p
}

// wflOnly returns WFL's primitives as the product serves them.
func wflOnly() *Primitives {
	p := WFL()
	return &p
}
