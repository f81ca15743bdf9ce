package mcp

// This file implements the requests the session sends to the client in the
// handshake era (sampling/createMessage, elicitation/create, roots/list):
// their own ids, the table of those awaiting an answer, the time limit,
// cancellation with notifications/cancelled, and the routing of the
// client's answers and errors back to the waiting caller. An answer that is
// malformed, or that names no request of ours, is logged and dropped.
//
// It also keeps the session's workspace when it comes from the client's
// roots: read with roots/list at first use, again after
// notifications/roots/list_changed, each time once, outside any tool's
// time limit and within one of its own (Options.RootsTimeout, 3 s by
// default). A client that does not answer in time, answers with an error
// or lists no usable folder leaves the server's workspace in force, and
// is told so once per session with a log notification; a call never
// waits on the roots longer than that limit.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// An answer is the client's answer to one of our requests.
type answer struct {
	result json.RawMessage
	err    error
}

// A ClientError is an error the client answered one of our requests with.
type ClientError struct {
	Method  string
	Code    int
	Message string
}

func (e *ClientError) Error() string {
	return fmt.Sprintf("the client answered %s with error %d: %s", e.Method, e.Code, e.Message)
}

// request sends a request to the client on behalf of origin (whose HTTP
// response stream carries it) and waits for the answer, at most
// Options.RequestTimeout and until ctx ends; in both cases the client is
// told with notifications/cancelled.
func (c *conn) request(ctx context.Context, origin *request, method string, params any) (json.RawMessage, error) {
	p, err := marshal(params)
	if err != nil {
		return nil, fmt.Errorf("mcp: encoding %s params: %w", method, err)
	}
	ch := make(chan answer, 1)
	c.mu.Lock()
	if c.closing {
		c.mu.Unlock()
		return nil, errors.New("mcp: the session is ending")
	}
	c.nextOut++
	id := strconv.FormatInt(c.nextOut, 10)
	c.awaiting[id] = awaited{method: method, ch: ch}
	c.mu.Unlock()
	line := appendRequest(nil, []byte(id), method, p)
	c.sendFor(origin, line)
	limit := c.srv.opts.RequestTimeout
	t := time.NewTimer(limit)
	defer t.Stop()
	select {
	case a := <-ch:
		return a.result, a.err
	case <-ctx.Done():
		c.abandonOut(origin, id, "the request that needed it ended: "+context.Cause(ctx).Error())
		return nil, ctx.Err()
	case <-t.C:
		c.abandonOut(origin, id, "no answer within "+limit.String())
		return nil, fmt.Errorf("the client did not answer %s within %v", method, limit)
	}
}

// An awaited request is one of ours the client has not answered yet.
type awaited struct {
	method string
	ch     chan answer
}

// abandonOut stops waiting for request id and tells the client.
func (c *conn) abandonOut(origin *request, id, reason string) {
	c.mu.Lock()
	_, ok := c.awaiting[id]
	delete(c.awaiting, id)
	c.mu.Unlock()
	if !ok {
		return
	}
	b, _ := marshal(map[string]any{"requestId": json.RawMessage(id), "reason": reason})
	c.sendFor(origin, appendNotification(nil, "notifications/cancelled", b))
}

// answered routes a response the client sent to the request waiting for it.
func (c *conn) answered(m message) {
	if m.id == nil {
		c.srv.logger.Warn("mcp: dropped a response without a usable id", "why", m.malformed)
		return
	}
	key := string(m.id)
	c.mu.Lock()
	w, ok := c.awaiting[key]
	delete(c.awaiting, key)
	c.mu.Unlock()
	if !ok {
		c.srv.logger.Warn("mcp: dropped a response to no request of ours", "id", key)
		return
	}
	switch {
	case m.malformed != "":
		c.srv.logger.Warn("mcp: malformed answer", "id", key, "method", w.method, "why", m.malformed)
		w.ch <- answer{err: fmt.Errorf("the client's answer to %s was malformed: %s", w.method, m.malformed)}
	case m.errObj != nil:
		var e struct {
			Code    *int   `json:"code"`
			Message string `json:"message"`
		}
		if m.errObj[0] != '{' || json.Unmarshal(m.errObj, &e) != nil || e.Code == nil {
			c.srv.logger.Warn("mcp: malformed error answer", "id", key, "method", w.method)
			w.ch <- answer{err: fmt.Errorf("the client's error answer to %s was malformed", w.method)}
			return
		}
		w.ch <- answer{err: &ClientError{Method: w.method, Code: *e.Code, Message: e.Message}}
	case m.result[0] != '{':
		c.srv.logger.Warn("mcp: malformed answer: the result is not an object", "id", key, "method", w.method)
		w.ch <- answer{err: fmt.Errorf("the client's answer to %s was malformed: the result is not an object", w.method)}
	default:
		w.ch <- answer{result: m.result}
	}
}

// failAwaiting ends every wait when the session ends.
func (c *conn) failAwaiting() {
	c.mu.Lock()
	ws := c.awaiting
	c.awaiting = map[string]awaited{}
	c.mu.Unlock()
	for _, w := range ws {
		w.ch <- answer{err: errors.New("mcp: the session ended before the client answered")}
	}
}

// appendRequest appends the line of a request to the client. The method
// comes before the id, so no request line starts like a response line.
func appendRequest(buf, id []byte, method string, params []byte) []byte {
	buf = append(buf, `{"jsonrpc":"2.0","method":`...)
	buf = strconv.AppendQuote(buf, method)
	buf = append(buf, `,"id":`...)
	buf = append(buf, id...)
	if params != nil {
		buf = append(buf, `,"params":`...)
		buf = append(buf, params...)
	}
	return append(buf, '}', '\n')
}

