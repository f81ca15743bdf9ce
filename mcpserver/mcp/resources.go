package mcp

// This file implements resources: the listings of resources and templates,
// resources/read, template matching (RFC 6570 level 2), and subscriptions
// (resources/subscribe in the handshake era, subscriptions/listen under
// 2026-07-28) with update notifications found by polling the Version of
// what is watched.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"time"
)

func resourceListing(r *Resource, v string) map[string]any {
	m := map[string]any{"uri": r.URI, "name": r.Name, "description": r.Description, "mimeType": r.MimeType}
	if atLeast(v, "2025-06-18") && r.Title != "" {
		m["title"] = r.Title
	}
	return m
}

func templateListing(t *Template, v string) map[string]any {
	m := map[string]any{"uriTemplate": t.URITemplate, "name": t.Name, "description": t.Description, "mimeType": t.MimeType}
	if atLeast(v, "2025-06-18") && t.Title != "" {
		m["title"] = t.Title
	}
	return m
}

// A template is a Template with its matcher.
type template struct {
	*Template
	re    *regexp.Regexp
	names []string // the variables, in order
}

var templateVar = regexp.MustCompile(`\{(\+?)([A-Za-z0-9_]+)\}`)

func compileTemplate(t *Template) (*template, error) {
	tm := &template{Template: t}
	pat := "^"
	last := 0
	for _, m := range templateVar.FindAllStringSubmatchIndex(t.URITemplate, -1) {
		pat += regexp.QuoteMeta(t.URITemplate[last:m[0]])
		if m[3] > m[2] { // {+name}: reserved expansion, slashes allowed
			pat += "(.+)"
		} else {
			pat += "([^/]+)"
		}
		tm.names = append(tm.names, t.URITemplate[m[4]:m[5]])
		last = m[1]
	}
	pat += regexp.QuoteMeta(t.URITemplate[last:]) + "$"
	re, err := regexp.Compile(pat)
	if err != nil {
		return nil, fmt.Errorf("mcp: template %s: %w", t.URITemplate, err)
	}
	tm.re = re
	if t.Read == nil {
		return nil, fmt.Errorf("mcp: template %s has no Read", t.URITemplate)
	}
	return tm, nil
}

// match returns the variables of uri if the template matches it.
func (t *template) match(uri string) (map[string]string, bool) {
	if t.Match != nil {
		return t.Match(uri)
	}
	m := t.re.FindStringSubmatch(uri)
	if m == nil {
		return nil, false
	}
	vars := map[string]string{}
	for i, n := range t.names {
		v, err := url.PathUnescape(m[i+1])
		if err != nil {
			return nil, false
		}
		vars[n] = v
	}
	return vars, true
}

// lookup finds what serves uri: a fixed resource, or a template with the
// values of its variables; nothing when both are nil.
func (s *Server) lookup(uri string) (*Resource, *template, map[string]string) {
	for _, res := range s.prims.Resources {
		if res.URI == uri {
			return res, nil, nil
		}
	}
	for _, t := range s.templates {
		if vars, ok := t.match(uri); ok {
			return nil, t, vars
		}
	}
	return nil, nil, nil
}

// knownResource reports whether uri names something that can be read.
func (s *Server) knownResource(uri string) bool {
	res, t, _ := s.lookup(uri)
	return res != nil || t != nil
}

// readResource answers resources/read.
func (s *Server) readResource(r *request) (any, *rpcError) {
	var p struct {
		URI *string `json:"uri"`
	}
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if p.URI == nil {
		return nil, errInvalidParams(`resources/read: "uri" is required`)
	}
	uri := *p.URI
	res, t, vars := s.lookup(uri)
	if res == nil && t == nil {
		return nil, rpcErrorOf(r, fmt.Errorf("unknown resource %s: %w", uri, ErrResourceNotFound))
	}
	ctx, cancel := context.WithTimeout(r.ctx, s.opts.CallTimeout)
	defer cancel()
	c, rerr := s.newCall(ctx, r)
	if rerr != nil {
		return nil, rerr
	}
	var contents []any
	var err error
	if res != nil {
		contents, err = res.Read(ctx, c)
	} else {
		contents, err = t.Read(ctx, c, uri, vars)
	}
	if err != nil {
		return s.handlerError(c, err, "reading "+uri)
	}
	b, merr := marshal(map[string]any{"contents": contents})
	if merr != nil {
		return nil, &rpcError{Code: codeInternalError, Message: "Internal error: " + merr.Error()}
	}
	return withHint{obj: b, hint: hintVolatile}, nil
}

