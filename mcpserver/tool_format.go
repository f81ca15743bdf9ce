package mcpserver

// This file implements format_wfl (the canonical layout) and fix_wfl (the
// core's quick fixes as edits). Neither writes files. A changed program is
// given as its whole text, as edits or as a unified diff (changes.go).

import (
	"context"
	"sort"

	"wfl-lsp/core"
	"wfl-lsp/core/fixes"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

var formatTool = &Tool{
	Name:  "format_wfl",
	Title: "Format a WFL program",
	Description: "Return a WFL program in its canonical layout (indentation, spacing, keyword case, under the " +
		"workspace's .wflcfg): as the whole text and as edits when they fit the answer, else as a unified diff, " +
		"else as a page of edits (output chooses). Writes nothing. A program with parse errors cannot be formatted.",
	Input: object(nil, changeProps(sourceOrPath(), "edits")),
	Output: openObject([]string{"changed", "output"}, changeSchema(map[string]*Schema{
		"file":      str("the workspace file, when a path was given"),
		"formatted": str("the formatted program (output text, or auto when it fits)"),
		"changed":   boolean("false when the program was already formatted"),
		"edits":     array("edits that turn the original into the formatted text, against the original, in source order", editSchema),
	}, "edits")),
	ReadOnly: true, Idempotent: true,
	Call: onDocument(func(ctx context.Context, c *Call, d *document) Result {
		text, err := presentation.Format(d.snap)
		if err != nil {
			return failure("cannot_format", "cannot format: "+err.Error())
		}
		edits, err := presentation.FormatLines(d.snap, 0, -1)
		if err != nil {
			return failure("cannot_format", "cannot format: "+err.Error())
		}
		out := withFile(d, map[string]any{"changed": text != d.snap.Text})
		files := []fileChange{{name: d.name(), text: d.snap.Text, lines: d.a.Lines, edits: sortedEdits(edits)}}
		asked := outputArg(c.Args)
		form, diff := asked, ""
		p := pageArgs(c.Args, maxEdits)
		var all []editJSON
		if form == formAuto {
			all = files[0].editJSONs()
			form, diff = chooseForm(files, jsonSize(text)+jsonSize(all), p.budget)
		}
		switch form {
		case formText:
			if all == nil {
				all = files[0].editJSONs()
			}
			out["formatted"], out["edits"] = text, all
		case formDiff:
			if diff == "" {
				diff = diffOf(files)
			}
			out["diff"] = diff
		case formEdits:
			page, po := editPage(files, p)
			out["edits"] = page[0]
			addPage(out, po)
		}
		out["output"] = form
		if n := changeNote(form, asked); n != "" {
			out["note"] = n
		}
		return Result{Structured: out}
	}),
}

type fixJSON struct {
	Title      string     `json:"title"`
	Code       string     `json:"code"`
	Diagnostic string     `json:"diagnostic"`
	Line       int        `json:"line"`
	Column     int        `json:"column"`
	Safe       bool       `json:"safe"`
	Edits      []editJSON `json:"edits"`
}

// maxFixFindings is how many findings fix_wfl makes the fixes of by
// default: a fix that is not safe is checked by analysing the program it
// makes, which may be the whole program again for each.
const maxFixFindings = 10

// mostFixFindings is how many findings one fix_wfl call makes the fixes
// of at the most, whatever its limit: 1,000 findings of a program every
// check of which analyses much of it again (2,000 stores of one name)
// took longer than a call may. The answer's nextOffset goes on from there.
const mostFixFindings = 50

var fixTool = &Tool{
	Name:  "fix_wfl",
	Title: "Quick fixes for a WFL program",
	Description: "Return the quick fixes for a WFL program's findings (renames to snake_case with every " +
		"reference, indentation, trailing blanks, keyword case, did-you-mean names, missing block closers, …) " +
		"as edits against the original text, for a page of the findings (errors first, as analyze_wfl orders them; " +
		"limit, offset), and the program with every safe (layout-only) fix applied (output chooses its form: the " +
		"whole text when it fits, else a unified diff). Give line (and column) to get only the fixes for the " +
		"findings there. Writes nothing.",
	Input: object(nil, func() map[string]*Schema {
		p := changeProps(sourceOrPath(), "findings")
		p["line"] = integer("only fixes for findings on this 1-based line", 1)
		p["column"] = integer("with line: only fixes for findings at this 1-based column", 1)
		p["limit"].Description = "make the fixes of at most this many findings (default " + itoa(maxFixFindings) +
			", at most " + itoa(mostFixFindings) + " a call); an answer also stops before passing about " + itoa(answerBudget/1000) + " KB"
		return p
	}()),
	Output: openObject([]string{"fixes", "safeFixesApplied", "output"}, changeSchema(map[string]*Schema{
		"file": str("the workspace file, when a path was given"),
		"fixes": array("the fixes of this page's findings, in their order", openObject([]string{"title", "code", "diagnostic", "line", "column", "safe", "edits"}, map[string]*Schema{
			"title":      str("what the fix does"),
			"code":       str("the code of the diagnostic it repairs"),
			"diagnostic": str("the diagnostic's message"),
			"line":       integer("1-based line of the diagnostic", 1),
			"column":     integer("1-based column of the diagnostic", 1),
			"safe":       boolean("the fix changes only layout"),
			"edits":      array("edits against the original text", editSchema),
		})),
		"findingCount":     integer("findings there (on the line, when line was given), with fixes or not", 0),
		"fixedSource":      str("the program with every safe fix applied (output text, or auto when it fits)"),
		"safeFixesApplied": integer("how many safe fixes the program with them applied has", 0),
	}, "findings")),
	ReadOnly: true, Idempotent: true,
	Call: onDocument(func(ctx context.Context, c *Call, d *document) Result {
		args := c.Args
		span := token.Span{Start: 0, End: len(d.snap.Text)}
		if line, ok := intArg(args, "line"); ok {
			start, ok1 := d.a.Lines.PositionOffset(line, 1)
			if !ok1 {
				f := failure("invalid_position", "line "+itoa(line)+" is outside the document")
				return f
			}
			span = token.Span{Start: start, End: d.a.Lines.LineEnd(line - 1)}
			if col, ok := intArg(args, "column"); ok {
				off, ok2 := d.a.Lines.PositionOffset(line, col)
				if !ok2 {
					return failure("invalid_position", "the column is outside the line")
				}
				span = token.Span{Start: off, End: off}
			}
		} else if _, ok := intArg(args, "column"); ok {
			return failure("invalid_arguments", `"column" needs "line"`)
		}
		// The findings there, ordered as analyze_wfl orders them, and the
		// page of them whose fixes are made.
		_, shown := d.snap.Tolerant()
		var there []diag.Diagnostic
		for _, x := range shown {
			if x.Span.End >= span.Start && x.Span.Start <= span.End {
				there = append(there, x)
			}
		}
		there = sortedDiagnostics(there)
		p := pageArgs(args, maxFixFindings)
		p.limit = min(p.limit, mostFixFindings)
		from := min(p.offset, len(there))
		to := min(from+p.limit, len(there))
		type key struct {
			span          token.Span
			code, message string
		}
		// Each finding of the page by what it says and where: the rank of
		// the first, and how many of the page say the same at the same
		// place (a block left open at each of 2,000 tries: all at the end
		// of the text), whose fixes are made, not those of every finding
		// of the text alike.
		type slot struct{ rank, left int }
		page := map[key]*slot{}
		for i, x := range there[from:to] {
			k := key{x.Span, x.Code, x.Message}
			if page[k] == nil {
				page[k] = &slot{rank: from + i}
			}
			page[k].left++
		}
		byFinding := map[int][]fixJSON{}
		for _, f := range fixes.Of(ctx, d.snap, func(x diag.Diagnostic) bool {
			sl := page[key{x.Span, x.Code, x.Message}]
			if sl == nil || sl.left == 0 {
				return false
			}
			sl.left--
			return true
		}) {
			l, col := d.a.Lines.OffsetPosition(f.Diagnostic.Span.Start)
			i := page[key{f.Diagnostic.Span, f.Diagnostic.Code, f.Diagnostic.Message}].rank
			byFinding[i] = append(byFinding[i], fixJSON{Title: f.Title, Code: f.Diagnostic.Code, Diagnostic: f.Diagnostic.Message,
				Line: l, Column: col, Safe: f.Safe, Edits: editsOf(d.a, sortedEdits(f.Edits))})
		}
		made := []fixJSON{}
		p.limit = to - from
		end, po := paged(len(there), p, func(i int) int {
			made = append(made, byFinding[i]...)
			return jsonSize(byFinding[i])
		})
		made = made[:0]
		for i := from; i < end; i++ {
			made = append(made, byFinding[i]...)
		}
		out := withFile(d, map[string]any{"fixes": made, "findingCount": len(there)})
		addPage(out, po)
		files := []fileChange{{name: d.name(), text: d.snap.Text, lines: d.a.Lines, edits: sortedEdits(fixes.AllEdits(d.snap))}}
		out["safeFixesApplied"] = len(files[0].edits)
		fixed, _ := files[0].newText()
		asked := outputArg(args)
		form, diff := asked, ""
		if form == formAuto {
			form, diff = chooseForm(files, jsonSize(fixed), answerBudget-4096-jsonSize(out))
		}
		switch form {
		case formText:
			out["fixedSource"] = fixed
		case formDiff:
			if diff == "" {
				diff = diffOf(files)
			}
			out["diff"] = diff
		}
		out["output"] = form
		if form == formEdits && asked == formAuto {
			out["note"] = "the program with the safe fixes applied did not fit the answer's budget; " +
				`call again with output "diff" or "text" to get it`
		}
		return Result{Structured: out}
	}),
}

// sortedEdits returns edits in source order.
func sortedEdits(edits []core.Edit) []core.Edit {
	out := append([]core.Edit(nil), edits...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}
