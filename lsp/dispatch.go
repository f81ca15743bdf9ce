package lsp

// This file is the handler chain between jsonrpc2 and the method handlers.
//
// jsonrpc2 v1 runs a handler on its read loop until the handler calls
// jsonrpc2.Async. So: notifications run to completion on the read loop, one
// after another in wire order (text synchronization depends on it); a request
// is checked against the lifecycle, its params decoded and its document
// snapshot taken on the read loop, and only then released with Async to run
// concurrently. A request about the cursor also makes there the analysis
// its answer comes from when that is cheap (core's Snapshot.Ready: after a
// keystroke, the diagnostics derived from the last version's and a partial
// analysis), and a short one (hover, definition, signature help) is then
// answered there too: an editor sends them in one write with the
// didChange, and the read loop answers them from that analysis without
// waking another thread, while the work of the long ones waits until it
// has read them all (warm.hold); the stream hands the long ones on after
// the short ones read with them (stream.Read). Every request is tracked for
// $/cancelRequest, recovers from panics (-32603) and never answers with an
// uncoded error.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"runtime/trace"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/lang/token"
)

// LSP error codes go.lsp.dev/jsonrpc2 does not name.
const (
	codeRequestFailed    jsonrpc2.Code = -32803
	codeRequestCancelled               = protocol.CodeRequestCancelled
)

// work computes a request's answer; it runs concurrently with other work.
type work func(ctx context.Context) (any, error)

// A request is a method handler. prepare runs on the read loop: it decodes
// the params and takes what it needs from the workspace, so that the answer
// reflects the documents as they were when the request arrived. A request
// about a position in a document also makes there the analysis its answer
// comes from, when that costs little (core's Snapshot.Ready), and says so:
// a short request is then answered on the read loop too (see call).
type request struct {
	prepare func(s *server, params jsonrpc2.RawMessage) (w work, ready bool, err error)
	inline  bool // run work on the read loop too (lifecycle requests)
	short   bool // one of the short requests sent as the cursor moves (lanes.go)
	// background marks work that is not about the cursor (the semantic
	// tokens, the inlay hints, the outline, …): it runs on the server's
	// background goroutines, at a lower priority.
	background bool
}

// async adapts the prepare function of a request that makes no analysis
// on the read loop: its work runs concurrently (unless the request is
// inline).
func async(prepare func(s *server, params jsonrpc2.RawMessage) (work, error)) func(*server, jsonrpc2.RawMessage) (work, bool, error) {
	return func(s *server, params jsonrpc2.RawMessage) (work, bool, error) {
		w, err := prepare(s, params)
		return w, false, err
	}
}

// A notification handler runs on the read loop, in wire order.
type notification func(s *server, params jsonrpc2.RawMessage) error

// testRequests holds extra methods that only tests register (to make a
// handler panic or block); it is empty in the product.
var testRequests = map[string]request{}

// handle is the jsonrpc2.Handler of the connection.
func (s *server) handle(ctx context.Context, req *jsonrpc2.Request) (any, error) {
	if s.opts.OnMessage != nil {
		s.opts.OnMessage()
	}
	if !req.IsCall() {
		s.notify(req.Method(), req.Params())
		return nil, nil
	}
	return s.call(ctx, req.ID(), req.Method(), req.Params())
}

// notify handles a notification. Its errors and panics are logged: a
// notification has no answer, and one bad message must not end the session.
func (s *server) notify(method string, params jsonrpc2.RawMessage) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("panic in notification handler", "method", method, "panic", r, "stack", string(debug.Stack()))
		}
	}()
	switch method {
	case protocol.MethodCancelRequest:
		s.cancelRequest(params)
		return
	case protocol.MethodExit:
		s.exitOnce.Do(func() { close(s.exited) })
		return
	}
	h, ok := notifications[method]
	if !ok {
		s.log.Debug("notification ignored", "method", method)
		return
	}
	switch s.state.Load() {
	case stateNew:
		s.log.Warn("notification before initialize dropped", "method", method)
		return
	case stateShutdown:
		s.log.Warn("notification after shutdown dropped", "method", method)
		return
	}
	defer trace.StartRegion(s.ctx, method).End()
	if err := h(s, params); err != nil {
		s.log.Warn("notification failed", "method", method, "err", err)
	}
}

