package mcpserver

// This file defines the workspace, the folders the tools and resources may
// read, and confines every path they touch to it: no "..", no absolute
// path outside it, no symbolic link that leads out of it. It also lists
// the workspace's WFL files.
//
// The workspace is Options.Root when it was given, else the roots the
// client declared (handshake era, roots capability), else the current
// folder. With one folder, paths are relative to it; with several, each
// path starts with its folder's name (the folder's base name, made unique).

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"wfl-lsp/core"
)

// maxFileBytes is the largest file a tool or resource reads.
const maxFileBytes = 8 << 20

// A workspace is a list of folders. It is immutable once made.
type workspace struct {
	roots []wsRoot
}

// A wsRoot is one folder of a workspace.
type wsRoot struct {
	path string // real absolute path
	name string // first segment of the paths below it when there are several folders, else ""
}

// newWorkspace checks the folders (absolute or relative to the current
// folder), resolves their links and names them. Duplicates and folders
// inside another are kept once.
func newWorkspace(paths []string) (*workspace, error) {
	ws := &workspace{}
	seen := map[string]bool{}
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
			ws.roots = append(ws.roots, wsRoot{path: real})
		}
	}
	if len(ws.roots) == 0 {
		return nil, fmt.Errorf("no workspace folder")
	}
	// A folder inside another adds nothing: its files are listed already.
	kept := ws.roots[:0]
	for i, r := range ws.roots {
		nested := false
		for j, o := range ws.roots {
			if i != j && strings.HasPrefix(r.path, o.path+string(filepath.Separator)) {
				nested = true
			}
		}
		if !nested {
			kept = append(kept, r)
		}
	}
	ws.roots = kept
	if len(ws.roots) > 1 {
		used := map[string]int{}
		for i := range ws.roots {
			base := filepath.Base(ws.roots[i].path)
			used[base]++
			name := base
			if n := used[base]; n > 1 {
				name = fmt.Sprintf("%s~%d", base, n)
			}
			ws.roots[i].name = name
		}
	}
	return ws, nil
}

// folders returns the real paths of the workspace's folders.
func (ws *workspace) folders() []string {
	out := make([]string, len(ws.roots))
	for i, r := range ws.roots {
		out[i] = r.path
	}
	return out
}

// String names the workspace in messages.
func (ws *workspace) String() string {
	if len(ws.roots) == 1 {
		return ws.roots[0].path
	}
	return strings.Join(ws.folders(), ", ")
}

// A pathError is a failure to use a path, with a kind a client can test:
// invalid_path, outside_workspace, not_found, not_a_file, too_large, not_utf8.
type pathError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Path    string `json:"path"`
}

func (e *pathError) Error() string { return e.Message }

// resolve turns a path given by a client (relative to the workspace,
// absolute inside it, or a file:// URI) into the real absolute path of an
// existing file inside it, and the path the workspace shows for it.
func (ws *workspace) resolve(p string) (abs, rel string, err *pathError) {
	given := p
	fail := func(kind, msg string) (string, string, *pathError) {
		return "", "", &pathError{Kind: kind, Message: msg, Path: given}
	}
	if strings.HasPrefix(p, "file:") {
		if p = core.URI(p).Path(); p == "" {
			return fail("invalid_path", "cannot read the file:// URI "+given)
		}
	}
	if p == "" || strings.ContainsRune(p, 0) {
		return fail("invalid_path", "the path is empty or contains a NUL byte")
	}
	for _, part := range strings.FieldsFunc(filepath.ToSlash(p), func(r rune) bool { return r == '/' }) {
		if part == ".." {
			return fail("outside_workspace", `the path `+given+` contains "..": paths must stay inside the workspace `+ws.String())
		}
	}
	var candidates []string
	if filepath.IsAbs(p) {
		candidates = []string{filepath.Clean(p)}
	} else {
		candidates = ws.candidates(filepath.ToSlash(p))
	}
	var first *pathError
	for _, c := range candidates {
		if !ws.inside(c) && !ws.inside(evalOrSelf(c)) {
			if first == nil {
				_, _, first = fail("outside_workspace", "the path "+given+" is outside the workspace "+ws.String())
			}
			continue
		}
		real, e := filepath.EvalSymlinks(c)
		if e != nil {
			if first == nil {
				if os.IsNotExist(e) {
					_, _, first = fail("not_found", "no file "+given+" in the workspace")
				} else {
					_, _, first = fail("not_found", "cannot open "+given+": "+e.Error())
				}
			}
			continue
		}
		if !ws.inside(real) {
			return fail("outside_workspace", "the path "+given+" leads outside the workspace "+ws.String()+" through a symbolic link")
		}
		return real, ws.rel(real), nil
	}
	return "", "", first
}

