package lsp

// This file answers workspace/willRenameFiles: before an editor renames or
// moves .wfl files or folders, it asks for the edits that keep the
// workspace's `include from "…"` statements naming the same files
// (navigation.RenamedIncludes), and applies them with the rename.

import (
	"context"
	"path/filepath"
	"slices"

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
	for _, f := range p.Files {
		from, to := filePath(f.OldURI), filePath(f.NewURI)
		if from != "" && to != "" && from != to {
			moves = append(moves, navigation.FileMove{From: from, To: to})
		}
	}
	enc := s.session.Load().enc
	return func(ctx context.Context) (any, error) {
		if len(moves) == 0 {
			return nil, nil
		}
		l := s.versionedLoader(doc{enc: enc})
		var files []fileEdits
		for _, path := range s.renameCandidates(moves) {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			a, ok := l.load(path)
			if !ok {
				continue
			}
			if edits := navigation.RenamedIncludes(&a.Syntax, path, moves); len(edits) > 0 {
				if f, ok := l.fileEdits(path, edits); ok {
					files = append(files, f)
				}
			}
		}
		if len(files) == 0 {
			return nil, nil
		}
		return s.workspaceEdit(files), nil
	}, nil
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

// filePath returns the clean path of a file: URI, or "".
func filePath(raw string) string {
	u, err := uri.Parse(raw)
	if err != nil {
		return ""
	}
	p := core.URI(u).Path()
	if p == "" || !filepath.IsAbs(p) {
		return ""
	}
	return filepath.Clean(p)
}
