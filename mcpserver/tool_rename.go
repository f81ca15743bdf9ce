package mcpserver

// This file implements rename_symbol: the edits that rename a declared name
// and every use of it, from the core's rename. It writes nothing.

import (
	"context"
	"sort"

	"wfl-lsp/core"
)

var renameTool = &tool{
	name:  "rename_symbol",
	title: "Rename a name everywhere in a WFL program",
	description: "Return the edits that rename the declared name at a 1-based line and column (a variable, action, " +
		"parameter, container, …) and every use of it in the program, and the program with them applied. " +
		"Builtins and keywords cannot be renamed; the new name must be a valid WFL name that does not clash. " +
		"Writes nothing.",
	input: positionInput(map[string]*schema{
		"newName": str("the new name (may be several words, as WFL names can be)"),
	}),
	output: openObject([]string{"oldName", "newName", "edits", "count", "newSource"}, map[string]*schema{
		"file":      str("the workspace file, when a path was given"),
		"oldName":   str("the name renamed"),
		"newName":   str("the new name"),
		"edits":     array("edits against the original text, in source order", editSchema),
		"count":     integer("places renamed", 0),
		"newSource": str("the program with the edits applied"),
	}),
	readOnly: true, idempotent: true,
	run: func(ctx context.Context, s *Server, r *request, args map[string]any) toolResult {
		d, fail := s.document(args)
		if fail != nil {
			return *fail
		}
		off, fail := offsetArg(d, args)
		if fail != nil {
			return *fail
		}
		newName, _ := strArg(args, "newName")
		_, oldName, err := d.a.PrepareRename(off)
		if err != nil {
			return failure("cannot_rename", "cannot rename: "+err.Error())
		}
		edits, err := d.a.Rename(off, newName)
		if err != nil {
			return failure("cannot_rename", "cannot rename "+oldName+": "+err.Error())
		}
		// Apply from the end so earlier offsets stay valid.
		back := append([]core.Edit(nil), edits...)
		sort.SliceStable(back, func(i, j int) bool { return back[i].Start > back[j].Start })
		text, err := core.ApplyEdits(d.snap.Text, back...)
		if err != nil {
			return failure("cannot_rename", "cannot rename: "+err.Error())
		}
		newName = ""
		if len(edits) > 0 {
			newName = edits[0].Text
		}
		return toolResult{structured: withFile(d, map[string]any{"oldName": oldName, "newName": newName,
			"edits": editsOf(d.a, edits), "count": len(edits), "newSource": text})}
	},
}
