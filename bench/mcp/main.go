// Command mcpbench compares wfl-lsp's hand-rolled MCP server with mcp-go and
// the official Go SDK over stdio, each serving the same echo tool, and
// measures wfl-lsp's static answers and parse_wfl on a 1,000-line program.
//
// It is its own module so that the peers stay out of the product's go.mod.
// One binary holds all three servers: the driver starts itself as
// `mcpbench server NAME` for each, so every server is built by the same
// compiler with the same flags.
//
//	cd bench/mcp && go run . [-rounds 3] [-calls 50000] [-window 64]
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"wfl-lsp/mcpserver"
)

func main() {
	if len(os.Args) >= 3 && os.Args[1] == "server" {
		if err := serve(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	rounds := flag.Int("rounds", 3, "rounds; servers rotate order each round; the median is reported")
	calls := flag.Int("calls", 50000, "pipelined echo calls per run")
	seq := flag.Int("seq", 3000, "sequential calls per run (round-trip latency)")
	window := flag.Int("window", 64, "requests in flight")
	flag.Parse()
	if err := drive(*rounds, *calls, *seq, *window); err != nil {
		fmt.Fprintln(os.Stderr, "mcpbench:", err)
		os.Exit(1)
	}
}

// ---- the three servers ----

type echoArgs struct {
	Text string `json:"text"`
}

func serve(name string) error {
	ctx := context.Background()
	switch name {
	case "wfl-lsp":
		root, _ := os.Getwd()
		// The echo tool is declared like WFL's own tools, without an input
		// schema (as the peers' echo is not validated either).
		prims := mcpserver.WFL()
		prims.Tools = append(prims.Tools, &mcpserver.Tool{Name: "echo", Description: "echoes text",
			Call: func(ctx context.Context, c *mcpserver.Call) mcpserver.Result {
				var a echoArgs
				if err := json.Unmarshal(c.Arguments, &a); err != nil {
					return mcpserver.Failed(err)
				}
				return mcpserver.Result{Text: a.Text}
			}})
		return mcpserver.ServeStdio(ctx, os.Stdin, os.Stdout, mcpserver.Options{Root: root, Version: "bench", Primitives: &prims})
	case "mcp-go":
		s := mcpgoserver.NewMCPServer("echo", "1.0.0")
		s.AddTool(mcpgo.NewTool("echo", mcpgo.WithString("text", mcpgo.Required())),
			func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
				text, err := req.RequireString("text")
				if err != nil {
					return mcpgo.NewToolResultError(err.Error()), nil
				}
				return mcpgo.NewToolResultText(text), nil
			})
		return mcpgoserver.ServeStdio(s)
	case "go-sdk":
		s := sdk.NewServer(&sdk.Implementation{Name: "echo", Version: "1.0.0"}, nil)
		s.AddTool(&sdk.Tool{Name: "echo", InputSchema: map[string]any{
			"type": "object", "properties": map[string]any{"text": map[string]any{"type": "string"}}, "required": []string{"text"},
		}}, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
			var a echoArgs
			if err := json.Unmarshal(req.Params.Arguments, &a); err != nil {
				return nil, err
			}
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: a.Text}}}, nil
		})
		return s.Run(ctx, &sdk.StdioTransport{})
	}
	return fmt.Errorf("unknown server %q", name)
}

// ---- the driver ----

// proc is one server process and a raw line client for it.
type proc struct {
	cmd *exec.Cmd
	in  *bufio.Writer
	inC io.WriteCloser
	out *bufio.Reader
}

func spawn(name string, env ...string) (*proc, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "server", name)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = io.Discard
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{cmd: cmd, in: bufio.NewWriterSize(in, 64<<10), inC: in, out: bufio.NewReaderSize(out, 1<<20)}
	p.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcpbench","version":"1"}}}`)
	p.in.Flush()
	if _, err := p.out.ReadBytes('\n'); err != nil {
		return nil, fmt.Errorf("%s: initialize: %w", name, err)
	}
	p.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p, nil
}

func (p *proc) send(line string) { p.in.WriteString(line); p.in.WriteByte('\n') }

// stop closes stdin, waits, and returns the child's CPU time and max RSS.
func (p *proc) stop() (cpu time.Duration, rssKB int64) {
	p.inC.Close()
	done := make(chan struct{})
	go func() { p.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		p.cmd.Process.Signal(syscall.SIGTERM)
		<-done
	}
	if ru, ok := p.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		cpu = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		rssKB = ru.Maxrss
	}
	return cpu, rssKB
}

func echoCall(id int, text string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":%q}}}`, id, text)
}

