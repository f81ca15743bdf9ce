package lsp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
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

// chunks is a reader that returns one of its strings per Read, as a pipe
// does when the client writes them one at a time.
type chunks []string

func (c *chunks) Read(p []byte) (int, error) {
	if len(*c) == 0 {
		return 0, io.EOF
	}
	n := copy(p, (*c)[0])
	if (*c)[0] = (*c)[0][n:]; (*c)[0] == "" {
		*c = (*c)[1:]
	}
	return n, nil
}

// TestReadPutsShortRequestsFirst checks the order in which the stream
// hands messages to jsonrpc2: within the frames read at once, a long
// request waits for the short requests after it, and never passes a
// notification or a response, nor is it lost when the input ends.
func TestReadPutsShortRequestsFirst(t *testing.T) {
	call := func(id int, method string) string {
		return frame(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q}`, id, method))
	}
	note := func(method string) string { return frame(fmt.Sprintf(`{"jsonrpc":"2.0","method":%q}`, method)) }
	reply := frame(`{"jsonrpc":"2.0","id":"s1","result":null}`)
	// What VS Code sends on a keystroke, in one write.
	keystroke := note("change") + call(1, "long/completion") + call(2, "hover") + call(3, "long/tokens") + call(4, "long/hints") + call(5, "definition")
	for _, tt := range []struct {
		name string
		in   chunks
		want string
	}{
		{"one write", chunks{keystroke}, "change 2 5 1 3 4"},
		{"one write per message", chunks{note("change"), call(1, "long/completion"), call(2, "hover"), call(3, "long/tokens"), call(5, "definition")}, "change 1 2 3 5"},
		{"a notification between", chunks{call(1, "long/a") + call(2, "short") + note("cancel") + call(3, "short")}, "2 1 cancel 3"},
		{"a response between", chunks{call(1, "long/a") + reply + call(2, "short")}, "1 s1 2"},
		{"held at the end of input", chunks{call(1, "long/a") + call(2, "long/b")}, "1 2"},
		{"held before a frame cut short", chunks{call(1, "long/a") + call(2, "short") + "Content-Length: 90\r\n\r\n{"}, "2 1"},
		{"two batches", chunks{call(1, "long/a") + call(2, "short"), call(3, "long/b") + call(4, "short")}, "2 1 4 3"},
	} {
		s := newStream(&tt.in, &bytes.Buffer{}, slog.New(slog.DiscardHandler), 1<<16)
		s.waits = func(method string) bool { return strings.HasPrefix(method, "long/") }
		var got []string
		for {
			msg, _, err := s.Read(context.Background())
			if err != nil {
				break
			}
			switch m := msg.(type) {
			case *jsonrpc2.Call:
				got = append(got, strings.Trim(fmt.Sprint(m.ID()), `"`))
			case *jsonrpc2.Notification:
				got = append(got, m.Method())
			case *jsonrpc2.Response:
				got = append(got, strings.Trim(fmt.Sprint(m.ID()), `"`))
			}
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%s: read %q, want %q", tt.name, g, tt.want)
		}
	}
}
