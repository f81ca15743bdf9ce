package mcpserver

// This file implements get_completions: what may be written at a position,
// from the core's completion (names in scope, members, keywords, builtins).

import (
	"context"
	"wfl-lsp/core/completion"
	"wfl-lsp/core/navigation"
)

const maxToolCompletions = 100

type completionJSON struct {
	Label  string `json:"label"`
	Kind   string `json:"kind"`
	Detail string `json:"detail,omitempty"`
	Doc    string `json:"doc,omitempty"`
	Insert string `json:"insert"`
}

var getCompletionsTool = &Tool{
	Name:  "get_completions",
	Title: "Complete at a position",
	Description: "Return what may be written at a 1-based line and column of a WFL program: the variables, " +
		"constants, parameters and actions in scope there, properties and methods after a dot, statement and " +
		"expression keywords, builtin functions, and after `include from \"` the WFL files and folders of the workspace, " +
		"filtered by the word being typed. The replaced span says " +
		"which characters an insertion replaces.",
	Input: positionInput(pageProps(map[string]*Schema{}, "proposals", maxToolCompletions)),
	Output: openObject([]string{"items", "count", "truncated", "replace"}, pageSchema(map[string]*Schema{
		"items": array("proposals, best first", openObject([]string{"label", "kind", "insert"}, map[string]*Schema{
			"label":  str("what is proposed"),
			"kind":   enum("what it is", completionKinds()...),
			"detail": str("a type or a signature"),
			"doc":    str("documentation"),
			"insert": str("the text to insert in place of the replaced span"),
		})),
		"count":     integer("proposals found", 0),
		"truncated": boolean("true when this answer does not list every proposal (see nextOffset)"),
		"replace":   spanSchema(nil, nil),
	}, "proposals")),
	ReadOnly: true, Idempotent: true,
	Call: atPosition(func(ctx context.Context, c *Call, d *document, off int) Result {
		// The paths after `include from "` are listed through the
		// session's access: the folders of the workspace only.
		span, items := completion.List(d.a, off, completion.Options{Path: d.snap.URI.Path(), Files: d.snap.Files(), Text: d.snap.Text})
		p := pageArgs(c.Args, maxToolCompletions)
		out := []completionJSON{}
		end, po := paged(len(items), p, func(i int) int {
			it := items[i]
			doc := it.Doc
			if doc == "" && it.Kind == completion.Builtin {
				doc, _ = navigation.BuiltinDoc(it.Label)
			}
			cj := completionJSON{Label: it.Label, Kind: it.Kind.String(), Detail: it.Detail, Doc: doc, Insert: it.Insert}
			out = append(out, cj)
			return jsonSize(cj)
		})
		out = out[:end-min(p.offset, len(items))]
		res := map[string]any{"items": out, "count": len(items), "truncated": po.Omitted > 0, "replace": spanOf(d.a, span)}
		addPage(res, po)
		return Result{Structured: res}
	}),
}

// completionKinds are the names of every kind of proposal, as the items'
// kind says them.
func completionKinds() []string {
	var out []string
	for k := completion.Kind(1); k.String() != ""; k++ {
		out = append(out, k.String())
	}
	return out
}