// handlerError answers a request whose resource or prompt handler failed.
func (s *Server) handlerError(c *Call, err error, doing string) (any, *rpcError) {
	if errors.Is(err, ErrInputRequired) && c.Modern() {
		b, rerr := s.inputRequired(c)
		if rerr != nil {
			return nil, rerr
		}
		return ready(b), nil
	}
	if rerr := rpcErrorOf(c.req, err); rerr != nil {
		return nil, rerr
	}
	return nil, &rpcError{Code: codeInternalError, Message: "Internal error: " + doing + ": " + err.Error()}
}

// TextContents is the contents of a resource read as one text, for a
// Read to return.
func TextContents(uri, mimeType, text string) []any {
	return []any{map[string]any{"uri": uri, "mimeType": mimeType, "text": text}}
}

// JSONContents is the contents of a resource that is the JSON of v, for a
// Read to return.
func JSONContents(uri string, v any) ([]any, error) {
	b, err := marshal(v)
	if err != nil {
		return nil, err
	}
	return TextContents(uri, "application/json", string(b)), nil
}

// subscribe answers resources/subscribe (handshake era).
func (s *Server) subscribe(r *request) (any, *rpcError) {
	uri, err := uriParam(r, "resources/subscribe")
	if err != nil {
		return nil, err
	}
	if !s.knownResource(uri) {
		return nil, rpcErrorOf(r, fmt.Errorf("cannot subscribe to unknown resource %s: %w", uri, ErrResourceNotFound))
	}
	print := r.c.fingerprint(uri)
	c := r.c
	c.mu.Lock()
	c.subs[uri] = true
	if _, ok := c.prints[uri]; !ok {
		c.prints[uri] = print
	}
	c.updateWatchLocked()
	c.mu.Unlock()
	return []byte(`{}`), nil
}

// unsubscribe answers resources/unsubscribe.
func (s *Server) unsubscribe(r *request) (any, *rpcError) {
	uri, err := uriParam(r, "resources/unsubscribe")
	if err != nil {
		return nil, err
	}
	c := r.c
	c.mu.Lock()
	delete(c.subs, uri)
	if !c.listenedLocked(uri) {
		delete(c.prints, uri) // a later subscription starts from what it sees then
	}
	c.updateWatchLocked()
	c.mu.Unlock()
	return []byte(`{}`), nil
}

func uriParam(r *request, method string) (string, *rpcError) {
	var p struct {
		URI *string `json:"uri"`
	}
	if err := decodeParams(r.params, &p); err != nil {
		return "", err
	}
	if p.URI == nil || *p.URI == "" {
		return "", errInvalidParams(method + `: "uri" is required`)
	}
	return *p.URI, nil
}

// listenState is what one subscriptions/listen request asked for and got.
type listenState struct {
	uris map[string]bool
}

// listen answers subscriptions/listen (2026-07-28): it acknowledges the
// subset it honours and keeps the request open; update notifications carry
// the request's id as the subscription id. The request ends with a result
// when the session ends, or without one when the client cancels it.
func (s *Server) listen(r *request) (any, *rpcError) {
	var p struct {
		Notifications *struct {
			ToolsListChanged      *bool    `json:"toolsListChanged"`
			PromptsListChanged    *bool    `json:"promptsListChanged"`
			ResourcesListChanged  *bool    `json:"resourcesListChanged"`
			ResourceSubscriptions []string `json:"resourceSubscriptions"`
		} `json:"notifications"`
	}
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if p.Notifications == nil {
		return nil, errInvalidParams(`subscriptions/listen: "notifications" is required`)
	}
	n := p.Notifications
	honoured := map[string]any{}
	// The lists never change while the process lives, and the capabilities
	// say so (listChanged false): a list_changed subscription is one the
	// server does not support, left out of the acknowledgment.
	st := &listenState{uris: map[string]bool{}}
	var uris []string
	for _, u := range n.ResourceSubscriptions {
		if s.knownResource(u) && !st.uris[u] {
			st.uris[u] = true
			uris = append(uris, u)
		}
	}
	if n.ResourceSubscriptions != nil {
		honoured["resourceSubscriptions"] = append([]string{}, uris...)
	}
	prints := map[string]string{}
	for _, u := range uris {
		prints[u] = r.c.fingerprint(u)
	}
	c := r.c
	c.mu.Lock()
	r.listen = st
	c.listens[string(r.id)] = r
	for u, p := range prints {
		if _, ok := c.prints[u]; !ok {
			c.prints[u] = p
		}
	}
	c.updateWatchLocked()
	ack, _ := marshal(map[string]any{
		"_meta":         map[string]any{metaSubscriptionID: json.RawMessage(r.id)},
		"notifications": honoured,
	})
	c.sendFor(r, appendNotification(nil, "notifications/subscriptions/acknowledged", ack))
	c.mu.Unlock()
	return nil, nil
}

