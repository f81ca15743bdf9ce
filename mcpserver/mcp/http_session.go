package mcp

// This file routes messages between the session layer and HTTP exchanges.
// An exchange is one HTTP response waiting for lines; a handshake-era
// session (httpSession) is the sink of one conn and hands each line to the
// exchange of the request it belongs to, or to the session's GET stream.
// A stateless POST gets a conn of its own whose sink is its exchange.

import (
	"bytes"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A routedSink is a sink that can deliver a request's own messages (its
// progress, logs and subscription notifications) together with the request
// they belong to, so that Streamable HTTP can put them on that request's
// response stream. stdio's sink does not need it.
type routedSink interface {
	sendFor(id []byte, line []byte)
}

// sendFor writes a line that belongs to request r: through the sink's
// sendFor when it has one, else like send.
func (c *conn) sendFor(r *request, line []byte) {
	rs, ok := c.out.(routedSink)
	if !ok || r == nil || r.batch != nil {
		c.send(line)
		return
	}
	c.sendMu.RLock()
	if !c.closed {
		rs.sendFor(r.id, line)
	}
	c.sendMu.RUnlock()
}

// endListens ends the open subscriptions/listen requests with a result:
// drain does, and the HTTP transport when shutdown begins, so that those
// long-lived responses finish.
func (c *conn) endListens() {
	c.mu.Lock()
	listens := make([]*request, 0, len(c.listens))
	for _, r := range c.listens {
		listens = append(listens, r)
	}
	c.listens = map[string]*request{}
	c.updateWatchLocked()
	c.mu.Unlock()
	for _, r := range listens {
		c.finish(r, c.srv.listenEnded(r), nil)
	}
}

// An exchange collects the lines one HTTP response will carry. send never
// blocks: lines queue until the handler writes them.
type exchange struct {
	mu      sync.Mutex
	lines   []event
	limit   int           // most lines queued (GET streams); 0 is no limit
	ready   chan struct{} // signalled when lines arrive
	gone    chan struct{} // closed when the client cancelled the request
	goneSet bool
}

func newExchange() *exchange {
	return &exchange{ready: make(chan struct{}, 1), gone: make(chan struct{})}
}

// abandon tells the response that its request was cancelled: no answer
// will come, so it ends after writing what has arrived.
func (e *exchange) abandon() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.goneSet {
		e.goneSet = true
		close(e.gone)
	}
}

// An event is one line with its SSE event id ("" outside sessions).
type event struct {
	id   string
	line []byte
}

func (e *exchange) send(line []byte) { e.sendEvent(event{line: line}) }

func (e *exchange) sendEvent(ev event) {
	e.mu.Lock()
	if e.limit == 0 || len(e.lines) < e.limit {
		e.lines = append(e.lines, ev)
	}
	e.mu.Unlock()
	select {
	case e.ready <- struct{}{}:
	default:
	}
}

func (e *exchange) take() []event {
	e.mu.Lock()
	defer e.mu.Unlock()
	l := e.lines
	e.lines = nil
	return l
}

// responsePrefix starts every response line the codec builds
// (appendResult, appendError); notifications start with "method" instead.
const responsePrefix = `{"jsonrpc":"2.0","id":`

// responseID returns the id of a response line, or nil for other lines.
func responseID(line []byte) []byte {
	if !bytes.HasPrefix(line, []byte(responsePrefix)) {
		return nil
	}
	end := skipValue(line, len(responsePrefix))
	return line[len(responsePrefix):end]
}

// isResult reports whether a response line carries a result.
func isResult(line []byte) bool {
	id := responseID(line)
	return id != nil && bytes.HasPrefix(line[len(responsePrefix)+len(id):], []byte(`,"result":`))
}

// errorCode returns the code of an error response line, or 0.
func errorCode(line []byte) int {
	e := objectMember(trimSpace(line), "error")
	if e == nil {
		return 0
	}
	n, _ := strconv.Atoi(string(objectMember(e, "code")))
	return n
}

