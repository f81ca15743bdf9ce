// Package gcpolicy sets the Go collector for a server that answers
// keystrokes. main calls [ForServer] before serving; the server benchmarks
// in lsp call it too, so that they measure the server as it runs.
package gcpolicy

import (
	"os"
	"runtime/debug"
)

// ForServer sets the collector for serving. The server keeps little live
// memory (a few MB for a 10,000-line document) but each edit of such a
// document makes about half a megabyte of garbage (the new text is most of
// it): at the default GOGC=100 the collector runs every few keystrokes, and
// the keystroke it overlaps waits. GOGC=400 lets four times as much garbage
// build up between collections, held back by a 1 GiB soft limit. GOGC and
// GOMEMLIMIT in the environment win.
func ForServer() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(1 << 30)
	}
}
