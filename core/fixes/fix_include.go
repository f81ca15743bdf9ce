package fixes

// This file repairs an include whose path names no file: the path changed
// to a .wfl file of the folder it names, spelled alike.

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
)

// maxIncludeFixes bounds the files an include path fix proposes.
const maxIncludeFixes = 3

// includePath proposes, for an include naming a file that does not exist
// (diag.MissingInclude), the .wfl files of the folder the path names whose
// names are spelled alike (a letter or two apart, the case aside, or the
// name without its .wfl), nearest first, the nearest preferred when it is
// the only one that near. The folder is listed through the snapshot's file
// access (for MCP, inside the session's folders only).
func (fx *fixer) includePath(d diag.Diagnostic) []Fix {
	base, files := fx.snap.URI.Path(), fx.snap.Files()
	if len(d.Names) != 1 || base == "" || files == nil || d.Span.End-d.Span.Start < 2 {
		return nil
	}
	written := d.Names[0]
	target := core.IncludedPath(written, base)
	entries, err := files.ReadDir(filepath.Dir(target))
	if err != nil {
		return nil
	}
	name := strings.ToLower(filepath.Base(target))
	type near struct {
		name string
		dist int
	}
	var found []near
	for _, e := range entries {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".wfl") {
			continue
		}
		dist := editDistance(name, strings.ToLower(n))
		if strings.EqualFold(n, name+".wfl") {
			dist = 0 // the extension left out
		}
		if dist <= max(1, min(2, (len(n)-len(".wfl"))/3)) {
			found = append(found, near{n, dist})
		}
	}
	slices.SortStableFunc(found, func(a, b near) int { return a.dist - b.dist })
	folder, ok := writtenFolder(written)
	if !ok {
		return nil
	}
	var out []Fix
	for i, f := range found[:min(len(found), maxIncludeFixes)] {
		path := folder + f.name
		out = append(out, Fix{
			Title:      fmt.Sprintf("Change the path to '%s'", path),
			Kind:       IncludePath,
			Diagnostic: d,
			Edits:      []core.Edit{{Start: d.Span.Start + 1, End: d.Span.End - 1, Text: lexer.Escape(path)}},
			Preferred:  i == 0 && (len(found) == 1 || found[1].dist > f.dist),
		})
	}
	return out
}

// writtenFolder returns the folder of an include's path as it is to be
// written before a file's name: the path's own folder, cleaned ("lib/",
// "../lib/", "/ws/lib/", "" for the including file's own), with the
// leading "./" it was written with; false when the path does not end in a
// name ("." or "..").
func writtenFolder(written string) (string, bool) {
	slash := filepath.ToSlash(written)
	clean := path.Clean(slash)
	if b := path.Base(clean); b == "." || b == ".." || b == "/" {
		return "", false
	}
	dir := path.Dir(clean)
	prefix := ""
	if dir != "." {
		prefix = strings.TrimSuffix(dir, "/") + "/"
	}
	if strings.HasPrefix(slash, "./") && !strings.HasPrefix(prefix, "../") && !path.IsAbs(prefix) {
		prefix = "./" + prefix
	}
	return prefix, true
}
