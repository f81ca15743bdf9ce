package mcp

// This file starts the wire-test harness (internal/wiretest) on a server
// of a tiny fixture of primitives and the test tools.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wfl-lsp/mcpserver/internal/wiretest"
)

// The harness (internal/wiretest), under the names the tests use.
type (
	harness = wiretest.Harness
	wire    = wiretest.Wire
)

const guard = wiretest.Guard

var (
	modernMeta = wiretest.ModernMeta
	parseWire  = wiretest.ParseWire
)

// testWorkspace is a fresh folder for the server.
func testWorkspace(t testing.TB) string { return t.TempDir() }

// testServer builds a server of opts, Root defaulting to a fresh folder,
// the primitives to the fixture and the test tools.
func testServer(t *testing.T, opts Options) *Server {
	t.Helper()
	if opts.Root == "" {
		opts.Root = testWorkspace(t)
	}
	if opts.Primitives == nil {
		opts.Primitives = withTools(testTools()...)
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// start runs a testServer of opts over stdio.
func start(t *testing.T, opts Options) *harness {
	t.Helper()
	return startServer(t, testServer(t, opts))
}

// startServer runs s over stdio.
func startServer(t *testing.T, s *Server) *harness {
	t.Helper()
	return wiretest.Start(t, s.ws.String(), s.ServeStream)
}

// Test tools: echo, block (until cancelled), panic, and gate (waits for the
// test to release it).
var errBoom = errors.New("boom")

var (
	blockStarted = make(chan string, 16)
	blockEnded   = make(chan string, 16)
)

// textTool is a test tool without an input schema: raw arguments in, text
// out, an error as an isError result.
func textTool(name string, f func(ctx context.Context, args json.RawMessage) (string, error)) *Tool {
	return &Tool{Name: name, Description: "test tool " + name, Call: func(ctx context.Context, c *Call) Result {
		text, err := f(ctx, c.Arguments)
		if err != nil {
			return Result{Text: err.Error(), IsError: true}
		}
		return Result{Text: text}
	}}
}

// fixture is a tiny set of primitives, one or more of each kind, that the
// protocol's tests serve instead of an application's.
func fixture() Primitives {
	text := func(uri string) []any { return TextContents(uri, "text/plain", "contents of "+uri) }
	var p Primitives
	for _, n := range []string{"a", "b", "c"} {
		p.Tools = append(p.Tools, &Tool{Name: "tool_" + n, Description: "answers " + n, ReadOnly: true,
			Input:  &Schema{Type: "object", Properties: map[string]*Schema{"x": {Type: "string"}}},
			Output: &Schema{Type: "object", Properties: map[string]*Schema{"answer": {Type: "string"}}, Required: []string{"answer"}},
			Call: func(ctx context.Context, c *Call) Result {
				return Result{Structured: map[string]any{"answer": n}}
			}})
		p.Resources = append(p.Resources, &Resource{URI: "test://" + n, Name: n, MimeType: "text/plain",
			Read: func(ctx context.Context, c *Call) ([]any, error) { return text("test://" + n), nil }})
		p.Templates = append(p.Templates, &Template{URITemplate: "test://" + n + "/{name}", Name: n + "s", MimeType: "text/plain",
			Read: func(ctx context.Context, c *Call, uri string, vars map[string]string) ([]any, error) {
				return text(uri), nil
			}})
		p.Prompts = append(p.Prompts, &Prompt{Name: "prompt_" + n, Description: "says " + n,
			Arguments: []Argument{{Name: "topic", Required: true, Complete: func(c *Call, prefix string) []string {
				var out []string
				for _, w := range []string{"apple", "apricot", "banana"} {
					if strings.HasPrefix(w, prefix) {
						out = append(out, w)
					}
				}
				return out
			}}},
			Get: func(ctx context.Context, c *Call, args map[string]string) ([]any, error) {
				return []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": n + " " + args["topic"]}}}, nil
			}})
	}
	p.Tools = append(p.Tools,
		// work reports progress on three steps, then logs at info.
		&Tool{Name: "work", Description: "works in three steps", Input: &Schema{Type: "object"},
			Call: func(ctx context.Context, c *Call) Result {
				for i := range 3 {
					c.Progress(float64(i+1), 3, fmt.Sprintf("checked step %d", i+1))
				}
				c.Log("info", "three steps done")
				return Result{Text: "done"}
			}},
		// folders answers the folders of its call's workspace.
		&Tool{Name: "folders", Description: "lists the workspace's folders", Input: &Schema{Type: "object"},
			Call: func(ctx context.Context, c *Call) Result {
				return Result{Text: strings.Join(c.Folders(), "\n")}
			}})
	// test://listing lists the files of the workspace's first folder, and
	// test://file/{name} reads one: each changes when what it reads does.
	listing := func(c *Call) string {
		var names []string
		if es, err := os.ReadDir(c.Folders()[0]); err == nil {
			for _, e := range es {
				names = append(names, e.Name())
			}
		}
		return strings.Join(names, "\n")
	}
	file := func(c *Call, name string) ([]byte, error) {
		b, err := os.ReadFile(filepath.Join(c.Folders()[0], filepath.Base(name)))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, ErrResourceNotFound)
		}
		return b, nil
	}
	p.Resources = append(p.Resources, &Resource{URI: "test://listing", Name: "listing", MimeType: "text/plain",
		Read: func(ctx context.Context, c *Call) ([]any, error) {
			return TextContents("test://listing", "text/plain", listing(c)), nil
		},
		Version: listing})
	p.Templates = append(p.Templates, &Template{URITemplate: "test://file/{name}", Name: "file", MimeType: "text/plain",
		Read: func(ctx context.Context, c *Call, uri string, vars map[string]string) ([]any, error) {
			b, err := file(c, vars["name"])
			if err != nil {
				return nil, err
			}
			return TextContents(uri, "text/plain", string(b)), nil
		},
		Version: func(c *Call, uri string, vars map[string]string) string {
			b, _ := file(c, vars["name"])
			return string(b)
		},
		Complete: func(c *Call, variable, prefix string) []string {
			var out []string
			for i := range 150 {
				out = append(out, fmt.Sprintf("%s%03d", prefix, i))
			}
			return out
		}})
	return p
}

// withTools returns the fixture with more tools after its own.
func withTools(tools ...*Tool) *Primitives {
	p := fixture()
	p.Tools = append(p.Tools, tools...)
	return &p
}

// wflOnly returns the fixture alone.
func wflOnly() *Primitives {
	p := fixture()
	return &p
}

func testTools() []*Tool {
	return []*Tool{
		textTool("echo", func(ctx context.Context, args json.RawMessage) (string, error) {
			var a struct {
				Text *string `json:"text"`
			}
			if err := json.Unmarshal(args, &a); err != nil || a.Text == nil {
				return "", errors.New(`echo needs "text", a string`)
			}
			return *a.Text, nil
		}),
		textTool("block", func(ctx context.Context, args json.RawMessage) (string, error) {
			blockStarted <- string(args)
			<-ctx.Done()
			blockEnded <- string(args)
			return "", ctx.Err()
		}),
		textTool("panic", func(ctx context.Context, args json.RawMessage) (string, error) {
			panic(errBoom)
		}),
	}
}

func waitChan(t *testing.T, ch chan string) string {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(guard):
		t.Fatal("a test tool did not report within the guard")
	}
	return ""
}
