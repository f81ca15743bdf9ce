package mcpserver

// This file gives the programs format_wfl, fix_wfl and rename_symbol
// change in the form a call asks (the output argument): whole texts,
// edits against the originals (paged), or a unified diff; by default the
// whole texts and edits when they fit the answer's budget, else the diff
// when it fits, else a page of the edits.

import (
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/token"
)

// Forms of a changed program in an answer.
const (
	formAuto  = "auto"
	formText  = "text"
	formEdits = "edits"
	formDiff  = "diff"
)

// changeProps adds the output argument and the paging of what to props.
func changeProps(props map[string]*Schema, what string) map[string]*Schema {
	props["output"] = enum(`how to give the changed program: "text" (the whole program, whatever its size), "edits" `+
		`(edits against the original), "diff" (a unified diff, whatever its size), or "auto" (the default: the whole `+
		`program and the edits when they fit the answer's budget of about `+itoa(answerBudget/1000)+` KB, else the `+
		`diff when it fits, else a page of the edits)`, formAuto, formText, formEdits, formDiff)
	return pageProps(props, what, maxEdits)
}

// changeSchema adds the members of a changed program's answer to props.
func changeSchema(props map[string]*Schema, what string) map[string]*Schema {
	props["output"] = enum("the form this answer gives the changed program in (see the output argument)", formText, formEdits, formDiff)
	props["diff"] = str("the change as a unified diff (output diff, or auto when the whole program does not fit)")
	props["note"] = str("why the answer took the form it did, when output auto could not give the whole program")
	return pageSchema(props, what)
}

// maxEdits is how many edits a page of edits lists by default.
const maxEdits = 200

// outputArg reads the output argument.
func outputArg(args map[string]any) string {
	if s, ok := strArg(args, "output"); ok {
		return s
	}
	return formAuto
}

// A fileChange is one program and the edits that change it.
type fileChange struct {
	name  string       // the file's name in a diff: its workspace path, or source.wfl
	text  string       // the original text
	lines *token.Lines // its line table
	edits []core.Edit  // in source order, not overlapping
}

// newText is the text with the edits applied.
func (f *fileChange) newText() (string, error) {
	var b strings.Builder
	pos := 0
	for _, e := range f.edits {
		b.WriteString(f.text[pos:e.Start])
		b.WriteString(e.Text)
		pos = e.End
	}
	b.WriteString(f.text[pos:])
	return b.String(), nil
}

// editJSONs are the edits as an answer shows them.
func (f *fileChange) editJSONs() []editJSON {
	out := make([]editJSON, 0, len(f.edits))
	for _, e := range f.edits {
		out = append(out, editJSON{spanJSON: spanOfLines(f.lines, token.Span{Start: e.Start, End: e.End}), NewText: e.Text})
	}
	return out
}

// diffOf is the unified diff of the files that change.
func diffOf(files []fileChange) string {
	var b strings.Builder
	for _, f := range files {
		if len(f.edits) > 0 {
			b.WriteString(presentation.UnifiedDiff(f.name, f.text, f.edits))
		}
	}
	return b.String()
}

// editPage lists the page p of the files' edits, taken in order as one
// list: for each file, the JSON of its edits on the page.
func editPage(files []fileChange, p page) ([][]editJSON, pageOut) {
	type ref struct{ file, i int }
	var all []ref
	for fi, f := range files {
		for i := range f.edits {
			all = append(all, ref{fi, i})
		}
	}
	out := make([][]editJSON, len(files))
	for i := range out {
		out[i] = []editJSON{}
	}
	var listed []editJSON
	end, po := paged(len(all), p, func(k int) int {
		r := all[k]
		f := &files[r.file]
		e := f.edits[r.i]
		ej := editJSON{spanJSON: spanOfLines(f.lines, token.Span{Start: e.Start, End: e.End}), NewText: e.Text}
		listed = append(listed, ej)
		return jsonSize(ej)
	})
	start := min(p.offset, len(all))
	for k := start; k < end; k++ {
		out[all[k].file] = append(out[all[k].file], listed[k-start])
	}
	return out, po
}

// chooseForm decides the form of an answer under output auto: text (the
// whole texts and every edit) when size(text) fits budget, else diff when
// the diff fits, else edits. It returns the diff when it made it.
func chooseForm(files []fileChange, textSize, budget int) (form, diff string) {
	if textSize <= budget {
		return formText, ""
	}
	d := diffOf(files)
	if jsonSize(d) <= budget {
		return formDiff, d
	}
	return formEdits, ""
}

// changeNote is what a summary-less answer says about a form chosen for
// it, or "".
func changeNote(form, asked string) string {
	if asked != formAuto || form == formText {
		return ""
	}
	return "the whole program did not fit the answer's budget of about " + itoa(answerBudget/1000) +
		" KB: it is given as a " + map[string]string{formDiff: "unified diff", formEdits: "page of edits"}[form] +
		`; call again with output "text" for the whole program`
}
