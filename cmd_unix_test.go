//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSpecialFilesInFolders checks and formats a folder holding a named
// pipe, links to /dev/zero and to the pipe and a file over the size
// limit beside a program: the scan skips the special files and reports the
// large one, and nothing waits on the pipe or reads the device.
func TestSpecialFilesInFolders(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "ok.wfl"), []byte("store x as 1\ndisplay x\n"), 0o644)
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe.wfl"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink("/dev/zero", filepath.Join(dir, "readme.wfl"))
	os.Symlink("pipe.wfl", filepath.Join(dir, "topipe.wfl"))
	big, _ := os.Create(filepath.Join(dir, "big.wfl"))
	big.Truncate(17 << 20)
	big.Close()
	tests := []struct {
		args       []string
		wantCode   int
		wantStdout string
		wantStderr []string
	}{
		{[]string{"check", dir}, 2, "", []string{"big.wfl is 17 MiB, more than the 16 MiB a file may have; it is not read"}},
		{[]string{"fmt", "-l", dir}, 2, "", []string{"big.wfl is 17 MiB"}},
		{[]string{"check", filepath.Join(dir, "pipe.wfl")}, 2, "", []string{"pipe.wfl is a named pipe (FIFO), not a regular file"}},
		{[]string{"check", filepath.Join(dir, "readme.wfl")}, 2, "", []string{"readme.wfl is a character device, not a regular file"}},
		{[]string{"fmt", filepath.Join(dir, "topipe.wfl")}, 2, "", []string{"topipe.wfl is a named pipe (FIFO), not a regular file"}},
	}
	for _, tt := range tests {
		done := make(chan struct{})
		var stdout, stderr string
		var code int
		go func() {
			defer close(done)
			stdout, stderr, code = runCLI(t, tt.args...)
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%v did not return: it waits on the pipe", tt.args)
		}
		if code != tt.wantCode || stdout != tt.wantStdout {
			t.Errorf("%v: code %d, stdout %q; want %d, %q", tt.args, code, stdout, tt.wantCode, tt.wantStdout)
		}
		for _, w := range tt.wantStderr {
			if !strings.Contains(stderr, w) {
				t.Errorf("%v: stderr %q, want %q", tt.args, stderr, w)
			}
		}
		for _, skipped := range []string{"readme.wfl", "topipe.wfl", "pipe.wfl"} {
			if tt.args[len(tt.args)-1] == dir && strings.Contains(stderr, skipped) {
				t.Errorf("%v: the folder's %s is reported, not skipped: %q", tt.args, skipped, stderr)
			}
		}
	}
}
