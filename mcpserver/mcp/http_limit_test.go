package mcp

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// serveRaw serves on a loopback port with cfg through serveListener (the
// HTTP server and its limits, as --http runs it) and returns the address.
func serveRaw(t *testing.T, opts Options, cfg httpConfig) string {
	t.Helper()
	opts.Root = testWorkspace(t)
	s, ln := listening(t, opts)
	cfg.checkHost = true
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serveListener(ctx, ln, s, cfg) }()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String()
}

// rawConn dials addr and writes head, a request's start.
func rawConn(t *testing.T, addr, head string) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := io.WriteString(c, head); err != nil {
		t.Fatal(err)
	}
	return c
}

// closedAfter reads c until the server closes it and returns the status
// of the answer it read first (0 for none). It fails the test if the
// server keeps the connection longer than the guard.
func closedAfter(t *testing.T, c net.Conn, what string) int {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	status := 0
	br := bufio.NewReader(c)
	if resp, err := http.ReadResponse(br, nil); err == nil {
		status = resp.StatusCode
		io.Copy(io.Discard, resp.Body)
	}
	if _, err := io.Copy(io.Discard, br); err != nil {
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("%s: the server still holds the connection", what)
		}
	}
	return status
}

// TestHTTPWithheldBodies opens connections that send a request's headers
// with a Content-Length and withhold the body, or never finish the
// headers: each is answered and closed, a request without the token at
// once (its body is not read), one with it when the body does not come in
// time. Before, such a connection was never closed: 10,000 of them held
// 10,008 files.
func TestHTTPWithheldBodies(t *testing.T) {
	const token = "a-token-of-enough-length"
	addr := serveRaw(t, Options{Token: token}, httpConfig{token: token,
		headerTimeout: 300 * time.Millisecond, bodyTimeout: 300 * time.Millisecond})
	post := "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n"
	for _, tt := range []struct {
		name, head string
		status     int
	}{
		{"no token", post + "\r\n{", http.StatusUnauthorized},
		{"a wrong token", post + "Authorization: Bearer nope\r\n\r\n", http.StatusUnauthorized},
		{"another path", strings.Replace(post, "/mcp", "/other", 1) + "\r\n", http.StatusNotFound},
		{"a foreign origin", post + "Origin: https://evil.example\r\n\r\n", http.StatusForbidden},
		{"the token, the body withheld", post + "Authorization: Bearer " + token + "\r\n\r\n{\"jsonrpc\"", http.StatusRequestTimeout},
		{"headers never finished", "POST /mcp HTTP/1.1\r\nHost: " + addr + "\r\n", 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := rawConn(t, addr, tt.head)
			if got := closedAfter(t, c, tt.name); got != tt.status && !(tt.status == 0 && got >= 400) {
				t.Errorf("answered %d, want %d", got, tt.status)
			}
		})
	}
	// A client that sends its request whole is answered, on a connection
	// that stays open for the next one.
	body := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	c := rawConn(t, addr, post[:strings.Index(post, "Content-Length")]+"Authorization: Bearer "+token+"\r\nMcp-Method: ping\r\nMCP-Protocol-Version: 2026-07-28\r\nContent-Length: "+strconv.Itoa(len(body))+"\r\n\r\n"+body)
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Close {
		t.Errorf("a whole request's connection is closed after its answer (%d)", resp.StatusCode)
	}
}

// TestHTTPConnectionCap holds as many connections as the cap allows: the
// next one is served only once one of them closes.
func TestHTTPConnectionCap(t *testing.T) {
	addr := serveRaw(t, Options{}, httpConfig{maxConns: 2, headerTimeout: time.Minute})
	held := []net.Conn{
		rawConn(t, addr, "GET /healthz HTTP/1.1\r\n"),
		rawConn(t, addr, "GET /healthz HTTP/1.1\r\n"),
	}
	health := "GET /healthz HTTP/1.1\r\nHost: " + addr + "\r\n\r\n"
	third := rawConn(t, addr, health)
	third.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	if n, _ := third.Read(make([]byte, 1)); n > 0 {
		t.Fatal("a third connection was served while two were held and the cap is two")
	}
	held[0].Close()
	third.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(third), nil)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("the third connection after one closed: %v %v", resp, err)
	}
}
