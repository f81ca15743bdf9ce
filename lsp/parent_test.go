//go:build unix

package lsp

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"testing"
	"time"
)

// TestServerEndsWithTheEditor: a server whose editor's process ends (the
// pid --clientProcessId names) stops, returning ErrClientGone, though its
// input never ends (a pipe another process still holds). Before, it ran
// on until that process ended too.
func TestServerEndsWithTheEditor(t *testing.T) {
	poll := parentPoll
	parentPoll = 10 * time.Millisecond
	t.Cleanup(func() { parentPoll = poll })
	editor := exec.Command("sleep", "60")
	if err := editor.Start(); err != nil {
		t.Skipf("no sleep to stand for the editor: %v", err)
	}
	in, keep := io.Pipe()
	defer keep.Close()
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), in, io.Discard, Options{ClientPID: editor.Process.Pid}) }()
	select {
	case err := <-done:
		t.Fatalf("the server stopped while its editor ran: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	editor.Process.Kill()
	editor.Wait()
	select {
	case err := <-done:
		if !errors.Is(err, ErrClientGone) {
			t.Errorf("Serve returned %v, want ErrClientGone", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the server runs on after its editor's process ended")
	}
}

// TestAbsentEditorNotWatched: a process id that names no process when the
// server starts (an editor in another pid namespace, outside the server's
// container) is not watched: the server serves on.
func TestAbsentEditorNotWatched(t *testing.T) {
	poll := parentPoll
	parentPoll = 10 * time.Millisecond
	t.Cleanup(func() { parentPoll = poll })
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skipf("no true: %v", err)
	}
	w := newParentWatch()
	w.watch(gone.Process.Pid, make(chan struct{}))
	select {
	case <-w.gone:
		t.Fatal("a process absent from the start was taken for the editor's, ended")
	case <-time.After(100 * time.Millisecond):
	}
}