// response is the part of an answer the driver checks.
type response struct {
	ID     int             `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  json.RawMessage `json:"error"`
}

// pipelined runs n calls (ids from first) with window in flight and returns
// each call's latency. Every answer must echo its payload.
func (p *proc) pipelined(first, n, window int, call func(id int) string, want func(id int) string) ([]time.Duration, time.Duration, error) {
	sent := make([]time.Time, n)
	lat := make([]time.Duration, n)
	tokens := make(chan struct{}, window)
	for i := 0; i < window; i++ {
		tokens <- struct{}{}
	}
	errc := make(chan error, 1)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for got := 0; got < n; got++ {
			line, err := p.out.ReadBytes('\n')
			if err != nil {
				errc <- fmt.Errorf("reading answer %d of %d: %w", got, n, err)
				return
			}
			now := time.Now()
			var r response
			if err := json.Unmarshal(line, &r); err != nil || r.Error != nil {
				errc <- fmt.Errorf("bad answer: %s", line)
				return
			}
			i := r.ID - first
			if i < 0 || i >= n || !bytes.Contains(r.Result, []byte(want(r.ID))) {
				errc <- fmt.Errorf("unexpected answer: %.200s", line)
				return
			}
			lat[i] = now.Sub(sent[i])
			tokens <- struct{}{}
		}
		errc <- nil
	}()
	start := time.Now()
	for i := 0; i < n; i++ {
		select {
		case <-tokens:
		default:
			p.in.Flush()
			select {
			case <-tokens:
			case err := <-errc:
				return nil, 0, err
			}
		}
		sent[i] = time.Now()
		p.send(call(first + i))
	}
	p.in.Flush()
	err := <-errc
	elapsed := time.Since(start)
	wg.Wait()
	return lat, elapsed, err
}

type runResult struct {
	seqP50, pipeP50, pipeP99, listP50 time.Duration
	callsPerSec                       float64
	cpuPerCall                        time.Duration
	rssMB                             float64
}

func runServer(name string, calls, seq, window int) (runResult, error) {
	var res runResult
	p, err := spawn(name)
	if err != nil {
		return res, err
	}
	payload := func(id int) string { return fmt.Sprintf("payload-%d", id) }
	echo := func(id int) string { return echoCall(id, payload(id)) }
	wantEcho := func(id int) string { return `"text":"` + payload(id) + `"` }
	total := 0
	// warm-up
	if _, _, err := p.pipelined(1, 2000, window, echo, wantEcho); err != nil {
		return res, fmt.Errorf("%s warm-up: %w", name, err)
	}
	total += 2000
	lat, _, err := p.pipelined(10_000, seq, 1, echo, wantEcho)
	if err != nil {
		return res, fmt.Errorf("%s seq: %w", name, err)
	}
	total += seq
	res.seqP50 = pct(lat, 50)
	list := func(id int) string { return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, id) }
	lat, _, err = p.pipelined(20_000, seq, 1, list, func(int) string { return `"tools"` })
	if err != nil {
		return res, fmt.Errorf("%s tools/list: %w", name, err)
	}
	total += seq
	res.listP50 = pct(lat, 50)
	lat, elapsed, err := p.pipelined(100_000, calls, window, echo, wantEcho)
	if err != nil {
		return res, fmt.Errorf("%s pipelined: %w", name, err)
	}
	total += calls
	res.callsPerSec = float64(calls) / elapsed.Seconds()
	res.pipeP50, res.pipeP99 = pct(lat, 50), pct(lat, 99)
	cpu, rss := p.stop()
	res.cpuPerCall = cpu / time.Duration(total)
	res.rssMB = float64(rss) / 1024
	return res, nil
}

func pct(d []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s) == 0 {
		return 0
	}
	return s[min(len(s)-1, len(s)*p/100)]
}

func drive(rounds, calls, seq, window int) error {
	servers := []string{"wfl-lsp", "mcp-go", "go-sdk"}
	results := map[string][]runResult{}
	for r := 0; r < rounds; r++ {
		for i := range servers {
			name := servers[(i+r)%len(servers)]
			res, err := runServer(name, calls, seq, window)
			if err != nil {
				return err
			}
			results[name] = append(results[name], res)
			fmt.Fprintf(os.Stderr, "round %d %-8s %8.0f calls/s\n", r+1, name, res.callsPerSec)
		}
	}
	fmt.Printf("MCP over stdio, echo tool, %d pipelined calls with %d in flight, %d sequential; median of %d rounds\n", calls, window, seq, rounds)
	fmt.Printf("machine: %d CPUs, GOMAXPROCS %d, %s\n\n", runtime.NumCPU(), runtime.GOMAXPROCS(0), runtime.Version())
	fmt.Println("| server | calls/s (64 in flight) | p50 | p99 | CPU per call | seq round trip p50 | tools/list round trip p50 (answer size differs) | max RSS |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	med := map[string]runResult{}
	for _, name := range servers {
		m := median(results[name])
		med[name] = m
		fmt.Printf("| %s | %.0f | %v | %v | %v | %v | %v | %.1f MB |\n", name, m.callsPerSec, round(m.pipeP50), round(m.pipeP99),
			round(m.cpuPerCall), round(m.seqP50), round(m.listP50), m.rssMB)
	}
	fmt.Printf("\nwfl-lsp / mcp-go calls/s: %.2fx; wfl-lsp / go-sdk: %.2fx\n",
		med["wfl-lsp"].callsPerSec/med["mcp-go"].callsPerSec, med["wfl-lsp"].callsPerSec/med["go-sdk"].callsPerSec)
	return ours()
}

func median(rs []runResult) runResult {
	pick := func(f func(runResult) float64) float64 {
		v := make([]float64, len(rs))
		for i, r := range rs {
			v[i] = f(r)
		}
		sort.Float64s(v)
		return v[len(v)/2]
	}
	d := func(f func(runResult) time.Duration) time.Duration {
		return time.Duration(pick(func(r runResult) float64 { return float64(f(r)) }))
	}
	return runResult{
		callsPerSec: pick(func(r runResult) float64 { return r.callsPerSec }),
		pipeP50:     d(func(r runResult) time.Duration { return r.pipeP50 }),
		pipeP99:     d(func(r runResult) time.Duration { return r.pipeP99 }),
		seqP50:      d(func(r runResult) time.Duration { return r.seqP50 }),
		listP50:     d(func(r runResult) time.Duration { return r.listP50 }),
		cpuPerCall:  d(func(r runResult) time.Duration { return r.cpuPerCall }),
		rssMB:       pick(func(r runResult) float64 { return r.rssMB }),
	}
}

func round(d time.Duration) time.Duration {
	switch {
	case d > time.Millisecond:
		return d.Round(10 * time.Microsecond)
	case d > 10*time.Microsecond:
		return d.Round(time.Microsecond)
	}
	return d.Round(100 * time.Nanosecond)
}

// ours measures wfl-lsp alone: static answers served in process (no pipe
// between processes, so the number is the server's own work plus two
// goroutine hand-offs), and the parse and analyze tools on a 1,000-line program.
func ours() error {
	fmt.Println()
	root, _ := os.Getwd()
	s, err := mcpserver.New(mcpserver.Options{Root: root, Version: "bench"})
	if err != nil {
		return err
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go s.ServeStream(context.Background(), inR, outW)
	// A reader that holds the largest answer (tools/list, 57 KB): with
	// bufio's 4 KB, ReadBytes gathered it in 15 pieces and copied them
	// again, the client's work counted as the server's.
	out := bufio.NewReaderSize(outR, 1<<20)
	roundTrip := func(line string) (time.Duration, []byte, error) {
		start := time.Now()
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			return 0, nil, err
		}
		ans, err := out.ReadBytes('\n')
		return time.Since(start), ans, err
	}
	fmt.Println("| wfl-lsp request (in process) | p50 | p99 | answer bytes |")
	fmt.Println("|---|---|---|---|")
	for _, c := range []struct{ name, line string }{
		{"ping", `{"jsonrpc":"2.0","id":1,"method":"ping"}`},
		{"tools/list", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`},
		{"prompts/list", `{"jsonrpc":"2.0","id":1,"method":"prompts/list"}`},
		{"resources/templates/list", `{"jsonrpc":"2.0","id":1,"method":"resources/templates/list"}`},
		{"server/discover (2026-07-28)", `{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`},
	} {
		var lat []time.Duration
		var size int
		for i := 0; i < 20000; i++ {
			d, ans, err := roundTrip(c.line)
			if err != nil {
				return err
			}
			lat = append(lat, d)
			size = len(ans)
		}
		fmt.Printf("| %s | %v | %v | %d |\n", c.name, round(pct(lat, 50)), round(pct(lat, 99)), size)
	}
	src := program(1000)
	for _, tool := range []string{"parse_wfl", "analyze_wfl"} {
		line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
			"params": map[string]any{"name": tool, "arguments": map[string]any{"source": src}}})
		var lat []time.Duration
		var size int
		for i := 0; i < 300; i++ {
			d, ans, err := roundTrip(string(line))
			if err != nil {
				return err
			}
			if bytes.Contains(ans, []byte(`"error":{"code"`)) || bytes.Contains(ans, []byte(`"valid":false`)) {
				lat = nil
				fmt.Printf("| %s, 1,000-line program | not available: %.120s |  |  |\n", tool, ans)
				break
			}
			lat = append(lat, d)
			size = len(ans)
		}
		if lat != nil {
			fmt.Printf("| %s, 1,000-line program (%d KB) | %v | %v | %d |\n", tool, len(src)/1024, round(pct(lat, 50)), round(pct(lat, 99)), size)
		}
	}
	inW.Close()
	return nil
}

// program returns a valid WFL program of about n lines.
func program(n int) string {
	var b strings.Builder
	for i := 0; b.Len() == 0 || strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, "define action called add_%d with a and b:\n    store total_%d as a plus b\n    give back total_%d\nend action\n", i, i, i)
		fmt.Fprintf(&b, "store value_%d as add_%d of %d and %d\n", i, i, i, i+1)
		fmt.Fprintf(&b, "check if value_%d is greater than 10:\n    display \"big \" with value_%d\notherwise:\n    display \"small\"\nend check\n", i, i)
		fmt.Fprintf(&b, "create list items_%d:\nend list\nadd value_%d to items_%d\nfor each item in items_%d:\n    display item\nend for\n", i, i, i, i)
	}
	return b.String()
}
