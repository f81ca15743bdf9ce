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
	"wfl-lsp/core/navigation"
)

var renameTool = &Tool{
	Name:  "rename_symbol",
	Title: "Rename a name everywhere in a WFL program",
	Description: "Return the edits that rename the declared name at a 1-based line and column (a variable, action, " +
		"parameter, container, …) and every use of it in the program, and the program with them applied. " +
		"Builtins and keywords cannot be renamed; the new name must be a valid WFL name that does not clash. " +
		"For a workspace file given by path, a name declared at the top level of a file and shared through " +
		"include from is renamed in the declaring file and in every workspace file that includes it: edits and " +
		"newSource are for the file asked about, otherFiles for the rest. The changed programs come as whole texts " +
		"with their edits when they fit the answer, else as a unified diff, else as a page of edits (output chooses). " +
		"Writes nothing.",
	Input: func() *Schema {
		sc := positionInput(changeProps(map[string]*Schema{
			"newName": str("the new name (may be several words, as WFL names can be)"),
		}, "edits"))
		sc.Required = append(sc.Required, "newName")
		return sc
	}(),
	Output: openObject([]string{"oldName", "newName", "count", "output"}, changeSchema(map[string]*Schema{
		"file":      str("the workspace file, when a path was given"),
		"oldName":   str("the name renamed"),
		"newName":   str("the new name"),
		"edits":     array("edits against the original text, in source order (output text or edits)", editSchema),
		"count":     integer("places renamed, in every file", 0),
		"newSource": str("the program with the edits applied (output text)"),
		"otherFiles": array("the other workspace files the rename changes, by path", openObject([]string{"file", "count"}, map[string]*Schema{
			"file":      str("the workspace file (root-relative)"),
			"edits":     array("edits against its text, in source order (output text or edits)", editSchema),
			"count":     integer("places renamed in it", 1),
			"newSource": str("its text with the edits applied (output text)"),
		})),
	}, "edits")),
	ReadOnly: true, Idempotent: true,
	Call: atPosition(func(ctx context.Context, c *Call, d *document, off int) Result {
		args := c.Args
		newName, _ := strArg(args, "newName")
		x := newCrossFiles(ctx, c, d)
		byFile, across, err := navigation.RenameAcross(d.a, off, newName, x.base, x.candidates(), x.includesOf, x.load)
		if across {
			return renameAcross(d, x, off, byFile, err, args)
		}
		_, oldName, err := navigation.PrepareRename(d.a, off)
		if err != nil {
			return failure("cannot_rename", "cannot rename: "+err.Error())
		}
		edits, err := navigation.Rename(d.a, off, newName)
		if err != nil {
			return failure("cannot_rename", "cannot rename "+oldName+": "+err.Error())
		}
		if _, err := applyAll(d.snap.Text, edits); err != nil {
			return failure("cannot_rename", "cannot rename: "+err.Error())
		}
		newName = ""
		if len(edits) > 0 {
			newName = edits[0].Text
		}
		files := []fileChange{{name: d.name(), text: d.snap.Text, lines: d.a.Lines, edits: sortedEdits(edits)}}
		out := withFile(d, map[string]any{"oldName": oldName, "newName": newName, "count": len(edits)})
		return Result{Structured: renameAnswer(out, files, nil, args)}
	}),
}

// renameAcross answers rename_symbol for a name shared through include.
func renameAcross(d *document, x *crossFiles, off int, byFile map[string][]core.Edit, err error, args map[string]any) Result {
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
	out := map[string]any{"oldName": oldName}
	// The file asked about first (with no edits when it names nothing
	// renamed), then the others by path.
	files := []fileChange{{name: d.name(), text: d.snap.Text, lines: d.a.Lines}}
	others := []string{}
	count := 0
	for _, p := range paths {
		edits := sortedEdits(byFile[p])
		a, ok := x.load(p)
		if !ok {
			continue
		}
		text, _ := x.text(p)
		if p == x.base {
			text = d.snap.Text
		}
		if _, err := applyAll(text, edits); err != nil {
			return failure("cannot_rename", "cannot rename "+oldName+" in "+x.ws.rel(p)+": "+err.Error())
		}
		count += len(edits)
		out["newName"] = edits[0].Text
		if p == x.base {
			files[0].edits = edits
			continue
		}
		files = append(files, fileChange{name: x.ws.rel(p), text: text, lines: a.Lines, edits: edits})
		others = append(others, x.ws.rel(p))
	}
	out["count"] = count
	if _, ok := out["newName"]; !ok {
		out["newName"] = ""
	}
	return Result{Structured: renameAnswer(withFile(d, out), files, others, args)}
}

// renameAnswer adds the changed files to out in the form args ask: files[0]
// is the file asked about, the others are named by others (otherFiles,
// present when others is not nil).
func renameAnswer(out map[string]any, files []fileChange, others []string, args map[string]any) map[string]any {
	asked := outputArg(args)
	form, diff := asked, ""
	p := pageArgs(args, maxEdits)
	var texts []string
	var edits [][]editJSON
	whole := func() {
		texts, edits = make([]string, len(files)), make([][]editJSON, len(files))
		for i := range files {
			texts[i], _ = files[i].newText()
			edits[i] = files[i].editJSONs()
		}
	}
	if form == formAuto {
		whole()
		form, diff = chooseForm(files, jsonSize(texts)+jsonSize(edits), p.budget-jsonSize(out))
	}
	var po pageOut
	switch form {
	case formText:
		if texts == nil {
			whole()
		}
	case formDiff:
		if diff == "" {
			diff = diffOf(files)
		}
		out["diff"] = diff
		texts, edits = nil, nil
	case formEdits:
		texts = nil
		edits, po = editPage(files, p)
	}
	if edits != nil {
		out["edits"] = edits[0]
	}
	if texts != nil {
		out["newSource"] = texts[0]
	}
	if others != nil {
		list := []map[string]any{}
		for i, name := range others {
			f := map[string]any{"file": name, "count": len(files[i+1].edits)}
			if edits != nil {
				f["edits"] = edits[i+1]
			}
			if texts != nil {
				f["newSource"] = texts[i+1]
			}
			list = append(list, f)
		}
		out["otherFiles"] = list
	}
	addPage(out, po)
	out["output"] = form
	if n := changeNote(form, asked); n != "" {
		out["note"] = n
	}
	return out
}

// applyAll applies edits given in source order against the original text.
func applyAll(text string, edits []core.Edit) (string, error) {
	back := append([]core.Edit(nil), edits...)
	sort.SliceStable(back, func(i, j int) bool { return back[i].Start > back[j].Start })
	return core.ApplyEdits(text, back...)
}