// rootsState is the session's workspace when it follows the client's roots.
type rootsState struct {
	wanted   bool          // the client declared roots (handshake era)
	ws       *workspace    // the roots last read, or the fallback; nil before the first read
	stale    bool          // notifications/roots/list_changed came after the last read
	fetching chan struct{} // closed when the roots/list in flight is answered or given up; nil when none
	told     bool          // the client was told that its roots could not be used

	unheralded bool // the client did not send notifications/initialized in time: asked without it
}

// workspace returns the folders a request of this session may read: the
// server's unless the client declared roots, which are read at first use
// and after each change (on origin's stream, see fetchRoots), the call
// waiting at most until that read ends.
func (c *conn) workspace(ctx context.Context, origin *request) *workspace {
	if origin != nil && origin.meta.modern {
		return c.srv.ws
	}
	for {
		c.mu.Lock()
		rs := &c.roots
		if !rs.wanted {
			c.mu.Unlock()
			return c.srv.ws
		}
		if rs.ws != nil && !rs.stale {
			ws := rs.ws
			c.mu.Unlock()
			return ws
		}
		if c.phase != phaseOperating && !rs.unheralded {
			// No request but pings and logs before notifications/initialized
			// (lifecycle): the roots are asked for once it comes. A client
			// that has not sent it within RootsTimeout is asked all the same.
			c.mu.Unlock()
			if !c.awaitOperating(ctx) {
				if ctx.Err() != nil {
					return c.currentWorkspace()
				}
				c.mu.Lock()
				c.roots.unheralded = true
				c.mu.Unlock()
			}
			continue
		}
		ch := rs.fetching
		if ch == nil {
			ch = make(chan struct{})
			rs.fetching, rs.stale = ch, false
			go c.fetchRoots(origin, ch)
		}
		c.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return c.currentWorkspace()
		}
	}
}

// awaitOperating waits, at most Options.RootsTimeout and while ctx and
// the session last, for the client's notifications/initialized; false
// when it did not come.
func (c *conn) awaitOperating(ctx context.Context) bool {
	t := time.NewTimer(c.srv.opts.RootsTimeout)
	defer t.Stop()
	select {
	case <-c.operating:
		return true
	case <-ctx.Done():
	case <-c.ctx.Done():
	case <-t.C:
	}
	return false
}

// currentWorkspace is the session's workspace as last known, without asking.
func (c *conn) currentWorkspace() *workspace {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.roots.ws != nil {
		return c.roots.ws
	}
	return c.srv.ws
}

// fetchRoots reads the client's roots within Options.RootsTimeout, on the
// session's context rather than a call's (a call that ends does not end
// it), sets the session's workspace, then closes done. On failure the
// workspace stays what it was (the server's at first), and the client is
// told once.
func (c *conn) fetchRoots(origin *request, done chan struct{}) {
	limit := c.srv.opts.RootsTimeout
	ctx, cancel := context.WithTimeoutCause(c.ctx, limit, fmt.Errorf("no answer to roots/list within %v", limit))
	defer cancel()
	ws, err := c.readRoots(ctx, origin)
	if err != nil && ctx.Err() != nil && c.ctx.Err() == nil {
		err = fmt.Errorf("the client did not answer roots/list within %v", limit)
	}
	c.mu.Lock()
	rs := &c.roots
	tell := false
	if err != nil {
		if rs.ws == nil {
			rs.ws = c.srv.ws
		}
		tell, rs.told = !rs.told, true
	} else {
		rs.ws = ws
	}
	rs.fetching = nil
	ws = rs.ws
	c.mu.Unlock()
	// The client is told before the calls waiting for the roots go on:
	// once the call that asked has answered, a message for it is dropped.
	if err != nil {
		msg := fmt.Sprintf("%s could not use the client's roots (%v); the workspace is %s", c.srv.opts.Info.Name, err, ws)
		c.srv.logger.Warn("mcp: "+msg, "workspace", ws.String())
		if tell && origin != nil {
			origin.log(levelWarning, msg)
		}
	}
	close(done)
}

// readRoots asks the client for its roots and makes them a workspace.
func (c *conn) readRoots(ctx context.Context, origin *request) (*workspace, error) {
	res, err := c.request(ctx, origin, "roots/list", map[string]any{})
	if err != nil {
		return nil, err
	}
	var lr struct {
		Roots []struct {
			URI  string `json:"uri"`
			Name string `json:"name"`
		} `json:"roots"`
	}
	if err := json.Unmarshal(res, &lr); err != nil {
		return nil, fmt.Errorf("the roots/list result is malformed: %v", err)
	}
	var paths []string
	for _, r := range lr.Roots {
		p := filePath(r.URI)
		if p == "" {
			c.srv.logger.Warn("mcp: ignored a root that is not a file:// URI", "uri", r.URI)
			continue
		}
		if !isDir(p) {
			c.srv.logger.Warn("mcp: ignored a root that is not a folder here", "uri", r.URI)
			continue
		}
		paths = append(paths, p)
	}
	if len(paths) == 0 {
		return nil, errors.New("the client listed no folder of this machine")
	}
	if c.srv.fixedRoot {
		if paths = c.srv.ws.narrow(paths); len(paths) == 0 {
			return nil, fmt.Errorf("none of the client's roots is inside the server's workspace %s, which they can only narrow", c.srv.ws)
		}
	}
	ws, err := c.srv.newWorkspace(paths)
	if err != nil {
		return nil, err
	}
	c.srv.logger.Info("mcp: the workspace is the client's roots", "folders", ws.String())
	return ws, nil
}

// rootsChanged marks the roots for reading again at next use.
func (c *conn) rootsChanged() {
	c.mu.Lock()
	if c.roots.wanted {
		c.roots.stale = true
	}
	c.mu.Unlock()
}
