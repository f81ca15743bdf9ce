package lsp

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// FuzzStream feeds arbitrary bytes to the frame reader: it must never panic
// or loop, every message it returns must be a decoded JSON-RPC message, and
// every answer it writes for a frame it skips must be a well-formed frame.
func FuzzStream(f *testing.F) {
	f.Add([]byte(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`)))
	f.Add([]byte(frame(`{"jsonrpc":"2.0","method":"exit"}`) + frame(`{not json`)))
	f.Add([]byte("Content-Length: 5\r\n\r\n[1,2]junk\r\ncontent-length: 2\r\n\r\n{}"))
	f.Add([]byte("Content-Length: -1\r\n\r\nContent-Length: 99999999999\r\n\r\n"))
	f.Add([]byte("garbage\nContent-Type: x\r\n\r\n" + frame(`{"jsonrpc":"2.0","id":"a","result":null}`)))
	f.Add([]byte(frame(`"x"`) + frame(`null`) + frame(`{"jsonrpc":"1.0","id":3,"method":"m"}`)))
	f.Fuzz(func(t *testing.T, data []byte) {
		var out bytes.Buffer
		s := newStream(bytes.NewReader(data), &out, slog.New(slog.DiscardHandler), 1<<16)
		for i := 0; ; i++ {
			if i > len(data)+1 {
				t.Fatalf("more messages than input bytes: the reader does not make progress")
			}
			msg, _, err := s.Read(context.Background())
			if err != nil {
				if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
					t.Fatalf("unexpected error %v", err)
				}
				break
			}
			if msg == nil {
				t.Fatal("nil message without error")
			}
		}
		// What the reader answered must itself be readable, frame by frame.
		r := newStream(bytes.NewReader(out.Bytes()), io.Discard, slog.New(slog.DiscardHandler), 0)
		for {
			msg, _, err := r.Read(context.Background())
			if err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatalf("answers are not well framed: %v\n%q", err, out.Bytes())
				}
				break
			}
			if _, ok := msg.(*jsonrpc2.Response); !ok {
				t.Fatalf("answer is not a response: %T", msg)
			}
		}
	})
}