// listenEnded is the result that ends a subscriptions/listen request
// gracefully (the session or the server ends): like every message of the
// subscription, it carries the subscription's id in _meta.
func (s *Server) listenEnded(r *request) []byte {
	if !r.meta.modern {
		return []byte(`{}`)
	}
	return s.modernizeWith([]byte(`{}`), nil, []byte(`"`+metaSubscriptionID+`":`+string(r.id)+`,`))
}

// fingerprint is the Version of what uri names, seen from this session's
// workspace: when it changes, subscribers are told.
func (c *conn) fingerprint(uri string) string {
	res, t, vars := c.srv.lookup(uri)
	call := &Call{srv: c.srv, conn: c, ws: c.currentWorkspace()}
	switch {
	case res != nil && res.Version != nil:
		return res.Version(call)
	case t != nil && t.Version != nil:
		return t.Version(call, uri, vars)
	}
	return ""
}

// watcher polls the watched resources of one session.
type watcher struct {
	stop chan struct{}
}

// updateWatchLocked starts or stops the watcher to match what is watched.
// c.mu must be held.
func (c *conn) updateWatchLocked() {
	want := len(c.subs) > 0
	for _, r := range c.listens {
		if len(r.listen.uris) > 0 {
			want = true
		}
	}
	switch {
	case want && c.watch == nil:
		w := &watcher{stop: make(chan struct{})}
		c.watch = w
		go c.poll(w)
	case !want && c.watch != nil:
		close(c.watch.stop)
		c.watch = nil
	}
}

func (c *conn) poll(w *watcher) {
	ticks := c.srv.opts.PollTicks
	if ticks == nil {
		t := time.NewTicker(c.srv.opts.PollInterval)
		defer t.Stop()
		ticks = t.C
	}
	for {
		select {
		case <-w.stop:
			return
		case <-ticks:
		}
		c.pollOnce()
		if f := c.srv.opts.Polled; f != nil {
			f()
		}
	}
}

// pollOnce compares the fingerprint of every watched resource with the one
// seen before and tells the subscribers of those that changed.
func (c *conn) pollOnce() {
	c.mu.Lock()
	watched := map[string]bool{}
	for u := range c.subs {
		watched[u] = true
	}
	for _, r := range c.listens {
		for u := range r.listen.uris {
			watched[u] = true
		}
	}
	c.mu.Unlock()
	uris := make([]string, 0, len(watched))
	for u := range watched {
		uris = append(uris, u)
	}
	sort.Strings(uris)
	for _, u := range uris {
		print := c.fingerprint(u)
		c.mu.Lock()
		old, seen := c.prints[u]
		c.prints[u] = print
		if seen && old != print {
			c.resourceUpdatedLocked(u)
		}
		c.mu.Unlock()
	}
}

// listenedLocked reports whether an open listen watches uri. c.mu must be held.
func (c *conn) listenedLocked(uri string) bool {
	for _, r := range c.listens {
		if r.listen.uris[uri] {
			return true
		}
	}
	return false
}

// resourceUpdatedLocked tells every subscriber that uri changed. c.mu must be held.
func (c *conn) resourceUpdatedLocked(uri string) {
	if c.closing {
		return
	}
	if c.subs[uri] {
		b, _ := marshal(map[string]any{"uri": uri})
		c.send(appendNotification(nil, "notifications/resources/updated", b))
	}
	ids := make([]string, 0, len(c.listens))
	for id, r := range c.listens {
		if r.listen.uris[uri] {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		b, _ := marshal(map[string]any{"uri": uri, "_meta": map[string]any{metaSubscriptionID: json.RawMessage(id)}})
		c.sendFor(c.listens[id], appendNotification(nil, "notifications/resources/updated", b))
	}
}
