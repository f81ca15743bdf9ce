package mcp

// This file defines the server, its options and the stdio entry point.

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"syscall"
	"time"
)

// Options configure the MCP server. Zero values pick the defaults.
type Options struct {
	// Root is the workspace folder; tools and resources stay inside it,
	// and a client's roots can only narrow it. When it is "", over HTTP
	// the current folder is the workspace in the same way; over stdio a
	// session whose client declares roots works in the client's roots
	// (handshake era), any other in the current folder.
	Root    string
	Version string       // server version reported in serverInfo
	Logger  *slog.Logger // never nil in the product; nil discards logs
	Token   string       // bearer token for HTTP, or ""
	// AllowedOrigins and AllowedHosts widen the HTTP Origin and Host
	// checks, each a comma-separated list: exact origins
	// ("https://app.example.com") and host names without port
	// ("mcp.example.com").
	AllowedOrigins, AllowedHosts string
	// MaxConnections caps the HTTP connections open at once; more wait to
	// be accepted. 0 means 512.
	MaxConnections int
	// Instance names this process in the HTTP session ids it makes
	// ("<instance>.<random>"), so that a proxy in front of several
	// instances can send each session's requests to the one that holds it.
	Instance string
	// MaxSessions caps the handshake-era HTTP sessions held at once: a new
	// session past it ends the one unused the longest (one with no request
	// in progress). 0 means 1000.
	MaxSessions int
	// SessionIdle ends an HTTP session unused for this long. 0 means 30
	// minutes.
	SessionIdle time.Duration
	// SessionKey, shared by the instances behind one proxy, signs what
	// must survive a restart or a move to another instance: a
	// handshake-era HTTP session's id carries the session's revision and
	// client capabilities under it, so that any instance with the key takes
	// the session up (http_ticket.go), and the requestState of a 2026-07-28
	// multi-round call can be finished by any of them. nil: a key made at
	// random when the process starts, so neither leaves the process.
	SessionKey []byte
	// DrainPeriod is how long an HTTP server asked to stop goes on serving
	// while /healthz answers 503, so that a load balancer stops sending it
	// requests before its listener closes. 0: it closes at once.
	DrainPeriod time.Duration

	// Primitives are the tools, resources, templates and prompts served;
	// nil serves none.
	Primitives *Primitives

	// Info names the server in serverInfo and tells a client's model how
	// to use it (instructions); zero fields are left out (Name: "mcp").
	Info Info

	Workers        int           // requests handled at once; default 16, the rest queue
	CallTimeout    time.Duration // limit for one tools/call; default 30s
	RequestTimeout time.Duration // limit for an answer to our request to the client; default 30s
	RootsTimeout   time.Duration // limit for the client's answer to roots/list; default 3s
	MaxLineBytes   int           // longest accepted input line; default 64 MiB
	PageSize       int           // items per page of list results; default 100
	PollInterval   time.Duration // how often subscribed resources are checked; default 1s

	// For tests of subscriptions, without timers: PollTicks, when set,
	// replaces the watcher's poll timer (each value received is one poll
	// of the watched resources), and Polled is called after each poll.
	PollTicks <-chan time.Time
	Polled    func()
}

// A Server holds what every session shares: the options, the method table,
// the primitives and the answers serialized in advance.
type Server struct {
	opts      Options
	logger    *slog.Logger
	ws        *workspace // Options.Root, or the current folder
	fixedRoot bool       // Options.Root was given, or HTTP: client roots only narrow the workspace
	methods   map[string]*method
	prims     Primitives
	byName    map[string]*Tool
	templates []*template // prims.Templates with their matchers
	static    *staticAnswers
	stateKey  [32]byte // signs the requestState of input-required results
	// ticketKey signs the session ids that carry their session's state;
	// zero when Options.SessionKey is nil (ids are then random only).
	ticketKey [32]byte
}

// New checks the options and builds a server.
func New(opts Options) (*Server, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.Version == "" {
		opts.Version = "0.0.0"
	}
	if opts.Info.Name == "" {
		opts.Info.Name = "mcp"
	}
	orDefault(&opts.Workers, 16)
	orDefault(&opts.CallTimeout, 30*time.Second)
	orDefault(&opts.RequestTimeout, 30*time.Second)
	orDefault(&opts.RootsTimeout, 3*time.Second)
	orDefault(&opts.MaxLineBytes, 64<<20)
	orDefault(&opts.PageSize, 100)
	orDefault(&opts.PollInterval, time.Second)
	if strings.Contains(opts.Instance, ".") || !isVisibleASCII(opts.Instance) {
		return nil, fmt.Errorf("mcp: instance name %q: use letters, digits, '-' and '_'", opts.Instance)
	}
	root := opts.Root
	if root == "" {
		root = "."
	}
	s := &Server{opts: opts, logger: opts.Logger, fixedRoot: opts.Root != ""}
	if opts.Primitives != nil {
		s.prims = *opts.Primitives
	}
	ws, err := s.newWorkspace([]string{root})
	if err != nil {
		return nil, fmt.Errorf("mcp: %w", err)
	}
	s.ws = ws
	if opts.SessionKey != nil {
		// Two keys derived from the one given, one for each use.
		s.stateKey = deriveKey(opts.SessionKey, "wfl-lsp requestState")
		s.ticketKey = deriveKey(opts.SessionKey, "wfl-lsp session id")
	} else if _, err := rand.Read(s.stateKey[:]); err != nil {
		return nil, fmt.Errorf("mcp: %w", err)
	}
	s.methods = methodTable()
	if err := s.index(); err != nil {
		return nil, err
	}
	s.static, err = s.buildStatic()
	if err != nil {
		return nil, fmt.Errorf("mcp: serializing static answers: %w", err)
	}
	return s, nil
}

// index checks the primitives and builds the lookup tables.
func (s *Server) index() error {
	s.byName = make(map[string]*Tool)
	for _, t := range s.prims.Tools {
		if t.Name == "" || t.Call == nil {
			return fmt.Errorf("mcp: tool %q: a tool needs a name and a Call", t.Name)
		}
		if _, dup := s.byName[t.Name]; dup {
			return fmt.Errorf("mcp: two tools are called %q", t.Name)
		}
		s.byName[t.Name] = t
	}
	for _, t := range s.prims.Templates {
		tm, err := compileTemplate(t)
		if err != nil {
			return err
		}
		s.templates = append(s.templates, tm)
	}
	return nil
}

// orDefault sets *v to def when it is zero or less: an option left unset.
func orDefault[T int | int64 | time.Duration](v *T, def T) {
	if *v <= 0 {
		*v = def
	}
}

func isVisibleASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x21 || s[i] > 0x7e {
			return false
		}
	}
	return true
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
			var tl *tooLong
			if errors.As(err, &tl) {
				// Answered with the request's id when it can be read, so
				// that the client's call fails at once instead of waiting.
				id := tl.id()
				if id == nil {
					id = nullID
				}
				c.send(appendError(nil, id, &rpcError{
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
