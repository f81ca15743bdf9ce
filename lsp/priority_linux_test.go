package lsp

import (
	"syscall"
	"testing"
)

// threadNice returns the nice value of the calling goroutine's thread.
func threadNice() (int, error) {
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	return 20 - raw, err // the raw system call answers 20 - nice
}

// TestBackgroundPriority checks that a background pool's goroutines run on
// threads of a lower priority than the others', where that can be set.
func TestBackgroundPriority(t *testing.T) {
	base, err := threadNice()
	if err != nil {
		t.Skip("no thread priority here:", err)
	}
	for _, background := range []bool{false, true} {
		w := newWarm(1, background)
		got := make(chan int)
		for range 2 { // a new goroutine, then the one kept
			w.Go(func() {
				n, _ := threadNice()
				got <- n
			})
			n := <-got
			want := base
			if background {
				want = min(base+backgroundNice, 19)
			}
			if n != want {
				t.Errorf("background %v: nice %d, want %d", background, n, want)
			}
		}
		w.stop()
	}
}
