package main

// BenchmarkServerDidChange measures what an editor waits for after a
// keystroke: the server runs as a process of its own (this test binary run
// again as `wfl-lsp --stdio`, so with main's runtime settings) and the
// client, here, times each didChange from writing it to having read the
// whole publishDiagnostics of that version. The client decodes the message
// after the clock stops: decoding thousands of diagnostics is the editor's
// work, done in its own process (lsp's BenchmarkDidChangeToDiagnostics, in
// one process, includes a Go client's decoding). first-byte-p50 is the
// median time to the answer's first byte: the server's own part, the rest
// being the transfer.
//
//	go test -run '^$' -bench ServerDidChange -benchtime 1000x .

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"wfl-lsp/internal/benchdoc"
)

func TestMain(m *testing.M) {
	if os.Getenv("WFL_LSP_TEST_SERVER") == "1" {
		// WFL_LSP_TEST_TRACE=FILE writes an execution trace of the server
		// process (go tool trace), WFL_LSP_TEST_CPUPROFILE=FILE profiles it,
		// WFL_LSP_TEST_MEMPROFILE=FILE writes what it allocated (go tool
		// pprof -sample_index=alloc_space).
		serve := func() int { return run([]string{"--stdio"}, os.Stdin, os.Stdout, os.Stderr) }
		profiles := []struct {
			env         string
			start, stop func(f *os.File)
		}{
			{"WFL_LSP_TEST_TRACE", func(f *os.File) { trace.Start(f) }, func(*os.File) { trace.Stop() }},
			{"WFL_LSP_TEST_CPUPROFILE", func(f *os.File) { pprof.StartCPUProfile(f) }, func(*os.File) { pprof.StopCPUProfile() }},
			{"WFL_LSP_TEST_MEMPROFILE", func(*os.File) {}, func(f *os.File) { pprof.Lookup("allocs").WriteTo(f, 0) }},
		}
		for _, p := range profiles {
			if path := os.Getenv(p.env); path != "" {
				if f, err := os.Create(path); err == nil {
					p.start(f)
					code := serve()
					p.stop(f)
					f.Close()
					os.Exit(code)
				}
			}
		}
		os.Exit(serve())
	}
	os.Exit(m.Run())
}

func BenchmarkServerDidChange(b *testing.B) {
	for _, clean := range []bool{true, false} {
		for _, lines := range []int{1000, 10000} {
			doc, name := benchdoc.Dense(lines), fmt.Sprintf("lines=%d", lines)
			if clean {
				doc, name = benchdoc.Clean(lines), "clean/"+name
			}
			b.Run(name, func(b *testing.B) { benchServerDidChange(b, doc) })
		}
	}
}

// lspProcess is a server process and the client's ends of its pipes.
type lspProcess struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader

	firstByte time.Time // when the last message read began to arrive
	body      []byte    // the last message read
}

// startServer starts this test binary as a language server over stdio,
// its log written to stderr (nil: discarded).
func startServer(tb testing.TB, stderr io.Writer) *lspProcess {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "WFL_LSP_TEST_SERVER=1")
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	return &lspProcess{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 1<<20)}
}

func (p *lspProcess) send(tb testing.TB, msg map[string]any) {
	msg["jsonrpc"] = "2.0"
	body, err := json.Marshal(msg)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := fmt.Fprintf(p.in, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		tb.Fatal(err)
	}
}

// read returns the body of the next message, valid until the next read.
func (p *lspProcess) read(tb testing.TB) []byte {
	body, err := p.next()
	if err != nil {
		tb.Fatal(err)
	}
	return body
}

