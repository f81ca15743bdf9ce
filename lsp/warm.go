package lsp

// This file keeps goroutines between requests, runs the background ones at
// a lower priority, and holds the work the read loop hands them while it
// reads a batch (see hold).
//
// A request's work parses and checks (recursive descent, a few dozen
// frames deep), and a goroutine started for it begins with a stack of a
// few kilobytes that the runtime grows by copying, three or four times, on
// every request: about a tenth of a millisecond of a keystroke's work on a
// 10,000-line document, on the path of every answer. A goroutine kept
// between requests keeps the stack it grew (the collector halves an idle
// one's at most once a cycle).
//
// The server has two pools. The work that is not about the cursor
// (semantic tokens, inlay hints, the outline, and the diagnostics' list
// when the editor asked about the cursor with the change:
// publisher.hold) runs in the background one, whose goroutines keep their
// threads and lower their scheduling priority (priority_linux.go): on a
// machine whose processors are all busy, the threads of the read loop and
// of the answers at the cursor, and the editor's, run before them. In the typing benchmark (two
// processors shared with the client) that took the p99 of definition, the
// last short answer of a keystroke, from 1.8 to 1.3 ms (medians of eight
// runs).

import (
	"sync"
	"time"
)

// warmGoroutines is how many goroutines wait for work: a keystroke brings
// a didChange's diagnostics and half a dozen requests at once.
const warmGoroutines = 8

// warm runs functions on goroutines kept between calls: at most cap(idle)
// wait for work; more run at once when more are asked for.
type warm struct {
	idle chan chan func()
	// background says that the goroutines run at a lower scheduling
	// priority (lowerPriority): the work that is not about the cursor.
	background bool

	mu      sync.Mutex // guards what follows and the sends on idle
	stopped bool
	held    batchHold[func()] // what Later was given while holding
}

// maxHold bounds how long work is held while messages keep coming: a
// client that writes without a pause does not starve it.
const maxHold = 2 * time.Millisecond

// A batchHold keeps what is handed out while the read loop reads messages
// that came at once (warm.hold, publisher.hold); its owner guards it.
type batchHold[T any] struct {
	holding bool
	items   []T       // in the order given
	since   time.Time // when the first of items was given
}

// add keeps x, and reports false, keeping nothing, when not holding.
func (h *batchHold[T]) add(x T) bool {
	if !h.holding {
		return false
	}
	if len(h.items) == 0 {
		h.since = time.Now()
	}
	h.items = append(h.items, x)
	return true
}

// set says whether the read loop reads a batch, and returns what is to
// start now: all that was kept when it does not, else what was kept for
// longer than maxHold.
func (h *batchHold[T]) set(more bool) []T {
	h.holding = more
	if more && (len(h.items) == 0 || time.Since(h.since) <= maxHold) {
		return nil
	}
	out := h.items
	h.items = nil
	return out
}

// Later runs f as Go does, or, while the read loop holds the work it hands
// out (hold), once it stops holding.
func (w *warm) Later(f func()) {
	w.mu.Lock()
	held := w.held.add(f)
	w.mu.Unlock()
	if !held {
		w.Go(f)
	}
}

// hold says whether the read loop is reading messages that came at once
// (set when it reads one, unset when it is to wait for the client): while
// it is, the work it hands out (requests that are not answered on it, the
// diagnostics) waits, and starts when it has read and handled them all, or
// after maxHold. A keystroke brings a didChange and half a dozen requests in
// one write. The short ones among them (hover, definition, signature help)
// are answered on the read loop from the analysis the first of them makes
// (dispatch.go); the long ones (a completion list, semantic tokens, inlay
// hints) and the diagnostics' list would otherwise start at once, each
// waking a thread, on processors the read loop needs (two, here), and the
// short answers would wait for them.
func (w *warm) hold(more bool) {
	w.mu.Lock()
	held := w.held.set(more)
	w.mu.Unlock()
	for _, f := range held {
		w.Go(f)
	}
}

// newWarm returns a pool that keeps up to n goroutines waiting, whose
// threads run at a lower priority when background is set.
func newWarm(n int, background bool) *warm {
	return &warm{idle: make(chan chan func(), n), background: background}
}

// Go runs f on a waiting goroutine, or on a new one when none waits. f must
// not panic (the request's work recovers its own panics).
func (w *warm) Go(f func()) {
	select {
	case work := <-w.idle:
		work <- f
	default:
		go w.run(f)
	}
}

// run runs f, then waits for more work while there is room among the
// waiting goroutines, and ends when there is none or the pool is stopped.
func (w *warm) run(f func()) {
	if w.background {
		lowerPriority() // for the goroutine's life: its thread ends with it
	}
	work := make(chan func())
	for ok := true; ok; f, ok = <-work {
		f()
		f = nil // what it holds is not kept while waiting
		if !w.wait(work) {
			return
		}
	}
}

// wait offers work to Go, unless the pool is full or stopped.
func (w *warm) wait(work chan func()) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return false
	}
	select {
	case w.idle <- work:
		return true
	default:
		return false
	}
}

// stop ends the waiting goroutines; Go still runs what it is given, on
// goroutines that end with it.
func (w *warm) stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	for {
		select {
		case work := <-w.idle:
			close(work)
		default:
			return
		}
	}
}
