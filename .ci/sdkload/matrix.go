package main

// The client matrix: the official Go SDK's client and mcp-go's, over stdio
// and Streamable HTTP, in the handshake era (2025-11-25) and the stateless
// one (2026-07-28): each lists the tools, calls analyze_wfl on a workspace
// file, reads it as a resource and gets a tool error for a call without
// source or path. Over HTTP the server is then restarted (SIGTERM, the same
// port and session key) and the same client calls again: a handshake-era
// session is taken up by the new process.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/client"
	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	mcpgotypes "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A peer is one client connected: what the checks need of it.
type peer interface {
	tools(ctx context.Context) ([]string, error)
	call(ctx context.Context, name string, args map[string]any) (text string, isError bool, err error)
	read(ctx context.Context, uri string) (string, error)
	close()
}

type goSDK struct{ cs *mcp.ClientSession }

func (p goSDK) tools(ctx context.Context) ([]string, error) {
	res, err := p.cs.ListTools(ctx, nil)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, t := range res.Tools {
		names = append(names, t.Name)
	}
	return names, nil
}

func (p goSDK) call(ctx context.Context, name string, args map[string]any) (string, bool, error) {
	res, err := p.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return "", false, err
	}
	text := ""
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
	}
	return text, res.IsError, nil
}

func (p goSDK) read(ctx context.Context, uri string) (string, error) {
	res, err := p.cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		return "", err
	}
	if len(res.Contents) == 0 {
		return "", errors.New("no contents")
	}
	return res.Contents[0].Text, nil
}

func (p goSDK) close() { p.cs.Close() }

type mcpGo struct{ c *mcpgo.Client }

func (p mcpGo) tools(ctx context.Context) ([]string, error) {
	res, err := p.c.ListTools(ctx, mcpgotypes.ListToolsRequest{})
	if err != nil {
		return nil, err
	}
	var names []string
	for _, t := range res.Tools {
		names = append(names, t.Name)
	}
	return names, nil
}

func (p mcpGo) call(ctx context.Context, name string, args map[string]any) (string, bool, error) {
	res, err := p.c.CallTool(ctx, mcpgotypes.CallToolRequest{Params: mcpgotypes.CallToolParams{Name: name, Arguments: args}})
	if err != nil {
		return "", false, err
	}
	text := ""
	if len(res.Content) > 0 {
		if tc, ok := mcpgotypes.AsTextContent(res.Content[0]); ok {
			text = tc.Text
		}
	}
	return text, res.IsError, nil
}

func (p mcpGo) read(ctx context.Context, uri string) (string, error) {
	res, err := p.c.ReadResource(ctx, mcpgotypes.ReadResourceRequest{Params: mcpgotypes.ReadResourceParams{URI: uri}})
	if err != nil {
		return "", err
	}
	if len(res.Contents) == 0 {
		return "", errors.New("no contents")
	}
	tc, ok := mcpgotypes.AsTextResourceContents(res.Contents[0])
	if !ok {
		return "", fmt.Errorf("contents %T", res.Contents[0])
	}
	return tc.Text, nil
}

func (p mcpGo) close() { p.c.Close() }

// connect connects a client of sdk over transport ("stdio" or an HTTP URL)
// in the era of version.
func connect(ctx context.Context, sdk, bin, root, url, version string) (peer, error) {
	switch sdk {
	case "go-sdk":
		c := mcp.NewClient(&mcp.Implementation{Name: "sdkload", Version: "1"}, nil)
		var t mcp.Transport
		if url == "" {
			t = &mcp.CommandTransport{Command: exec.Command(bin, "--mcp", "--root", root)}
		} else {
			t = &mcp.StreamableClientTransport{Endpoint: url, MaxRetries: 5}
		}
		cs, err := c.Connect(ctx, t, &mcp.ClientSessionOptions{ProtocolVersion: version})
		if err != nil {
			return nil, err
		}
		return goSDK{cs}, nil
	case "mcp-go":
		var c *mcpgo.Client
		var err error
		if url == "" {
			c, err = mcpgo.NewStdioMCPClient(bin, nil, "--mcp", "--root", root)
		} else {
			var tr *mcpgotransport.StreamableHTTP
			tr, err = mcpgotransport.NewStreamableHTTP(url)
			if err == nil {
				c = mcpgo.NewClient(tr)
				err = c.Start(ctx)
			}
		}
		if err != nil {
			return nil, err
		}
		_, err = c.Initialize(ctx, mcpgotypes.InitializeRequest{Params: mcpgotypes.InitializeParams{
			ProtocolVersion: version, ClientInfo: mcpgotypes.Implementation{Name: "sdkload", Version: "1"}}})
		if err != nil {
			c.Close()
			return nil, err
		}
		return mcpGo{c}, nil
	}
	return nil, fmt.Errorf("unknown sdk %q", sdk)
}

