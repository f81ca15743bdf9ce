package lsp

// This file ends the server when the editor's process does: the
// specification asks a server to exit when the process id initialize (or
// --clientProcessId) names is gone, so that an editor that crashed, or was
// killed, leaves no server behind it still holding its memory (one whose
// pipes another process inherited never sees the end of its input).

import (
	"errors"
	"sync"
	"time"
)

// ErrClientGone is returned by Serve when the editor's process ended
// before exit (see parentWatch).
var ErrClientGone = errors.New("the editor's process is gone")

// parentPoll is how often the editor's process is looked for. A variable
// for the tests.
var parentPoll = 2 * time.Second

// A parentWatch closes gone once the process it watches no longer exists.
type parentWatch struct {
	once sync.Once
	gone chan struct{}
}

func newParentWatch() *parentWatch { return &parentWatch{gone: make(chan struct{})} }

// watch looks for process pid every parentPoll until it is gone or done
// is closed; a second call does nothing, as does a pid of 0 or less, or
// one of a system where processes cannot be looked for (processAlive). A
// process not found at once is not watched either: an editor outside the
// server's container (`docker exec`) names a process of another namespace.
func (w *parentWatch) watch(pid int, done <-chan struct{}) {
	if pid <= 0 || !processAlive(pid) {
		return
	}
	w.once.Do(func() {
		go func() {
			t := time.NewTicker(parentPoll)
			defer t.Stop()
			for {
				select {
				case <-done:
					return
				case <-t.C:
					if !processAlive(pid) {
						close(w.gone)
						return
					}
				}
			}
		}()
	})
}
