package mcpserver

// This file implements format_wfl (the canonical layout, as text and as
// edits) and fix_wfl (the core's quick fixes as edits). Neither writes files.

import (
	"context"

	"wfl-lsp/lang/token"
)

var formatTool = &Tool{
	Name:  "format_wfl",
	Title: "Format a WFL program",
	Description: "Return a WFL program in its canonical layout (indentation, spacing, keyword case, under the " +
		"workspace's .wflcfg), as the whole text and as edits. Writes nothing. A program with parse errors " +
		"cannot be formatted.",
	Input: object(nil, sourceOrPath()),
	Output: openObject([]string{"formatted", "changed", "edits"}, map[string]*Schema{
		"file":      str("the workspace file, when a path was given"),
		"formatted": str("the formatted program"),
		"changed":   boolean("false when the program was already formatted"),
		"edits":     array("edits that turn the original into the formatted text, against the original", editSchema),
	}),
	ReadOnly: true, Idempotent: true,
	Call: onDocument(func(ctx context.Context, c *Call, d *document) Result {
		text, err := d.snap.Format()
		if err != nil {
			return failure("cannot_format", "cannot format: "+err.Error())
		}
		edits, err := d.snap.FormatEdits(0, -1)
		if err != nil {
			return failure("cannot_format", "cannot format: "+err.Error())
		}
		return Result{Structured: withFile(d, map[string]any{"formatted": text, "changed": text != d.snap.Text, "edits": editsOf(d.a, edits)})}
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

var fixTool = &Tool{
	Name:  "fix_wfl",
	Title: "Quick fixes for a WFL program",
	Description: "Return the quick fixes for a WFL program's diagnostics (renames to snake_case with every " +
		"reference, indentation, trailing blanks, keyword case, did-you-mean names, missing block closers, …) " +
		"as edits against the original text, and the program with every safe (layout-only) fix applied. " +
		"Give line (and column) to get only the fixes for the diagnostics there. Writes nothing.",
	Input: object(nil, func() map[string]*Schema {
		p := sourceOrPath()
		p["line"] = integer("only fixes for diagnostics on this 1-based line", 1)
		p["column"] = integer("with line: only fixes for diagnostics at this 1-based column", 1)
		return p
	}()),
	Output: openObject([]string{"fixes", "fixedSource", "safeFixesApplied"}, map[string]*Schema{
		"file": str("the workspace file, when a path was given"),
		"fixes": array("available fixes in diagnostic order", openObject([]string{"title", "code", "diagnostic", "line", "column", "safe", "edits"}, map[string]*Schema{
			"title":      str("what the fix does"),
			"code":       str("the code of the diagnostic it repairs"),
			"diagnostic": str("the diagnostic's message"),
			"line":       integer("1-based line of the diagnostic", 1),
			"column":     integer("1-based column of the diagnostic", 1),
			"safe":       boolean("the fix changes only layout"),
			"edits":      array("edits against the original text", editSchema),
		})),
		"fixedSource":      str("the program with every safe fix applied"),
		"safeFixesApplied": integer("how many safe fixes fixedSource applies", 0),
	}),
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
		fixes := []fixJSON{}
		for _, f := range d.snap.Fixes(span) {
			l, c := d.a.Lines.OffsetPosition(f.Diagnostic.Span.Start)
			fixes = append(fixes, fixJSON{Title: f.Title, Code: f.Diagnostic.Code, Diagnostic: f.Diagnostic.Message,
				Line: l, Column: c, Safe: f.Safe, Edits: editsOf(d.a, f.Edits)})
		}
		fixed, n, err := d.snap.FixAll()
		if err != nil {
			fixed, n = d.snap.Text, 0
		}
		return Result{Structured: withFile(d, map[string]any{"fixes": fixes, "fixedSource": fixed, "safeFixesApplied": n})}
	}),
}
