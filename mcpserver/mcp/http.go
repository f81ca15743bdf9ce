package mcp

// This file implements the Streamable HTTP front door: one endpoint, /mcp,
// guarded by the Host and Origin checks, the bearer token and a body limit.
// http_session.go routes each message to the HTTP response that waits for
// it; the session and the router are the same as over stdio.
//
// Both eras share the endpoint and are told apart per request:
//   - a POST naming a session (Mcp-Session-Id), or an initialize without
//     the stateless _meta, belongs to the handshake era (2025-03-26 to
//     2025-11-25): one conn per session, GET opens its server-to-client
//     stream, DELETE ends it;
//   - a POST whose params._meta names a protocol version, or whose
//     MCP-Protocol-Version header is not a handshake-era revision, is served
//     statelessly under 2026-07-28: one conn per POST, living as long as
//     the HTTP exchange; closing the response cancels the request.

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
)

// httpPath is the one endpoint.
const httpPath = "/mcp"

// httpConfig is what the front door checks.
type httpConfig struct {
	token          string          // bearer token, or "" for none (loopback only)
	checkHost      bool            // bound to loopback: Host must name loopback or an allowed host
	allowedOrigins map[string]bool // origins allowed besides loopback ones
	allowedHosts   map[string]bool // host names allowed besides loopback ones
	maxBody        int64           // largest request body; default 4 MiB
	idle           time.Duration   // a session unused this long is ended; default 30 minutes
	maxSessions    int             // default 1000; a new one past it ends the one unused the longest
	drain          time.Duration   // how long /healthz answers 503 before the listener closes on shutdown
	keepAlive      time.Duration   // SSE comment interval on GET streams; default 25s

	// The limits of connections (serveListener): the time to send a
	// request's headers (default 10 s), then its body (default 30 s); how
	// long a connection may wait idle for its next request (default 2
	// minutes); how many connections are open at once (default
	// defaultMaxConnections; more wait to be accepted).
	headerTimeout, bodyTimeout, idleTimeout time.Duration
	maxConns                                int
}

// defaultMaxConnections is the default of --max-connections: well under
// the 1,024 files a process may often open.
const defaultMaxConnections = 512

func (cfg *httpConfig) defaults() {
	orDefault(&cfg.maxBody, 4<<20)
	orDefault(&cfg.headerTimeout, 10*time.Second)
	orDefault(&cfg.bodyTimeout, 30*time.Second)
	orDefault(&cfg.idleTimeout, 2*time.Minute)
	orDefault(&cfg.maxConns, defaultMaxConnections)
	orDefault(&cfg.idle, 30*time.Minute)
	orDefault(&cfg.maxSessions, 1000)
	orDefault(&cfg.keepAlive, 25*time.Second)
}

// serveHTTP is ServeHTTP: it checks the address, listens, serves until ctx
// ends, then shuts down gracefully: requests in flight are answered.
func serveHTTP(ctx context.Context, addr string, opts Options) error {
	s, err := New(opts)
	if err != nil {
		return err
	}
	s.logger.Info("mcp: the workspace", "folder", s.ws.String())
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("mcp: --http %q: want HOST:PORT or :PORT", addr)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	loop := isLoopbackHost(host)
	if !loop && opts.Token == "" {
		return fmt.Errorf("mcp: refusing to serve on %s, which is not a loopback address, without a token: "+
			"give --token-file FILE (clients then send Authorization: Bearer <token>), or bind 127.0.0.1", addr)
	}
	cfg := httpConfig{
		token:          opts.Token,
		checkHost:      loop,
		allowedOrigins: splitList(opts.AllowedOrigins, false),
		allowedHosts:   splitList(opts.AllowedHosts, true),
		maxConns:       opts.MaxConnections,
		maxSessions:    opts.MaxSessions,
		idle:           opts.SessionIdle,
		drain:          opts.DrainPeriod,
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return fmt.Errorf("mcp: %w", err)
	}
	return serveListener(ctx, ln, s, cfg)
}

