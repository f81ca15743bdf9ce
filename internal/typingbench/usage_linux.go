package typingbench

import (
	"os"
	"syscall"
)

// sysUsage reads the peak memory (Linux counts it in KiB) and the minor
// page faults.
func sysUsage(ps *os.ProcessState, u *Usage) {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		u.MaxRSS = ru.Maxrss << 10
		u.Faults = ru.Minflt
	}
}
