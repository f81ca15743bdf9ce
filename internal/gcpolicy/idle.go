package gcpolicy

import (
	"os"
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

// Quiet is how long a server must have read nothing before an [Idle]
// collects: more than a keystroke's answers take, less than the pause
// between two keystrokes of someone typing fast.
const Quiet = 20 * time.Millisecond

// An Idle collects while the server is quiet, so that the collections do
// not come during a keystroke's work. A collection comes when the heap has
// grown by [Headroom] (ForServer): that happens while a request or a
// change is being answered, which then waits for the collector's share of
// the processors and helps it mark. People type in bursts, with pauses of
// tens of milliseconds between the keys at the least; an Idle collects in
// such a pause when the heap has grown by half the headroom since the last
// collection, so that at a typist's pace the collector seldom reaches its
// goal during a keystroke. A client that writes without pausing (a script,
// a benchmark with no interval) never lets it: the collections then come
// as ForServer paces them.
type Idle struct {
	// last is when the last message came (Unix nanoseconds); armed says
	// that the timer runs. Busy only stores the time, and arms the timer
	// when it does not run: a first version that reset the timer on every
	// message (seven a keystroke) made the typing benchmark slower when
	// the keystrokes came without a pause.
	last    atomic.Int64
	armed   atomic.Bool
	stopped atomic.Bool
	timer   *time.Timer

	// What the tests replace: the pause, whether the heap has grown
	// enough (heapGrown), and the collection (runtime.GC).
	quiet   time.Duration
	grown   func() bool
	collect func()
}

// NewIdle returns an Idle that waits for the first [Idle.Busy]. With GOGC
// set in the environment it never collects: the environment wins, as in
// ForServer.
func NewIdle() *Idle {
	q := &Idle{quiet: Quiet, grown: heapGrown, collect: runtime.GC}
	if os.Getenv("GOGC") != "" {
		q.grown = func() bool { return false }
	}
	q.timer = time.AfterFunc(time.Hour, q.fire)
	q.timer.Stop()
	return q
}

// Busy tells q that the server read a message: the quiet starts again.
func (q *Idle) Busy() {
	q.last.Store(time.Now().UnixNano())
	q.arm()
}

// arm starts the timer when it does not run.
func (q *Idle) arm() {
	if !q.armed.Load() && q.armed.CompareAndSwap(false, true) && !q.stopped.Load() {
		q.timer.Reset(q.quiet)
	}
}

// Stop ends q: it collects no more.
func (q *Idle) Stop() {
	q.stopped.Store(true)
	q.timer.Stop()
}

// fire runs when the timer ends: if a message came less than the pause
// ago, it waits for the rest of the pause; else it collects when the heap
// has grown enough.
func (q *Idle) fire() {
	if q.stopped.Load() {
		return
	}
	if since := time.Duration(time.Now().UnixNano() - q.last.Load()); since < q.quiet {
		q.timer.Reset(q.quiet - since)
		return
	}
	q.armed.Store(false)
	if time.Duration(time.Now().UnixNano()-q.last.Load()) < q.quiet {
		// A message came while the timer was being let go, and found it
		// running: arm it for that one.
		q.arm()
		return
	}
	if q.grown() {
		q.collect()
	}
}

// heapGrown reports whether the heap holds more than half the headroom
// past what the last collection found live.
func heapGrown() bool {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return false
	}
	return s[0].Value.Uint64() > s[1].Value.Uint64()+Headroom/2
}
