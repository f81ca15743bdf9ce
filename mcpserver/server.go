package mcpserver

// This file defines the server, its options and the stdio entry point.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// Options configure the MCP server. Zero values pick the defaults.
type Options struct {
	Root    string       // absolute workspace folder; tools and resources stay inside it
	Version string       // server version reported in serverInfo
	Logger  *slog.Logger // never nil in the product; nil discards logs
	Token   string       // bearer token for HTTP, or ""

	Workers      int           // requests handled at once; default 16, the rest queue
	CallTimeout  time.Duration // limit for one tools/call; default 30s
	MaxLineBytes int           // longest accepted input line; default 64 MiB
	PageSize     int           // items per page of list results; default 100
	PollInterval time.Duration // how often subscribed resources are checked; default 1s

	// TestTools are callable by name but never listed: a hook for tests and
	// benchmarks (an echo tool to compare with other servers).
	TestTools []TestTool

	// Extras, when set, replace the WFL tools, resources, prompts and
	// completions with a test fixture's (see extras.go). Only
	// internal/conformance sets it; the product leaves it nil.
	Extras *Extras

	// Test hooks for the resource watcher: pollTicks replaces the poll
	// timer (each value received is one poll of the watched resources), and
	// polled is called after each poll.
	pollTicks <-chan time.Time
	polled    func()
}

// A TestTool is a tool for tests and benchmarks, outside tools/list.
type TestTool struct {
	Name string
	// Call receives the raw arguments object ({} when absent) and returns the
	// text of the result, or an error that becomes an isError result.
	Call func(ctx context.Context, args json.RawMessage) (string, error)
}

// A Server holds what every session shares: the options, the method and
// tool tables and the answers serialized in advance.
type Server struct {
	opts    Options
	logger  *slog.Logger
	root    string // Options.Root with symbolic links resolved
	methods map[string]*method
	tools   []*tool
	byName  map[string]*tool // listed and test tools
	static  *staticAnswers
}

// New checks the options and builds a server.
func New(opts Options) (*Server, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Version == "" {
		opts.Version = "0.0.0"
	}
	if opts.Workers <= 0 {
		opts.Workers = 16
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 30 * time.Second
	}
	if opts.MaxLineBytes <= 0 {
		opts.MaxLineBytes = 64 << 20
	}
	if opts.PageSize <= 0 {
		opts.PageSize = 100
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
	}
	if opts.Root == "" {
		opts.Root = "."
	}
	abs, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("mcp: root %s: %w", opts.Root, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("mcp: root %s: %w", opts.Root, err)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("mcp: root %s is not a folder", opts.Root)
	}
	s := &Server{opts: opts, logger: opts.Logger, root: real}
	s.methods = methodTable()
	if opts.Extras != nil {
		s.mountExtras(opts.Extras) // extras.go
	}
	s.tools = productTools()
	s.byName = make(map[string]*tool)
	for _, t := range s.tools {
		s.byName[t.name] = t
	}
	for _, tt := range opts.TestTools {
		if _, dup := s.byName[tt.Name]; dup || tt.Call == nil {
			return nil, fmt.Errorf("mcp: test tool %q: duplicate name or no Call", tt.Name)
		}
		s.byName[tt.Name] = testTool(tt)
	}
	s.static, err = s.buildStatic()
	if err != nil {
		return nil, fmt.Errorf("mcp: serializing static answers: %w", err)
	}
	return s, nil
}

// ServeStdio serves MCP over newline-delimited JSON on in and out until the
// input ends or ctx is done. At the end of input every request already read
// is answered before it returns nil; when ctx ends first, requests in
// progress are cancelled and given a short grace to answer.
func ServeStdio(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	s, err := New(opts)
	if err != nil {
		return err
	}
	return s.ServeStream(ctx, in, out)
}

// ServeStream is ServeStdio for a server already built.
func (s *Server) ServeStream(ctx context.Context, in io.Reader, out io.Writer) error {
	lw := newLineWriter(out)
	c := newConn(ctx, s, lw)
	lr := newLineReader(in, s.opts.MaxLineBytes)
	readDone := make(chan error, 1)
	go func() {
		for {
			line, err := lr.next()
			if errors.Is(err, errLineTooLong) {
				c.send(appendError(nil, nullID, &rpcError{
					Code:    codeInvalidRequest,
					Message: fmt.Sprintf("Invalid Request: line longer than %d bytes was skipped", s.opts.MaxLineBytes),
				}))
				continue
			}
			if err != nil {
				readDone <- err
				return
			}
			c.handleLine(line)
		}
	}()
	var readErr error
	grace := s.opts.CallTimeout + 5*time.Second
	select {
	case readErr = <-readDone:
	case <-ctx.Done():
		c.cancelAll()
		grace = 3 * time.Second
	}
	c.drain(grace)
	writeErr := lw.close()
	if readErr != nil && !errors.Is(readErr, io.EOF) && !errors.Is(readErr, os.ErrClosed) {
		return fmt.Errorf("mcp: reading input: %w", readErr)
	}
	if writeErr != nil && !errors.Is(writeErr, syscall.EPIPE) {
		return fmt.Errorf("mcp: writing output: %w", writeErr)
	}
	return nil
}

// ServeHTTP serves MCP over Streamable HTTP at http://addr/mcp until ctx
// ends, then answers the requests in flight and returns. addr ":PORT" binds
// 127.0.0.1; a non-loopback address needs opts.Token. See http.go.
func ServeHTTP(ctx context.Context, addr string, opts Options) error {
	return serveHTTP(ctx, addr, opts)
}
