package mcpserver

// This file implements move_file: the edits that keep the workspace's
// `include from "…"` statements naming the same files when a .wfl file or
// a folder is renamed or moved (core/navigation.RenamedIncludes, as the
// language server answers workspace/willRenameFiles). It moves and writes
// nothing.

import (
	"context"
	"path/filepath"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/core/navigation"
)

var moveFileTool = &Tool{
	Name:  "move_file",
	Title: "Keep includes true when a file or folder moves",
	Description: "Return the edits that keep every include from \"…\" of the workspace naming the same files when " +
		"a .wfl file or a folder is renamed or moved from `from` to `to` (workspace paths): the includes of the " +
		"files that name a moved file, and the relative includes of the moved files themselves, written as they " +
		"were (relative or absolute, with their ./). Each changed file comes with its edits, against its text " +
		"before the move, and the path it has after it. Moves nothing and writes nothing: make the edits, then the move.",
	Input: object([]string{"from", "to"}, map[string]*Schema{
		"from": str("the .wfl file or the folder that moves, as a workspace path"),
		"to":   str("where it goes, as a workspace path (a .wfl name for a file)"),
	}),
	Output: openObject([]string{"from", "to", "files", "count", "truncated"}, map[string]*Schema{
		"from": str("the file or folder that moves"),
		"to":   str("where it goes"),
		"files": array("the files whose includes change, by path", openObject([]string{"file", "edits"}, map[string]*Schema{
			"file":    str("the workspace file, where it is before the move"),
			"movesTo": str("where the file is after the move, when it moves too"),
			"edits":   array("edits against its text before the move, in source order", editSchema),
		})),
		"count":     integer("includes changed, in every file", 0),
		"truncated": boolean("true when the answer lists only the first files, as many as fit an answer; count counts them all"),
	}),
	ReadOnly: true, Idempotent: true,
	Call: func(ctx context.Context, c *Call) Result {
		ws := workspaceOf(c)
		fromArg, _ := strArg(c.Args, "from")
		toArg, _ := strArg(c.Args, "to")
		from, fromRel, folder, pe := ws.resolveMoved(fromArg)
		if pe != nil {
			return failure(pe.Kind, pe.Message)
		}
		to, toRel, pe := ws.destination(toArg, folder)
		if pe != nil {
			return failure(pe.Kind, pe.Message)
		}
		moves := []navigation.FileMove{{From: from, To: to}}
		files := []map[string]any{}
		count, listed, size := 0, 0, 0
		budget := answerBudget - 4096 // for the rest of the answer
		for _, rel := range ws.wflFiles() {
			if ctx.Err() != nil {
				return c.Interrupted(ctx)
			}
			abs := ws.abs(rel)
			b, err := ws.files.ReadFile(abs)
			if err != nil {
				continue
			}
			snap := ws.files.NewSnapshotContext(ctx, core.FileURI(abs), 0, string(b))
			syn := snap.Syntax()
			edits := navigation.RenamedIncludes(syn, abs, moves)
			if len(edits) == 0 {
				continue
			}
			count += len(edits)
			if size > budget {
				continue // counted, not listed
			}
			fc := fileChange{name: rel, text: string(b), lines: syn.Lines, edits: edits}
			f := map[string]any{"file": rel, "edits": fc.editJSONs()}
			if after, moved := navigation.Moved(abs, moves); moved {
				f["movesTo"] = ws.rel(after)
			}
			if size += jsonSize(f); size > budget && len(files) > 0 {
				continue
			}
			files = append(files, f)
			listed += len(edits)
		}
		return Result{Structured: map[string]any{"from": fromRel, "to": toRel, "files": files, "count": count, "truncated": listed < count}}
	},
}

// resolveMoved resolves the file or folder a move names, which must be in
// the workspace and readable through its access, as resolve and
// resolveFolder do.
func (ws *workspace) resolveMoved(p string) (abs, rel string, folder bool, err *pathError) {
	abs, rel, err = ws.resolve(p)
	if err == nil {
		return abs, rel, false, nil
	}
	if err.Kind == "not_found" || err.Kind == "not_a_file" || err.Kind == "not_wfl" {
		if dabs, drel, derr := ws.resolveFolder(p); derr == nil {
			return dabs, drel, true, nil
		}
	}
	return "", "", false, err
}

// destination resolves where a move puts a file or a folder: a path in the
// workspace, neither hidden nor above its folders, naming a .wfl file for
// a file, and where nothing is yet.
func (ws *workspace) destination(p string, folder bool) (abs, rel string, err *pathError) {
	fail := func(kind, msg string) (string, string, *pathError) {
		return "", "", &pathError{Kind: kind, Message: msg, Path: p}
	}
	if p == "" || strings.ContainsRune(p, 0) {
		return fail("invalid_path", "the destination is empty or contains a NUL byte")
	}
	slash := filepath.ToSlash(p)
	for _, part := range strings.Split(slash, "/") {
		switch {
		case part == "..":
			return fail("outside_workspace", `the destination `+p+` contains "..": paths must stay inside the workspace `+ws.String())
		case strings.HasPrefix(part, ".") && part != ".":
			return fail("hidden", "the destination "+p+" is in a hidden folder, which tools and resources do not read")
		}
	}
	if !folder && !strings.HasSuffix(slash, ".wfl") {
		return fail("not_wfl", "the destination "+p+" is not a .wfl file: the includes that name it would name a file WFL tools do not read")
	}
	if filepath.IsAbs(p) {
		abs = filepath.Clean(p)
		if !ws.inside(abs) {
			return fail("outside_workspace", "the destination "+p+" is outside the workspace "+ws.String())
		}
	} else {
		abs = ws.abs(slash)
	}
	_, fileErr := ws.files.Stat(abs)
	_, dirErr := ws.files.StatDir(abs)
	if fileErr == nil || dirErr == nil {
		return fail("exists", "the destination "+p+" exists already")
	}
	return abs, ws.rel(abs), nil
}
