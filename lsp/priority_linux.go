package lsp

import (
	"runtime"
	"syscall"
)

// backgroundNice is how much lower than the process's the scheduling
// priority of the background goroutines' threads is (nice values).
const backgroundNice = 10

// lowerPriority keeps the calling goroutine on its thread and lowers the
// thread's scheduling priority by backgroundNice, so that the threads of
// the read loop and of the short answers (and the editor, on the same
// processors) run first when they are ready. When the priority cannot be
// read or set, the goroutine runs as any other.
func lowerPriority() {
	runtime.LockOSThread()
	tid := syscall.Gettid()
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
	if err == nil {
		nice := 20 - raw // the raw system call answers 20 - nice
		err = syscall.Setpriority(syscall.PRIO_PROCESS, tid, min(nice+backgroundNice, 19))
	}
	if err != nil {
		runtime.UnlockOSThread()
	}
}