// candidates are the absolute paths a relative slash path may name: below
// the folder its first segment names, then below each folder in order.
func (ws *workspace) candidates(p string) []string {
	var out []string
	if len(ws.roots) > 1 {
		head, rest, _ := strings.Cut(p, "/")
		for _, r := range ws.roots {
			if r.name == head {
				out = append(out, filepath.Join(r.path, filepath.FromSlash(rest)))
			}
		}
	}
	for _, r := range ws.roots {
		out = append(out, filepath.Join(r.path, filepath.FromSlash(p)))
	}
	return out
}

// evalOrSelf resolves links in the parent folder of a path that may not exist.
func evalOrSelf(p string) string {
	if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(dir, filepath.Base(p))
	}
	return p
}

// rootOf returns the folder that holds the clean absolute path p, or nil.
func (ws *workspace) rootOf(p string) *wsRoot {
	for i := range ws.roots {
		r := &ws.roots[i]
		if p == r.path || strings.HasPrefix(p, r.path+string(filepath.Separator)) {
			return r
		}
	}
	return nil
}

// inside reports whether the clean absolute path p is a folder of the
// workspace or below one.
func (ws *workspace) inside(p string) bool { return ws.rootOf(p) != nil }

// rel is the path the workspace shows for an absolute path inside it.
func (ws *workspace) rel(abs string) string {
	r := ws.rootOf(abs)
	if r == nil {
		return filepath.ToSlash(abs)
	}
	rel, _ := filepath.Rel(r.path, abs)
	rel = filepath.ToSlash(rel)
	if r.name != "" {
		if rel == "." {
			return r.name
		}
		return r.name + "/" + rel
	}
	return rel
}

// abs is the absolute path of a path the workspace shows.
func (ws *workspace) abs(rel string) string {
	if len(ws.roots) > 1 {
		head, rest, _ := strings.Cut(rel, "/")
		for _, r := range ws.roots {
			if r.name == head {
				return filepath.Join(r.path, filepath.FromSlash(rest))
			}
		}
	}
	return filepath.Join(ws.roots[0].path, filepath.FromSlash(rel))
}

// readFile reads a workspace file for a tool or resource: a regular file of
// at most maxFileBytes of UTF-8 text.
func (ws *workspace) readFile(p string) (text, rel string, err *pathError) {
	abs, rel, err := ws.resolve(p)
	if err != nil {
		return "", "", err
	}
	fi, e := os.Stat(abs)
	if e != nil {
		return "", "", &pathError{Kind: "not_found", Message: "cannot open " + p + ": " + e.Error(), Path: p}
	}
	if !fi.Mode().IsRegular() {
		return "", "", &pathError{Kind: "not_a_file", Message: p + " is not a regular file", Path: p}
	}
	if fi.Size() > maxFileBytes {
		return "", "", &pathError{Kind: "too_large", Message: p + " is larger than the 8 MiB limit", Path: p}
	}
	b, e := os.ReadFile(abs)
	if e != nil {
		return "", "", &pathError{Kind: "not_found", Message: "cannot read " + p + ": " + e.Error(), Path: p}
	}
	if !utf8.Valid(b) {
		return "", "", &pathError{Kind: "not_utf8", Message: p + " is not UTF-8 text", Path: p}
	}
	return string(b), rel, nil
}

// wflFiles lists the *.wfl files below the folders, as the paths the
// workspace shows, in lexical order; hidden and vendored folders are
// skipped, and so are symbolic links (which could lead outside).
func (ws *workspace) wflFiles() []string {
	var files []string
	for _, r := range ws.roots {
		filepath.WalkDir(r.path, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if p != r.path && core.SkipDir(d.Name()) {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".wfl") {
				files = append(files, ws.rel(p))
			}
			return nil
		})
	}
	sort.Strings(files)
	return files
}

// statDir reports whether abs is a folder.
func statDir(abs string) (bool, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return false, err
	}
	return fi.IsDir(), nil
}
