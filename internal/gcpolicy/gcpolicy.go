// Package gcpolicy sets the Go collector for a server that answers
// keystrokes. main calls [ForServer] before serving; the server benchmarks
// in lsp call it too, so that they measure the server as it runs. An
// [Idle] (idle.go), told of each message the language server reads,
// collects in the pauses between keystrokes.
//
// The server keeps little live memory (5 to 7 MB while a 10,000-line
// document is typed into) and makes about a megabyte of garbage a
// keystroke there (the new text, the diagnostics' state, the partial
// analyses of the requests, the answers). Go's default pacing (GOGC=100:
// collect when the heap has doubled) would then collect every few
// keystrokes, and each collection takes a processor, or a quarter of one,
// for a few milliseconds: the keystrokes it overlaps wait. So the server
// gives the collector room rather than a ratio: a collection comes once
// the heap has grown by [Headroom] beyond what the last one found live,
// or has doubled, whichever is more. After each collection the ratio
// (GOGC) is set again from what it found live.
//
// The room is not free either: the first time the heap grows through it,
// every page is a page fault (about 11 µs each on the 2-processor virtual
// machine the budgets are measured on, some 120 a keystroke there), and
// the keystrokes that make the heap grow wait for them. 64 MB is about a
// hundred keystrokes of garbage, a collection each hundred keystrokes;
// 128 MB faulted for twice as long (the typing benchmark's hover p99 on
// 10,000 lines 20% higher with a block typed, 8% on a plain line), 512 MB
// for the whole run.
package gcpolicy

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// Headroom is how much the heap may grow beyond what the last collection
// found live before the next one, while that is more than the live heap.
const Headroom = 64 << 20

// Limit is the soft memory limit the collector keeps the process under.
const Limit = 1 << 30

// ForServer sets the collector for serving: GOGC from the live heap after
// every collection (see the package comment), under a soft limit of
// [Limit]. GOGC and GOMEMLIMIT in the environment win (GOGC then stays as
// it says).
func ForServer() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(Limit)
	}
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(Percent(liveHeap()))
	afterEachCollection(func() { debug.SetGCPercent(Percent(liveHeap())) })
}

// Percent returns the GOGC that lets a heap of live bytes grow by
// Headroom before the next collection, and by at least as much as it
// holds (GOGC=100).
func Percent(live uint64) int {
	live = max(live, 4<<20) // the collector's own smallest heap goal
	return max(100, int(100*uint64(Headroom)/live))
}

// liveHeap returns the bytes the last collection found live (the heap's
// size before any collection).
func liveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// afterEachCollection calls f, on the runtime's cleanup goroutine, after
// every collection: a new object is watched each time, which the next
// collection finds unreachable.
func afterEachCollection(f func()) {
	type sentinel struct{ _ [64]byte } // not a tiny allocation, which shares a block
	var watch func()
	watch = func() {
		runtime.AddCleanup(new(sentinel), func(struct{}) {
			f()
			watch()
		}, struct{}{})
	}
	watch()
}
