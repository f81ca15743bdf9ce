// Package testlog holds Buffer, the log destination of the tests that read
// what a server running on its own goroutines logged (lsp's trace and wire
// tests, the MCP protocol's HTTP tests).
//
// Tests import it; the binary does not.
package testlog

import (
	"bytes"
	"sync"
)

// A Buffer is a bytes.Buffer safe for concurrent writes and reads: the
// server's goroutines write to it while the test reads it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
