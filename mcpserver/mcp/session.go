package mcp

// This file implements the session layer: one connection's lifecycle, its
// pending requests, cancellation, progress and log notifications, batches,
// and the drain at the end of input. The transport feeds it lines; the
// router (router.go) says what each method does.
//
// Concurrency: the transport's reader calls handleLine, in wire order, and
// never runs a handler of a pool method itself; those run on the bounded
// pool. Notifications and the handshake (the methods marked inline) are
// handled on the reader, so they take effect in the order they arrived.
// Every line goes out through the sink, whole.

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// A conn is one session: a stdio process, or (later) one HTTP session.
type conn struct {
	srv  *Server
	out  sink
	ctx  context.Context // ends when the session ends; parent of every request's context
	stop context.CancelFunc
	pool *pool

	mu        sync.Mutex
	closing   bool                // set by drain; no new work is accepted
	pending   map[string]*request // requests not yet answered, by canonical id
	phase     phase               // handshake progress
	operating chan struct{}       // closed when phase becomes phaseOperating
	version   string              // negotiated legacy revision; "" before initialize
	logLevel  level               // legacy threshold for notifications/message
	subs      map[string]bool     // legacy resources/subscribe URIs
	listens   map[string]*request // stateless subscriptions/listen requests, by id
	watch     *watcher            // polls subscribed resources; nil when none
	prints    map[string]string   // fingerprint of each watched resource when last seen

	clientCaps []byte             // handshake era: the capabilities initialize declared
	nextOut    int64              // id of our last request to the client
	awaiting   map[string]awaited // our requests not yet answered, by id (outgoing.go)
	roots      rootsState         // the workspace when it follows the client's roots

	sendMu sync.RWMutex // guards out against use after drain
	closed bool         // guarded by sendMu

	calls    sync.WaitGroup // handlers accepted and not yet returned
	finished chan struct{}  // a handler returned (drain's watch; holds one signal)
}

type phase int

const (
	phaseNew         phase = iota // no initialize yet
	phaseInitialized              // initialize answered
	phaseOperating                // notifications/initialized received
)

// A request is one call in progress. Handlers read it; the session owns it.
type request struct {
	c      *conn
	id     []byte // canonical JSON id
	method *method
	params []byte // raw params object, or nil
	meta   reqMeta
	batch  *batch // the batch it came in, or nil
	ctx    context.Context
	cancel context.CancelFunc

	// Guarded by c.mu.
	cancelled    bool    // the client cancelled it: it gets no answer
	done         bool    // answered (or dropped); nothing more is sent for it
	lastProgress float64 // last progress value sent
	sentProgress bool
	listen       *listenState // for subscriptions/listen, else nil
}

// reqMeta is what a request's params._meta says.
type reqMeta struct {
	modern   bool   // served statelessly under the 2026-07-28 revision
	version  string // the revision that governs the answer; "" before initialize (legacy)
	progress []byte // raw progress token, or nil
	logLevel level  // modern: the requested log threshold, or levelNone
	caps     []byte // modern: the client capabilities object
}

func newConn(ctx context.Context, srv *Server, out sink) *conn {
	ctx, stop := context.WithCancel(ctx)
	return &conn{
		srv:       srv,
		out:       out,
		ctx:       ctx,
		stop:      stop,
		pool:      newPool(srv.opts.Workers),
		pending:   make(map[string]*request),
		logLevel:  levelWarning,
		subs:      make(map[string]bool),
		listens:   make(map[string]*request),
		prints:    make(map[string]string),
		awaiting:  make(map[string]awaited),
		operating: make(chan struct{}),
		finished:  make(chan struct{}, 1),
	}
}

// operateLocked marks the handshake done (notifications/initialized, or a
// session taken up). c.mu must be held.
func (c *conn) operateLocked() {
	if c.phase != phaseOperating {
		c.phase = phaseOperating
		close(c.operating)
	}
}

// send writes one line unless the session has been drained.
func (c *conn) send(line []byte) {
	c.sendMu.RLock()
	if !c.closed {
		c.out.send(line)
	}
	c.sendMu.RUnlock()
}