// serveListener serves on ln until ctx ends, then shuts down: the
// listener closes, server-to-client streams end, requests in flight are
// answered (within the call time limit and a margin), sessions drain.
// At most cfg.maxConns connections are open at once; a request's headers
// must come within cfg.headerTimeout, its body within cfg.bodyTimeout
// (post), and a connection idle for cfg.idleTimeout is closed. There is
// no limit on the whole request: an answer may be an event stream that
// lasts.
func serveListener(ctx context.Context, ln net.Listener, s *Server, cfg httpConfig) error {
	h := newHTTPHandler(ctx, s, cfg)
	cfg = h.cfg // with its defaults
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: cfg.headerTimeout,
		IdleTimeout:       cfg.idleTimeout,
		ErrorLog:          slog.NewLogLogger(s.logger.Handler(), slog.LevelDebug),
	}
	s.logger.Info("mcp: serving Streamable HTTP", "url", "http://"+ln.Addr().String()+httpPath, "token", cfg.token != "",
		"maxConnections", cfg.maxConns)
	ln = newLimitListener(ln, cfg.maxConns, s.logger)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	sweep := time.NewTicker(max(min(cfg.idle/4, time.Minute), time.Millisecond))
	defer sweep.Stop()
	for waiting := true; waiting; {
		select {
		case err := <-served:
			h.close(0)
			return fmt.Errorf("mcp: %w", err)
		case <-sweep.C:
			h.endIdle(time.Now())
		case <-ctx.Done():
			waiting = false
		}
	}
	if cfg.drain > 0 {
		// Load balancers see 503 at /healthz and stop sending requests;
		// those that still come are served.
		s.logger.Info("mcp: draining: /healthz answers 503", "for", cfg.drain)
		h.mu.Lock()
		h.draining = true
		h.mu.Unlock()
		select {
		case <-time.After(cfg.drain):
		case err := <-served:
			h.close(0)
			return fmt.Errorf("mcp: %w", err)
		}
	}
	s.logger.Info("mcp: shutting down; answering requests in flight")
	h.beginShutdown()
	sctx, cancel := context.WithTimeout(context.Background(), s.opts.CallTimeout+5*time.Second)
	defer cancel()
	err := hs.Shutdown(sctx)
	h.close(3 * time.Second)
	<-served
	if err != nil {
		return fmt.Errorf("mcp: shutting down: %w", err)
	}
	return nil
}

// isLoopbackHost reports whether host (a name or an IP literal, without
// port) can only be reached from this machine.
func isLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func splitList(s string, lower bool) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimRight(strings.TrimSpace(f), "/")
		if lower {
			f = strings.ToLower(f)
		}
		if f != "" {
			m[f] = true
		}
	}
	return m
}

// httpHandler serves the endpoint.
type httpHandler struct {
	srv       *Server
	cfg       httpConfig
	tokenHash [32]byte
	base      context.Context // parent of sessions: not cancelled by the shutdown signal
	done      chan struct{}   // closed when shutdown begins: GET streams end

	mu        sync.Mutex
	sessions  map[string]*httpSession
	stateless map[*conn]bool // conns of stateless POSTs in progress
	// ids of sessions ended with DELETE, not to be taken up again (with a
	// session key), the oldest first.
	deleted      map[string]bool
	deletedOrder []string
	replay       atomic.Int64 // bytes the sessions keep for replay
	draining     bool         // asked to stop: /healthz answers 503, the rest is served
	stopping     bool         // shutting down: no new requests
}

func newHTTPHandler(ctx context.Context, s *Server, cfg httpConfig) *httpHandler {
	cfg.defaults()
	// Over HTTP the workspace is always the server's folder (Options.Root,
	// else the current folder): a client's roots name folders of this
	// machine and may only narrow it.
	s.fixedRoot = true
	return &httpHandler{
		srv:       s,
		cfg:       cfg,
		tokenHash: sha256.Sum256([]byte(cfg.token)),
		base:      context.WithoutCancel(ctx),
		done:      make(chan struct{}),
		sessions:  map[string]*httpSession{},
		stateless: map[*conn]bool{},
	}
}

