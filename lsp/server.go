// Package lsp is the language-server front door: it speaks the Language
// Server Protocol over go.lsp.dev/protocol (types) and go.lsp.dev/jsonrpc2
// (the connection), keeps the editor's open documents in a core.Workspace,
// and answers every request by calling core and converting the plain-data
// answer (byte offsets, spans, strings) into protocol types. It computes no
// language facts of its own.
//
// Start with [Serve]. The rest of the package is, in the order a message
// meets it:
//
//   - stream.go frames messages and skips (and answers) undecodable ones;
//   - dispatch.go is the handler chain: notifications run in wire order on
//     the read loop, requests run concurrently against the snapshot current
//     when they arrived, $/cancelRequest answers -32800, a panic answers
//     -32603, and the lifecycle rules of the specification are enforced;
//     params.go answers -32602 to the params of a request about a document
//     or an item that name none, saying what was expected and found;
//   - lifecycle.go (initialize, shutdown, exit; the capabilities),
//     textsync.go (didOpen, didChange, didClose), diagnostics.go
//     (publishDiagnostics), config.go (the client's "wfl" settings, from
//     workspace/configuration, didChangeConfiguration or
//     initializationOptions, layered over .wflcfg);
//   - the features, each a thin conversion of a core query: features.go
//     (hover, definition, references, highlight, symbols, folding,
//     selection, pull diagnostics), semtok.go (semantic tokens), edits.go
//     (formatting, code actions, rename, links, inlay hints; workspace
//     edits, versioned when the client takes documentChanges), completion.go
//     (completion, signature help), calls.go (call hierarchy), navigate.go
//     (type definition, implementation, type hierarchy, code lens, the
//     block closer after Enter) and workspace.go (the workspace index and
//     workspace symbols);
//   - mapper.go converts byte offsets to LSP positions in the negotiated
//     encoding (utf-8 when the client offers it, else utf-16) and back.
package lsp

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"go.lsp.dev/jsonrpc2"

	"wfl-lsp/core"
)

// ErrExitWithoutShutdown is returned by Serve when the client sent exit
// without shutdown, or closed the stream before shutdown; the process
// should exit 1.
var ErrExitWithoutShutdown = errors.New("exit without shutdown")

// Options configure Serve.
type Options struct {
	Version   string       // server version reported in initialize
	Logger    *slog.Logger // never nil
	ClientPID int          // the editor's process id, or 0

	// MaxFrame caps the size of one incoming message in bytes; 0 means
	// 256 MiB. Larger messages are skipped and answered with an error.
	MaxFrame int

	// OnMessage, when set, is called on the read loop for every message
	// read, before it is handled: main collects garbage while the client
	// is quiet (gcpolicy.Idle). It must return at once.
	OnMessage func()
}

// Serve runs the language server on the stream until the client sends exit
// or closes the stream, or the editor's process (Options.ClientPID, or the
// processId of initialize) ends. It returns nil after shutdown then exit or
// the end of input, ErrExitWithoutShutdown after an exit or end of input
// without shutdown, and ErrClientGone when the editor's process ended.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	// What ConfigFor reads of the disk is kept, for a second at most: the
	// editor reports the changes of .wflcfg files it watches (watchFiles),
	// and a document's configuration is asked for on every keystroke.
	core.CacheConfig(configTTL)
	s := newServer(ctx, opts)
	s.parent.watch(opts.ClientPID, ctx.Done()) // before initialize's processId: the flag wins
	st := newStream(in, out, opts.Logger, opts.MaxFrame)
	s.stream = st
	st.batch = func(more bool) {
		cursor := !more && s.cursorAnswered.Swap(false)
		s.diags.hold(more, cursor)
		s.warm.hold(more)
		s.background.hold(more)
	}
	st.waits = func(method string) bool {
		h, ok := requests[method]
		return ok && !h.short && !h.inline
	}
	conn := jsonrpc2.NewConn(st, jsonrpc2.WithCodec(codec{}))
	s.conn = conn
	conn.Go(ctx, s.handle)

	var err error
	select {
	case <-s.exited:
	case <-conn.Done():
	case <-ctx.Done():
	case <-s.parent.gone:
	}
	select {
	case <-s.exited: // exit wins over the end of input that follows it
		if !s.shutdownSeen.Load() {
			err = ErrExitWithoutShutdown
		}
	default:
		if ctx.Err() != nil {
			err = ctx.Err()
			break
		}
		if isClosed(s.parent.gone) {
			err = ErrClientGone
			break
		}
		if s.shutdownSeen.Load() {
			break // the input ended after shutdown: the editor went as it should
		}
		err = ErrExitWithoutShutdown
		if cerr := conn.Err(); cerr != nil && !errors.Is(cerr, io.ErrUnexpectedEOF) {
			err = errors.Join(ErrExitWithoutShutdown, cerr)
		}
	}
	cancel() // stops background analysis and in-flight requests
	s.diags.stop()
	s.dropSettings()
	s.warm.stop()
	s.background.stop()

	// Close waits for in-flight handlers (cancelled above) and closes the
	// stream. Standard input cannot always be interrupted, so do not wait for
	// ever: the process is about to end.
	closed := make(chan struct{})
	go func() { conn.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Second):
		opts.Logger.Debug("connection did not close in time")
	}
	return err
}