// handleLine handles one line of input. It runs on the reader.
func (c *conn) handleLine(line []byte) {
	v := trimSpace(line)
	if len(v) == 0 {
		return // blank lines carry no message
	}
	if v[0] == '[' && json.Valid(v) && utf8.Valid(v) {
		c.handleBatch(v)
		return
	}
	m, id, err := decodeLine(v)
	if err != nil {
		c.send(appendError(nil, id, err))
		return
	}
	c.dispatch(m, nil)
}

// handleBatch handles a JSON array of messages, which only the 2025-03-26
// revision allows.
func (c *conn) handleBatch(v []byte) {
	c.mu.Lock()
	version := c.version
	c.mu.Unlock()
	if version != "2025-03-26" {
		why := "no revision has been negotiated"
		if version != "" {
			why = "the negotiated revision " + version + " does not allow them"
		}
		c.send(appendError(nil, nullID, &rpcError{Code: codeInvalidRequest, Message: "Invalid Request: batches are not accepted: " + why}))
		return
	}
	var elems [][]byte
	scanArray(v, func(e []byte) { elems = append(elems, e) })
	if len(elems) == 0 {
		c.send(appendError(nil, nullID, &rpcError{Code: codeInvalidRequest, Message: "Invalid Request: empty batch"}))
		return
	}
	if err := batchTooLong(len(elems)); err != nil {
		c.send(appendError(nil, nullID, err))
		return
	}
	b := &batch{c: c, left: len(elems)}
	for _, e := range elems {
		m, id, err := decodeValue(e)
		switch {
		case err != nil:
			b.add(id, appendError(nil, id, err))
		case m.id == nil || m.response:
			c.dispatch(m, nil)
			b.add(nil, nil)
		default:
			c.dispatch(m, b)
		}
	}
}

// A batch's answer is bounded: it holds at most maxBatch messages, and
// once its answers hold maxBatchAnswer bytes, those that come after are
// errors. Before, a batch of 50,000 tools/list (3.5 MB) made a 738 MB
// answer and the process grew to 3 GB.
const (
	maxBatch       = 1000
	maxBatchAnswer = 16 << 20
)

// batchTooLong refuses a batch of n messages when they are more than
// maxBatch.
func batchTooLong(n int) *rpcError {
	if n <= maxBatch {
		return nil
	}
	return &rpcError{Code: codeInvalidRequest, Message: fmt.Sprintf("Invalid Request: a batch may hold at most %d messages; this one holds %d", maxBatch, n)}
}

// A batch collects the answers to the requests of one JSON array.
type batch struct {
	c     *conn
	mu    sync.Mutex
	left  int      // elements not yet answered or known to need no answer
	parts [][]byte // answers so far, each without its newline
	size  int      // bytes of parts
}

// add records the answer line to the request id, or nil for none; the
// last one sends the array. An answer that would take the batch's past
// maxBatchAnswer bytes is replaced by an error.
func (b *batch) add(id, line []byte) {
	b.mu.Lock()
	if line != nil {
		if b.size+len(line) > maxBatchAnswer {
			line = appendError(nil, id, &rpcError{Code: codeInternalError, Message: fmt.Sprintf(
				"Internal error: the answers of this batch passed %d bytes, and this one is left out; send fewer requests a batch", maxBatchAnswer)})
		}
		b.size += len(line)
		b.parts = append(b.parts, line[:len(line)-1])
	}
	b.left--
	last := b.left == 0
	b.mu.Unlock()
	if !last || len(b.parts) == 0 {
		return
	}
	out := []byte{'['}
	for i, p := range b.parts {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, p...)
	}
	b.c.send(append(out, ']', '\n'))
}

