package lsp

// This file gives the requests an editor sends as the cursor moves (hover,
// definition, signature help, highlights) a lane of their own. On every
// keystroke an editor sends a didChange and, at once, half a dozen
// requests; the diagnostics and the long answers (a completion list,
// semantic tokens, inlay hints) cost a millisecond or more each, a hover a
// tenth of that once the analysis they share is made. Go's scheduler runs
// what is ready in turn, and on two processors the short answers, and
// even the reading of the requests that ask for them, would wait behind
// the long ones. So:
//
//   - a short request is counted from the moment it is read (on the read
//     loop, before the requests after it) until its answer is made, and
//     the long answers step aside while some are counted (stepAside), for
//     at most maxStepAside, whatever a client sends: the completion list
//     after the analysis it shares with them, the semantic tokens and
//     inlay hints of a range (and the whole document's tokens) before
//     their own analysis;
//   - the work that is not about the cursor (the diagnostics' list, the
//     encoding of the tokens and hints) runs on all processors but one
//     (longTurn hands out the turns), so that the read loop, the short
//     requests and the completion list always find one free of it. The
//     diagnostics never step aside, and no analysis runs in a long turn:
//     the diagnostics would wait behind it.

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// maxStepAside bounds how long long work waits for the short requests at
// one point. A variable for the tests.
var maxStepAside = 2 * time.Millisecond

// short marks a request as one of the short ones.
func short(r request) request {
	r.short = true
	return r
}

// background marks a request as work that is not about the cursor (see
// request.background).
func background(r request) request {
	r.background = true
	return r
}

// lanes counts the short requests in flight, and holds the long work's
// turns.
type lanes struct {
	short atomic.Int32
	mu    sync.Mutex
	clear chan struct{} // closed when the count drops to zero

	long chan struct{} // a token per long work running
}

// newLanes returns lanes for procs processors: long work runs on all but
// one, so that a short request, and the read loop that reads it, always
// find a processor free of it.
func newLanes(procs int) *lanes {
	return &lanes{long: make(chan struct{}, max(1, procs-1))}
}

// longTurn waits for a turn of the work that is not about the cursor (the
// turns are held by that work, never by an analysis). The function it
// returns ends the turn.
func (l *lanes) longTurn(ctx context.Context) (end func()) {
	select {
	case l.long <- struct{}{}:
		return func() { <-l.long }
	case <-ctx.Done():
		return func() {}
	}
}

// enter counts a short request in.
func (l *lanes) enter() {
	l.mu.Lock()
	if l.short.Add(1) == 1 {
		l.clear = make(chan struct{})
	}
	l.mu.Unlock()
}

// leave counts a short request out.
func (l *lanes) leave() {
	l.mu.Lock()
	if l.short.Add(-1) == 0 {
		close(l.clear)
	}
	l.mu.Unlock()
}

// stepAside waits while short requests are in flight, at most
// maxStepAside, or until ctx ends. Long work calls it between its steps.
func (l *lanes) stepAside(ctx context.Context) {
	if l.short.Load() == 0 {
		return
	}
	l.mu.Lock()
	clear := l.clear
	waiting := l.short.Load() > 0
	l.mu.Unlock()
	if !waiting {
		return
	}
	t := time.NewTimer(maxStepAside)
	defer t.Stop()
	select {
	case <-clear:
	case <-t.C:
	case <-ctx.Done():
	}
}
