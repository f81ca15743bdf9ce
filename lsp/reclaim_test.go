package lsp

import (
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
		t.Fatalf("the open document holds %d bytes, less than 5 a source byte: nothing to measure", open-before)
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
