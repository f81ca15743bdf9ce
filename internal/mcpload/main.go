// Command mcpload drives many MCP clients at one Streamable HTTP endpoint,
// for the test of several wfl-lsp instances behind a proxy
// (.ci/mcp-nginx.sh). It is never part of wfl-lsp.
//
//	mcpload stateless -url U [-clients 16] [-calls 5000]
//	mcpload sessions  -url U [-clients 16] [-sessions 100] [-calls 20]
//	mcpload failover  -url U -stop-pid PID -stop-instance NAME [-signal TERM|KILL] ...
//
// stateless sends 2026-07-28 tools/call requests (analyze_wfl on a
// workspace file) from -clients goroutines; sessions opens handshake-era
// sessions (initialize, initialized, -calls tools/call, DELETE); failover
// holds sessions, runs stateless load, stops the instance -stop-pid after
// a third of the calls, then checks that each held session still works
// (the instances share a session key: the other takes up the stopped
// one's sessions). Each
// mode prints "name=value" figures and exits 1 when a call failed that
// should not have.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

var client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}, Timeout: 60 * time.Second}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: mcpload stateless|sessions|failover [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	url := fs.String("url", "", "the MCP endpoint")
	clients := fs.Int("clients", 16, "clients at once")
	calls := fs.Int("calls", 5000, "stateless calls (stateless, failover); calls per session (sessions)")
	sessions := fs.Int("sessions", 100, "sessions (sessions, failover)")
	path := fs.String("path", "hello.wfl", "workspace file analyze_wfl reads")
	pid := fs.Int("stop-pid", 0, "failover: the instance to stop")
	inst := fs.String("stop-instance", "", "failover: its instance name (session id prefix)")
	sig := fs.String("signal", "TERM", "failover: TERM or KILL")
	fs.Parse(os.Args[2:])
	var ok bool
	switch os.Args[1] {
	case "stateless":
		ok = stateless(*url, *clients, *calls, *path, nil)
	case "sessions":
		ok = runSessions(*url, *clients, *sessions, *calls, *path)
	case "failover":
		ok = failover(*url, *clients, *calls, *sessions, *path, *pid, *inst, *sig)
	default:
		fmt.Fprintln(os.Stderr, "mcpload: unknown mode", os.Args[1])
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}

const modern = "2026-07-28"

// post sends one JSON-RPC message and returns the status, the session id
// header and the last JSON-RPC message of the body (JSON or event stream).
func post(url, sid string, headers map[string]string, body string) (int, string, map[string]any, error) {
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if sid != "" {
		req.Header.Set("Mcp-Session-Id", sid)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, "", nil, err
	}
	var last map[string]any
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, line := range strings.Split(string(b), "\n") {
			if d, ok := strings.CutPrefix(line, "data: "); ok {
				var m map[string]any
				if json.Unmarshal([]byte(d), &m) == nil {
					last = m
				}
			}
		}
	} else if len(bytes.TrimSpace(b)) > 0 {
		json.Unmarshal(b, &last)
	}
	return resp.StatusCode, resp.Header.Get("Mcp-Session-Id"), last, nil
}

// callOK reports whether a tools/call answer is a successful result.
func callOK(status int, m map[string]any, err error) error {
	switch {
	case err != nil:
		return err
	case status != 200:
		return fmt.Errorf("HTTP %d", status)
	case m == nil:
		return errors.New("no answer")
	case m["error"] != nil:
		return fmt.Errorf("error %v", m["error"])
	}
	res, _ := m["result"].(map[string]any)
	if res == nil || res["isError"] == true {
		return fmt.Errorf("isError result %v", m["result"])
	}
	return nil
}

func statelessCall(url, path string, id int) error {
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"mcpload","version":"1"}}`
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"analyze_wfl","arguments":{"path":%q},%s}}`, id, path, meta)
	st, _, m, err := post(url, "", map[string]string{"MCP-Protocol-Version": modern, "Mcp-Method": "tools/call", "Mcp-Name": "analyze_wfl"}, body)
	return callOK(st, m, err)
}

// stateless runs calls stateless calls from clients goroutines; after the
// call numbered at (if any) it runs then() once.
func stateless(url string, clients, calls int, path string, at *trigger) bool {
	var next, failed atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	var after time.Duration // slowest call that started once the trigger fired
	var wg sync.WaitGroup
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				n := int(next.Add(1))
				if n > calls {
					return
				}
				t0 := time.Now()
				fired := at != nil && at.fired.Load()
				err := statelessCall(url, path, n)
				d := time.Since(t0)
				if err != nil {
					failed.Add(1)
					fmt.Fprintf(os.Stderr, "mcpload: call %d: %v\n", n, err)
				}
				mu.Lock()
				lat = append(lat, d)
				if fired {
					after = max(after, d)
				}
				mu.Unlock()
				if at != nil && n == at.n {
					at.fire()
				}
			}
		}()
	}
	wg.Wait()
	el := time.Since(start)
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	fmt.Printf("stateless: calls=%d errors=%d clients=%d seconds=%.1f p50_ms=%.1f max_ms=%.1f", calls, failed.Load(), clients,
		el.Seconds(), ms(lat[len(lat)/2]), ms(lat[len(lat)-1]))
	if at != nil {
		fmt.Printf(" slowest_after_stop_ms=%.1f", ms(after))
	}
	fmt.Println()
	return failed.Load() == 0
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