// beginShutdown ends the server-to-client streams (GET streams and
// subscriptions/listen requests, which end with a result) so that the
// HTTP server can wait for the other requests in flight.
func (h *httpHandler) beginShutdown() {
	h.mu.Lock()
	if h.stopping {
		h.mu.Unlock()
		return
	}
	h.stopping = true
	close(h.done)
	conns := make([]*conn, 0, len(h.stateless)+len(h.sessions))
	for c := range h.stateless {
		conns = append(conns, c)
	}
	for _, s := range h.sessions {
		conns = append(conns, s.c)
	}
	h.mu.Unlock()
	for _, c := range conns {
		c.endListens()
	}
}

// close ends every session, answering what is in flight within grace.
func (h *httpHandler) close(grace time.Duration) {
	h.beginShutdown()
	h.mu.Lock()
	sessions := make([]*httpSession, 0, len(h.sessions))
	for id, s := range h.sessions {
		sessions = append(sessions, s)
		delete(h.sessions, id)
	}
	h.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range sessions {
		wg.Add(1)
		go func() { defer wg.Done(); s.end(grace, false) }()
	}
	wg.Wait()
}

// healthPath answers load balancers: 200 while serving, 503 once shutting
// down, never a body. It needs no token and is open to any Host and Origin:
// it tells nothing but that the process is up.
const healthPath = "/healthz"

// ServeHTTP checks Host, Origin and the token, then serves the method.
func (h *httpHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == healthPath && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		w.Header().Set("Cache-Control", "no-store")
		if h.isDraining() {
			w.Header().Set("Connection", "close")
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusOK)
		return
	}
	if r.URL.Path != httpPath {
		dropBody(w, r)
		httpError(w, http.StatusNotFound, nil, codeInvalidRequest, "Not Found: the MCP endpoint is "+httpPath)
		return
	}
	if h.cfg.checkHost && !h.hostAllowed(r.Host) {
		dropBody(w, r)
		httpError(w, http.StatusForbidden, nil, codeInvalidRequest, "Forbidden: Host "+strconv.Quote(r.Host)+" is not this server (DNS rebinding protection)")
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" {
		if !h.originAllowed(origin) {
			dropBody(w, r)
			httpError(w, http.StatusForbidden, nil, codeInvalidRequest, "Forbidden: Origin "+strconv.Quote(origin)+" is not allowed")
			return
		}
		hd := w.Header()
		hd.Set("Access-Control-Allow-Origin", origin)
		hd.Set("Access-Control-Expose-Headers", "Mcp-Session-Id, WWW-Authenticate")
		hd.Add("Vary", "Origin")
	}
	if r.Method == http.MethodOptions {
		hd := w.Header()
		hd.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
		hd.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Mcp-Session-Id, MCP-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID")
		hd.Set("Access-Control-Max-Age", "600")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	if !h.authorized(r) {
		dropBody(w, r)
		hd := w.Header()
		challenge := "Bearer realm=" + strconv.Quote(h.srv.opts.Info.Name)
		if r.Header.Get("Authorization") != "" {
			challenge += `, error="invalid_token"`
		}
		hd.Set("WWW-Authenticate", challenge)
		httpError(w, http.StatusUnauthorized, nil, codeInvalidRequest, "Unauthorized: send Authorization: Bearer <token> with the server's token")
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.post(w, r)
	case http.MethodGet:
		h.get(w, r)
	case http.MethodDelete:
		h.delete(w, r)
	default:
		dropBody(w, r)
		w.Header().Set("Allow", "GET, POST, DELETE, OPTIONS")
		httpError(w, http.StatusMethodNotAllowed, nil, codeInvalidRequest, "Method Not Allowed: "+r.Method)
	}
}

