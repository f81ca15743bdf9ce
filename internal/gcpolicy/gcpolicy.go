// Package gcpolicy sets the Go collector for a server that answers
// keystrokes. main calls [ForServer] before serving; the server benchmarks
// in lsp call it too, so that they measure the server as it runs.
package gcpolicy

import (
	"os"
	"runtime/debug"
)

// ForServer sets the collector for serving. The server keeps little live
// memory (a few MB for a 10,000-line document) but each keystroke in such
// a document makes one to two megabytes of garbage (the new text, the
// diagnostics' state, the partial analyses of the requests, the answers):
// at the default GOGC=100 the collector runs every few keystrokes, and the
// keystroke it overlaps waits. GOGC=200 lets twice as much garbage build
// up between collections, held back by a 1 GiB soft limit. (At GOGC=400
// the heap marked live grew from collection to collection while typing,
// 15 MB to 150 MB and more in 1,500 keystrokes of the typing benchmark:
// what is made while a long collection marks counts as live, and the next
// goal is five times that; at 200 it stays near 25 MB.) GOGC and
// GOMEMLIMIT in the environment win.
func ForServer() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1 << 30)
	}
}
