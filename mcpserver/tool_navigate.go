package mcpserver

// This file implements the tools that act at a position: get_symbol_info
// (what the name there is, from the core's hover), find_definition and
// find_references (from the core's resolved names).

import (
	"context"

	"wfl-lsp/lang/token"
)

var getSymbolInfoTool = &tool{
	name:  "get_symbol_info",
	title: "Describe the name at a position",
	description: "Say what the word at a 1-based line and column of a WFL program is: a variable (with its type), " +
		"an action (with its parameters), a container, a builtin function or a keyword, with its documentation " +
		"and where it is declared.",
	input: positionInput(nil),
	output: openObject([]string{"found"}, map[string]*schema{
		"found":           boolean("false when there is nothing to say about that position"),
		"kind":            str(`"variable", "action", "builtin", "keyword", …`),
		"name":            str("the name"),
		"signature":       array("declaration lines in WFL syntax", str("")),
		"doc":             str("documentation or doc comment"),
		"declarationLine": integer("1-based line of the declaration in this program, when there is one", 1),
		"markdown":        str("the same information as markdown"),
		"span":            spanSchema(nil, nil),
	}),
	readOnly: true, idempotent: true,
	run: func(ctx context.Context, s *Server, r *request, args map[string]any) toolResult {
		d, fail := s.document(args)
		if fail != nil {
			return *fail
		}
		off, fail := offsetArg(d, args)
		if fail != nil {
			return *fail
		}
		h := d.a.Hover(off)
		if h == nil {
			return toolResult{structured: map[string]any{"found": false}}
		}
		out := map[string]any{"found": true, "kind": h.Kind, "name": h.Name, "signature": append([]string{}, h.Signature...),
			"doc": h.Doc, "markdown": h.Markdown(), "span": spanOf(d.a, h.Span)}
		if h.DeclLine > 0 {
			out["declarationLine"] = h.DeclLine
		}
		return toolResult{structured: out}
	},
}

var findDefinitionTool = &tool{
	name:  "find_definition",
	title: "Find where a name is declared",
	description: "Return where the name at a 1-based line and column of a WFL program is declared (several places " +
		"for an overloaded action). Builtins and keywords have no declaration in the program.",
	input: positionInput(nil),
	output: openObject([]string{"definitions"}, map[string]*schema{
		"definitions": array("declarations of the name", spanSchema(nil, nil)),
	}),
	readOnly: true, idempotent: true,
	run: func(ctx context.Context, s *Server, r *request, args map[string]any) toolResult {
		d, fail := s.document(args)
		if fail != nil {
			return *fail
		}
		off, fail := offsetArg(d, args)
		if fail != nil {
			return *fail
		}
		defs := []spanJSON{}
		for _, sp := range d.a.Definition(off) {
			defs = append(defs, spanOf(d.a, sp))
		}
		return toolResult{structured: map[string]any{"definitions": defs}}
	},
}

type referenceJSON struct {
	spanJSON
	Declaration bool `json:"declaration"`
	Write       bool `json:"write"`
}

var findReferencesTool = &tool{
	name:  "find_references",
	title: "Find every use of a name",
	description: "Return every place in a WFL program that names the same thing as the name at a 1-based line and " +
		"column, each marked as a declaration and as a write (declaration or assignment) or a read.",
	input: positionInput(map[string]*schema{
		"includeDeclaration": boolean("include the declarations (default true)"),
	}),
	output: openObject([]string{"references", "count"}, map[string]*schema{
		"references": array("the places, in source order", spanSchema([]string{"declaration", "write"}, map[string]*schema{
			"declaration": boolean("the place declares the name"),
			"write":       boolean("the place declares or assigns it"),
		})),
		"count": integer("number of places", 0),
	}),
	readOnly: true, idempotent: true,
	run: func(ctx context.Context, s *Server, r *request, args map[string]any) toolResult {
		d, fail := s.document(args)
		if fail != nil {
			return *fail
		}
		off, fail := offsetArg(d, args)
		if fail != nil {
			return *fail
		}
		refs := []referenceJSON{}
		for _, ref := range d.a.References(off, boolArg(args, "includeDeclaration", true)) {
			refs = append(refs, referenceJSON{spanJSON: spanOf(d.a, token.Span(ref.Span)), Declaration: ref.Decl, Write: ref.Write})
		}
		return toolResult{structured: map[string]any{"references": refs, "count": len(refs)}}
	},
}
