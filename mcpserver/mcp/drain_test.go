package mcp

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedSink keeps the lines a session writes.
type lockedSink struct {
	mu    sync.Mutex
	lines []string
}

func (s *lockedSink) send(line []byte) {
	s.mu.Lock()
	s.lines = append(s.lines, string(line))
	s.mu.Unlock()
}

// TestDrainAnswersTheQueue: when the input ends, every request read is
// answered, the ones queued behind busy workers too, however long the
// queue takes in all, as long as requests keep finishing; drain gives up
// only on a handler that does not finish within grace. Before, the queue
// was cut grace after the end: 250 piped check_workspace calls, 174
// answered.
func TestDrainAnswersTheQueue(t *testing.T) {
	const step, grace, n = 20 * time.Millisecond, 100 * time.Millisecond, 20
	slow := &Tool{Name: "slow", Description: "takes a step", Call: func(ctx context.Context, c *Call) Result {
		time.Sleep(step)
		return Result{Text: "done"}
	}}
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	stuck := &Tool{Name: "stuck", Description: "does not end while the test runs", Call: func(ctx context.Context, c *Call) Result {
		<-release
		return Result{Text: "released"}
	}}
	s, err := New(Options{Root: t.TempDir(), Workers: 1, CallTimeout: time.Hour, Primitives: withTools(slow, stuck)})
	if err != nil {
		t.Fatal(err)
	}
	sink := &lockedSink{}
	c := newConn(context.Background(), s, sink)
	for i := range n { // n steps of one worker: four times grace
		c.handleLine(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"slow"}}`, i))
	}
	c.drain(grace)
	sink.mu.Lock()
	answered := len(sink.lines)
	sink.mu.Unlock()
	if answered != n {
		t.Errorf("%d of the %d requests read before the end answered", answered, n)
	}

	// A handler that never finishes is given up grace after the last one.
	sink = &lockedSink{}
	c = newConn(context.Background(), s, sink)
	c.handleLine([]byte(`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"stuck"}}`))
	ended := make(chan struct{})
	go func() { c.drain(grace); close(ended) }()
	select {
	case <-ended:
	case <-time.After(guard):
		t.Fatal("drain waited for a handler that never finishes")
	}
	if len(sink.lines) != 0 && !strings.Contains(sink.lines[0], `"id":"x"`) {
		t.Errorf("unexpected %s", sink.lines)
	}
}
