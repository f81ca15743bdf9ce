package mcpserver

// This file implements get_completions: what may be written at a position,
// from the core's completion (names in scope, members, keywords, builtins).

import (
	"context"

	"wfl-lsp/core"
)

var completionKindNames = map[core.CompletionKind]string{
	core.CompleteKeyword: "keyword", core.CompleteSnippet: "snippet", core.CompleteVariable: "variable",
	core.CompleteConstant: "constant", core.CompleteParameter: "parameter", core.CompleteAction: "action",
	core.CompleteBuiltin: "builtin", core.CompleteContainer: "container", core.CompleteProperty: "property",
	core.CompleteMethod: "method",
}

const maxToolCompletions = 200

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
		"expression keywords, and builtin functions, filtered by the word being typed. The replaced span says " +
		"which characters an insertion replaces.",
	Input: positionInput(nil),
	Output: openObject([]string{"items", "count", "truncated", "replace"}, map[string]*Schema{
		"items": array("proposals, best first", openObject([]string{"label", "kind", "insert"}, map[string]*Schema{
			"label":  str("what is proposed"),
			"kind":   enum("what it is", "keyword", "snippet", "variable", "constant", "parameter", "action", "builtin", "container", "property", "method"),
			"detail": str("a type or a signature"),
			"doc":    str("documentation"),
			"insert": str("the text to insert in place of the replaced span"),
		})),
		"count":     integer("proposals found", 0),
		"truncated": boolean("true when more than 200 were found and the rest left out"),
		"replace":   spanSchema(nil, nil),
	}),
	ReadOnly: true, Idempotent: true,
	Call: atPosition(func(ctx context.Context, c *Call, d *document, off int) Result {
		span, items := d.a.Completion(off, core.CompletionOptions{}) // no paths: they could name files outside the root
		out := []completionJSON{}
		for _, it := range items {
			if len(out) == maxToolCompletions {
				break
			}
			doc := it.Doc
			if doc == "" && it.Kind == core.CompleteBuiltin {
				doc, _ = core.BuiltinDoc(it.Label)
			}
			out = append(out, completionJSON{Label: it.Label, Kind: completionKindNames[it.Kind], Detail: it.Detail, Doc: doc, Insert: it.Insert})
		}
		return Result{Structured: map[string]any{"items": out, "count": len(items), "truncated": len(items) > len(out), "replace": spanOf(d.a, span)}}
	}),
}