// next returns the body of the next message, valid until the next call.
func (p *lspProcess) next() ([]byte, error) {
	p.out.Peek(1)
	p.firstByte = time.Now()
	n := -1
	for {
		line, err := p.out.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("reading a header: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	if n < 0 {
		return nil, errors.New("a frame without Content-Length")
	}
	// One buffer for every message: the client's garbage would make its
	// collector compete with the server for the machine's cores.
	if cap(p.body) < n {
		p.body = make([]byte, n)
	}
	body := p.body[:n]
	if _, err := io.ReadFull(p.out, body); err != nil {
		return nil, fmt.Errorf("reading a body of %d bytes: %w", n, err)
	}
	return body, nil
}

// diagnostics reads until the publishDiagnostics of version v and returns
// it undecoded. It finds the version without decoding the diagnostics: the
// server writes it before them.
func (p *lspProcess) diagnostics(b *testing.B, v int) []byte {
	want := []byte(`"version":` + strconv.Itoa(v) + `,`)
	for {
		body := p.read(b)
		if !bytes.Contains(body[:min(len(body), 200)], []byte(`"textDocument/publishDiagnostics"`)) {
			continue
		}
		if i := bytes.Index(body, []byte(`"diagnostics"`)); i >= 0 && bytes.Contains(body[:i], want) {
			return body
		}
	}
}

func benchServerDidChange(b *testing.B, text string) {
	p := startServer(b, os.Stderr)
	defer func() {
		p.send(b, map[string]any{"id": 2, "method": "shutdown"})
		p.send(b, map[string]any{"method": "exit"})
		p.in.Close()
		p.cmd.Wait()
	}()
	const uri = "file:///bench/doc.wfl"
	p.send(b, map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}})
	p.send(b, map[string]any{"method": "initialized", "params": map[string]any{}})
	p.send(b, map[string]any{"method": "textDocument/didOpen", "params": map[string]any{
		"textDocument": map[string]any{"uri": uri, "languageId": "wfl", "version": 1, "text": text}}})
	var was struct {
		Params struct{ Diagnostics []json.RawMessage }
	}
	if err := json.Unmarshal(p.diagnostics(b, 1), &was); err != nil {
		b.Fatal(err)
	}
	// Each change retypes the initial value of a `store total` in the
	// middle chunk, back and forth.
	at := strings.Index(text, " as 0\n")
	for k := 0; k < strings.Count(text, "\n")/24; k++ {
		at += 1 + strings.Index(text[at+1:], " as 0\n")
	}
	line := strings.Count(text[:at], "\n")
	col := at - (strings.LastIndex(text[:at], "\n") + 1) + len(" as ")
	samples := make([]time.Duration, 0, b.N)
	var firsts []time.Duration // to the first byte of the answer: the server's part
	type check struct {
		v    int
		body []byte
	}
	var checks []check
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := i + 2
		pos := func(c int) map[string]any { return map[string]any{"line": line, "character": c} }
		msg := map[string]any{"method": "textDocument/didChange", "params": map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": v},
			"contentChanges": []any{map[string]any{"range": map[string]any{"start": pos(col), "end": pos(col + 1)}, "text": strconv.Itoa(i % 10)}},
		}}
		start := time.Now()
		p.send(b, msg)
		body := p.diagnostics(b, v)
		samples = append(samples, time.Since(start))
		firsts = append(firsts, p.firstByte.Sub(start))
		if i%50 == 0 {
			checks = append(checks, check{v, bytes.Clone(body)})
		}
	}
	b.StopTimer()
	// After the clock, so that the client's work does not load the machine
	// the server runs on: the messages are whole and say what the first one
	// said (the edits change no finding).
	for _, c := range checks {
		var got struct {
			Params struct {
				Version     int
				Diagnostics []json.RawMessage
			}
		}
		if err := json.Unmarshal(c.body, &got); err != nil {
			b.Fatalf("publishDiagnostics does not decode: %v", err)
		}
		if got.Params.Version != c.v || len(got.Params.Diagnostics) != len(was.Params.Diagnostics) {
			b.Fatalf("version %d: %d diagnostics, want version %d and %d", got.Params.Version, len(got.Params.Diagnostics), c.v, len(was.Params.Diagnostics))
		}
	}
	slices.Sort(firsts)
	b.ReportMetric(float64(firsts[len(firsts)/2].Microseconds()), "first-byte-p50-µs")
	b.ReportMetric(float64(firsts[(len(firsts)-1)*99/100].Microseconds()), "first-byte-p99-µs")
	slices.Sort(samples)
	pct := func(q float64) float64 { return float64(samples[int(float64(len(samples)-1)*q)].Microseconds()) }
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.90), "p90-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
	b.ReportMetric(0, "ns/op")
}