// dropBody makes the answer to a request refused before its body is read
// the connection's last, and stops reading it: the server would otherwise
// read what is left of the body (up to 256 KB) to reuse the connection,
// and wait as long as a client withholds it.
func dropBody(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength == 0 {
		return
	}
	w.Header().Set("Connection", "close")
	http.NewResponseController(w).SetReadDeadline(time.Now())
}

// hostAllowed reports whether the Host header names this machine's
// loopback interface or an allowed host.
func (h *httpHandler) hostAllowed(hostport string) bool {
	host := hostport
	if hp, _, err := net.SplitHostPort(hostport); err == nil {
		host = hp
	}
	return isLoopbackHost(host) || h.cfg.allowedHosts[strings.ToLower(host)]
}

// originAllowed reports whether a browser page at origin may call us: a
// loopback origin, or one of the allowed origins.
func (h *httpHandler) originAllowed(origin string) bool {
	if h.cfg.allowedOrigins[strings.TrimRight(origin, "/")] || h.cfg.allowedOrigins["*"] {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return isLoopbackHost(u.Hostname())
}

// authorized compares the bearer token in constant time (of hashes, so the
// length leaks nothing either).
func (h *httpHandler) authorized(r *http.Request) bool {
	if h.cfg.token == "" {
		return true
	}
	a := r.Header.Get("Authorization")
	const scheme = "bearer "
	if len(a) < len(scheme) || !strings.EqualFold(a[:len(scheme)], scheme) {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(a[len(scheme):])))
	return subtle.ConstantTimeCompare(got[:], h.tokenHash[:]) == 1
}

// httpError writes a JSON-RPC error object as the body of a failed HTTP
// exchange; id is the request's id when it was read (else null).
func httpError(w http.ResponseWriter, status int, id []byte, code int, msg string) {
	if id == nil {
		id = nullID
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(appendError(nil, id, &rpcError{Code: code, Message: msg}))
}

func httpRPCError(w http.ResponseWriter, status int, id []byte, e *rpcError) {
	if id == nil {
		id = nullID
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(appendError(nil, id, e))
}

// post serves a POST: one JSON-RPC message (or, in a 2025-03-26 session,
// a batch) in the body.
func (h *httpHandler) post(w http.ResponseWriter, r *http.Request) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			dropBody(w, r)
			httpError(w, http.StatusUnsupportedMediaType, nil, codeInvalidRequest, "Unsupported Media Type: the body must be application/json")
			return
		}
	}
	if !acceptsAny(r, "application/json", "text/event-stream") {
		dropBody(w, r)
		httpError(w, http.StatusNotAcceptable, nil, codeInvalidRequest, "Not Acceptable: accept application/json and text/event-stream")
		return
	}
	// The body must come within bodyTimeout; the deadline is lifted once
	// it is read, as the answer may be a stream that lasts (and the
	// connection, read in the background meanwhile, would end it).
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Now().Add(h.cfg.bodyTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, h.cfg.maxBody))
	if err != nil {
		dropBody(w, r) // the rest is not read
	} else {
		rc.SetReadDeadline(time.Time{})
	}
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			httpError(w, http.StatusRequestEntityTooLarge, nil, codeInvalidRequest,
				fmt.Sprintf("Request Entity Too Large: the body is larger than %d bytes", h.cfg.maxBody))
			return
		}
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			w.Header().Set("Connection", "close")
			httpError(w, http.StatusRequestTimeout, nil, codeInvalidRequest,
				fmt.Sprintf("Request Timeout: the body did not come within %s", h.cfg.bodyTimeout))
			return
		}
		httpError(w, http.StatusBadRequest, nil, codeParseError, "Parse error: reading the body: "+err.Error())
		return
	}
	body = trimSpace(body)
	if len(body) == 0 || !json.Valid(body) {
		httpError(w, http.StatusBadRequest, nil, codeParseError, "Parse error: the body "+whyInvalid(body))
		return
	}
	if !utf8.Valid(body) {
		httpError(w, http.StatusBadRequest, nil, codeParseError, "Parse error: the body is not valid UTF-8")
		return
	}
	if h.isStopping() {
		w.Header().Set("Connection", "close")
		httpError(w, http.StatusServiceUnavailable, nil, codeInternalError, "Service Unavailable: the server is shutting down")
		return
	}
	pv := r.Header.Get("MCP-Protocol-Version")
	if sid := r.Header.Get("Mcp-Session-Id"); sid != "" {
		sess := h.sessionOrTakeUp(sid)
		if sess == nil {
			httpError(w, http.StatusNotFound, nil, codeInvalidRequest, "Not Found: no session "+strconv.Quote(sid)+" (it ended or never existed); initialize again")
			return
		}
		if !sessionRevision(w, pv) {
			return
		}
		sess.post(w, r, body)
		return
	}
	if body[0] == '[' {
		httpError(w, http.StatusBadRequest, nil, codeInvalidRequest, "Bad Request: a batch needs a session (Mcp-Session-Id) of revision 2025-03-26")
		return
	}
	m, id, rerr := decodeValue(body)
	if rerr != nil {
		httpRPCError(w, http.StatusBadRequest, id, rerr)
		return
	}
	metaPV := objectMember(objectMember(m.params, "_meta"), metaProtocolVersion)
	if metaPV != nil || (pv != "" && !isLegacyVersion(pv)) {
		h.postStateless(w, r, m, body, pv)
		return
	}
	if m.method == "initialize" && m.id != nil {
		h.postInitialize(w, r, m, body)
		return
	}
	httpError(w, http.StatusBadRequest, m.id, codeInvalidRequest,
		"Bad Request: Mcp-Session-Id header is required (send initialize first), or use revision "+modernVersion+" with params._meta")
}