// call handles a request and returns its answer.
func (s *server) call(ctx context.Context, id jsonrpc2.ID, method string, params jsonrpc2.RawMessage) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, s.internalError(method, r)
		}
	}()
	switch st := s.state.Load(); {
	case st == stateNew && method != protocol.MethodInitialize:
		return nil, jsonrpc2.Errorf(jsonrpc2.ServerNotInitialized, "%s before initialize", method)
	case st == stateShutdown:
		return nil, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "%s after shutdown", method)
	case st == stateRunning && method == protocol.MethodInitialize:
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize was already received")
	}
	h, ok := requests[method]
	if !ok {
		if h, ok = testRequests[method]; !ok {
			return nil, jsonrpc2.Errorf(jsonrpc2.MethodNotFound, "method %q is not supported", method)
		}
	}
	if h.short {
		// Counted from now, on the read loop: the long work of the
		// requests read before it steps aside for it.
		s.lanes.enter()
	}
	leave := func() {
		if h.short {
			s.lanes.leave()
		}
	}
	run, ready, err := h.prepare(s, params)
	if err != nil {
		leave()
		return nil, wireError(namingMethod(method, err))
	}
	if h.inline || h.short && ready {
		// A lifecycle request, or a short one whose analysis prepare
		// found or made: its answer takes microseconds, less than waking
		// another thread to make it, and the requests read after it
		// (hover, definition) share that analysis.
		defer leave()
		if h.short {
			s.cursorAnswered.Store(true)
		}
		res, err := run(s.ctx)
		return res, wireError(err)
	}

	workCtx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	s.inflightMu.Lock()
	s.inflight[id] = cancel
	s.inflightMu.Unlock()
	defer func() {
		s.inflightMu.Lock()
		delete(s.inflight, id)
		s.inflightMu.Unlock()
	}()

	method = strings.Clone(method) // the frame's, which a read after Async reuses
	type answer struct {
		res any
		err error
	}
	done := make(chan answer, 1)
	pool := s.warm
	if h.background {
		pool = s.background
	}
	pool.Later(func() {
		defer func() {
			if r := recover(); r != nil {
				done <- answer{err: s.internalError(method, r)}
			}
		}()
		defer leave()
		defer trace.StartRegion(workCtx, method).End()
		res, err := run(workCtx)
		done <- answer{res, err}
	})
	// From here on, later messages are read and handled: on a goroutine
	// started now, which runs before the work just handed over (the last
	// goroutine readied runs first on this processor). So the requests
	// read after this one (the short ones an editor sends with it) are
	// read, and their own work handed over, while this one's runs; in the
	// other order they waited for it to block or end. That goroutine's
	// stack is grown before it reads (stack.go).
	if s.stream != nil {
		s.stream.handedOff.Store(true)
	}
	jsonrpc2.Async(ctx)
	select {
	case a := <-done:
		if a.err != nil && workCtx.Err() != nil {
			return nil, jsonrpc2.NewError(codeRequestCancelled, "request cancelled")
		}
		return a.res, wireError(a.err)
	case <-workCtx.Done():
		// Answer now; the work's result, when it comes, is dropped.
		return nil, jsonrpc2.NewError(codeRequestCancelled, "request cancelled")
	}
}

// internalError logs a recovered panic with its stack, tells the user
// through window/logMessage, and returns the -32603 answer.
func (s *server) internalError(method string, r any) error {
	s.log.Error("panic in request handler", "method", method, "panic", r, "stack", string(debug.Stack()))
	msg := fmt.Sprintf("wfl-lsp: internal error in %s: %v (the server goes on; please report it)", method, r)
	s.conn.Notify(s.ctx, protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: protocol.MessageTypeError, Message: msg})
	return jsonrpc2.Errorf(jsonrpc2.InternalError, "internal error in %s: %v", method, r)
}

// cancelRequest handles $/cancelRequest, whose id is a number or a string.
func (s *server) cancelRequest(params jsonrpc2.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		s.log.Warn("malformed $/cancelRequest", "err", err)
		return
	}
	id, ok := parseID(p.ID)
	if !ok {
		s.log.Warn("malformed $/cancelRequest id", "id", string(p.ID))
		return
	}
	s.inflightMu.Lock()
	cancel := s.inflight[id]
	s.inflightMu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// wireError gives every error a JSON-RPC code: coded errors keep theirs, a
