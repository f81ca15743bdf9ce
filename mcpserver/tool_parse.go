package mcpserver

// This file implements parse_wfl: the program's outline (its declarations
// as a tree, from the core's document symbols) and its parse errors.

import (
	"context"

	"wfl-lsp/core"
	"wfl-lsp/lang/diag"
)

// symbolJSON is one entry of an outline.
type symbolJSON struct {
	Name      string       `json:"name"`
	Kind      string       `json:"kind"`
	Detail    string       `json:"detail,omitempty"`
	Line      int          `json:"line,omitempty"`
	Column    int          `json:"column,omitempty"`
	EndLine   int          `json:"endLine,omitempty"`
	EndColumn int          `json:"endColumn,omitempty"`
	Children  []symbolJSON `json:"children,omitempty"`
}

var symbolSchema = openObject([]string{"name", "kind"}, map[string]*Schema{
	"name":      str("the declared name"),
	"kind":      enum("what it is", "action", "method", "parameter", "container", "interface", "property", "event", "variable", "constant", "list", "map", "pattern", "describe", "test"),
	"detail":    str("a type, a parameter list or what it extends"),
	"line":      integer("1-based line where the declaration starts", 1),
	"column":    integer("1-based column where the declaration starts", 1),
	"endLine":   integer("1-based line where the declaration ends", 1),
	"endColumn": integer("1-based column just past the declaration", 1),
	"children":  array("nested declarations, same shape", &Schema{Type: "object"}),
})

func outlineOf(a *core.Analysis, syms []core.DocumentSymbol, positions bool) []symbolJSON {
	out := []symbolJSON{}
	for _, s := range syms {
		sj := symbolJSON{Name: s.Name, Kind: s.Kind.String(), Detail: s.Detail}
		if positions {
			sp := spanOf(a, s.Span)
			sj.Line, sj.Column, sj.EndLine, sj.EndColumn = sp.Line, sp.Column, sp.EndLine, sp.EndColumn
		}
		if len(s.Children) > 0 {
			sj.Children = outlineOf(a, s.Children, positions)
		}
		out = append(out, sj)
	}
	return out
}

type parseOutput struct {
	File           string       `json:"file,omitempty"`
	Valid          bool         `json:"valid"`
	StatementCount int          `json:"statementCount"`
	Outline        []symbolJSON `json:"outline"`
	Diagnostics    []diagJSON   `json:"diagnostics"`
	Omitted        int          `json:"omitted,omitempty"`
	Summary        string       `json:"summary"`
}

var parseTool = &Tool{
	Name:  "parse_wfl",
	Title: "Parse a WFL program",
	Description: "Parse a WFL program and return its outline (actions with their parameters, containers with " +
		"their properties and methods, variables, constants, lists, maps, patterns, tests; each with its lines) " +
		"and its parse errors. Give the program as source, or a workspace file as path.",
	Input: object(nil, func() map[string]*Schema {
		p := sourceOrPath()
		p["include_positions"] = boolean("include lines and columns in the outline (default true)")
		return p
	}()),
	Output: openObject([]string{"valid", "statementCount", "outline", "diagnostics", "summary"}, map[string]*Schema{
		"file":           str("the workspace file parsed, when a path was given"),
		"valid":          boolean("true when the program parses without errors"),
		"statementCount": integer("top-level statements", 0),
		"outline":        array("the declarations, as a tree", symbolSchema),
		"diagnostics":    array("parse errors in source order, at most "+itoa(maxDiagnostics)+", the errors first", diagSchema),
		"omitted":        integer("parse findings not listed, beyond the first "+itoa(maxDiagnostics), 0),
		"summary":        str("one line for people"),
	}),
	ReadOnly: true, Idempotent: true,
	Call: onDocument(func(ctx context.Context, c *Call, d *document) Result {
		args := c.Args
		diags, n := d.diagnostics(func(x diag.Diagnostic) bool { return x.Category == diag.Parse })
		out := parseOutput{
			File:        d.path,
			Outline:     outlineOf(d.a, d.a.DocumentSymbols(), boolArg(args, "include_positions", true)),
			Diagnostics: diags,
			Omitted:     n.omitted,
		}
		if d.a.File != nil {
			out.StatementCount = len(d.a.File.Stmts)
		}
		out.Valid = len(out.Diagnostics) == 0
		if out.Valid {
			out.Summary = "parsed " + itoa(out.StatementCount) + " top-level statement" + plural(out.StatementCount) + " without errors"
		} else {
			out.Summary = itoa(n.total) + " parse error" + plural(n.total) + n.listedNote()
		}
		return Result{Structured: out}
	}),
}