// exercise runs the checks on a connected client.
func exercise(ctx context.Context, p peer) error {
	names, err := p.tools(ctx)
	if err != nil {
		return fmt.Errorf("tools/list: %w", err)
	}
	if len(names) < 15 || !strings.Contains(strings.Join(names, " "), "analyze_wfl") {
		return fmt.Errorf("tools/list: %d tools: %v", len(names), names)
	}
	if err := analyze(ctx, p); err != nil {
		return err
	}
	text, err := p.read(ctx, "workspace://file/hello.wfl")
	if err != nil || !strings.Contains(text, "greeting") {
		return fmt.Errorf("resources/read: %q %v", text, err)
	}
	text, isErr, err := p.call(ctx, "analyze_wfl", map[string]any{})
	if err != nil || !isErr || !strings.Contains(text, "source") {
		return fmt.Errorf("analyze_wfl without source or path: want a tool error, got %q isError=%v %v", text, isErr, err)
	}
	return nil
}

func analyze(ctx context.Context, p peer) error {
	text, isErr, err := p.call(ctx, "analyze_wfl", map[string]any{"path": "hello.wfl"})
	if err != nil || isErr || !strings.Contains(text, `"valid"`) {
		return fmt.Errorf("analyze_wfl: %.200q isError=%v %v", text, isErr, err)
	}
	return nil
}

// server is a wfl-lsp --mcp --http process.
type server struct {
	cmd  *exec.Cmd
	addr string
}

func startServer(bin, root, addr, keyFile string) (*server, error) {
	cmd := exec.Command(bin, "--mcp", "--http", addr, "--root", root, "--session-key-file", keyFile)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	for range 100 {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return &server{cmd, addr}, nil
		}
		time.Sleep(50 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	return nil, fmt.Errorf("the server at %s did not start", addr)
}

func (s *server) stop() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	s.cmd.Wait()
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func matrix(bin, root string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	key, err := os.CreateTemp("", "wfl-session-key")
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkload:", err)
		return false
	}
	defer os.Remove(key.Name())
	key.WriteString("a session key for the matrix of clients\n")
	key.Close()
	addr, err := freeAddr()
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkload:", err)
		return false
	}
	srv, err := startServer(bin, root, addr, key.Name())
	if err != nil {
		fmt.Fprintln(os.Stderr, "sdkload:", err)
		return false
	}
	defer func() { srv.stop() }()
	url := "http://" + addr + "/mcp"
	ok := true
	report := func(name string, err error) {
		if err != nil {
			ok = false
			fmt.Printf("FAIL: %s: %v\n", name, err)
		} else {
			fmt.Printf("PASS: %s\n", name)
		}
	}
	for _, sdk := range []string{"go-sdk", "mcp-go"} {
		for _, version := range []string{"2025-11-25", "2026-07-28"} {
			for _, tr := range []string{"stdio", "http"} {
				name := fmt.Sprintf("%s %s %s", sdk, tr, version)
				u := ""
				if tr == "http" {
					u = url
				}
				p, err := connect(ctx, sdk, bin, root, u, version)
				if err != nil {
					report(name, fmt.Errorf("connect: %w", err))
					continue
				}
				err = exercise(ctx, p)
				if err == nil && tr == "http" {
					// Restart the server under the client, on the same port
					// with the same key: the client calls on.
					srv.stop()
					srv, err = startServer(bin, root, addr, key.Name())
					if err == nil {
						if err = analyze(ctx, p); err != nil {
							err = fmt.Errorf("after a restart: %w", err)
						}
					}
					if srv == nil {
						p.close()
						report(name, err)
						return false
					}
				}
				p.close()
				report(name, err)
			}
		}
	}
	return ok
}
