//go:build !linux

package lsp

// lowerPriority does nothing where a thread's priority is not set: the
// background goroutines run at the process's priority.
func lowerPriority() {}
