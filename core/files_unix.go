//go:build unix

package core

import "syscall"

// openNonblock opens without waiting: a named pipe swapped in after its
// type was checked opens at once, and is then refused (see FileAccess.read).
const openNonblock = syscall.O_NONBLOCK
