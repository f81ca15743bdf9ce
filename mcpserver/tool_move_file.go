package mcpserver

// This file implements move_file: the edits that keep the workspace's
// `include from "…"` statements naming the same files when a .wfl file or
// a folder is renamed or moved (core/navigation.RenamedIncludes, as the
// language server answers workspace/willRenameFiles). It moves and writes
// nothing.

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/core/navigation"
)

// maxMoveFiles is how many changed files a move_file answer lists by
// default.
const maxMoveFiles = 200

var moveFileTool = &Tool{
	Name:  "move_file",
	Title: "Keep includes true when a file or folder moves",
	Description: "Return the edits that keep every include from \"…\" of the workspace naming the same files when " +
		"a .wfl file or a folder is renamed or moved from `from` to `to` (workspace paths): the includes of the " +
		"files that name a moved file, and the relative includes of the moved files themselves, written as they " +
		"were (relative or absolute, with their ./). Each changed file comes with its edits, against its text " +
		"before the move, and the path it has after it. Moves nothing and writes nothing: make the edits, then the move. " +
		"Paged by file (limit, offset): every page is of the workspace before the edits.",
	Input: object([]string{"from", "to"}, pageProps(map[string]*Schema{
		"from": str("the .wfl file or the folder that moves, as a workspace path"),
		"to":   str("where it goes, as a workspace path (a .wfl name for a file)"),
	}, "files", maxMoveFiles)),
	Output: openObject([]string{"from", "to", "files", "count", "truncated"}, pageSchema(map[string]*Schema{
		"from": str("the file or folder that moves"),
		"to":   str("where it goes"),
		"files": array("the files whose includes change, by path: a page of them", openObject([]string{"file", "edits"}, map[string]*Schema{
			"file":    str("the workspace file, where it is before the move"),
			"movesTo": str("where the file is after the move, when it moves too"),
			"edits":   array("edits against its text before the move, in source order", editSchema),
		})),
		"count":     integer("includes changed, in every file", 0),
		"truncated": boolean("true when this answer does not list every file (see nextOffset)"),
	}, "files")),
	ReadOnly: true, Idempotent: true,
	Call: func(ctx context.Context, c *Call) Result {
		ws := workspaceOf(c)
		fromArg, _ := strArg(c.Args, "from")
		toArg, _ := strArg(c.Args, "to")
		from, fromRel, folder, pe := ws.resolveMoved(fromArg)
		if pe != nil {
			return failure(pe.Kind, pe.Message)
		}
		to, toRel, pe := ws.destination(toArg, from, folder)
		if pe != nil {
			return failure(pe.Kind, pe.Message)
		}
		moves := []navigation.FileMove{{From: from, To: to}}
		var files []map[string]any
		count := 0
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
			fc := fileChange{name: rel, text: string(b), lines: syn.Lines, edits: edits}
			f := map[string]any{"file": rel, "edits": fc.editJSONs()}
			if after, moved := navigation.Moved(abs, moves); moved {
				f["movesTo"] = ws.rel(after)
			}
			files = append(files, f)
		}
		p := pageArgs(c.Args, maxMoveFiles)
		end, po := paged(len(files), p, func(i int) int { return jsonSize(files[i]) })
		out := map[string]any{"from": fromRel, "to": toRel, "files": append([]map[string]any{}, files[min(p.offset, len(files)):end]...), "count": count, "truncated": po.Omitted > 0}
		addPage(out, po)
		return Result{Structured: out}
	},
}

// resolveMoved resolves the file or folder a move names, which must be in
// the workspace and readable through its access, as resolve and
// resolveFolder do: a path ending in .wfl names a file, any other a
// folder (and its refusal is a folder's). A folder of the workspace
// itself does not move.
func (ws *workspace) resolveMoved(p string) (abs, rel string, folder bool, err *pathError) {
	if strings.HasSuffix(strings.TrimRight(filepath.ToSlash(p), "/"), ".wfl") {
		abs, rel, err = ws.resolve(p)
		return abs, rel, false, err
	}
	if abs, rel, err = ws.resolveFolder(p); err != nil {
		return "", "", false, err
	}
	if r := ws.rootOf(abs); r != nil && r.path == abs {
		return "", "", false, &pathError{Kind: "invalid_move", Message: "cannot move " + p + ": it is a folder of the workspace itself", Path: p}
	}
	return abs, rel, true, nil
}