func isLegacyVersion(v string) bool {
	for _, l := range legacyVersions {
		if l == v {
			return true
		}
	}
	return false
}

// acceptsAny reports whether the Accept header allows one of the types
// (an absent header allows everything).
func acceptsAny(r *http.Request, types ...string) bool {
	acc := r.Header.Values("Accept")
	if len(acc) == 0 {
		return true
	}
	for _, a := range acc {
		for _, part := range strings.Split(a, ",") {
			mt, _, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil {
				continue
			}
			if mt == "*/*" || mt == "application/*" || mt == "text/*" {
				return true
			}
			for _, t := range types {
				if mt == t {
					return true
				}
			}
		}
	}
	return false
}

// acceptsSSE reports whether the client takes a text/event-stream answer.
func acceptsSSE(r *http.Request) bool {
	for _, a := range r.Header.Values("Accept") {
		for _, part := range strings.Split(a, ",") {
			mt, _, _ := mime.ParseMediaType(strings.TrimSpace(part))
			if mt == "text/event-stream" || mt == "*/*" || mt == "text/*" {
				return true
			}
		}
	}
	return false
}

func (h *httpHandler) isStopping() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stopping
}

// isDraining reports whether the server was asked to stop: draining or
// shutting down.
func (h *httpHandler) isDraining() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.draining || h.stopping
}

