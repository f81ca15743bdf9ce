//go:build !unix

package lsp

import "errors"

// mkfifo makes a named pipe at path: not on this system.
func mkfifo(string) error { return errors.ErrUnsupported }