// destination resolves where a move of from puts a file or a folder: a
// path in the workspace (relative to it, absolute inside it, or a file://
// URI; a relative one in a workspace of several folders below the folder
// its first segment names, else below from's), neither hidden nor through
// a link that leads out of it, below a folder (or where one would be
// made), naming a .wfl file for a file, not inside the folder that moves,
// and where nothing is yet (a link included).
func (ws *workspace) destination(p, from string, folder bool) (abs, rel string, err *pathError) {
	given := p
	fail := func(kind, msg string) (string, string, *pathError) {
		return "", "", &pathError{Kind: kind, Message: msg, Path: given}
	}
	if p, err = givenPath(given, "the destination"); err != nil {
		return "", "", err
	}
	slash := filepath.ToSlash(p)
	for _, part := range strings.Split(slash, "/") {
		if part == ".." {
			return fail("outside_workspace", `the destination `+given+` contains "..": paths must stay inside the workspace `+ws.String())
		}
	}
	switch {
	case filepath.IsAbs(p):
		abs = filepath.Clean(p)
	case len(ws.roots) > 1 && !ws.namesRoot(slash):
		abs = filepath.Join(ws.rootOf(from).path, filepath.FromSlash(slash))
	default:
		abs = ws.abs(slash)
	}
	r := ws.rootOf(abs)
	if r == nil {
		return fail("outside_workspace", "the destination "+given+" is outside the workspace "+ws.String())
	}
	below, _ := filepath.Rel(r.path, abs)
	for _, part := range strings.Split(filepath.ToSlash(below), "/") {
		if strings.HasPrefix(part, ".") && part != "." {
			return fail("hidden", "the destination "+given+" is in a hidden folder, which tools and resources do not read")
		}
	}
	if !folder && !strings.HasSuffix(abs, ".wfl") {
		return fail("not_wfl", "the destination "+given+" is not a .wfl file: the includes that name it would name a file WFL tools do not read")
	}
	switch {
	case abs == from:
		return fail("invalid_move", "the destination "+given+" is what moves")
	case folder && strings.HasPrefix(abs, from+string(filepath.Separator)):
		return fail("invalid_move", "cannot move "+ws.rel(from)+" into "+given+", a folder inside itself")
	}
	// The nearest folder above it that exists, as the access sees it: a
	// link out of the workspace, a hidden folder or a file there refuses
	// the move.
	for dir := filepath.Dir(abs); ws.inside(dir); dir = filepath.Dir(dir) {
		fi, e := ws.files.StatDir(dir)
		if e == nil && !fi.IsDir() {
			return fail("not_a_folder", "the destination "+given+" is below "+ws.rel(dir)+", a file, not a folder")
		}
		if e == nil {
			break
		}
		if !errors.Is(e, fs.ErrNotExist) {
			pe := ws.pathError(given, abs, e)
			pe.Message = "the destination " + given + ": " + pe.Message
			return "", "", pe
		}
		if dir == r.path {
			break
		}
	}
	// Only then, what is there: the folders above it are the
	// workspace's, and a link in its place counts.
	if _, e := os.Lstat(abs); e == nil {
		return fail("exists", "the destination "+given+" exists already")
	}
	return abs, ws.rel(abs), nil
}

// namesRoot reports whether a relative slash path starts with the name of
// one of the workspace's folders.
func (ws *workspace) namesRoot(slash string) bool {
	head, _, _ := strings.Cut(slash, "/")
	for _, r := range ws.roots {
		if r.name == head {
			return true
		}
	}
	return false
}