// dispatch routes one decoded message. It runs on the reader.
func (c *conn) dispatch(m message, b *batch) {
	if m.response {
		c.answered(m)
		return
	}
	if m.id == nil {
		c.notification(m)
		return
	}
	answer := func(e *rpcError) {
		line := appendError(nil, m.id, e)
		if b != nil {
			b.add(m.id, line)
		} else {
			c.send(line)
		}
	}
	if m.params != nil && m.params[0] != '{' {
		answer(errInvalidParams(`"params" must be an object`))
		return
	}
	meta, merr := readMeta(m.params)
	if merr != nil {
		answer(merr)
		return
	}
	if meta.modern && b != nil {
		// The stateless revision has no batches; its long-lived requests
		// (subscriptions/listen) would hold the batch's answer back.
		answer(&rpcError{Code: codeInvalidRequest, Message: "Invalid Request: a request of revision " + modernVersion + " cannot be in a batch"})
		return
	}
	if !meta.modern {
		c.mu.Lock()
		meta.version = c.version
		c.mu.Unlock()
	}
	meth, merr := c.srv.route(m.method, meta.modern)
	if merr != nil {
		answer(merr)
		return
	}
	r := &request{c: c, id: m.id, method: meth, params: m.params, meta: meta, batch: b}
	key := string(m.id)
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return
	}
	if _, dup := c.pending[key]; dup {
		c.mu.Unlock()
		answer(&rpcError{Code: codeInvalidRequest, Message: "Invalid Request: id " + key + " is already in use by a request in progress"})
		return
	}
	r.ctx, r.cancel = context.WithCancel(c.ctx)
	c.pending[key] = r
	c.calls.Add(1)
	c.mu.Unlock()
	if meth.inline {
		c.run(r)
		return
	}
	c.pool.submit(func() { c.run(r) })
}

// readMeta reads params._meta and decides the request's era: the one
// place a request's metadata is checked, for every transport (the HTTP
// front door reads it too, to answer a bad one with 400). A request whose
// _meta names a protocol version is of the stateless revision (modern),
// and must name 2026-07-28 (its version, even when refused, is in
// meta.version) and carry the client's capabilities; any other is of the
// handshake era, whose version the session knows.
func readMeta(params []byte) (reqMeta, *rpcError) {
	meta := reqMeta{logLevel: levelNone}
	raw := objectMember(params, "_meta")
	if raw == nil || raw[0] == 'n' {
		return meta, nil
	}
	if raw[0] != '{' {
		return meta, errInvalidParams(`"_meta" must be an object`)
	}
	var bad *rpcError
	var pv, caps, ll []byte
	scanObject(raw, func(k string, v []byte) {
		switch k {
		case "progressToken":
			if _, ok := canonicalID(v); ok {
				meta.progress = v
			} else {
				bad = errInvalidParams(`"_meta.progressToken" must be a string or an integer`)
			}
		case metaProtocolVersion:
			pv = v
		case metaClientCapabilities:
			caps = v
		case metaLogLevel:
			ll = v
		}
	})
	if bad != nil {
		return meta, bad
	}
	if pv == nil {
		return meta, nil
	}
	meta.modern = true
	requested, ok := decodeString(pv)
	if !ok {
		return meta, errInvalidParams(`"_meta.` + metaProtocolVersion + `" must be a string`)
	}
	meta.version = requested
	if requested != modernVersion {
		return meta, &rpcError{
			Code:    codeUnsupportedProtocolVersion,
			Message: "Unsupported protocol version: " + requested,
			Data:    map[string]any{"supported": supportedVersions, "requested": requested},
		}
	}
	if caps == nil || caps[0] != '{' {
		return meta, errInvalidParams(`the request's "_meta" must carry "` + metaClientCapabilities + `" (an object) under revision ` + modernVersion)
	}
	meta.caps = caps
	if ll != nil {
		s, _ := decodeString(ll)
		lv, ok := parseLevel(s)
		if !ok {
			return meta, errInvalidParams(`"_meta.` + metaLogLevel + `" must be one of ` + levelList)
		}
		meta.logLevel = lv
	}
	return meta, nil
}