// cancelled context becomes -32800, anything else -32603.
func wireError(err error) error {
	if err == nil {
		return nil
	}
	var coded *jsonrpc2.Error
	if errors.As(err, &coded) {
		return err
	}
	if errors.Is(err, context.Canceled) {
		return jsonrpc2.NewError(codeRequestCancelled, "request cancelled")
	}
	return jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
}

// namingMethod puts the method first in the message of an InvalidParams
// error, which says what in the params was wrong but not whose they were
// (a client's log may hold many requests).
func namingMethod(method string, err error) error {
	var coded *jsonrpc2.Error
	if !errors.As(err, &coded) || coded.Code != jsonrpc2.InvalidParams {
		return err
	}
	return jsonrpc2.NewError(coded.Code, method+": "+coded.Message)
}

// decodeParams decodes params into p, answering -32602 when they do not fit.
func decodeParams(params jsonrpc2.RawMessage, p any) error {
	if len(bytes.TrimSpace(params)) == 0 {
		params = jsonrpc2.RawMessage("{}")
	}
	if err := unmarshal(params, p); err != nil {
		return jsonrpc2.Errorf(jsonrpc2.InvalidParams, "invalid params: %v", err)
	}
	return nil
}

// marshal encodes a protocol value.
func marshal(v any) ([]byte, error) { return protocol.Marshal(v) }

// unmarshal decodes a protocol value. go.lsp.dev/protocol decodes strictly:
// an explicit null where it expects a string or an enum (Neovim and other
// clients send "trace": null) fails. A null member means the same as an
// absent one in LSP, so on failure the nulls are removed and decoding is
// tried again.
func unmarshal(data []byte, v any) error {
	err := protocol.Unmarshal(data, v)
	if err == nil || !bytes.Contains(data, []byte("null")) {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tree any
	if dec.Decode(&tree) != nil {
		return err
	}
	stripped, merr := json.Marshal(dropNulls(tree))
	if merr != nil {
		return err
	}
	if err2 := protocol.Unmarshal(stripped, v); err2 != nil {
		return err
	}
	return nil
}

func dropNulls(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
				continue
			}
			x[k] = dropNulls(e)
		}
	case []any:
		for i, e := range x {
			x[i] = dropNulls(e)
		}
	}
	return v
}

// errNotOpen answers a request about a document the client has not opened.
func errNotOpen(u uri.URI) error {
	return jsonrpc2.Errorf(codeRequestFailed, "document %s is not open", u)
}

// doc is what a document request works on: the snapshot current when the
// request arrived and the session's position encoding.
type doc struct {
	uri  uri.URI // the canonical form: the workspace's key
	echo uri.URI // the URI as the client spells it (server.spelled): the one answers name
	snap *core.Snapshot
	enc  encoding
}

// analysis returns the snapshot's analysis and a mapper for its text.
func (d doc) analysis() (*core.Analysis, mapper) {
	a := d.snap.Analysis()
	return a, d.mapperOver(a.Lines)
}

// mapperOver returns the mapper of the document's text over lines, the
// table of a text the features read: the document's own, or, while a
// quote is left open, a copy of it with the quote closed on its line (core's
// Snapshot.ReadText), of the same bytes and lines but not the same
// characters at that line's end, which positions are not counted over.
func (d doc) mapperOver(lines *token.Lines) mapper {
	if lines.Text() != d.snap.Text {
		lines = d.snap.Lines()
	}
	return newMapper(lines, d.enc)
}

// syntax returns the snapshot's syntax tree and line table, without the
// checker's facts (core's Snapshot.Syntax), and a mapper for its text: all
// that the requests about the structure of the text read.
func (d doc) syntax() (*core.Syntax, mapper) {
	x := d.snap.Syntax()
	return x, d.mapperOver(x.Lines)
}

// mapper returns a mapper for the snapshot's text, whose line table is the
// one its queries use (core's Snapshot.QueryLines).
func (d doc) mapper() mapper { return newMapper(d.snap.QueryLines(), d.enc) }

// at converts a position and returns the analysis that answers the
// queries there (core's Snapshot.Query): after an edit, usually an
// analysis of the few statements they need.
func (d doc) at(p protocol.Position) (*core.Analysis, mapper, int) {
	m := d.mapper()
	off := m.offset(p)
	return d.snap.Query(token.Span{Start: off, End: off}), m, off
}

