package cli

import (
	"os"
	"syscall"
)

// GrowPipe asks Linux for a 1 MiB buffer on f when it is a pipe (the
// default is 64 KiB): a publishDiagnostics of thousands of findings is
// several hundred kilobytes, and through a small buffer the server's write
// and the editor's reads take turns, 64 KiB at a time. Failure changes
// nothing.
func GrowPipe(f *os.File) {
	const setPipeSize = 1031 // F_SETPIPE_SZ
	if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeNamedPipe != 0 {
		syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), setPipeSize, 1<<20)
	}
}
