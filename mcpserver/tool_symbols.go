package mcpserver

// This file implements document_symbols (one program's declarations as a
// tree) and workspace_symbols (declarations of every workspace file whose
// name matches a query), both from the core's document symbols.

import (
	"context"
	"strconv"
	"strings"

	"wfl-lsp/core"
)

func itoa(n int) string { return strconv.Itoa(n) }

var documentSymbolsTool = &Tool{
	Name:        "document_symbols",
	Title:       "List the declarations of a WFL program",
	Description: "Return the declarations of a WFL program as a tree (actions, parameters, containers, properties, methods, events, variables, constants, lists, maps, patterns, tests), each with its lines and columns.",
	Input:       object(nil, sourceOrPath()),
	Output: openObject([]string{"symbols"}, map[string]*Schema{
		"file":    str("the workspace file, when a path was given"),
		"symbols": array("the declarations, as a tree", symbolSchema),
	}),
	ReadOnly: true, Idempotent: true,
	Call: onDocument(func(ctx context.Context, c *Call, d *document) Result {
		return Result{Structured: withFile(d, map[string]any{"symbols": outlineOf(d.a, d.a.DocumentSymbols(), true)})}
	}),
}

type workspaceSymbol struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Container string `json:"container,omitempty"`
	Path      string `json:"path"`
	spanJSON
}

const maxWorkspaceSymbols = 500

var workspaceSymbolsTool = &Tool{
	Name:  "workspace_symbols",
	Title: "Find declarations across the workspace",
	Description: "Search every .wfl file of the workspace for declarations (actions, containers, variables, " +
		"constants, …) whose name contains the query, ignoring case; an empty query lists them all (at most 500).",
	Input: object([]string{"query"}, map[string]*Schema{
		"query": str("part of a name; empty for all"),
	}),
	Output: openObject([]string{"symbols", "count", "truncated"}, map[string]*Schema{
		"symbols": array("matching declarations, by file then position", spanSchema([]string{"name", "kind", "path"}, map[string]*Schema{
			"name": str("the declared name"), "kind": str("what it is"), "path": str("the file, relative to the root"),
			"container": str("the declaration it is nested in"),
		})),
		"count":     integer("matches found", 0),
		"truncated": boolean("true when more than 500 matched and the rest were left out"),
	}),
	ReadOnly: true, Idempotent: true,
	Call: func(ctx context.Context, c *Call) Result {
		args := c.Args
		q, _ := strArg(args, "query")
		syms, count, err := c.workspace().workspaceSymbols(ctx, strings.ToLower(strings.TrimSpace(q)))
		if err != nil {
			return c.interrupted(ctx)
		}
		return Result{Structured: map[string]any{"symbols": syms, "count": count, "truncated": count > len(syms)}}
	},
}

// workspaceSymbols lists the declarations whose lower-case name contains q.
func (ws *workspace) workspaceSymbols(ctx context.Context, q string) ([]workspaceSymbol, int, error) {
	out := []workspaceSymbol{}
	count := 0
	for _, rel := range ws.wflFiles() {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		syms, n := ws.fileSymbols(rel, q, maxWorkspaceSymbols-len(out))
		out = append(out, syms...)
		count += n
	}
	return out, count, nil
}

// fileSymbols lists the declarations of a workspace file whose lower-case
// name contains q, at most limit of them (all when limit < 0), and counts
// them all. An unreadable file has none.
func (ws *workspace) fileSymbols(rel, q string, limit int) ([]workspaceSymbol, int) {
	out := []workspaceSymbol{}
	text, _, perr := ws.readFile(rel)
	if perr != nil {
		return out, 0
	}
	a := ws.snapshot(context.Background(), rel, text).Analysis()
	count := 0
	var walk func(syms []core.DocumentSymbol, container string)
	walk = func(syms []core.DocumentSymbol, container string) {
		for _, sym := range syms {
			if strings.Contains(strings.ToLower(sym.Name), q) {
				count++
				if limit < 0 || len(out) < limit {
					out = append(out, workspaceSymbol{Name: sym.Name, Kind: sym.Kind.String(), Container: container, Path: rel, spanJSON: spanOf(a, sym.NameSpan)})
				}
			}
			walk(sym.Children, sym.Name)
		}
	}
	walk(a.DocumentSymbols(), "")
	return out, count
}