// statusOf is the HTTP status of a JSON answer: always 200 in the
// handshake era; under 2026-07-28, 404 for an unknown method and 400 for a
// message the server could not take.
func statusOf(line []byte, modern bool) int {
	if !modern {
		return http.StatusOK
	}
	switch errorCode(line) {
	case codeMethodNotFound:
		return http.StatusNotFound
	case codeParseError, codeInvalidRequest, codeHeaderMismatch, codeMissingRequiredCapability, codeUnsupportedProtocolVersion:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

// writeEvent writes one line as a server-sent event, with its id when it
// has one.
func writeEvent(w http.ResponseWriter, ev event) error {
	line := ev.line
	buf := make([]byte, 0, len(line)+48)
	if ev.id != "" {
		buf = append(buf, "id: "...)
		buf = append(buf, ev.id...)
		buf = append(buf, '\n')
	}
	buf = append(buf, "event: message\ndata: "...)
	buf = append(buf, bytes.TrimRight(line, "\n")...)
	buf = append(buf, '\n', '\n')
	_, err := w.Write(buf)
	return err
}

func sseHeaders(w http.ResponseWriter) {
	hd := w.Header()
	hd.Set("Content-Type", "text/event-stream")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("X-Accel-Buffering", "no")
}

// respond writes the HTTP response of one POST: the answer as JSON when it
// is the first line to arrive, else an event stream carrying the
// notifications that came first and then the answer. isFinal says which
// line is the answer. onFinal, if set, may add headers before a JSON answer.
// Once an event stream has begun, a comment is sent every keepAlive while
// nothing else is, so that a proxy's idle timeout does not cut a long wait
// (a subscriptions/listen request, a slow tool). It returns when the
// answer is written or the client has gone, and reports whether it
// began an event stream (whose events the client may resume from).
func respond(w http.ResponseWriter, r *http.Request, keepAlive time.Duration, ex *exchange, isFinal func([]byte) bool, modern bool, onFinal func(final []byte, hd http.Header)) (sse bool) {
	canSSE := acceptsSSE(r)
	rc := http.NewResponseController(w)
	tick := time.NewTicker(keepAlive)
	defer tick.Stop()
	for {
		abandoned := false
		select {
		case <-ex.ready:
		case <-ex.gone:
			abandoned = true
		case <-r.Context().Done():
			return
		case <-tick.C:
			if sse {
				if _, err := w.Write([]byte(": keep-alive\n\n")); err != nil || rc.Flush() != nil {
					return
				}
			}
			continue
		}
		for _, ev := range ex.take() {
			line := ev.line
			final := isFinal(line)
			if final && !sse {
				hd := w.Header()
				if onFinal != nil {
					onFinal(line, hd)
				}
				hd.Set("Content-Type", "application/json")
				w.WriteHeader(statusOf(line, modern))
				w.Write(line)
				return
			}
			if !final && responseID(line) != nil {
				continue // a response for another request cannot belong here
			}
			if !sse {
				if !canSSE {
					continue // the client takes JSON only: no room for notifications
				}
				sseHeaders(w)
				w.WriteHeader(http.StatusOK)
				sse = true
			}
			if writeEvent(w, ev) != nil {
				return
			}
			if final {
				rc.Flush()
				return
			}
		}
		if abandoned {
			// Cancelled: there is no answer to give. A request's POST is
			// answered with JSON or an event stream, never 202 (that is for
			// notifications and responses): an event stream that ends with
			// no answer, to a client that takes one (every client must).
			if !sse {
				if canSSE {
					sseHeaders(w)
					w.WriteHeader(http.StatusOK)
				} else {
					w.WriteHeader(http.StatusAccepted)
				}
			}
			return
		}
		if sse && rc.Flush() != nil {
			return
		}
	}
}

// answers returns the isFinal of a request with canonical id.
func answers(id []byte) func([]byte) bool {
	return func(line []byte) bool { return bytes.Equal(responseID(line), id) }
}

// An httpSession is one handshake-era session: a conn whose sink it is.
// Each POST that carries a request gets a stream of its own, the GET
// stream is another; every event has an id naming its stream and its
// place in it ("<stream>_<n>"), and the last events of each stream are
// kept, so that a client whose stream broke can resume it with a GET and
// Last-Event-ID. A request's messages never go to another stream. A
// stream's name starts with the epoch of the session's state in this
// process, so that the ids of a session taken up by another instance (or
// this one after a restart) are never those of the streams it had before:
// an event id of those is not found, rather than resuming another stream.
type httpSession struct {
	h     *httpHandler
	id    string
	epoch string // random, made when this process took the session up
	c     *conn

	feedMu sync.Mutex // lines reach the conn one at a time, as from stdio's reader

	mu      sync.Mutex
	reqs    map[string]*sseStream // streams of requests not yet answered, by canonical id
	streams map[string]*sseStream // streams that may be resumed, by key
	order   []string              // their keys, oldest first
	next    int                   // number of the last POST stream
	batches []*exchange           // POSTs of batches waiting, oldest first
	get     *sseStream            // the GET stream, once opened
	replay  int                   // bytes kept for replay in streams
	busy    int                   // HTTP requests in progress
	last    time.Time             // when the last one ended
	ended   bool
	endCh   chan struct{}
}

// Bounds of what sessions keep for resumption: the last events of a
// stream, of the last streams of a session, in at most maxReplayBytes
// bytes a session and maxReplayTotal for all. A POST answered as plain
// JSON has no event to resume from: its stream is not kept. Before, each
// session kept its last 64 answers whole, JSON ones too: 4 sessions of
// 64 check_workspace answers took the process from 13 MB to 538 MB.
const (
	maxReplayEvents  = 256      // per stream
	maxReplayStreams = 64       // per session
	maxReplayBytes   = 1 << 20  // per session
	maxReplayTotal   = 32 << 20 // all sessions
)

// An sseStream is one event stream of a session: a POST's or the GET one.
type sseStream struct {
	key       string
	post      bool      // a POST's stream: it ends with its request's answer
	seq       int       // number of the last event
	events    []event   // the last events, for replay
	bytes     int       // of events' lines
	forgotten bool      // it cannot be resumed: its events are not kept
	ex        *exchange // the HTTP response writing it now, or nil
	done      bool      // a POST's answer is in events
}

// pushLocked gives a stream its next event, kept for replay within the
// bounds. s.mu must be held.
func (s *httpSession) pushLocked(st *sseStream, line []byte) {
	st.seq++
	ev := event{id: st.key + "_" + strconv.Itoa(st.seq), line: line}
	if !st.forgotten {
		st.events = append(st.events, ev)
		s.account(st, len(line))
		for len(st.events) > maxReplayEvents {
			s.dropFirstLocked(st)
		}
		s.boundLocked(st)
	}
	if st.ex != nil {
		st.ex.sendEvent(ev)
	}
}

// account counts n more bytes kept for st.
func (s *httpSession) account(st *sseStream, n int) {
	st.bytes += n
	s.replay += n
	s.h.replay.Add(int64(n))
}

// dropFirstLocked forgets a stream's oldest event.
func (s *httpSession) dropFirstLocked(st *sseStream) {
	s.account(st, -len(st.events[0].line))
	st.events[0] = event{}
	st.events = st.events[1:]
}

// boundLocked keeps what the session keeps for replay within the bounds,
// st having just grown: the other POST streams are forgotten, oldest
// first, and the GET stream loses its oldest events; then, of st, its
// oldest events when it is the GET stream, else it is forgotten whole
// (a resumption then fails at once instead of waiting for an answer that
// is gone).
func (s *httpSession) boundLocked(st *sseStream) {
	over := func() bool { return s.replay > maxReplayBytes || s.h.replay.Load() > maxReplayTotal }
	for i := 0; over() && i < len(s.order); {
		switch other := s.streams[s.order[i]]; {
		case other == st:
			i++
		case other == s.get:
			// The GET stream stays resumable: it loses its oldest events.
			for over() && len(other.events) > 0 {
				s.dropFirstLocked(other)
			}
			i++
		case other == nil:
			s.order = slices.Delete(s.order, i, i+1)
		default:
			s.forgetLocked(other)
		}
	}
	for over() && !st.post && len(st.events) > 1 {
		s.dropFirstLocked(st)
	}
	if over() && st.post {
		s.forgetLocked(st)
	}
}

// forgetLocked makes a stream one that cannot be resumed.
func (s *httpSession) forgetLocked(st *sseStream) {
	if st == nil || st.forgotten {
		return
	}
	s.account(st, -st.bytes)
	st.events, st.forgotten = nil, true
	delete(s.streams, st.key)
	if i := slices.Index(s.order, st.key); i >= 0 {
		s.order = slices.Delete(s.order, i, i+1)
	}
}

// keepLocked makes a stream resumable, forgetting the oldest beyond the bound.
func (s *httpSession) keepLocked(st *sseStream) {
	s.streams[st.key] = st
	s.order = append(s.order, st.key)
	if len(s.order) > maxReplayStreams {
		s.forgetLocked(s.streams[s.order[0]])
	}
}

func (s *httpSession) send(line []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if line[0] == '[' && len(s.batches) > 0 {
		ex := s.batches[0]
		s.batches = s.batches[1:]
		ex.send(line)
		return
	}
	if id := responseID(line); id != nil {
		if st := s.reqs[string(id)]; st != nil {
			delete(s.reqs, string(id))
			st.done = true
			s.pushLocked(st, line)
			return
		}
	}
	s.generalLocked(line)
}

func (s *httpSession) sendFor(id, line []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.reqs[string(id)]; st != nil {
		s.pushLocked(st, line)
		return
	}
	s.generalLocked(line)
}

// generalLocked sends a line that belongs to no request on the GET
// stream; before one was opened it is dropped, as the protocol allows.
func (s *httpSession) generalLocked(line []byte) {
	if s.get != nil {
		s.pushLocked(s.get, line)
	}
}

func (s *httpSession) feed(body []byte) {
	s.feedMu.Lock()
	s.c.handleLine(body)
	s.feedMu.Unlock()
}

// wait opens the stream of request key, written by ex; false when the id
// is in use.
func (s *httpSession) wait(key string, ex *exchange) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.reqs[key] != nil {
		return false
	}
	s.next++
	st := &sseStream{key: s.epoch + "p" + strconv.Itoa(s.next), post: true, ex: ex}
	s.reqs[key] = st
	s.keepLocked(st)
	s.busy++
	return true
}

// unwait detaches ex from request key's stream: what comes later is kept
// for a resumption, when the response was an event stream (streamed); a
// plain JSON answer has no event id to resume from, and its stream is
// forgotten.
func (s *httpSession) unwait(key string, ex *exchange, streamed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range s.streams {
		if st.ex == ex {
			st.ex = nil
			if !streamed && st.post {
				s.forgetLocked(st)
			}
		}
	}
	s.busy--
	s.last = time.Now()
}

func (s *httpSession) idleSince(now time.Time) time.Duration {
	d, _ := s.unused(now)
	return d
}

// unused says how long the session has had no HTTP request in progress
// (0 when it has one: busy).
func (s *httpSession) unused(now time.Time) (d time.Duration, busy bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy > 0 {
		return 0, true
	}
	return now.Sub(s.last), false
}

// end ends the session: its GET stream closes and what is in flight is
// answered within grace (cancelled first when cancel is set).
func (s *httpSession) end(grace time.Duration, cancel bool) {
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		return
	}
	s.ended = true
	close(s.endCh)
	for _, st := range s.streams {
		s.forgetLocked(st)
	}
	s.mu.Unlock()
	if cancel {
		s.c.cancelAll()
	}
	s.c.drain(max(grace, 100*time.Millisecond))
}

