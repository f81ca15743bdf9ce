package mcpserver

// This file implements parse_wfl: the program's outline (its declarations
// as a tree, from the core's document symbols) and its parse errors.

import (
	"context"

	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/diag"
)

// symbolJSON is one entry of an outline. Its line and column are those
// of the declared name, so that a position tool given them finds the
// symbol; its end is the declaration's.
type symbolJSON struct {
	Name            string       `json:"name"`
	Kind            string       `json:"kind"`
	Detail          string       `json:"detail,omitempty"`
	Line            int          `json:"line,omitempty"`
	Column          int          `json:"column,omitempty"`
	EndLine         int          `json:"endLine,omitempty"`
	EndColumn       int          `json:"endColumn,omitempty"`
	Children        []symbolJSON `json:"children,omitempty"`
	ChildrenOmitted int          `json:"childrenOmitted,omitempty"`
}

var symbolSchema = openObject([]string{"name", "kind"}, map[string]*Schema{
	"name":            str("the declared name"),
	"kind":            enum("what it is", "action", "method", "parameter", "container", "interface", "property", "event", "variable", "constant", "list", "map", "pattern", "describe", "test"),
	"detail":          str("a type, a parameter list or what it extends"),
	"line":            integer("1-based line of the declared name (give it, with column, to the position tools)", 1),
	"column":          integer("1-based column of the declared name", 1),
	"endLine":         integer("1-based line where the declaration ends", 1),
	"endColumn":       integer("1-based column just past the declaration", 1),
	"children":        array("nested declarations, same shape", &Schema{Type: "object"}),
	"childrenOmitted": integer("nested declarations left out to keep the answer within its size budget", 0),
})

func outlineOf(a *core.Analysis, syms []presentation.DocumentSymbol, positions bool) []symbolJSON {
	out := []symbolJSON{}
	for _, s := range syms {
		out = append(out, symbolOf(a, s, positions))
	}
	return out
}

func symbolOf(a *core.Analysis, s presentation.DocumentSymbol, positions bool) symbolJSON {
	sj := symbolJSON{Name: s.Name, Kind: s.Kind.String(), Detail: s.Detail}
	if positions {
		sj.Line, sj.Column = a.Lines.OffsetPosition(s.NameSpan.Start)
		sj.EndLine, sj.EndColumn = a.Lines.OffsetPosition(s.Span.End)
	}
	if len(s.Children) > 0 {
		sj.Children = outlineOf(a, s.Children, positions)
	}
	return sj
}

// outlinePage lists the page p of the top-level declarations syms, each
// with its nested ones. A declaration listed first on its page that
// passes the budget alone keeps the nested declarations that fit.
func outlinePage(a *core.Analysis, syms []presentation.DocumentSymbol, positions bool, p page) ([]symbolJSON, pageOut) {
	out := []symbolJSON{}
	end, po := paged(len(syms), p, func(i int) int {
		sj := symbolOf(a, syms[i], positions)
		n := jsonSize(sj)
		if len(out) == 0 && n > p.budget {
			sj = fitSymbol(sj, p.budget)
			n = jsonSize(sj)
		}
		out = append(out, sj)
		return n
	})
	return out[:end-min(p.offset, len(syms))], po
}

// fitSymbol keeps the nested declarations of sj that fit in budget bytes,
// in order, and counts the others.
func fitSymbol(sj symbolJSON, budget int) symbolJSON {
	kids := sj.Children
	sj.Children = nil
	room := budget - jsonSize(sj) - len(`,"children":[],"childrenOmitted":1000000`)
	for i, k := range kids {
		n := jsonSize(k) + 1
		if n > room {
			sj.ChildrenOmitted = len(kids) - i
			break
		}
		room -= n
		sj.Children = append(sj.Children, k)
	}
	return sj
}

type parseOutput struct {
	File           string       `json:"file,omitempty"`
	Valid          bool         `json:"valid"`
	StatementCount int          `json:"statementCount"`
	Outline        []symbolJSON `json:"outline"`
	pageOut
	Diagnostics   []diagJSON `json:"diagnostics"`
	ErrorsOmitted int        `json:"diagnosticsOmitted,omitempty"`
	Summary       string     `json:"summary"`
}

// maxParseErrors is how many parse errors parse_wfl lists (analyze_wfl
// pages through all of them).
const maxParseErrors = 50

var parseTool = &Tool{
	Name:  "parse_wfl",
	Title: "Parse a WFL program",
	Description: "Parse a WFL program and return its outline (actions with their parameters, containers with " +
		"their properties and methods, variables, constants, lists, maps, patterns, tests; each at its name's line " +
		"and column, with where its declaration ends) and its parse errors. The outline is paged by top-level " +
		"declaration (limit, offset). Give the program as source, or a workspace file as path.",
	Input: object(nil, func() map[string]*Schema {
		p := sourceOrPath()
		p["include_positions"] = boolean("include lines and columns in the outline (default true)")
		return pageProps(p, "top-level declarations", maxOutline)
	}()),
	Output: openObject([]string{"valid", "statementCount", "outline", "diagnostics", "summary"}, pageSchema(map[string]*Schema{
		"file":           str("the workspace file parsed, when a path was given"),
		"valid":          boolean("true when the program parses without errors"),
		"statementCount": integer("top-level statements", 0),
		"outline":        array("the declarations, as a tree: a page of the top-level ones (limit, offset), each with its nested ones", symbolSchema),
		"diagnostics": array("parse errors in source order, at most "+itoa(maxParseErrors)+
			" (analyze_wfl lists them all, page by page)", diagSchema),
		"diagnosticsOmitted": integer("parse errors not listed", 0),
		"summary":            str("one line for people"),
	}, "top-level declarations")),
	ReadOnly: true, Idempotent: true,
	Call: onDocument(func(ctx context.Context, c *Call, d *document) Result {
		args := c.Args
		p := pageArgs(args, maxOutline)
		diags, n := d.diagnostics(func(x diag.Diagnostic) bool { return x.Category == diag.Parse },
			page{limit: maxParseErrors, budget: p.budget / 3})
		p.budget -= jsonSize(diags)
		syms := presentation.DocumentSymbols(d.a)
		outline, po := outlinePage(d.a, syms, boolArg(args, "include_positions", true), p)
		out := parseOutput{File: d.path, Outline: outline, pageOut: po, Diagnostics: diags, ErrorsOmitted: n.Omitted}
		if d.a.File != nil {
			out.StatementCount = len(d.a.File.Stmts)
		}
		out.Valid = n.total == 0
		if out.Valid {
			out.Summary = "parsed " + itoa(out.StatementCount) + " top-level statement" + plural(out.StatementCount) + " without errors"
		} else {
			out.Summary = itoa(n.total) + " parse error" + plural(n.total)
			if n.Omitted > 0 {
				out.Summary += " (the first " + itoa(n.listed) + " listed; analyze_wfl lists them all)"
			}
		}
		out.Summary += po.note(len(outline), "top-level declarations")
		return Result{Structured: out}
	}),
}
