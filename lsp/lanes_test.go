package lsp

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestLanesStepAside checks that long work goes on at once when no short
// request is in flight, waits for the last one to be answered, and never
// waits much longer than maxStepAside.
func TestLanesStepAside(t *testing.T) {
	l := newLanes(2)
	ctx := context.Background()
	l.stepAside(ctx) // none in flight: returns at once (a hang fails the test)

	bound := maxStepAside
	maxStepAside = time.Minute // the order, whatever the machine's load
	defer func() { maxStepAside = bound }()

	l.enter()
	l.enter()
	var left atomic.Int32
	done := make(chan struct{})
	go func() {
		l.stepAside(ctx)
		if left.Load() != 2 {
			t.Errorf("long work went on with %d of 2 short requests answered", left.Load())
		}
		close(done)
	}()
	time.Sleep(200 * time.Microsecond)
	left.Add(1)
	l.leave()
	time.Sleep(200 * time.Microsecond)
	left.Add(1)
	l.leave()
	<-done

	// A short request that is never answered holds long work back for
	// maxStepAside at most; a cancelled context not at all.
	maxStepAside = bound
	l.enter()
	began := time.Now()
	l.stepAside(ctx)
	if d := time.Since(began); d < maxStepAside {
		t.Errorf("long work stepped aside for %v, want %v", d, maxStepAside)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	l.stepAside(cancelled)
	l.leave()
}

// TestLanesLongTurns checks that long work runs on all processors but one
// (and on one when there is one).
func TestLanesLongTurns(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		l := newLanes(procs)
		want := max(1, procs-1)
		var running, most atomic.Int32
		var wg sync.WaitGroup
		for range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				end := l.longTurn(context.Background())
				n := running.Add(1)
				for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
				}
				time.Sleep(100 * time.Microsecond)
				running.Add(-1)
				end()
			}()
		}
		wg.Wait()
		if got := most.Load(); got != int32(want) {
			t.Errorf("%d processors: %d long works at once, want %d", procs, got, want)
		}
	}
}