// configTTL bounds how long a change of a configuration file the editor
// does not report goes unseen (core.CacheConfig).
const configTTL = time.Second

// A server is one LSP session.
type server struct {
	ctx  context.Context // ends when Serve returns
	opts Options
	log  *slog.Logger
	conn jsonrpc2.Conn
	// stream is the connection's stream (nil for a server of the tests
	// that has none): call tells it when it hands the read loop over.
	stream *stream
	ws     *core.Workspace

	state        atomic.Int32 // a lifecycle state
	shutdownSeen atomic.Bool
	exited       chan struct{}
	parent       *parentWatch // the editor's process (--clientProcessId, initialize's processId)
	exitOnce     sync.Once

	// session is set once by initialize and read by every handler after it.
	session atomic.Pointer[session]

	inflightMu sync.Mutex
	inflight   map[jsonrpc2.ID]context.CancelFunc

	diags *publisher
	// cursorAnswered is set when the read loop answers a request about
	// the cursor, until it has read the messages that came with it
	// (publisher.hold).
	cursorAnswered atomic.Bool
	lanes          *lanes // the short requests in flight, which long work steps aside for
	warm           *warm  // the goroutines requests about the cursor run on (warm.go)
	// background is the goroutines, at a lower priority, of the work that
	// is not about the cursor: the requests marked so, and the diagnostics
	// after a change asked about at the cursor (publisher.hold).
	background *warm
	tokens     tokenCache
	index      wsIndex      // the workspace's files on disk
	reclaiming atomic.Int32 // closes of large documents whose memory is not yet returned (textsync.go's reclaim)

	// syncMu serializes the changes to the open documents (text
	// synchronization on the read loop, re-analysis after a settings change)
	// with shutdown.
	syncMu sync.Mutex
	// announced is, for each open document, the version whose uses of the
	// names of the files it includes their diagnostics were last published
	// with (textsync.go); guarded by syncMu.
	announced map[core.URI]*core.Snapshot
	// spellings is, for each document the client opened under a URI it
	// spelled other than the decoder's canonical form (another escaping,
	// lower-case hex, a character left unescaped), that spelling
	// (textsync.go's spelled): the answers about the document and its
	// diagnostics name it as the client does. An entry stays after the
	// document closes (the empty list that clears its diagnostics goes out
	// after didClose) until the client opens it again.
	spellings sync.Map // uri.URI → uri.URI

	// The client's settings (config.go).
	cfgSeq     atomic.Uint64 // numbers the reads of the settings
	cfgMu      sync.Mutex
	cfgApplied uint64 // the read whose settings are installed
	cfgFolders []folderSettings
	cfgRemove  []func()
}

// Lifecycle states.
const (
	stateNew      = iota // before initialize
	stateRunning         // initialize answered
	stateShutdown        // shutdown answered
)

// session is what initialize negotiated with the client.
type session struct {
	enc        encoding
	clientName string
	caps       clientCaps
	roots      []string // the workspace folders, as paths
	initOpts   []byte   // initializationOptions, read as settings (config.go)
}

// clientCaps are the client capabilities the server adapts to.
type clientCaps struct {
	hierarchicalSymbols bool
	markdownHover       bool
	lineFoldingOnly     bool
	pullDiagnostics     bool // the client asks for diagnostics; they are not pushed
	snippets            bool // completion items may be snippets
	labelOffsets        bool // signature help parameters may be given as offsets in the label
	watchFiles          bool // the client lets the server register file watchers
	workDoneProgress    bool // the client shows $/progress reports
	resolveEdits        bool // code actions go out without edits, resolved on demand
	documentChanges     bool // workspace edits may be versioned documentChanges
	createFiles         bool // workspace edits' documentChanges may create files

	configuration            bool // the client answers workspace/configuration
	configChangeRegistration bool // didChangeConfiguration may be registered dynamically
	diagnosticRefresh        bool // the client accepts workspace/diagnostic/refresh
}

func newServer(ctx context.Context, opts Options) *server {
	s := &server{
		ctx:        ctx,
		opts:       opts,
		log:        opts.Logger,
		ws:         core.NewWorkspace(),
		exited:     make(chan struct{}),
		parent:     newParentWatch(),
		inflight:   make(map[jsonrpc2.ID]context.CancelFunc),
		lanes:      newLanes(runtime.GOMAXPROCS(0)),
		warm:       newWarm(warmGoroutines, false),
		background: newWarm(warmGoroutines, true),
	}
	s.session.Store(&session{enc: utf16})
	s.diags = newPublisher(s)
	s.ws.SetDiskIncluders(s.includersOnDisk)
	return s
}

// codec marshals LSP payloads with go.lsp.dev/protocol's union-aware JSON
// functions; already-encoded messages pass through.
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	switch m := v.(type) {
	case jsonrpc2.RawMessage:
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	case *jsonrpc2.RawMessage:
		if m == nil || *m == nil {
			return []byte("null"), nil
		}
		return *m, nil
	}
	return marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return unmarshal(data, v)
}

// isClosed reports whether ch is closed.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
