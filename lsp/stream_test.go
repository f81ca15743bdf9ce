package lsp

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestFrameBuffered checks the read loop's test for a whole frame in its
// buffer (the work of the messages read at once waits while one is).
func TestFrameBuffered(t *testing.T) {
	whole := frame(`{"jsonrpc":"2.0","method":"exit"}`)
	for _, tt := range []struct {
		name, in string
		want     bool
	}{
		{"empty", "", false},
		{"a frame", whole, true},
		{"two frames", whole + whole, true},
		{"the body short of a byte", whole[:len(whole)-1], false},
		{"a header without its body", "Content-Length: 2\r\n\r\n", false},
		{"a header cut short", "Content-Length: 2\r\n", false},
		{"lower case, and another header first", "Content-Type: x\r\ncontent-length: 2\r\n\r\n{}", true},
		{"no length", "Content-Type: x\r\n\r\n{}", false},
		{"a length that is not a number", "Content-Length: two\r\n\r\n{}", false},
	} {
		s := newStream(strings.NewReader(tt.in), &bytes.Buffer{}, slog.New(slog.DiscardHandler), 1<<16)
		s.in.Peek(1) // fill the buffer, as a read does
		if got := s.frameBuffered(); got != tt.want {
			t.Errorf("%s: frameBuffered() = %v, want %v", tt.name, got, tt.want)
		}
	}
}
