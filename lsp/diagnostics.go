package lsp

// This file publishes diagnostics. Each open document has at most one
// worker goroutine; a text change hands the worker the new snapshot and the
// worker analyses and publishes the latest one it has. Snapshots that were
// replaced before the worker reached them are skipped (coalescing), and an
// analysis that finishes after a newer snapshot arrived is dropped, so a
// stale analysis never overwrites a newer one. Diagnostics carry the version
// they were computed for. A snapshot's diagnostics usually come from the
// previous version's (core's Snapshot.DiagnosticsSeq), and are written as
// JSON straight from core's values (diagjson.go).

import (
	"iter"
	"log/slog"
	"runtime/debug"
	"runtime/trace"
	"slices"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/lang/diag"
)

type publisher struct {
	s *server

	mu      sync.Mutex
	docs    map[uri.URI]*docQueue
	stopped bool
	// held are the workers of the documents changed while the read loop
	// reads messages that came at once (hold): they wait until it has
	// read them all.
	held batchHold[heldWorker]

	workers sync.WaitGroup // one count per drain goroutine, running or held
}

// docQueue is one document's pending work: the latest snapshot, or a close.
type docQueue struct {
	next    *core.Snapshot // nil with has set means: closed
	has     bool
	running bool // a worker runs or is held
}

type heldWorker struct {
	u uri.URI
	q *docQueue
}

func newPublisher(s *server) *publisher {
	return &publisher{s: s, docs: make(map[uri.URI]*docQueue)}
}

// update schedules diagnostics for a new snapshot.
func (p *publisher) update(snap *core.Snapshot) { p.enqueue(uri.URI(snap.URI), snap) }

// closed schedules the empty list that clears a closed document's diagnostics.
func (p *publisher) closed(u uri.URI) { p.enqueue(u, nil) }

// finish publishes what is pending, waiting for every document's worker,
// then stops. Shutdown calls it so that a client that sends shutdown right
// after a change still gets the diagnostics of what it sent. It must not run
// concurrently with update or closed (shutdown runs on the read loop, where
// text changes are applied too).
func (p *publisher) finish() {
	p.hold(false, false) // the workers held with the messages before shutdown start
	p.workers.Wait()
	p.stop()
}

// stop ends publishing: nothing is published after it returns, except a
// notification already being written.
func (p *publisher) stop() {
	p.mu.Lock()
	p.stopped = true
	p.mu.Unlock()
}