// run runs a request's handler and answers it. A panic becomes -32603.
func (c *conn) run(r *request) {
	defer func() {
		c.calls.Done()
		select {
		case c.finished <- struct{}{}:
		default:
		}
	}()
	var (
		result []byte
		rerr   *rpcError
	)
	func() {
		defer func() {
			if p := recover(); p != nil {
				c.srv.logger.Error("mcp handler panicked", "method", r.method.name, "panic", p, "stack", string(debug.Stack()))
				rerr = &rpcError{Code: codeInternalError, Message: fmt.Sprintf("Internal error: %s failed: %v", r.method.name, p)}
			}
		}()
		result, rerr = c.srv.call(r)
	}()
	if result == nil && rerr == nil {
		return // the handler keeps the request open (subscriptions/listen)
	}
	c.finish(r, result, rerr)
}

// finish sends the answer of r unless it was cancelled or already answered.
func (c *conn) finish(r *request, result []byte, rerr *rpcError) {
	c.mu.Lock()
	if r.done {
		c.mu.Unlock()
		return
	}
	r.done = true
	drop := r.cancelled
	delete(c.pending, string(r.id))
	c.mu.Unlock()
	r.cancel()
	var line []byte
	if !drop {
		if rerr != nil {
			line = appendError(nil, r.id, rerr)
		} else {
			line = appendResult(getLine(len(r.id)+len(result)+len(`{"jsonrpc":"2.0","id":,"result":}`)+1), r.id, result)
		}
	}
	if r.batch != nil {
		r.batch.add(r.id, line)
	} else if line != nil {
		c.send(line)
	}
}

// notification handles a client notification, in order, on the reader.
// Notifications are never answered, not even unknown ones.
func (c *conn) notification(m message) {
	switch m.method {
	case "notifications/initialized":
		c.mu.Lock()
		if c.phase == phaseInitialized {
			c.operateLocked()
		}
		c.mu.Unlock()
	case "notifications/cancelled":
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
			Reason    string          `json:"reason"`
		}
		if m.params == nil || json.Unmarshal(m.params, &p) != nil || len(p.RequestID) == 0 {
			return
		}
		id, ok := canonicalID(p.RequestID)
		if !ok {
			return
		}
		c.cancelRequest(string(id), p.Reason)
	case "notifications/roots/list_changed":
		c.rootsChanged()
	default:
		// notifications/progress and anything unknown: nothing to do.
	}
}

// cancelRequest cancels a request in progress; it will get no answer.
// Unknown and finished ids are ignored, and initialize cannot be cancelled.
func (c *conn) cancelRequest(key, reason string) {
	c.mu.Lock()
	r, ok := c.pending[key]
	if !ok || r.done || r.method.name == "initialize" {
		c.mu.Unlock()
		return
	}
	r.cancelled = true
	listening := r.listen != nil
	if listening {
		r.done = true
		delete(c.pending, key)
		delete(c.listens, key)
		c.updateWatchLocked()
	}
	c.mu.Unlock()
	r.cancel()
	c.srv.logger.Debug("mcp request cancelled", "id", key, "reason", reason)
}

// progress sends notifications/progress for r if it asked for progress and
// is still running. Values must increase; others are dropped.
func (r *request) progress(progress, total float64, msg string) {
	if r.meta.progress == nil {
		return
	}
	c := r.c
	c.mu.Lock()
	defer c.mu.Unlock()
	if r.done || r.cancelled || (r.sentProgress && progress <= r.lastProgress) {
		return
	}
	r.sentProgress, r.lastProgress = true, progress
	p := struct {
		Token    json.RawMessage `json:"progressToken"`
		Progress float64         `json:"progress"`
		Total    float64         `json:"total,omitempty"`
		Message  string          `json:"message,omitempty"`
	}{r.meta.progress, progress, total, msg}
	b, _ := marshal(p)
	c.sendFor(r, appendNotification(nil, "notifications/progress", b))
}

