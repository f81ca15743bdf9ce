package mcpserver

// This file converts between the core's byte offsets and the 1-based lines
// and columns (counted in characters) that MCP tools show, and declares the
// position arguments and span shapes the position tools share.

import (
	"context"
	"fmt"

	"wfl-lsp/core"
	"wfl-lsp/lang/token"
)

// spanJSON is a range of a document in 1-based lines and columns; the end
// is just past the last character.
type spanJSON struct {
	Line      int `json:"line"`
	Column    int `json:"column"`
	EndLine   int `json:"endLine"`
	EndColumn int `json:"endColumn"`
}

func spanOf(a *core.Analysis, sp token.Span) spanJSON { return spanOfLines(a.Lines, sp) }

func spanOfLines(lines *token.Lines, sp token.Span) spanJSON {
	l, c := lines.OffsetPosition(sp.Start)
	el, ec := lines.OffsetPosition(sp.End)
	return spanJSON{Line: l, Column: c, EndLine: el, EndColumn: ec}
}

var spanProps = map[string]*Schema{
	"line":      integer("1-based line where it starts", 1),
	"column":    integer("1-based column (in characters) where it starts", 1),
	"endLine":   integer("1-based line where it ends", 1),
	"endColumn": integer("1-based column just past its end", 1),
}

// spanSchema returns an object schema with the span members and extra ones.
func spanSchema(required []string, extra map[string]*Schema) *Schema {
	props := map[string]*Schema{}
	for k, v := range spanProps {
		props[k] = v
	}
	for k, v := range extra {
		props[k] = v
	}
	return openObject(append([]string{"line", "column", "endLine", "endColumn"}, required...), props)
}

// positionInput is the input schema of tools that act at a position.
func positionInput(extra map[string]*Schema) *Schema {
	props := sourceOrPath()
	props["line"] = integer("1-based line", 1)
	props["column"] = integer("1-based column, counted in characters", 1)
	for k, v := range extra {
		props[k] = v
	}
	return object([]string{"line", "column"}, props)
}

// atPosition makes the Call of a tool that acts at a position: f runs on
// the program (onDocument) and the byte offset of the line and column
// arguments, and a position outside the program is the answer instead.
func atPosition(f func(ctx context.Context, c *Call, d *document, off int) Result) func(context.Context, *Call) Result {
	return onDocument(func(ctx context.Context, c *Call, d *document) Result {
		off, fail := offsetArg(d, c.Args)
		if fail != nil {
			return *fail
		}
		return f(ctx, c, d, off)
	})
}

// offsetArg returns the byte offset of the line and column arguments.
func offsetArg(d *document, args map[string]any) (int, *Result) {
	line, _ := intArg(args, "line")
	col, _ := intArg(args, "column")
	off, ok := d.a.Lines.PositionOffset(line, col)
	if !ok {
		f := failure("invalid_position", fmt.Sprintf("line %d, column %d is outside the document (it has %d lines)", line, col, d.a.Lines.Count()))
		return 0, &f
	}
	return off, nil
}

// editJSON is a text edit: replace the span (in the original text) by newText.
type editJSON struct {
	spanJSON
	NewText string `json:"newText"`
}

var editSchema = spanSchema([]string{"newText"}, map[string]*Schema{"newText": str("the text that replaces the span")})

func editsOf(a *core.Analysis, edits []core.Edit) []editJSON {
	out := []editJSON{}
	for _, e := range edits {
		out = append(out, editJSON{spanJSON: spanOf(a, token.Span{Start: e.Start, End: e.End}), NewText: e.Text})
	}
	return out
}

// name is the document's name in a diff: its workspace path, or
// source.wfl for a program given as source.
func (d *document) name() string {
	if d.path != "" {
		return d.path
	}
	return "source.wfl"
}

// withFile adds the workspace path of d to a tool's output, when it has one.
func withFile(d *document, out map[string]any) map[string]any {
	if d.path != "" {
		out["file"] = d.path
	}
	return out
}
