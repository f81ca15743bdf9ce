package lsp

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestWarmRunsAtOnce checks that the pool never queues work: functions
// that wait for each other (a hover waiting for the partial analysis a
// completion is building) all run, more of them than it keeps.
func TestWarmRunsAtOnce(t *testing.T) {
	w := newWarm(2, false)
	defer w.stop()
	for round := 0; round < 3; round++ {
		const n = 5
		var started, release sync.WaitGroup
		started.Add(n)
		release.Add(1)
		done := make(chan int, n)
		for i := range n {
			w.Go(func() {
				started.Done()
				release.Wait()
				done <- i
			})
		}
		started.Wait() // every function is running at once
		release.Done()
		seen := map[int]bool{}
		for range n {
			seen[<-done] = true
		}
		if len(seen) != n {
			t.Fatalf("round %d: %d of %d functions ran", round, len(seen), n)
		}
	}
}

// TestWarmKeepsGoroutines checks that the goroutines are reused between
// calls, at most as many as the pool keeps, and end when it stops.
func TestWarmKeepsGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	w := newWarm(2, false)
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		w.Go(wg.Done)
	}
	wg.Wait()
	waitFor(t, func() bool { return len(w.idle) == 2 }, "two goroutines waiting")
	// Run one at a time, work finds a goroutine waiting: no more are made.
	for range 20 {
		wg.Add(1)
		w.Go(wg.Done)
		wg.Wait()
		waitFor(t, func() bool { return len(w.idle) == 2 }, "the goroutine back")
	}
	if n := runtime.NumGoroutine() - before; n > 2 {
		t.Errorf("%d goroutines more than before, want at most the 2 kept", n)
	}
	w.stop()
	waitFor(t, func() bool { return runtime.NumGoroutine() <= before }, "the goroutines ended")
	// A stopped pool still runs what it is given.
	ran := make(chan bool)
	w.Go(func() { ran <- true })
	<-ran
}

func waitFor(t *testing.T, cond func() bool, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestWarmHolds checks that work given while the read loop holds starts
// once it stops holding, in order, and that work held longer than maxHold
// starts at the next read even while messages keep coming.
func TestWarmHolds(t *testing.T) {
	w := newWarm(2, false)
	defer w.stop()
	ran := make(chan int, 3)
	w.hold(true)
	w.Later(func() { ran <- 1 })
	w.Later(func() { ran <- 2 })
	w.hold(true) // another message of the batch
	select {
	case i := <-ran:
		t.Fatalf("work %d ran while held", i)
	case <-time.After(20 * time.Millisecond):
	}
	w.hold(false)
	got := map[int]bool{<-ran: true, <-ran: true}
	if !got[1] || !got[2] {
		t.Fatalf("ran %v, want both held functions", got)
	}
	w.Later(func() { ran <- 3 }) // not holding: at once
	if i := <-ran; i != 3 {
		t.Fatalf("ran %d, want 3", i)
	}

	w.hold(true)
	w.Later(func() { ran <- 4 })
	time.Sleep(maxHold + time.Millisecond)
	w.hold(true) // still more messages, but the work waited long enough
	select {
	case <-ran:
	case <-time.After(5 * time.Second):
		t.Fatal("work held past maxHold did not start")
	}
}
