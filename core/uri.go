package core

// This file converts between file paths and file:// URIs.

import (
	"net/url"
	"path/filepath"
	"strings"
)

// FileURI returns the file:// URI of a path, made absolute first.
func FileURI(path string) URI {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return URI(u.String())
}

// Path returns the file path a file:// URI names, or "" for other schemes.
func (u URI) Path() string {
	parsed, err := url.Parse(string(u))
	if err != nil || parsed.Scheme != "file" {
		return ""
	}
	return filepath.FromSlash(parsed.Path)
}

// SkipDir reports whether a folder of this name is left out when the
// workspace is searched for *.wfl files: hidden folders and vendored code.
func SkipDir(name string) bool {
	return strings.HasPrefix(name, ".") && name != "." && name != ".." ||
		name == "vendor" || name == "node_modules"
}
