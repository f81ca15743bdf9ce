package mcp

// This file defines a session's workspace as the protocol sees it: the
// folders its handlers may read (Options.Root, or the current folder,
// narrowed by the client's roots; over stdio without Options.Root, the
// client's roots themselves, outgoing.go), and what Primitives.OpenWorkspace
// made of them for the primitives.

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
)

// A workspace is a list of folders, and the primitives' view of them. It
// is immutable once made.
type workspace struct {
	folders []string // real absolute paths, none inside another
	value   any      // Primitives.OpenWorkspace's result, or nil
}

// newWorkspace checks the folders (absolute or relative to the current
// folder), resolves their links, keeps each once and drops those inside
// another, then opens them for the primitives.
func (s *Server) newWorkspace(paths []string) (*workspace, error) {
	ws := &workspace{}
	seen := map[string]bool{}
	var all []string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", p, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", p, err)
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("root %s is not a folder", p)
		}
		if !seen[real] {
			seen[real] = true
			all = append(all, real)
		}
	}
	if len(all) == 0 {
		return nil, fmt.Errorf("no workspace folder")
	}
	// A folder inside another adds nothing: its files are listed already.
	for i, p := range all {
		nested := false
		for j, o := range all {
			if i != j && p != o && within(p, o) {
				nested = true
			}
		}
		if !nested {
			ws.folders = append(ws.folders, p)
		}
	}
	if open := s.prims.OpenWorkspace; open != nil {
		v, err := open(ws.folders)
		if err != nil {
			return nil, fmt.Errorf("root %s: %w", ws, err)
		}
		ws.value = v
	}
	return ws, nil
}

// narrow returns the folders of paths (a client's roots) that lie inside
// the workspace, and the workspace's own folders that lie inside one of
// them: a client's roots can narrow the workspace, never widen it.
func (ws *workspace) narrow(paths []string) []string {
	var out []string
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		if ws.inside(abs) {
			out = append(out, abs)
			continue
		}
		for _, f := range ws.folders {
			if f != abs && within(f, abs) {
				out = append(out, f)
			}
		}
	}
	return out
}

// within reports whether the clean absolute path p is dir or below it
// (dir may be the root, `/`, which ends with the separator).
func within(p, dir string) bool {
	sep := string(filepath.Separator)
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, sep)+sep)
}

// inside reports whether the clean absolute path p is a folder of the
// workspace or below one.
func (ws *workspace) inside(p string) bool {
	for _, f := range ws.folders {
		if within(p, f) {
			return true
		}
	}
	return false
}

// String names the workspace in messages.
func (ws *workspace) String() string { return strings.Join(ws.folders, ", ") }

// filePath returns the path a file:// URI names, or "" for another URI.
func filePath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return filepath.FromSlash(u.Path)
}

// isDir reports whether p is a folder.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