// postStateless serves one message of revision 2026-07-28: the headers
// must agree with the body, then a conn of its own answers it.
func (h *httpHandler) postStateless(w http.ResponseWriter, r *http.Request, m message, body []byte, pv string) {
	if m.id == nil || m.response {
		w.WriteHeader(http.StatusAccepted) // nothing to do: no session, no server requests
		return
	}
	bad := func(code int, msg string, data any) {
		httpRPCError(w, http.StatusBadRequest, m.id, &rpcError{Code: code, Message: msg, Data: data})
	}
	if pv == "" {
		bad(codeHeaderMismatch, "Header mismatch: the MCP-Protocol-Version header is required", nil)
		return
	}
	meta, rerr := readMeta(m.params)
	switch {
	case rerr == nil && !meta.modern:
		bad(codeInvalidParams, `Invalid params: params._meta must carry "`+metaProtocolVersion+`" and "`+metaClientCapabilities+`" (an object)`, nil)
		return
	case meta.version != "" && meta.version != pv:
		bad(codeHeaderMismatch, "Header mismatch: MCP-Protocol-Version "+strconv.Quote(pv)+" differs from params._meta's "+strconv.Quote(meta.version), nil)
		return
	case rerr != nil:
		httpRPCError(w, http.StatusBadRequest, m.id, rerr)
		return
	}
	mm, hasMM := r.Header["Mcp-Method"]
	switch {
	case !hasMM:
		bad(codeHeaderMismatch, "Header mismatch: the Mcp-Method header is required", nil)
		return
	case mm[0] != m.method:
		bad(codeHeaderMismatch, "Header mismatch: Mcp-Method "+strconv.Quote(mm[0])+" differs from the body's method "+strconv.Quote(m.method), nil)
		return
	case !sameValues(mm):
		bad(codeHeaderMismatch, "Header mismatch: Mcp-Method is given "+strconv.Itoa(len(mm))+" different values", nil)
		return
	}
	if field := nameField(m.method); field != "" {
		if raw := objectMember(m.params, field); raw != nil {
			want, _ := decodeString(raw)
			got, present, ok := headerValue(r, "Mcp-Name")
			switch {
			case !present:
				bad(codeHeaderMismatch, "Header mismatch: the Mcp-Name header is required for "+m.method, nil)
				return
			case !ok:
				bad(codeHeaderMismatch, "Header mismatch: Mcp-Name is not a value of one ASCII line, nor one in the form =?base64?…?= (a name outside ASCII is sent in that form), or is given different values", nil)
				return
			case got != want:
				bad(codeHeaderMismatch, "Header mismatch: Mcp-Name differs from params."+field, nil)
				return
			}
		}
	}
	ex := newExchange()
	c := newConn(r.Context(), h.srv, ex)
	h.mu.Lock()
	h.stateless[c] = true
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		delete(h.stateless, c)
		h.mu.Unlock()
		c.drain(3 * time.Second)
	}()
	c.handleLine(body)
	respond(w, r, h.cfg.keepAlive, ex, answers(m.id), true, nil)
}

// nameField is the params member that Mcp-Name mirrors for a method.
func nameField(method string) string {
	switch method {
	case "tools/call", "prompts/get":
		return "name"
	case "resources/read":
		return "uri"
	}
	return ""
}

// headerValue reads a header that may be in the Base64 sentinel form
// =?base64?...?=; ok is false when that form does not decode, when the
// value holds a byte outside printable ASCII (a value outside ASCII must
// be sent in that form), or when the header is given different values.
func headerValue(r *http.Request, name string) (v string, present, ok bool) {
	vs, present := r.Header[http.CanonicalHeaderKey(name)]
	if !present {
		return "", false, false
	}
	v = vs[0]
	if !sameValues(vs) || strings.ContainsFunc(v, func(c rune) bool { return c < ' ' || c > '~' }) {
		return "", true, false
	}
	if strings.HasPrefix(v, "=?base64?") && strings.HasSuffix(v, "?=") && len(v) >= len("=?base64??=") {
		b, err := base64.StdEncoding.DecodeString(v[len("=?base64?") : len(v)-2])
		if err != nil || !utf8.Valid(b) {
			return "", true, false
		}
		return string(b), true, true
	}
	return v, true, true
}

// sameValues reports whether a header given several times says the same
// each time.
func sameValues(vs []string) bool {
	for _, v := range vs[1:] {
		if v != vs[0] {
			return false
		}
	}
	return true
}

