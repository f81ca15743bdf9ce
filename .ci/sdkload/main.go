// Command sdkload drives wfl-lsp over Streamable HTTP with real SDK
// clients, for .ci/mcp-nginx.sh. It is never part of wfl-lsp and has a
// module of its own, so that wfl-lsp does not depend on the SDKs.
//
//	sdkload restart -url U -stop-pid PID [-signal TERM|KILL] [-clients 16] [-calls 5000] [-stop-at 1500]
//	sdkload matrix -bin WFL_LSP -root WORKSPACE
//
// restart opens -clients sessions of the official Go SDK's client in the
// handshake era (2025-11-25), which never starts a new session on its
// own, shares -calls tools/call requests (analyze_wfl on hello.wfl) among
// them, and stops the instance -stop-pid with the signal after -stop-at
// calls. It prints the figures and exits 1 when more calls failed than
// could have been in flight on the stopped instance (one a client).
//
// matrix runs the official Go SDK's client and mcp-go's over stdio and
// HTTP in both eras, with a restart of the HTTP server under each
// (matrix.go); the workspace must hold hello.wfl, which stores greeting.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] != "restart" && os.Args[1] != "matrix" {
		fmt.Fprintln(os.Stderr, "usage: sdkload restart -url U -stop-pid PID [-signal TERM|KILL] [-clients N] [-calls N] [-stop-at N]")
		fmt.Fprintln(os.Stderr, "       sdkload matrix -bin WFL_LSP -root WORKSPACE")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	url := fs.String("url", "", "the MCP endpoint")
	clients := fs.Int("clients", 16, "sessions, one client each")
	calls := fs.Int("calls", 5000, "tools/call requests in all")
	stopAt := fs.Int("stop-at", 1500, "stop the instance after this many calls")
	pid := fs.Int("stop-pid", 0, "the instance to stop")
	sig := fs.String("signal", "TERM", "TERM or KILL")
	bin := fs.String("bin", "", "matrix: the wfl-lsp binary")
	root := fs.String("root", "", "matrix: the workspace")
	fs.Parse(os.Args[2:])
	ok := false
	if os.Args[1] == "matrix" {
		ok = matrix(*bin, *root)
	} else {
		ok = restart(*url, *clients, *calls, *stopAt, *pid, *sig)
	}
	if !ok {
		os.Exit(1)
	}
}

func restart(url string, clients, calls, stopAt, pid int, sig string) bool {
	ctx := context.Background()
	signal := syscall.SIGTERM
	if sig == "KILL" {
		signal = syscall.SIGKILL
	}
	var sessions []*mcp.ClientSession
	for i := range clients {
		c := mcp.NewClient(&mcp.Implementation{Name: "sdkload", Version: "1"}, nil)
		cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
		if err != nil {
			fmt.Fprintf(os.Stderr, "sdkload: client %d: connect: %v\n", i, err)
			return false
		}
		defer cs.Close()
		sessions = append(sessions, cs)
	}
	var started, done, failed atomic.Int64
	var stopOnce sync.Once
	var mu sync.Mutex
	errs := map[string]int{}
	var wg sync.WaitGroup
	for _, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for started.Add(1) <= int64(calls) {
				cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
				res, err := cs.CallTool(cctx, &mcp.CallToolParams{Name: "analyze_wfl", Arguments: map[string]any{"path": "hello.wfl"}})
				cancel()
				if err == nil && res.IsError {
					err = errors.New("isError result")
				}
				if err != nil {
					failed.Add(1)
					msg := err.Error()
					if len(msg) > 160 {
						msg = msg[:160]
					}
					mu.Lock()
					errs[msg]++
					mu.Unlock()
				}
				if done.Add(1) == int64(stopAt) {
					stopOnce.Do(func() {
						if err := syscall.Kill(pid, signal); err != nil {
							fmt.Fprintln(os.Stderr, "sdkload: stopping the instance:", err)
						}
					})
				}
			}
		}()
	}
	wg.Wait()
	var prefixes []string
	for _, cs := range sessions {
		id := cs.ID()
		if i := strings.IndexByte(id, '.'); i > 0 {
			prefixes = append(prefixes, id[:i])
		}
	}
	fmt.Printf("restart: signal=%s sdk=go-sdk sessions=%d calls=%d failed=%d stopped_at=%d session_instances=%v\n",
		sig, clients, calls, failed.Load(), stopAt, prefixes)
	for msg, n := range errs {
		fmt.Printf("  %d x %s\n", n, msg)
	}
	// At most one call a client can be in flight on the stopped instance.
	return failed.Load() <= int64(clients)
}