// post serves a POST of the session.
func (s *httpSession) post(w http.ResponseWriter, r *http.Request, body []byte) {
	if body[0] == '[' {
		s.postBatch(w, r, body)
		return
	}
	m, id, rerr := decodeValue(body)
	if rerr != nil {
		httpRPCError(w, http.StatusBadRequest, id, rerr)
		return
	}
	if m.id == nil || m.response {
		s.feed(body)
		if m.method == "notifications/cancelled" {
			s.abandon(m.params)
		}
		w.WriteHeader(http.StatusAccepted)
		return
	}
	key := string(m.id)
	ex := newExchange()
	if !s.wait(key, ex) {
		httpError(w, http.StatusBadRequest, m.id, codeInvalidRequest, "Invalid Request: id "+key+" is already in use by a request in progress")
		return
	}
	s.feed(body)
	streamed := respond(w, r, s.h.cfg.keepAlive, ex, answers(m.id), false, nil)
	s.unwait(key, ex, streamed)
}

// abandon ends the response of the request a notifications/cancelled
// names: the session sends no answer for a cancelled request, so its POST
// would otherwise stay open.
func (s *httpSession) abandon(params []byte) {
	raw := objectMember(params, "requestId")
	if raw == nil {
		return
	}
	id, ok := canonicalID(raw)
	if !ok {
		return
	}
	s.mu.Lock()
	var ex *exchange
	if st := s.reqs[string(id)]; st != nil {
		ex = st.ex
		delete(s.reqs, string(id))
	}
	s.mu.Unlock()
	if ex != nil {
		ex.abandon()
	}
}