// postInitialize starts a session with an initialize request.
func (h *httpHandler) postInitialize(w http.ResponseWriter, r *http.Request, m message, body []byte) {
	sess, err := h.newSession()
	if err != nil {
		httpError(w, http.StatusServiceUnavailable, m.id, codeInternalError, "Service Unavailable: "+err.Error())
		return
	}
	ex := newExchange()
	sess.wait(string(m.id), ex)
	sess.feed(body)
	ok := false
	streamed := respond(w, r, h.cfg.keepAlive, ex, answers(m.id), false, func(final []byte, hd http.Header) {
		if isResult(final) {
			ok = true
			if h.srv.hasSessionKey() {
				sess.id = h.srv.ticketID(sess.id, sess.c.ticket())
			}
			hd.Set("Mcp-Session-Id", sess.id)
		}
	})
	sess.unwait(string(m.id), ex, streamed)
	if ok {
		h.mu.Lock()
		h.sessions[sess.id] = sess
		h.mu.Unlock()
	} else {
		go sess.end(0, false)
	}
}

// newSession makes a session (not yet findable by id), first ending the
// idle ones; when there are as many as the cap, the one unused the
// longest is ended too, and only when every session has a request in
// progress is the new one refused.
func (h *httpHandler) newSession() (*httpSession, error) {
	var raw [24]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return nil, err
	}
	id := hex.EncodeToString(raw[:])
	if inst := h.srv.opts.Instance; inst != "" {
		id = inst + "." + id // names the instance that holds it, for a proxy's routing
	}
	return h.admit(id)
}

// admit makes a session of the given id within the cap (see newSession).
func (h *httpHandler) admit(id string) (*httpSession, error) {
	now := time.Now()
	h.endIdle(now)
	h.mu.Lock()
	var evicted *httpSession
	if len(h.sessions) >= h.cfg.maxSessions {
		var oldest time.Duration
		for _, s := range h.sessions {
			if idle, busy := s.unused(now); !busy && (evicted == nil || idle > oldest) {
				evicted, oldest = s, idle
			}
		}
		if evicted != nil {
			delete(h.sessions, evicted.id)
		}
	}
	full := len(h.sessions) >= h.cfg.maxSessions
	h.mu.Unlock()
	if evicted != nil {
		h.srv.logger.Info("mcp: too many sessions: the one unused the longest is ended", "session", evicted.id,
			"unused", evicted.idleSince(now).Round(time.Second), "max", h.cfg.maxSessions)
		go evicted.end(time.Second, false)
	}
	if full {
		return nil, fmt.Errorf("too many sessions (%d), each with a request in progress", h.cfg.maxSessions)
	}
	var epoch [4]byte
	if _, err := rand.Read(epoch[:]); err != nil {
		return nil, err
	}
	s := &httpSession{h: h, id: id, epoch: hex.EncodeToString(epoch[:]), reqs: map[string]*sseStream{}, streams: map[string]*sseStream{}, last: now, endCh: make(chan struct{})}
	s.c = newConn(h.base, h.srv, s)
	return s, nil
}

// endIdle ends the sessions unused for longer than the idle time.
func (h *httpHandler) endIdle(now time.Time) {
	h.mu.Lock()
	var idle []*httpSession
	for id, s := range h.sessions {
		if s.idleSince(now) > h.cfg.idle {
			idle = append(idle, s)
			delete(h.sessions, id)
		}
	}
	h.mu.Unlock()
	for _, s := range idle {
		go s.end(time.Second, false)
	}
}

func (h *httpHandler) session(id string) *httpSession {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sessions[id]
}

// sessionOrTakeUp finds a session, or takes up one this process does not
// hold from its signed id (http_ticket.go): one made before a restart, or
// by another instance with the same session key. It is nil for an id
// that is neither, and for a session this process ended with DELETE.
func (h *httpHandler) sessionOrTakeUp(id string) *httpSession {
	if s := h.session(id); s != nil {
		return s
	}
	t, ok := h.srv.openTicket(id)
	if !ok {
		return nil
	}
	h.mu.Lock()
	deleted := h.deleted[id]
	h.mu.Unlock()
	if deleted {
		return nil
	}
	s, err := h.admit(id)
	if err != nil {
		h.srv.logger.Warn("mcp: a session could not be taken up", "session", id, "err", err)
		return nil
	}
	s.c.restore(t)
	h.mu.Lock()
	if held := h.sessions[id]; held != nil { // taken up by a request at the same time
		h.mu.Unlock()
		go s.end(0, false)
		return held
	}
	h.sessions[id] = s
	h.mu.Unlock()
	h.srv.logger.Info("mcp: session taken up from its id", "session", id, "version", t.Version)
	return s
}

