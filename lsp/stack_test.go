package lsp

import (
	"bytes"
	"fmt"
	"log/slog"
	"runtime"
	"runtime/metrics"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"wfl-lsp/core"
	"wfl-lsp/core/navigation"
	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/lang/token"
)

// TestGrowStack checks that growStack leaves its goroutine with a stack of
// readerStack or more, and allocates nothing: its frame stays on the
// stack (were it moved to the heap, the stack would not grow).
func TestGrowStack(t *testing.T) {
	if n := testing.AllocsPerRun(10, growStack); n != 0 {
		t.Errorf("growStack allocates %v times a call, want 0", n)
	}
	inUse := func() uint64 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.StackInuse
	}
	const n = 32
	var grown sync.WaitGroup
	release := make(chan struct{})
	before := inUse()
	for range n {
		grown.Add(1)
		go func() {
			growStack()
			grown.Done()
			<-release
		}()
	}
	grown.Wait()
	after := inUse()
	close(release)
	// Each holds readerStack or more; without growStack, a few KiB. The
	// stacks of other tests' goroutines may come and go meanwhile: half
	// is the bound.
	if after < before+n*readerStack/2 {
		t.Errorf("%d goroutines that called growStack hold %d bytes more of stacks, want at least %d", n, int64(after)-int64(before), n*readerStack/2)
	}
}

// TestReadGrowsTheNextReader checks when Read grows the stack after the
// read loop was handed over: in the goroutine that reads the client, not
// in one that only returns a message read before.
func TestReadGrowsTheNextReader(t *testing.T) {
	in := frame(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	s := newStream(strings.NewReader(in), &bytes.Buffer{}, slog.New(slog.DiscardHandler), 1<<16)
	held := jsonrpc2.NewCall(jsonrpc2.NewNumberID(1), "textDocument/completion", nil)
	s.ready = append(s.ready, held)
	s.handedOff.Store(true)
	if msg, _, err := s.Read(t.Context()); err != nil || msg != jsonrpc2.Message(held) {
		t.Fatalf("Read = %v, %v; want the message ready", msg, err)
	}
	if !s.handedOff.Load() {
		t.Errorf("the stack was grown by a Read that returned a message ready: the goroutine reading the client next keeps its small stack")
	}
	if _, _, err := s.Read(t.Context()); err != nil {
		t.Fatal(err)
	}
	if s.handedOff.Load() {
		t.Errorf("a Read that read the client did not grow its goroutine's stack")
	}
}

// BenchmarkReaderStack times what the read loop does on a keystroke before
// it answers a hover (the change applied, the diagnostics' state derived,
// the analysis at the cursor made, the hover: typingbench's keystroke of a
// 10,000-line document, one character typed into a call's arguments or
// deleted again) on a new goroutine each time, as the read loop is after a
// long request handed it over (stack.go). Each op is two keystrokes, one
// on a goroutine as it starts (fresh), one on a goroutine that grows its
// stack first (grown, growStack), in turns, so that both see the same
// load; the metrics are the p50 and p99 of each, in µs, from the start of
// its goroutine to the hover made. The diagnostics' list is made after,
// on the benchmark's goroutine, as the publisher does on its own.
//
//	go test -run '^$' -bench ReaderStack -benchtime 2000x ./lsp
func BenchmarkReaderStack(b *testing.B) {
	const chunk = (10000 + 11) / 12 / 2
	text := benchdoc.Clean(10000)
	call := fmt.Sprintf("display call sum_numbers_c%[1]d with total_c%[1]d and 1", chunk)
	at := strings.Index(text, call) + len(call)
	hover := strings.Index(text, call) + len("display call sum_")
	for _, scenario := range []struct{ name, typed string }{
		{"line", "+"},
		// typingbench's block scenario: a block's header and body typed by
		// hand after the call, its closer not typed.
		{"block", fmt.Sprintf("\ncheck if total_c%[1]d is greater than 3:\n    store bonus as total_c%[1]d plus 1\n"+
			"    display call sum_numbers_c%[1]d with bonus and total_c%[1]d", chunk)},
	} {
		// The keystrokes: typed one character at a time, then deleted.
		var edits []core.Edit
		var cursors []int
		for k := range len(scenario.typed) {
			edits = append(edits, core.Edit{Start: at + k, End: at + k, Text: scenario.typed[k : k+1]})
			cursors = append(cursors, at+k+1)
		}
		for k := len(scenario.typed); k > 0; k-- {
			edits = append(edits, core.Edit{Start: at + k - 1, End: at + k})
			cursors = append(cursors, at+k-1)
		}
		b.Run(scenario.name, func(b *testing.B) {
			ws := core.NewWorkspace()
			uri := core.URI("file:///bench/stack.wfl")
			s := ws.Open(uri, 1, text)
			s.Diagnostics()
			s.Analysis()
			var took [2][]time.Duration // fresh, grown
			k := 0
			keystroke := func(grow bool) {
				e, cursor := edits[k%len(edits)], cursors[k%len(edits)]
				k++
				done := make(chan error)
				go func() {
					began := time.Now()
					if grow {
						growStack()
					}
					next, err := ws.Change(uri, s.Version+1, e)
					if err == nil {
						next.Ready(token.Span{Start: cursor, End: cursor})
						if navigation.Hover(next.Query(token.Span{Start: hover, End: hover}), hover) == nil {
							err = fmt.Errorf("no hover at %d", hover)
						}
						s = next
					}
					i := 0
					if grow {
						i = 1
					}
					took[i] = append(took[i], time.Since(began))
					done <- err
				}()
				if err := <-done; err != nil {
					b.Fatal(err)
				}
				_, _, seq := s.TolerantSeq()
				for range seq {
				}
			}
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				keystroke(i%2 == 0)
				keystroke(i%2 == 1)
			}
			for i, name := range []string{"fresh", "grown"} {
				slices.Sort(took[i])
				n := len(took[i])
				b.ReportMetric(float64(took[i][n/2].Nanoseconds())/1e3, name+"-p50-µs")
				b.ReportMetric(float64(took[i][n*99/100].Nanoseconds())/1e3, name+"-p99-µs")
			}
			m := []metrics.Sample{{Name: "/gc/stack/starting-size:bytes"}}
			metrics.Read(m)
			b.ReportMetric(float64(m[0].Value.Uint64()), "start-stack-bytes")
		})
	}
}
