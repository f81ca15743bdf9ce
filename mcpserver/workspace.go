package mcpserver

// This file defines the workspace, the folders the tools and resources may
// read, and confines every path they touch to it: every file is read
// through a core.FileAccess confined to the folders (core.Confine), which
// reads only WFL files (*.wfl, .wflcfg) inside them, outside hidden
// folders, through an os.Root: no "..", no absolute path outside, no
// symbolic link that leads out, even one swapped in while it reads. The
// files the core follows for the tools (includes) are read through the
// same access. It also lists the workspace's WFL files.
//
// Its folders are the session's, as the protocol finds them (mcp: the
// server's folder narrowed to the client's roots, or those roots): WFL's
// primitives open them through WFL().OpenWorkspace. With one folder, paths
// are relative to it; with several, each path starts with its folder's
// name (the folder's base name, made unique).

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"wfl-lsp/core"
)

// A workspace is a list of folders. It is immutable once made.
type workspace struct {
	roots []wsRoot
	files *core.FileAccess // confined to the folders: how every file is read
}

// A wsRoot is one folder of a workspace.
type wsRoot struct {
	path string // real absolute path
	name string // first segment of the paths below it when there are several folders, else ""
}

// newWorkspace makes the workspace of folders, real absolute paths none
// of which is inside another (as the protocol gives them, mcp), and names
// them.
func newWorkspace(folders []string) (*workspace, error) {
	if len(folders) == 0 {
		return nil, fmt.Errorf("no workspace folder")
	}
	ws := &workspace{}
	for _, f := range folders {
		ws.roots = append(ws.roots, wsRoot{path: f})
	}
	files, err := core.Confine(folders...)
	if err != nil {
		return nil, err
	}
	ws.files = files
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
// invalid_path, outside_workspace, not_wfl, hidden, not_found, not_a_file,
// too_large, not_utf8.
type pathError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Path    string `json:"path"`
	Line    int    `json:"line,omitempty"` // not_utf8: where the first bad byte is, 1-based
	Byte    int    `json:"byte,omitempty"` // not_utf8: its byte in that line, 1-based
}

func (e *pathError) Error() string { return e.Message }

// resolve turns a path given by a client (relative to the workspace,
// absolute inside it, or a file:// URI) into the absolute path of a WFL
// file inside it that the workspace's access may read, and the path the
// workspace shows for it.
func (ws *workspace) resolve(p string) (abs, rel string, err *pathError) {
	return ws.resolveAs(p, false)
}

// resolveFolder is resolve for a folder of the workspace.
func (ws *workspace) resolveFolder(p string) (abs, rel string, err *pathError) {
	return ws.resolveAs(p, true)
}

// givenPath reads a path a client gave (relative to the workspace,
// absolute, or a file:// URI) as a path, or says why it cannot: what names
// it is the path itself, or the destination.
func givenPath(given, what string) (string, *pathError) {
	p := given
	if strings.HasPrefix(p, "file:") {
		if p = core.URI(p).Path(); p == "" {
			return "", &pathError{Kind: "invalid_path", Message: "cannot read the file:// URI " + given, Path: given}
		}
	}
	if p == "" || strings.ContainsRune(p, 0) {
		return "", &pathError{Kind: "invalid_path", Message: what + " is empty or contains a NUL byte", Path: given}
	}
	return p, nil
}

func (ws *workspace) resolveAs(p string, folder bool) (abs, rel string, err *pathError) {
	given := p
	fail := func(kind, msg string) (string, string, *pathError) {
		return "", "", &pathError{Kind: kind, Message: msg, Path: given}
	}
	if p, err = givenPath(given, "the path"); err != nil {
		return "", "", err
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
		var e error
		isFile := false
		if folder {
			var fi fs.FileInfo
			fi, e = ws.files.StatDir(c)
			isFile = e == nil && !fi.IsDir()
		} else {
			_, e = ws.files.Stat(c)
		}
		if e == nil && !isFile {
			return c, ws.rel(c), nil
		}
		var pe *pathError
		switch {
		case isFile:
			pe = &pathError{Kind: "not_a_folder", Message: given + " is a file, not a folder", Path: given}
		case folder && errors.Is(e, fs.ErrNotExist):
			pe = &pathError{Kind: "not_found", Message: "no folder " + given + " in the workspace", Path: given}
		default:
			pe = ws.pathError(given, c, e)
		}
		if first == nil || first.Kind == "not_found" && pe.Kind != "not_found" {
			first = pe
		}
	}
	return "", "", first
}