func (p *publisher) enqueue(u uri.URI, snap *core.Snapshot) {
	if p.s.session.Load().caps.pullDiagnostics {
		return // the client pulls
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	q := p.docs[u]
	if q == nil {
		q = &docQueue{}
		p.docs[u] = q
	}
	q.next, q.has = snap, true
	if !q.running {
		q.running = true
		p.workers.Add(1)
		if !p.held.add(heldWorker{u, q}) {
			p.start(u, q, p.s.warm)
		}
	}
}

// start runs a document's worker on a goroutine of pool.
func (p *publisher) start(u uri.URI, q *docQueue, pool *warm) {
	pool.Go(func() {
		defer p.workers.Done()
		p.drain(u, q)
	})
}

// hold says whether the read loop is reading messages that came at once,
// as warm.hold does, and, once it has read them all (more unset), starts
// the workers held meanwhile. It first makes, on the read loop, the
// state of their snapshots where each is derived from the version before
// (core's Snapshot.Derive): a keystroke's requests made it already
// (Snapshot.Ready); after a didChange alone, it is made at once, on a
// thread of the process's priority. The workers run on the background
// goroutines, at a lower priority, when the read loop answered requests
// about the cursor in the batch (cursor): the editor then reads those
// answers while the diagnostics are being made, and is not kept from the
// processors; else on the others.
func (p *publisher) hold(more, cursor bool) {
	p.mu.Lock()
	held := p.held.set(more)
	var derive []*core.Snapshot
	for _, h := range held {
		if h.q.next != nil {
			derive = append(derive, h.q.next)
		}
	}
	p.mu.Unlock()
	for _, snap := range derive {
		func() {
			defer func() {
				if r := recover(); r != nil {
					p.s.log.Error("panic while deriving", "uri", snap.URI, "panic", r)
				}
			}()
			snap.Derive()
		}()
	}
	pool := p.s.warm
	if cursor {
		pool = p.s.background
	}
	for _, h := range held {
		p.start(h.u, h.q, pool)
	}
}

// drain is a document's worker: it publishes until nothing is pending.
func (p *publisher) drain(u uri.URI, q *docQueue) {
	for {
		p.mu.Lock()
		if !q.has || p.stopped {
			q.running = false
			if q.next == nil && p.docs[u] == q {
				delete(p.docs, u) // closed and done
			}
			p.mu.Unlock()
			return
		}
		snap := q.next
		q.has = false
		p.mu.Unlock()

		buf := paramsBufs.Get().(*[]byte)
		params := p.compute((*buf)[:0], u, snap)
		p.mu.Lock()
		stale := q.has || p.stopped // something newer is waiting
		p.mu.Unlock()
		if params != nil && !stale {
			if err := p.s.conn.Notify(p.s.ctx, protocol.MethodTextDocumentPublishDiagnostics, jsonrpc2.RawMessage(params)); err != nil {
				p.s.log.Debug("publishDiagnostics not sent", "uri", u, "err", err)
			}
		}
		// The bytes are written: the next notification, often as large,
		// can reuse them.
		if params != nil {
			*buf = params[:0]
		}
		paramsBufs.Put(buf)
	}
}

// paramsBufs holds the buffers the notifications are written in: while a
// document is typed into, each notification reuses the last one's, about
// as large (hundreds of kilobytes for thousands of findings); an idle
// server keeps none (the collector empties the pool).
var paramsBufs = sync.Pool{New: func() any { return new([]byte) }}

// compute writes into buf the notification's params for a snapshot, or for
// a closed document (snap == nil) the empty list. It returns nil if the
// analysis panicked.
func (p *publisher) compute(buf []byte, u uri.URI, snap *core.Snapshot) (params []byte) {
	u = p.s.spelled(u)
	if snap == nil {
		return appendPublishParams(buf, u, -1, mapper{}, slices.Values([]diag.Diagnostic(nil)))
	}
	defer func() {
		if r := recover(); r != nil {
			p.s.log.Error("panic while analysing", "uri", u, "version", snap.Version, "panic", r, "stack", string(debug.Stack()))
			params = nil
		}
	}()
	began := time.Now()
	defer trace.StartRegion(p.s.ctx, "publish.compute").End()
	n, diags := publishedDiagnostics(p.s.ws, u, snap, p.s.session.Load().enc)
	// Assembling and encoding the list is long work (on a document with
	// thousands of findings, a millisecond): it takes a turn, so that the
	// requests waiting for this version's state (core's Snapshot.Query
	// starts from it) find a processor free of it (lanes.go).
	defer p.s.lanes.longTurn(p.s.ctx)()
	if need := 256*n + 256; cap(buf) < need {
		buf = make([]byte, 0, need) // about 200 bytes a diagnostic
	}
	params = appendPublishEncoded(buf, u, snap.Version, diags)
	if p.s.log.Enabled(p.s.ctx, slog.LevelDebug) { // (Derived makes the text's own state)
		p.s.log.Debug("diagnostics", "uri", u, "version", snap.Version, "bytes", len(params),
			"derived", snap.Derived(), "took", time.Since(began))
	}
	return params
}

// publishedDiagnostics returns the diagnostics of a document's snapshot
// as they are published, each encoded (appendDiagnostic), and how many at
// most. Each statement's diagnostics are encoded once, and kept for the
// versions after, under the document and the position encoding
// (core's Workspace.DiagnosticsEncoded).
func publishedDiagnostics(ws *core.Workspace, u uri.URI, snap *core.Snapshot, enc encoding) (int, iter.Seq[[]byte]) {
	var c *cursor
	lines, n, diags := ws.DiagnosticsEncoded(snap, core.TolerantFor(snap.URI), encodingKey(u, enc),
		func(dst []byte, d diag.Diagnostic) []byte { return appendDiagnostic(dst, u, c, d) })
	c = newMapper(lines, enc).cursor()
	return n, diags
}

// encodingKey says what a diagnostic's encoding depends on besides the
// diagnostic: the document, and how positions are counted.
func encodingKey(u uri.URI, enc encoding) string { return string(rune('0'+enc)) + string(u) }

// toDiagnostics converts core diagnostics; the result is never nil, so an
// empty list goes out as [] and clears the editor's list.
func toDiagnostics(u uri.URI, m mapper, ds []diag.Diagnostic) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(ds))
	for _, d := range ds {
		pd := protocol.Diagnostic{
			Range:    m.rng(d.Span),
			Severity: severity(d.Severity),
			Source:   protocol.NewOptional("wfl"),
			Message:  protocol.String(d.Message),
		}
		if d.Code != "" {
			pd.Code = protocol.String(d.Code)
		}
		var tags []protocol.DiagnosticTag
		for _, t := range diag.AllTags {
			if !d.Tags.Has(t) {
				continue
			}
			switch t {
			case diag.Unnecessary:
				tags = append(tags, protocol.DiagnosticTagUnnecessary)
			case diag.Deprecated:
				tags = append(tags, protocol.DiagnosticTagDeprecated)
			}
		}
		pd.Tags = protocol.NewDiagnosticTags(tags...)
		for _, r := range d.Related {
			pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: u, Range: m.rng(r.Span)},
				Message:  r.Message,
			})
		}
		out = append(out, pd)
	}
	return out
}

func severity(s diag.Severity) protocol.DiagnosticSeverity {
	switch s {
	case diag.Warning:
		return protocol.DiagnosticSeverityWarning
	case diag.Information:
		return protocol.DiagnosticSeverityInformation
	case diag.Hint:
		return protocol.DiagnosticSeverityHint
	}
	return protocol.DiagnosticSeverityError
}
