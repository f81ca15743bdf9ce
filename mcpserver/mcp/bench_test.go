package mcp

// This file benchmarks the server in process: one request handled from its
// line to its answer line, without a transport. bench/mcp compares the
// whole server with other servers over stdio.

import (
	"context"
	"testing"
)

// chanSink hands each answer line to the benchmark.
type chanSink struct{ ch chan []byte }

func (s chanSink) send(line []byte) { s.ch <- line }

func benchLine(b *testing.B, line string) {
	s, err := New(Options{Root: b.TempDir(), Primitives: withTools(testTools()...)})
	if err != nil {
		b.Fatal(err)
	}
	sink := chanSink{ch: make(chan []byte, 1)}
	c := newConn(context.Background(), s, sink)
	in := []byte(line)
	b.ReportAllocs()
	for b.Loop() {
		c.handleLine(in)
		putLine(<-sink.ch) // as the stdio writer does
	}
}

func BenchmarkPing(b *testing.B) {
	benchLine(b, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
}

func BenchmarkToolsList(b *testing.B) {
	benchLine(b, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
}

func BenchmarkToolsListModern(b *testing.B) {
	benchLine(b, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+modernMeta("")+`}}`)
}

func BenchmarkEchoCall(b *testing.B) {
	benchLine(b, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`)
}
