//go:build !linux

package lsp

import "errors"

// lowerPriority does nothing where a thread's priority is not set: the
// background goroutines run at the process's priority.
func lowerPriority() bool { return false }

// threadNice is not known here.
func threadNice() (int, error) { return 0, errors.ErrUnsupported }
