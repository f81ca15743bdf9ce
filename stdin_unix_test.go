//go:build unix

package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestIncludeOfStdinInTheServer runs the language server as a process,
// whose standard input is the protocol's pipe, and opens a document that
// includes /dev/stdin: the include is reported on its line, and hover and
// shutdown are answered (the server used to read its own input there).
func TestIncludeOfStdinInTheServer(t *testing.T) {
	p := startServer(t, nil)
	defer p.cmd.Process.Kill()
	msgs := make(chan map[string]any, 100)
	go func() {
		defer close(msgs)
		for {
			body, err := p.next()
			if err != nil {
				return
			}
			var m map[string]any
			json.Unmarshal(body, &m)
			msgs <- m
		}
	}()
	send := func(m map[string]any) { p.send(t, m) }
	await := func(what string, match func(map[string]any) bool) map[string]any {
		t.Helper()
		timeout := time.After(20 * time.Second)
		for {
			select {
			case m, ok := <-msgs:
				if !ok {
					t.Fatalf("the server stopped before %s", what)
				}
				if match(m) {
					return m
				}
			case <-timeout:
				t.Fatalf("%s never came: the server reads its own input", what)
			}
		}
	}
	response := func(id float64) func(map[string]any) bool {
		return func(m map[string]any) bool { return m["id"] == id && m["method"] == nil }
	}
	uri := "file://" + filepath.ToSlash(filepath.Join(t.TempDir(), "main.wfl"))
	send(map[string]any{"id": 1, "method": "initialize", "params": map[string]any{"processId": nil, "rootUri": nil, "capabilities": map[string]any{}}})
	await("initialize's answer", response(1))
	send(map[string]any{"method": "initialized", "params": map[string]any{}})
	send(map[string]any{"method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "wfl", "version": 1, "text": "include from \"/dev/stdin\"\nstore x as 1\ndisplay x\n"}}})
	diags := await("the diagnostics", func(m map[string]any) bool { return m["method"] == "textDocument/publishDiagnostics" })
	if b, _ := json.Marshal(diags); !strings.Contains(string(b), "/dev/stdin is") || !strings.Contains(string(b), "not a regular file") {
		t.Errorf("the include of /dev/stdin is not reported as not a regular file: %s", b)
	}
	send(map[string]any{"id": 2, "method": "textDocument/hover", "params": map[string]any{"textDocument": map[string]any{"uri": uri}, "position": map[string]any{"line": 1, "character": 6}}})
	await("hover's answer", response(2))
	send(map[string]any{"id": 3, "method": "shutdown"})
	await("shutdown's answer", response(3))
	send(map[string]any{"method": "exit"})
	p.in.Close()
	p.cmd.Wait()
}