// maxDeleted bounds the ids of sessions ended with DELETE that are
// remembered, so that they are not taken up again.
const maxDeleted = 4096

// rememberDeletedLocked records that a session was ended with DELETE. h.mu must
// be held.
func (h *httpHandler) rememberDeletedLocked(id string) {
	if !h.srv.hasSessionKey() {
		return
	}
	if h.deleted == nil {
		h.deleted = map[string]bool{}
	}
	if !h.deleted[id] {
		h.deleted[id] = true
		h.deletedOrder = append(h.deletedOrder, id)
	}
	if len(h.deletedOrder) > maxDeleted {
		delete(h.deleted, h.deletedOrder[0])
		h.deletedOrder = h.deletedOrder[1:]
	}
}

// get opens a session's server-to-client stream (handshake era only).
func (h *httpHandler) get(w http.ResponseWriter, r *http.Request) {
	sid := r.Header.Get("Mcp-Session-Id")
	pv := r.Header.Get("MCP-Protocol-Version")
	if sid == "" {
		if pv == "" || !isLegacyVersion(pv) {
			w.Header().Set("Allow", "POST, DELETE, OPTIONS")
			httpError(w, http.StatusMethodNotAllowed, nil, codeInvalidRequest,
				"Method Not Allowed: revision "+modernVersion+" has no GET stream; use subscriptions/listen")
			return
		}
		httpError(w, http.StatusBadRequest, nil, codeInvalidRequest, "Bad Request: Mcp-Session-Id header is required")
		return
	}
	if !sessionRevision(w, pv) {
		return
	}
	if !acceptsSSE(r) {
		httpError(w, http.StatusNotAcceptable, nil, codeInvalidRequest, "Not Acceptable: the GET stream is text/event-stream")
		return
	}
	sess := h.sessionOrTakeUp(sid)
	if sess == nil {
		httpError(w, http.StatusNotFound, nil, codeInvalidRequest, "Not Found: no session "+strconv.Quote(sid))
		return
	}
	sess.stream(w, r)
}

// sessionRevision reports whether a request of a session may carry the
// MCP-Protocol-Version header pv (none, or a revision that has sessions);
// it answers 400 when not.
func sessionRevision(w http.ResponseWriter, pv string) bool {
	if pv != "" && !isLegacyVersion(pv) {
		httpError(w, http.StatusBadRequest, nil, codeInvalidRequest, "Bad Request: MCP-Protocol-Version "+strconv.Quote(pv)+" is not a revision of this session")
		return false
	}
	return true
}

// delete ends a session.
func (h *httpHandler) delete(w http.ResponseWriter, r *http.Request) {
	sid := r.Header.Get("Mcp-Session-Id")
	if sid == "" {
		httpError(w, http.StatusBadRequest, nil, codeInvalidRequest, "Bad Request: Mcp-Session-Id header is required")
		return
	}
	if !sessionRevision(w, r.Header.Get("MCP-Protocol-Version")) {
		return
	}
	_, signed := h.srv.openTicket(sid)
	h.mu.Lock()
	sess := h.sessions[sid]
	delete(h.sessions, sid)
	if sess != nil || signed {
		h.rememberDeletedLocked(sid)
	}
	h.mu.Unlock()
	if sess == nil && !signed {
		httpError(w, http.StatusNotFound, nil, codeInvalidRequest, "Not Found: no session "+strconv.Quote(sid))
		return
	}
	if sess != nil {
		go sess.end(3*time.Second, true)
	}
	w.WriteHeader(http.StatusNoContent)
}