// postBatch serves a JSON array, which only revision 2025-03-26 allows.
func (s *httpSession) postBatch(w http.ResponseWriter, r *http.Request, body []byte) {
	s.c.mu.Lock()
	version := s.c.version
	s.c.mu.Unlock()
	if version != "2025-03-26" {
		httpError(w, http.StatusBadRequest, nil, codeInvalidRequest, "Invalid Request: batches are accepted only in sessions of revision 2025-03-26, not "+strconv.Quote(version))
		return
	}
	answered, n := false, 0
	scanArray(body, func(e []byte) {
		n++
		m, _, err := decodeValue(e)
		if err != nil || m.id != nil && !m.response {
			answered = true
		}
	})
	if err := batchTooLong(n); err != nil {
		httpRPCError(w, http.StatusBadRequest, nil, err)
		return
	}
	if n == 0 { // JSON-RPC 2.0: one error, as on stdio (session.go)
		httpRPCError(w, http.StatusBadRequest, nil, &rpcError{Code: codeInvalidRequest, Message: "Invalid Request: empty batch"})
		return
	}
	if !answered {
		s.feed(body)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	ex := newExchange()
	s.mu.Lock()
	s.batches = append(s.batches, ex)
	s.busy++
	s.mu.Unlock()
	s.feed(body)
	respond(w, r, s.h.cfg.keepAlive, ex, func(line []byte) bool { return line[0] == '[' }, false, nil)
	s.mu.Lock()
	for i, b := range s.batches {
		if b == ex {
			s.batches = append(s.batches[:i], s.batches[i+1:]...)
			break
		}
	}
	s.busy--
	s.last = time.Now()
	s.mu.Unlock()
}

// stream serves a GET: the session's GET stream, or, with Last-Event-ID,
// the rest of the stream that event belongs to (its missed events first).
// It lasts until the client goes, the session ends, the server shuts
// down, or a resumed POST stream has delivered its answer.
func (s *httpSession) stream(w http.ResponseWriter, r *http.Request) {
	lastID := r.Header.Get("Last-Event-ID")
	s.mu.Lock()
	if s.ended {
		s.mu.Unlock()
		httpError(w, http.StatusNotFound, nil, codeInvalidRequest, "Not Found: the session ended")
		return
	}
	var st *sseStream
	after := 0
	if lastID != "" {
		key, n, ok := strings.Cut(lastID, "_")
		seq, err := strconv.Atoi(n)
		st = s.streams[key]
		if !ok || err != nil || st == nil {
			s.mu.Unlock()
			httpError(w, http.StatusNotFound, nil, codeInvalidRequest, "Not Found: no stream of this session to resume from event "+strconv.Quote(lastID))
			return
		}
		after = seq
	} else {
		if s.get == nil {
			s.get = &sseStream{key: s.epoch + "g"}
			s.keepLocked(s.get)
		}
		st = s.get
	}
	if st.ex != nil {
		if lastID == "" {
			s.mu.Unlock()
			httpError(w, http.StatusConflict, nil, codeInvalidRequest, "Conflict: this stream of the session is open already")
			return
		}
		// A client resumes a stream only once it lost it: its old response
		// may not have noticed yet. This one takes the stream over; the
		// events after Last-Event-ID are replayed from the stream's buffer.
		st.ex.abandon()
	}
	ex := newExchange()
	ex.limit = 10000
	if lastID != "" {
		for _, ev := range st.events {
			if n, _ := strconv.Atoi(ev.id[len(st.key)+1:]); n > after {
				ex.sendEvent(ev)
			}
		}
	}
	st.ex = ex
	s.busy++
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if st.ex == ex {
			st.ex = nil
		}
		s.busy--
		s.last = time.Now()
		s.mu.Unlock()
	}()
	sseHeaders(w)
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	if _, err := w.Write([]byte(": stream open\n\n")); err != nil || rc.Flush() != nil {
		return
	}
	tick := time.NewTicker(s.h.cfg.keepAlive)
	defer tick.Stop()
	for {
		select {
		case <-ex.ready:
			for _, ev := range ex.take() {
				if writeEvent(w, ev) != nil {
					return
				}
				if st.post && responseID(ev.line) != nil {
					rc.Flush()
					return // the request is answered: its stream is over
				}
			}
		case <-tick.C:
			if _, err := w.Write([]byte(": keep-alive\n\n")); err != nil {
				return
			}
		case <-ex.gone:
			return // a resumed request took the stream over
		case <-r.Context().Done():
			return
		case <-s.endCh:
			return
		case <-s.h.done:
			return
		}
		if rc.Flush() != nil {
			return
		}
	}
}