// docRequest builds a request handler for a method whose params name a
// text document and a position or range in it: it decodes P (params that
// name no document, position or range where P has one, or that do not
// decode, are invalid params: params.go), takes the document's snapshot,
// and runs fn concurrently on it. If the document
// changed while fn ran, the answer (in positions of the old text) would be
// misplaced, so the request fails with ContentModified (-32801) and the
// client asks again.
func docRequest[P any](uriOf func(*P) uri.URI, fn func(ctx context.Context, s *server, d doc, p *P) (any, error)) request {
	return docRequestOf(uriOf, fn, atCursor)
}

// wholeDocRequest is docRequest for methods whose answer is edits of the
// whole document (formatting) or its diagnostics: if the document changed
// while fn ran, the answer is computed again on the new text, which is
// what the client now holds and applies them to.
func wholeDocRequest[P any](uriOf func(*P) uri.URI, fn func(ctx context.Context, s *server, d doc, p *P) (any, error)) request {
	return docRequestOf(uriOf, fn, onLatest)
}

// receiptDocRequest is docRequest for methods that describe the whole
// document (symbols, folding, semantic tokens, code lenses, links): the
// answer is the text's the request was read with, even when a change has
// come since, as LSP orders them: VS Code moves semantic tokens by the
// changes made while they were asked for, so tokens of the newer text
// were moved twice (drawn a line too low after Enter), and the editors
// that do not move them drop an answer about a version they no longer hold.
func receiptDocRequest[P any](uriOf func(*P) uri.URI, fn func(ctx context.Context, s *server, d doc, p *P) (any, error)) request {
	return docRequestOf(uriOf, fn, onReceipt)
}

// docMode is what a document request answers when its document changes
// while it runs.
type docMode int

const (
	atCursor  docMode = iota // ContentModified
	onLatest                 // computed again on the new text
	onReceipt                // the answer about the text it was read with
)

func docRequestOf[P any](uriOf func(*P) uri.URI, fn func(ctx context.Context, s *server, d doc, p *P) (any, error), mode docMode) request {
	sh := shapeOf[P]()
	return request{prepare: func(s *server, params jsonrpc2.RawMessage) (work, bool, error) {
		p := new(P)
		if err := sh.decode(params, p); err != nil {
			return nil, false, err
		}
		u := uriOf(p)
		snap, ok := s.ws.Snapshot(core.URI(u))
		if !ok {
			return nil, false, errNotOpen(u)
		}
		d := doc{uri: u, echo: s.spelled(u), snap: snap, enc: s.session.Load().enc}
		ready := false
		if pos, ok := cursorOf(p); ok {
			// Made here, before the requests read after this one: each
			// keystroke's requests about the cursor share it.
			off := d.mapper().offset(pos)
			ready = snap.Ready(token.Span{Start: off, End: off})
		}
		return func(ctx context.Context) (any, error) {
			whole := mode == onLatest
			for attempt := 0; ; attempt++ {
				res, err := fn(ctx, s, d, p)
				if err != nil || mode == onReceipt {
					return res, err
				}
				cur, ok := s.ws.Snapshot(core.URI(u))
				if ok && (cur == d.snap || !whole && sameText(cur, d.snap)) {
					// (A snapshot of the same text, made when settings
					// changed, leaves the answer's positions right.)
					return res, nil
				}
				if ok && whole && attempt == 2 && sameText(cur, d.snap) {
					return res, nil // settings changed, the text did not
				}
				if !ok || !whole || attempt == 2 || ctx.Err() != nil {
					return nil, jsonrpc2.NewError(protocol.CodeContentModified, "the document changed while the request ran")
				}
				d.snap = cur
			}
		}, ready, nil
	}}
}

// sameText reports whether two snapshots of a document hold the same
// version of its text.
func sameText(a, b *core.Snapshot) bool {
	return a.Version == b.Version && a.Text == b.Text
}

// cursorOf returns the position of the params of a request about one
// position in a document (the cursor), those of the requests whose answer
// comes from the analysis at that position (doc.at): not type definition
// nor prepareRename, which read the whole document's analysis.
func cursorOf(p any) (protocol.Position, bool) {
	switch p := p.(type) {
	case *protocol.HoverParams:
		return p.Position, true
	case *protocol.DefinitionParams:
		return p.Position, true
	case *protocol.DeclarationParams:
		return p.Position, true
	case *protocol.SignatureHelpParams:
		return p.Position, true
	case *protocol.CompletionParams:
		return p.Position, true
	}
	return protocol.Position{}, false
}
