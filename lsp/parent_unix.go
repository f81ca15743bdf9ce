//go:build unix

package lsp

import (
	"errors"
	"syscall"
)

// processAlive reports whether process pid exists (it may belong to
// another user: then signalling it is refused, but it is there).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