type trigger struct {
	n     int
	once  sync.Once
	fired atomic.Bool
	f     func()
}

func (t *trigger) fire() { t.once.Do(func() { t.f(); t.fired.Store(true) }) }

// session is one handshake-era session.
type session struct {
	url, id string
}

func open(url string) (*session, error) {
	st, sid, m, err := post(url, "", nil, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"mcpload","version":"1"}}}`)
	if err != nil || st != 200 || sid == "" || m == nil || m["result"] == nil {
		return nil, fmt.Errorf("initialize: HTTP %d, session %q, %v %v", st, sid, m, err)
	}
	s := &session{url: url, id: sid}
	if st, _, _, err := post(url, sid, map[string]string{"MCP-Protocol-Version": "2025-11-25"}, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil || st != 202 {
		return nil, fmt.Errorf("notifications/initialized: HTTP %d %v", st, err)
	}
	return s, nil
}

func (s *session) call(id int, path string) (int, error) {
	body := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"analyze_wfl","arguments":{"path":%q}}}`, id, path)
	st, _, m, err := post(s.url, s.id, map[string]string{"MCP-Protocol-Version": "2025-11-25"}, body)
	return st, callOK(st, m, err)
}

func (s *session) close() {
	req, _ := http.NewRequest(http.MethodDelete, s.url, nil)
	req.Header.Set("Mcp-Session-Id", s.id)
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
	}
}

// runSessions opens n sessions, calls calls tools in each, ends them.
func runSessions(url string, clients, n, calls int, path string) bool {
	var next, good, failed atomic.Int64
	var mu sync.Mutex
	byInstance := map[string]int{}
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for int(next.Add(1)) <= n {
				s, err := open(url)
				if err != nil {
					failed.Add(1)
					fmt.Fprintln(os.Stderr, "mcpload:", err)
					continue
				}
				ok := true
				for i := 1; i <= calls; i++ {
					if _, err := s.call(i, path); err != nil {
						ok = false
						fmt.Fprintf(os.Stderr, "mcpload: session %s call %d: %v\n", s.id, i, err)
						break
					}
				}
				s.close()
				inst, _, _ := strings.Cut(s.id, ".")
				mu.Lock()
				byInstance[inst]++
				mu.Unlock()
				if ok {
					good.Add(1)
				} else {
					failed.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	fmt.Printf("sessions: sessions=%d working=%d failed=%d calls_each=%d by_instance=%v\n", n, good.Load(), failed.Load(), calls, byInstance)
	return failed.Load() == 0
}

// failover holds sessions, runs stateless load, stops one instance a
// third of the way through, and checks the sessions it held.
func failover(url string, clients, calls, n int, path string, pid int, inst, sig string) bool {
	var held []*session
	for range n {
		s, err := open(url)
		if err != nil {
			fmt.Fprintln(os.Stderr, "mcpload:", err)
			return false
		}
		held = append(held, s)
	}
	signal := syscall.SIGTERM
	if sig == "KILL" {
		signal = syscall.SIGKILL
	}
	// Right after the stop, a new client opens a session and calls a tool,
	// again until it works: the time that takes is the recovery time.
	recovered := make(chan time.Duration, 1)
	t := &trigger{n: calls / 3, f: func() {
		stopped := time.Now()
		if err := syscall.Kill(pid, signal); err != nil {
			fmt.Fprintln(os.Stderr, "mcpload: stopping the instance:", err)
		}
		go func() {
			for time.Since(stopped) < 30*time.Second {
				if s, err := open(url); err == nil {
					if _, err := s.call(1, path); err == nil {
						recovered <- time.Since(stopped)
						return
					}
				}
				time.Sleep(10 * time.Millisecond)
			}
			recovered <- -1
		}()
	}}
	ok := stateless(url, clients, calls, path, t)
	// The sessions of the stopped instance are taken up by the other (the
	// instances share a session key); the others go on working; a new
	// session works at once.
	var gone, goneOK, alive, aliveOK int
	for i, s := range held {
		st, err := s.call(100+i, path)
		if strings.HasPrefix(s.id, inst+".") {
			gone++
			if err == nil {
				goneOK++
			} else {
				fmt.Fprintf(os.Stderr, "mcpload: session %s of the stopped instance: HTTP %d %v\n", s.id, st, err)
			}
		} else {
			alive++
			if err == nil {
				aliveOK++
			} else {
				fmt.Fprintf(os.Stderr, "mcpload: session %s: %v\n", s.id, err)
			}
		}
	}
	recovery := <-recovered
	newOK := recovery >= 0
	fmt.Printf("failover: signal=%s held_sessions=%d on_stopped=%d taken_up=%d others=%d others_working=%d new_session_works=%v recovery_ms=%.1f\n",
		sig, len(held), gone, goneOK, alive, aliveOK, newOK, ms(recovery))
	return ok && gone > 0 && goneOK == gone && aliveOK == alive && newOK
}
