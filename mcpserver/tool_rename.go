package mcpserver

// This file implements rename_symbol: the edits that rename a declared name
// and every use of it, from the core's rename. For a workspace file given by
// path, a name shared through `include from` is renamed in every workspace
// file of its family, as the language server does (core.RenameAcross). It
// writes nothing.

import (
	"context"
	"sort"

	"wfl-lsp/core"
)

var renameTool = &Tool{
	Name:  "rename_symbol",
	Title: "Rename a name everywhere in a WFL program",
	Description: "Return the edits that rename the declared name at a 1-based line and column (a variable, action, " +
		"parameter, container, …) and every use of it in the program, and the program with them applied. " +
		"Builtins and keywords cannot be renamed; the new name must be a valid WFL name that does not clash. " +
		"For a workspace file given by path, a name declared at the top level of a file and shared through " +
		"include from is renamed in the declaring file and in every workspace file that includes it: edits and " +
		"newSource are for the file asked about, otherFiles for the rest. Writes nothing.",
	Input: positionInput(map[string]*Schema{
		"newName": str("the new name (may be several words, as WFL names can be)"),
	}),
	Output: openObject([]string{"oldName", "newName", "edits", "count", "newSource"}, map[string]*Schema{
		"file":      str("the workspace file, when a path was given"),
		"oldName":   str("the name renamed"),
		"newName":   str("the new name"),
		"edits":     array("edits against the original text, in source order", editSchema),
		"count":     integer("places renamed, in every file", 0),
		"newSource": str("the program with the edits applied"),
		"otherFiles": array("the other workspace files the rename changes, by path", openObject([]string{"file", "edits", "count", "newSource"}, map[string]*Schema{
			"file":      str("the workspace file (root-relative)"),
			"edits":     array("edits against its text, in source order", editSchema),
			"count":     integer("places renamed in it", 1),
			"newSource": str("its text with the edits applied"),
		})),
	}),
	ReadOnly: true, Idempotent: true,
	Call: atPosition(func(ctx context.Context, c *Call, d *document, off int) Result {
		args := c.Args
		newName, _ := strArg(args, "newName")
		x := c.crossFiles(ctx, d)
		byFile, across, err := d.a.RenameAcross(off, newName, x.base, x.candidates(), x.includesOf, x.load)
		if across {
			return renameAcross(d, x, off, byFile, err)
		}
		_, oldName, err := d.a.PrepareRename(off)
		if err != nil {
			return failure("cannot_rename", "cannot rename: "+err.Error())
		}
		edits, err := d.a.Rename(off, newName)
		if err != nil {
			return failure("cannot_rename", "cannot rename "+oldName+": "+err.Error())
		}
		text, err := applyAll(d.snap.Text, edits)
		if err != nil {
			return failure("cannot_rename", "cannot rename: "+err.Error())
		}
		newName = ""
		if len(edits) > 0 {
			newName = edits[0].Text
		}
		return Result{Structured: withFile(d, map[string]any{"oldName": oldName, "newName": newName,
			"edits": editsOf(d.a, edits), "count": len(edits), "newSource": text})}
	}),
}

// renameAcross answers rename_symbol for a name shared through include.
func renameAcross(d *document, x *crossFiles, off int, byFile map[string][]core.Edit, err error) Result {
	id, _ := d.a.SymbolAt(off)
	oldName := ""
	if id != nil {
		oldName = id.Name
	}
	if err != nil {
		return failure("cannot_rename", "cannot rename "+oldName+": "+err.Error())
	}
	paths := make([]string, 0, len(byFile))
	for p := range byFile {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	out := map[string]any{"oldName": oldName, "edits": []editJSON{}, "newSource": d.snap.Text}
	others := []map[string]any{}
	count := 0
	for _, p := range paths {
		edits := byFile[p]
		sort.SliceStable(edits, func(i, j int) bool { return edits[i].Start < edits[j].Start })
		a, ok := x.load(p)
		if !ok {
			continue
		}
		text, _ := x.text(p)
		if p == x.base {
			text = d.snap.Text
		}
		newText, err := applyAll(text, edits)
		if err != nil {
			return failure("cannot_rename", "cannot rename "+oldName+" in "+x.ws.rel(p)+": "+err.Error())
		}
		count += len(edits)
		out["newName"] = edits[0].Text
		if p == x.base {
			out["edits"], out["newSource"] = editsOf(a, edits), newText
			continue
		}
		others = append(others, map[string]any{"file": x.ws.rel(p), "edits": editsOf(a, edits), "count": len(edits), "newSource": newText})
	}
	out["count"], out["otherFiles"] = count, others
	if _, ok := out["newName"]; !ok {
		out["newName"] = ""
	}
	return Result{Structured: withFile(d, out)}
}

// applyAll applies edits given in source order against the original text.
func applyAll(text string, edits []core.Edit) (string, error) {
	back := append([]core.Edit(nil), edits...)
	sort.SliceStable(back, func(i, j int) bool { return back[i].Start > back[j].Start })
	return core.ApplyEdits(text, back...)
}
