package gcpolicy

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestPercent(t *testing.T) {
	for _, tt := range []struct {
		live uint64
		want int
	}{
		{0, 1600},                   // before any collection: as for 4 MB
		{4 << 20, 1600},             // 4 MB live: 64 MB more
		{8 << 20, 800},              // 8 MB: 64 MB more
		{32 << 20, 200},             // 32 MB: 64 MB more
		{64 << 20, 100},             // as much as the headroom: the heap doubles
		{512 << 20, 100},            // more: it still doubles
		{50 << 20, 128},             // 64 MB more, as a whole percentage
		{(1 << 30) - 1, 100},        // a large heap
		{3 << 20, 1600},             // under 4 MB: as 4 MB
		{uint64(Headroom) / 7, 700}, // 7 times smaller than the headroom
	} {
		if got := Percent(tt.live); got != tt.want {
			t.Errorf("Percent(%d) = %d, want %d", tt.live, got, tt.want)
		}
	}
}

// TestForServerFollowsLiveHeap checks that after a collection GOGC is set
// from the heap it found live: with 64 MB held, 100 (the heap doubles);
// with them let go, the headroom over what is left.
func TestForServerFollowsLiveHeap(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set in the environment, which ForServer leaves as it is")
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	ForServer()
	held := make([][]byte, 64)
	for i := range held {
		held[i] = make([]byte, 1<<20)
	}
	runtime.GC()
	waitForPercent(t, func(p int) bool { return p <= 100 }, "GOGC 100 with 64 MB live")
	runtime.KeepAlive(held)
	held = nil
	runtime.GC()
	waitForPercent(t, func(p int) bool { return p > 500 }, "GOGC over 500 with a few MB live")
}

// gcPercent reads GOGC without setting it.
func gcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// waitForPercent waits for GOGC to satisfy ok. The cleanup that sets it
// after a collection runs on its own goroutine, some time after: on a busy
// machine it may run after the next collection has begun, when the
// sentinel it arms for that one is not collected in it (it was allocated
// while it marked), so a collection is asked for again every 100 ms, as a
// server's allocations would bring one.
func waitForPercent(t *testing.T, ok func(int) bool, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for i := 1; !ok(gcPercent()); i++ {
		if time.Now().After(deadline) {
			t.Fatalf("%s: GOGC is %d", what, gcPercent())
		}
		time.Sleep(time.Millisecond)
		if i%100 == 0 {
			runtime.GC()
		}
	}
}