// log sends notifications/message about r's work at level lv: under the
// stateless revision only when the request asked for logs at that level,
// in the handshake era when the session's level lets it through.
func (r *request) log(lv level, data any) {
	c := r.c
	threshold := r.meta.logLevel
	if !r.meta.modern {
		c.mu.Lock()
		threshold = c.logLevel
		c.mu.Unlock()
	}
	if threshold == levelNone || lv < threshold {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if r.done || r.cancelled {
		return
	}
	b, err := marshal(struct {
		Level  string `json:"level"`
		Logger string `json:"logger"`
		Data   any    `json:"data"`
	}{lv.String(), c.srv.opts.Info.Name, data})
	if err != nil {
		return
	}
	c.sendFor(r, appendNotification(nil, "notifications/message", b))
}

// drain ends the session: no new requests, open subscriptions end with a
// result, and every request already read is answered before it returns,
// while the requests keep finishing: it gives up on those left only when
// none has finished for grace. Each handler returns within its own time
// limit once it starts, and the ones queued behind the busy workers start
// as those finish, so a long queue read before the end is still answered
// (250 piped check_workspace calls were cut at 35 s, 174 answered).
func (c *conn) drain(grace time.Duration) {
	c.mu.Lock()
	c.closing = true // no listen comes after this
	c.subs = map[string]bool{}
	c.mu.Unlock()
	c.endListens()   // (and stops the watcher: nothing is watched)
	c.failAwaiting() // no answer can come any more
	done := make(chan struct{})
	go func() { c.calls.Wait(); close(done) }()
	t := time.NewTimer(grace)
	defer t.Stop()
wait:
	for {
		select {
		case <-done:
			break wait
		case <-c.finished:
			t.Reset(grace)
		case <-t.C:
			c.srv.logger.Warn("mcp: requests still running at shutdown were abandoned", "waited", grace)
			break wait
		}
	}
	c.stop()
	c.pool.close()
	c.sendMu.Lock()
	c.closed = true
	c.sendMu.Unlock()
}

// cancelAll cancels the context of every request in progress (on shutdown
// by signal); their handlers still answer.
func (c *conn) cancelAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.pending {
		if r.listen == nil {
			r.cancel()
		}
	}
}

// level is a log severity of RFC 5424 as MCP names them, least severe first.
type level int

const (
	levelNone level = iota - 1
	levelDebug
	levelInfo
	levelNotice
	levelWarning
	levelError
	levelCritical
	levelAlert
	levelEmergency
)

var levelNames = [...]string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

const levelList = "debug, info, notice, warning, error, critical, alert, emergency"

func (l level) String() string {
	if l < 0 || int(l) >= len(levelNames) {
		return "level(" + strconv.Itoa(int(l)) + ")"
	}
	return levelNames[l]
}

func parseLevel(s string) (level, bool) {
	for i, n := range levelNames {
		if n == s {
			return level(i), true
		}
	}
	return levelNone, false
}

// A pool runs functions on at most max goroutines; the rest wait in a FIFO
// queue, so the reader never blocks on a busy pool.
type pool struct {
	mu      sync.Mutex
	cond    sync.Cond
	queue   []func()
	head    int
	max     int
	running int
	idle    int
	closed  bool
}

func newPool(max int) *pool {
	p := &pool{max: max}
	p.cond.L = &p.mu
	return p
}

func (p *pool) submit(f func()) {
	p.mu.Lock()
	p.queue = append(p.queue, f)
	if p.idle == 0 && p.running < p.max {
		p.running++
		go p.work()
	} else {
		p.cond.Signal()
	}
	p.mu.Unlock()
}

func (p *pool) work() {
	p.mu.Lock()
	for {
		for p.head == len(p.queue) && !p.closed {
			p.idle++
			p.cond.Wait()
			p.idle--
		}
		if p.head == len(p.queue) {
			p.running--
			p.mu.Unlock()
			return
		}
		f := p.queue[p.head]
		p.queue[p.head] = nil
		p.head++
		if p.head == len(p.queue) {
			p.queue, p.head = p.queue[:0], 0
		}
		p.mu.Unlock()
		f()
		p.mu.Lock()
	}
}

// close lets the workers exit once the queue is empty.
func (p *pool) close() {
	p.mu.Lock()
	p.closed = true
	p.cond.Broadcast()
	p.mu.Unlock()
}
