package mcp

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestNewWorkspace: the folders a workspace is made of are real paths,
// each kept once, none inside another; Primitives.OpenWorkspace gets
// them, and its error refuses them.
func TestNewWorkspace(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(a, "inner"), 0o755); err != nil {
		t.Fatal(err)
	}
	var opened []string
	s := &Server{prims: Primitives{OpenWorkspace: func(folders []string) (any, error) {
		opened = folders
		if slices.Contains(folders, b) {
			return nil, errors.New("b refused")
		}
		return len(folders), nil
	}}}
	real := func(p string) string {
		r, err := filepath.EvalSymlinks(p)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	a, b = real(a), real(b)
	ws, err := s.newWorkspace([]string{a, filepath.Join(a, "inner"), a})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(ws.folders, " "); got != a || strings.Join(opened, " ") != a || ws.value != 1 {
		t.Errorf("folders %q, opened %q, value %v: want %s alone (nested and repeated ones dropped), value 1", got, opened, ws.value, a)
	}
	if _, err := s.newWorkspace([]string{a, b}); err == nil || !strings.Contains(err.Error(), "b refused") {
		t.Errorf("OpenWorkspace's error: got %v", err)
	}
	if _, err := s.newWorkspace([]string{filepath.Join(a, "missing")}); err == nil {
		t.Error("a missing folder was accepted")
	}
}

// TestCallWorkspace: a handler gets what Primitives.OpenWorkspace made of
// its call's folders; a server whose folder it refuses is not built.
func TestCallWorkspace(t *testing.T) {
	p := fixture()
	p.OpenWorkspace = func(folders []string) (any, error) { return "opened " + strings.Join(folders, ","), nil }
	p.Tools = append(p.Tools, &Tool{Name: "ws", Description: "answers its workspace",
		Call: func(ctx context.Context, c *Call) Result { return Result{Text: c.Workspace().(string)} }})
	h := start(t, Options{Primitives: &p})
	h.Initialize("2025-11-25")
	want := "opened " + h.Root
	if got := h.Call(1, "tools/call", `{"name":"ws"}`).Tool(t).Content[0].Text; got != want {
		t.Errorf("Call.Workspace = %q, want %q", got, want)
	}
	p.OpenWorkspace = func([]string) (any, error) { return nil, errors.New("no, thanks") }
	if _, err := New(Options{Root: t.TempDir(), Primitives: &p}); err == nil || !strings.Contains(err.Error(), "no, thanks") {
		t.Errorf("New with a refused folder: %v", err)
	}
}

// TestWithin: a folder holds itself and what is below it, the file
// system's root (`/`, which ends with the separator) included: a client
// whose root is file:/// had no file inside it but `/` itself.
func TestWithin(t *testing.T) {
	for _, tt := range []struct {
		p, dir string
		want   bool
	}{
		{"/a/b", "/a", true},
		{"/a", "/a", true},
		{"/ab", "/a", false},
		{"/a/b", "/", true},
		{"/", "/", true},
	} {
		if got := within(filepath.FromSlash(tt.p), filepath.FromSlash(tt.dir)); got != tt.want {
			t.Errorf("within(%q, %q) = %v, want %v", tt.p, tt.dir, got, tt.want)
		}
	}
}
