package gcpolicy

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// newTestIdle returns an Idle with the given pause whose heap has grown
// when grown says so, and whose collections are sent on the channel.
func newTestIdle(quiet time.Duration, grown bool) (*Idle, chan struct{}) {
	q := NewIdle()
	collected := make(chan struct{}, 16)
	q.quiet = quiet
	q.grown = func() bool { return grown }
	q.collect = func() { collected <- struct{}{} }
	return q, collected
}

func TestIdle(t *testing.T) {
	t.Parallel()
	t.Run("collects after a pause once the heap has grown", func(t *testing.T) {
		t.Parallel()
		q, collected := newTestIdle(time.Millisecond, true)
		defer q.Stop()
		q.Busy()
		select {
		case <-collected:
		case <-time.After(10 * time.Second):
			t.Fatal("no collection after the pause")
		}
	})
	t.Run("not before a message", func(t *testing.T) {
		t.Parallel()
		q, collected := newTestIdle(time.Millisecond, true)
		defer q.Stop()
		time.Sleep(100 * time.Millisecond)
		if len(collected) != 0 {
			t.Fatal("collected before any message")
		}
	})
	t.Run("not while messages keep coming", func(t *testing.T) {
		t.Parallel()
		q, collected := newTestIdle(2*time.Second, true)
		defer q.Stop()
		for range 20 {
			q.Busy()
			time.Sleep(50 * time.Millisecond)
		}
		if len(collected) != 0 {
			t.Fatal("collected while messages came every 50 ms, the pause being 2 s")
		}
		select {
		case <-collected:
		case <-time.After(20 * time.Second):
			t.Fatal("no collection once the messages stopped")
		}
	})
	t.Run("not when the heap has not grown", func(t *testing.T) {
		t.Parallel()
		q, collected := newTestIdle(time.Millisecond, false)
		defer q.Stop()
		q.Busy()
		time.Sleep(100 * time.Millisecond)
		if len(collected) != 0 {
			t.Fatal("collected with a heap that had not grown")
		}
	})
	t.Run("not after Stop", func(t *testing.T) {
		t.Parallel()
		q, collected := newTestIdle(time.Millisecond, true)
		q.Stop()
		q.Busy()
		time.Sleep(100 * time.Millisecond)
		if len(collected) != 0 {
			t.Fatal("collected after Stop")
		}
	})
}

// TestHeapGrown checks the measure the Idle goes by: just after a
// collection the heap has not grown; with half the headroom and more
// allocated since (the collector off meanwhile), it has.
func TestHeapGrown(t *testing.T) {
	runtime.KeepAlive(growHeap(t))
}

// growHeap turns the collector off until the test ends, collects, checks
// that the heap has not grown, then allocates half the headroom and more,
// which it returns, and checks that it has.
func growHeap(t *testing.T) [][]byte {
	t.Helper()
	old := debug.SetGCPercent(-1)
	t.Cleanup(func() { debug.SetGCPercent(old) })
	runtime.GC()
	if heapGrown() {
		t.Fatal("grown right after a collection")
	}
	held := make([][]byte, 0, Headroom/2/(1<<20)+8)
	for range cap(held) {
		held = append(held, make([]byte, 1<<20))
	}
	if !heapGrown() {
		t.Fatalf("not grown with %d MB allocated since the last collection", len(held))
	}
	return held
}

// TestIdleLeavesGOGC checks that with GOGC in the environment an Idle
// never collects, the heap grown or not: the environment's setting wins.
func TestIdleLeavesGOGC(t *testing.T) {
	held := growHeap(t)
	if !NewIdle().grown() {
		t.Fatal("without GOGC in the environment, an Idle does not see the heap grown")
	}
	t.Setenv("GOGC", "off")
	if NewIdle().grown() {
		t.Fatal("an Idle would collect with GOGC=off in the environment")
	}
	runtime.KeepAlive(held)
}
