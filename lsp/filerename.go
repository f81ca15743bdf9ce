package lsp

// This file answers workspace/willRenameFiles: before an editor renames or
// moves .wfl files or folders, it asks for the edits that keep the
// workspace's `include from "…"` statements naming the same files
// (navigation.RenamedIncludes), and applies them with the rename.

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/core/navigation"
)

// renameFilesParams is what workspace/willRenameFiles's params must be.
var renameFilesParams = shape{want: "an object with files"}

// fileOperations registers willRenameFiles for the .wfl files and for every
// folder (a folder renamed moves the files under it).
func fileOperations() *protocol.FileOperationOptions {
	file := "file"
	return &protocol.FileOperationOptions{WillRename: protocol.FileOperationRegistrationOptions{Filters: []protocol.FileOperationFilter{
		{Scheme: &file, Pattern: protocol.FileOperationPattern{Glob: "**/*.wfl", Matches: protocol.FileOperationPatternKindFile}},
		{Scheme: &file, Pattern: protocol.FileOperationPattern{Glob: "**", Matches: protocol.FileOperationPatternKindFolder}},
	}}}
}

func willRenameFiles(s *server, params jsonrpc2.RawMessage) (work, error) {
	var p protocol.RenameFilesParams
	if err := renameFilesParams.decode(params, &p); err != nil {
		return nil, err
	}
	if p.Files == nil {
		return nil, renameFilesParams.invalid("an object without files")
	}
	var moves []navigation.FileMove
	for i, f := range p.Files {
		from, err := movePath(f.OldURI)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "params: files[%d].oldUri: %v", i, err)
		}
		to, err := movePath(f.NewURI)
		if err != nil {
			return nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "params: files[%d].newUri: %v", i, err)
		}
		if from != "" && to != "" && from != to {
			moves = append(moves, navigation.FileMove{From: from, To: to})
		}
	}
	enc := s.session.Load().enc
	return func(ctx context.Context) (any, error) {
		if len(moves) == 0 {
			return nil, nil
		}
		// Every file of the workspace that names a moved one must be
		// edited: a walk of its folders under way (an editor that renames
		// right after it starts) is waited for.
		if err := s.index.complete(ctx); err != nil {
			return nil, err
		}
		var files []fileEdits
		for _, path := range s.renameCandidates(moves) {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			if f, ok := s.includeEdits(path, moves, enc); ok {
				files = append(files, f)
			}
		}
		if len(files) == 0 {
			return nil, nil
		}
		return s.workspaceEdit(files), nil
	}, nil
}

// includeEdits returns the edits of the includes of the file at path that
// the moves change: of an open document's text as its client holds it, at
// its version; else of the file on the disk, which is parsed, not checked.
func (s *server) includeEdits(path string, moves []navigation.FileMove, enc encoding) (fileEdits, bool) {
	var syn *core.Syntax
	u, version := uri.File(path), (*int32)(nil)
	if snap, ok := s.ws.OpenSnapshot(path); ok {
		v := snap.Version
		syn, u, version = snap.Syntax(), s.spelled(uri.URI(snap.URI)), &v
	} else if b, err := core.AnyFile().ReadFile(path); err == nil {
		syn = core.NewSnapshot(core.FileURI(path), 0, string(b)).Syntax()
	} else {
		return fileEdits{}, false
	}
	edits := navigation.RenamedIncludes(syn, path, moves)
	if len(edits) == 0 {
		return fileEdits{}, false
	}
	return fileEdits{uri: u, version: version, edits: textEdits(s.mapperFor(path, syn.Lines, enc), edits)}, true
}

// renameCandidates returns the files of the workspace (open or indexed)
// whose includes the moves may change: those that include a file that
// moves, and those that move and include any file (a relative path from a
// new folder names another file).
func (s *server) renameCandidates(moves []navigation.FileMove) []string {
	var out []string
	seen := map[string]bool{}
	for _, path := range s.candidatePaths() {
		path = filepath.Clean(path)
		if seen[path] {
			continue
		}
		seen[path] = true
		incs := s.includesOf(path)
		if len(incs) == 0 {
			continue
		}
		_, moves1 := navigation.Moved(path, moves)
		if moves1 || slices.ContainsFunc(incs, func(inc string) bool { _, ok := navigation.Moved(inc, moves); return ok }) {
			out = append(out, path)
		}
	}
	slices.Sort(out)
	return out
}

// movePath returns the clean path a file: URI of a rename names, or ""
// for a URI of another scheme (no file of the workspace: the rename is
// not the server's); it fails on what is no URI (empty, a relative path,
// a file: URI without a path), which decoders would otherwise read as
// the root.
func movePath(raw string) (string, error) {
	bad := fmt.Errorf("expected a file URI, found %s", quoteCut(raw))
	scheme, rest, ok := strings.Cut(raw, ":")
	if !ok || scheme == "" || strings.ContainsAny(scheme, `/\.`) {
		return "", bad
	}
	if !strings.EqualFold(scheme, "file") {
		return "", nil
	}
	u, err := uri.Parse(raw)
	p := core.URI(u).Path()
	if err != nil || strings.Trim(rest, "/") == "" && rest != "///" || p == "" || !filepath.IsAbs(p) {
		return "", bad
	}
	return filepath.Clean(p), nil
}

// quoteCut quotes s for a message, cut to 200 bytes.
func quoteCut(s string) string {
	if len(s) > 200 {
		return strconv.Quote(s[:200]) + "…"
	}
	return strconv.Quote(s)
}