// pathError describes why the file at abs, given as given, cannot be read.
func (ws *workspace) pathError(given, abs string, err error) *pathError {
	pe := &pathError{Path: given}
	switch {
	case errors.Is(err, core.ErrOutside) && ws.inside(abs) && core.IsLink(abs):
		pe.Kind, pe.Message = "outside_workspace", "the path "+given+" leads outside the workspace "+ws.String()+" through a symbolic link"
	case errors.Is(err, core.ErrOutside):
		pe.Kind, pe.Message = "outside_workspace", "the path "+given+" is outside the workspace "+ws.String()
	case errors.Is(err, core.ErrNotWFL):
		pe.Kind, pe.Message = "not_wfl", given+" is not a WFL file: tools and resources read *.wfl files (and .wflcfg)"
	case errors.Is(err, core.ErrHidden):
		pe.Kind, pe.Message = "hidden", given+" is in a hidden folder, which tools and resources do not read"
	case errors.Is(err, fs.ErrNotExist):
		pe.Kind, pe.Message = "not_found", "no file "+given+" in the workspace"
	case errors.Is(err, core.ErrNotRegular):
		pe.Kind, pe.Message = "not_a_file", given+" is not a regular file"
		var fe *core.FileError
		if errors.As(err, &fe) && fe.What != "" {
			pe.Message = given + " is " + fe.What + ", not a regular file"
		}
	case errors.Is(err, core.ErrTooLarge):
		pe.Kind, pe.Message = "too_large", given+" is larger than the 16 MiB limit"
	default:
		pe.Kind, pe.Message = "not_found", "cannot open "+given
		var fe *core.FileError
		if errors.As(err, &fe) {
			pe.Message += ": it " + fe.Reason()
		}
	}
	return pe
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

// rootOf returns the folder that holds the clean absolute path p, or nil.
func (ws *workspace) rootOf(p string) *wsRoot {
	for i := range ws.roots {
		r := &ws.roots[i]
		// (A root that ends with the separator is the file system's: `/`.)
		if p == r.path || strings.HasPrefix(p, strings.TrimSuffix(r.path, string(filepath.Separator))+string(filepath.Separator)) {
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

// readFile reads a workspace file for a tool or resource: a WFL file of
// at most core.MaxFileSize bytes of UTF-8 text, through the workspace's
// access.
func (ws *workspace) readFile(p string) (text, rel string, err *pathError) {
	abs, rel, err := ws.resolve(p)
	if err != nil {
		return "", "", err
	}
	b, e := ws.files.ReadFile(abs)
	if e != nil {
		return "", "", ws.pathError(p, abs, e) // swapped since it was resolved
	}
	if !utf8.Valid(b) {
		return "", "", notUTF8(p, b)
	}
	return string(b), rel, nil
}

// notUTF8 is the error of a file p whose text b is not UTF-8: it says
// where the first bad byte is.
func notUTF8(p string, b []byte) *pathError {
	off := 0
	for off < len(b) {
		r, size := utf8.DecodeRune(b[off:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		off += size
	}
	line := 1 + bytes.Count(b[:off], []byte{'\n'})
	col := off - (bytes.LastIndexByte(b[:off], '\n') + 1) + 1
	return &pathError{Kind: "not_utf8", Path: p, Line: line, Byte: col,
		Message: fmt.Sprintf("%s is not UTF-8 text: line %d, byte %d (0x%02x) is not UTF-8; WFL files are UTF-8", p, line, col, b[off])}
}

// snapshot returns a snapshot of a workspace file's text, whose includes
// the core follows through the workspace's access: an include that leaves
// the workspace is reported on its line, and not read.
func (ws *workspace) snapshot(ctx context.Context, rel, text string) *core.Snapshot {
	return ws.files.NewSnapshotContext(ctx, core.FileURI(ws.abs(rel)), 0, text)
}

// wflFiles lists the *.wfl files below the folders that the workspace's
// access may read, as the paths the workspace shows, in lexical order;
// hidden and vendored folders are skipped, and so are named pipes, devices
// and links that lead outside.
func (ws *workspace) wflFiles() []string {
	var files []string
	for _, r := range ws.roots {
		ws.files.WFLFiles(r.path, func(p string, err error) bool {
			if err == nil {
				files = append(files, ws.rel(p))
			}
			return true
		})
	}
	sort.Strings(files)
	return files
}

// completePath returns the workspace's .wfl files whose path starts with
// prefix (or, failing that, contains it).
func completePath(c *Call, prefix string) []string {
	files := workspaceOf(c).wflFiles()
	out := withPrefix(files, prefix)
	if len(out) == 0 && prefix != "" {
		for _, f := range files {
			if strings.Contains(strings.ToLower(f), strings.ToLower(prefix)) {
				out = append(out, f)
			}
		}
	}
	return out
}

// withPrefix returns the sorted items that start with prefix, ignoring case.
func withPrefix(items []string, prefix string) []string {
	out := []string{}
	lp := strings.ToLower(prefix)
	for _, it := range items {
		if strings.HasPrefix(strings.ToLower(it), lp) {
			out = append(out, it)
		}
	}
	sort.Strings(out)
	return out
}

// statDir reports whether abs is a folder.
func statDir(abs string) (bool, error) {
	fi, err := os.Stat(abs)
	if err != nil {
		return false, err
	}
	return fi.IsDir(), nil
}
