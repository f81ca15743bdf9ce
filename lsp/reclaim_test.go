package lsp

import (
	"log/slog"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"wfl-lsp/internal/benchdoc"
)

// TestCloseReturnsMemory opens a document above reclaimSize, has it
// analysed, closes it, and waits for the memory its analysis held to go
// back to the system: an idle server makes no collection of its own, so
// without one the process would keep it (a 100 MB document kept about
// 2 GB).
func TestCloseReturnsMemory(t *testing.T) {
	held := func() uint64 { // the heap's memory the process holds from the system
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapSys - m.HeapReleased
	}
	lines := 1
	for len(benchdoc.Clean(lines)) < reclaimSize+reclaimSize/4 {
		lines *= 2
	}
	text := benchdoc.Clean(lines)
	c := newClient(t)
	c.initialize(nil)
	debug.FreeOSMemory()
	before := held()
	c.open(testURI, text, 1)
	c.diagnostics(testURI, 1)
	c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": testURI}, "position": map[string]any{"line": 1, "character": 25}})
	open := held()
	if open < before+uint64(5*len(text)) {
		t.Skipf("the open document holds %d bytes, less than 5 a source byte: nothing to measure", open-before)
	}
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": testURI}})
	c.await("empty diagnostics after close", func(m *msg) bool {
		return m.Method == "textDocument/publishDiagnostics" && strings.Contains(string(m.Params), `"diagnostics":[]`)
	})
	// What the test itself keeps (the text, the messages seen) stays.
	limit := before + (open-before)/4
	deadline := time.Now().Add(10 * time.Second)
	for held() > limit && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if now := held(); now > limit {
		t.Errorf("%d bytes held before the open, %d while open, %d 10 s after the close: more than a quarter of the document's kept", before, open, now)
	}
	c.finish()
}

// TestClosedDocumentKeepsNothing opens a large document and closes it at
// once: nothing of it stays live, not even the message it came in, whose
// memory the strings the decoder made share (the server kept the
// document's URI, one of those strings, as the key of a map that forgets
// its keys lazily: 6 MB kept after a 5 MB document closed).
func TestClosedDocumentKeepsNothing(t *testing.T) {
	text := benchdoc.Clean(20000)
	// Without the log of the messages, which the test would keep.
	c := newClient(t, func(o *Options) { o.Logger = slog.New(slog.DiscardHandler) })
	c.initialize(nil)
	runtime.GC()
	before := heapLive()
	c.open(testURI, text, 1)
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": testURI}})
	c.await("empty diagnostics after close", func(m *msg) bool {
		return m.Method == "textDocument/publishDiagnostics" && strings.Contains(string(m.Params), `"diagnostics":[]`)
	})
	// Work the close started may still be ending: wait for it a while.
	limit := before + uint64(len(text))/4
	deadline := time.Now().Add(5 * time.Second)
	live := func() uint64 {
		runtime.GC()
		runtime.GC() // what the pools held is gone too
		return heapLive()
	}
	for live() > limit && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if now := live(); now > limit {
		t.Errorf("%d bytes live before the open, %d after the close of %d bytes of text", before, now, len(text))
	}
	runtime.KeepAlive(text) // live in both measures
	c.finish()
}

// heapLive returns the bytes of the objects in the heap (after a
// collection, the live ones).
func heapLive() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
