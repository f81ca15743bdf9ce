package mcpserver

// This file confines every path a tool or resource touches to the
// workspace root: no "..", no absolute path outside it, no symbolic link
// that leads out of it. It also lists the workspace's WFL files.

import (
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

// A pathError is a failure to use a path, with a kind a client can test:
// invalid_path, outside_workspace, not_found, not_a_file, too_large, not_utf8.
type pathError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Path    string `json:"path"`
}

func (e *pathError) Error() string { return e.Message }

// resolve turns a path given by a client (relative to the root, absolute
// inside it, or a file:// URI) into the real absolute path of an existing
// file inside the root, and the slash-separated path relative to the root.
func (s *Server) resolve(p string) (abs, rel string, err *pathError) {
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
			return fail("outside_workspace", `the path `+given+` contains "..": paths must stay inside the workspace `+s.root)
		}
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.root, p)
	}
	p = filepath.Clean(p)
	if !s.inside(p) && !s.inside(evalOrSelf(p)) {
		return fail("outside_workspace", "the path "+given+" is outside the workspace "+s.root)
	}
	real, e := filepath.EvalSymlinks(p)
	if e != nil {
		if os.IsNotExist(e) {
			return fail("not_found", "no file "+given+" in the workspace")
		}
		return fail("not_found", "cannot open "+given+": "+e.Error())
	}
	if !s.inside(real) {
		return fail("outside_workspace", "the path "+given+" leads outside the workspace "+s.root+" through a symbolic link")
	}
	r, _ := filepath.Rel(s.root, real)
	return real, filepath.ToSlash(r), nil
}

// evalOrSelf resolves links in the parent folder of a path that may not exist.
func evalOrSelf(p string) string {
	if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		return filepath.Join(dir, filepath.Base(p))
	}
	return p
}

// inside reports whether the clean absolute path p is the root or below it.
func (s *Server) inside(p string) bool {
	return p == s.root || strings.HasPrefix(p, s.root+string(filepath.Separator))
}

// readFile reads a workspace file for a tool or resource: a regular file of
// at most maxFileBytes of UTF-8 text.
func (s *Server) readFile(p string) (text, rel string, err *pathError) {
	abs, rel, err := s.resolve(p)
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

// wflFiles lists the *.wfl files below the root, as slash-separated paths
// relative to it, in lexical order; hidden and vendored folders are skipped,
// and so are symbolic links (which could lead outside).
func (s *Server) wflFiles() []string {
	var files []string
	filepath.WalkDir(s.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != s.root && core.SkipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".wfl") {
			rel, _ := filepath.Rel(s.root, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
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
