package mcpserver

// This file implements document_symbols (one program's declarations as a
// tree) and workspace_symbols (declarations of every workspace file whose
// name matches a query), both from the core's document symbols.

import (
	"context"
	"strconv"
	"strings"
	"wfl-lsp/core/presentation"
)

func itoa(n int) string { return strconv.Itoa(n) }

// maxOutline is how many top-level declarations an outline lists by
// default.
const maxOutline = 200

var documentSymbolsTool = &Tool{
	Name:  "document_symbols",
	Title: "List the declarations of a WFL program",
	Description: "Return the declarations of a WFL program as a tree (actions, parameters, containers, properties, " +
		"methods, events, variables, constants, lists, maps, patterns, tests), each at its name's line and column " +
		"(which get_symbol_info, find_definition, find_references and rename_symbol take) with where its declaration " +
		"ends; paged by top-level declaration (limit, offset).",
	Input: object(nil, pageProps(sourceOrPath(), "top-level declarations", maxOutline)),
	Output: openObject([]string{"symbols"}, pageSchema(map[string]*Schema{
		"file":    str("the workspace file, when a path was given"),
		"symbols": array("the declarations, as a tree: a page of the top-level ones, each with its nested ones", symbolSchema),
		"count":   integer("top-level declarations, listed or not", 0),
	}, "top-level declarations")),
	ReadOnly: true, Idempotent: true,
	Call: onDocument(func(ctx context.Context, c *Call, d *document) Result {
		syms := presentation.DocumentSymbols(d.a)
		page, po := outlinePage(d.a, syms, true, pageArgs(c.Args, maxOutline))
		out := map[string]any{"symbols": page, "count": len(syms)}
		addPage(out, po)
		return Result{Structured: withFile(d, out)}
	}),
}

type workspaceSymbol struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Container string `json:"container,omitempty"`
	Path      string `json:"path"`
	spanJSON
}

const maxWorkspaceSymbols = 200

var workspaceSymbolsTool = &Tool{
	Name:  "workspace_symbols",
	Title: "Find declarations across the workspace",
	Description: "Search every .wfl file of the workspace for declarations (actions, containers, variables, " +
		"constants, …) whose name contains the query, ignoring case; an empty query lists them all. Each is at its " +
		"name's line and column. Paged: limit, offset.",
	Input: object([]string{"query"}, pageProps(map[string]*Schema{
		"query": str("part of a name; empty for all"),
	}, "declarations", maxWorkspaceSymbols)),
	Output: openObject([]string{"symbols", "count", "truncated"}, pageSchema(map[string]*Schema{
		"symbols": array("matching declarations, by file then position: a page of them", spanSchema([]string{"name", "kind", "path"}, map[string]*Schema{
			"name": str("the declared name"), "kind": str("what it is"), "path": str("the file, relative to the root"),
			"container": str("the declaration it is nested in"),
		})),
		"count":     integer("matches found", 0),
		"truncated": boolean("true when this answer does not list every match (see nextOffset)"),
	}, "declarations")),
	ReadOnly: true, Idempotent: true,
	Call: func(ctx context.Context, c *Call) Result {
		args := c.Args
		q, _ := strArg(args, "query")
		p := pageArgs(args, maxWorkspaceSymbols)
		syms, count, err := workspaceOf(c).workspaceSymbols(ctx, strings.ToLower(strings.TrimSpace(q)), p.offset+p.limit)
		if err != nil {
			return c.Interrupted(ctx)
		}
		end, po := paged(len(syms), p, func(i int) int { return jsonSize(syms[i]) })
		listed := syms[min(p.offset, len(syms)):end]
		if end == len(syms) && count > len(syms) {
			po.Omitted = count - len(listed)
			next := end
			po.NextOffset = &next
		}
		out := map[string]any{"symbols": listed, "count": count, "truncated": po.Omitted > 0}
		addPage(out, po)
		return Result{Structured: out}
	},
}

// workspaceSymbols lists the first max declarations whose lower-case name
// contains q, and counts them all.
func (ws *workspace) workspaceSymbols(ctx context.Context, q string, max int) ([]workspaceSymbol, int, error) {
	out := []workspaceSymbol{}
	count := 0
	for _, rel := range ws.wflFiles() {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		syms, n := ws.fileSymbols(rel, q, max-len(out))
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
	var walk func(syms []presentation.DocumentSymbol, container string)
	walk = func(syms []presentation.DocumentSymbol, container string) {
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
	walk(presentation.DocumentSymbols(a), "")
	return out, count
}
