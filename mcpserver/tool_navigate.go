package mcpserver

// This file implements the tools that act at a position: get_symbol_info
// (what the name there is, from the core's hover), find_definition and
// find_references (from the core's resolved names). For a workspace file
// given by path they follow `include from` as the language server does
// (crossfile.go): a name declared at the top level of an included file is
// found there, and its references in every workspace file of the family.

import (
	"context"

	"wfl-lsp/core/navigation"
	"wfl-lsp/lang/token"
)

var getSymbolInfoTool = &Tool{
	Name:  "get_symbol_info",
	Title: "Describe the name at a position",
	Description: "Say what the word at a 1-based line and column of a WFL program is: a variable (with its type), " +
		"an action (with its parameters), a container, a builtin function or a keyword, with its documentation " +
		"and where it is declared. For a workspace file given by path, a name declared in a file it includes " +
		"(include from \"…\") is described from that file, and declarationFile names it.",
	Input: positionInput(nil),
	Output: openObject([]string{"found"}, map[string]*Schema{
		"found":           boolean("false when there is nothing to say about that position"),
		"kind":            str(`"variable", "action", "builtin", "keyword", …`),
		"name":            str("the name"),
		"signature":       array("declaration lines in WFL syntax", str("")),
		"doc":             str("documentation or doc comment"),
		"declarationLine": integer("1-based line of the declaration, when there is one (in declarationFile when that is given)", 1),
		"declarationFile": str("the workspace file of the declaration, when it is another file the program includes"),
		"markdown":        str("the same information as markdown"),
		"span":            spanSchema(nil, nil),
	}),
	ReadOnly: true, Idempotent: true,
	Call: atPosition(func(ctx context.Context, c *Call, d *document, off int) Result {
		x := newCrossFiles(ctx, c, d)
		h := navigation.HoverAcross(d.a, off, x.base, x.load)
		if h == nil {
			return Result{Structured: map[string]any{"found": false}}
		}
		out := map[string]any{"found": true, "kind": h.Kind, "name": h.Name, "signature": append([]string{}, h.Signature...),
			"doc": h.Doc, "markdown": h.Markdown(), "span": spanOf(d.a, h.Span)}
		if h.DeclLine > 0 {
			out["declarationLine"] = h.DeclLine
		} else if h.Kind != "builtin" && h.Kind != "keyword" {
			if defs := navigation.IncludedDefinition(d.a, off, x.base, x.load); len(defs) > 0 {
				out["declarationFile"] = workspaceOf(c).rel(defs[0].Path)
				out["declarationLine"] = defs[0].Lines.Line(defs[0].Span.Start) + 1
			}
		}
		return Result{Structured: out}
	}),
}

var findDefinitionTool = &Tool{
	Name:  "find_definition",
	Title: "Find where a name is declared",
	Description: "Return where the name at a 1-based line and column of a WFL program is declared (several places " +
		"for an overloaded action). For a workspace file given by path, a name declared at the top level of a file " +
		"it includes (include from \"…\", transitively) is found in that file; each place names its file. " +
		"Builtins and keywords have no declaration in the program.",
	Input: positionInput(nil),
	Output: openObject([]string{"definitions"}, map[string]*Schema{
		"definitions": array("declarations of the name", spanSchema(nil, map[string]*Schema{"file": fileProp})),
	}),
	ReadOnly: true, Idempotent: true,
	Call: atPosition(func(ctx context.Context, c *Call, d *document, off int) Result {
		x := newCrossFiles(ctx, c, d)
		defs := []fileSpan{}
		for _, sp := range navigation.Definition(d.a, off) {
			defs = append(defs, x.here(d, sp))
		}
		if len(defs) == 0 {
			for _, fs := range navigation.IncludedDefinition(d.a, off, x.base, x.load) {
				defs = append(defs, x.spanAt(fs.Path, fs.Lines, fs.Span))
			}
		}
		return Result{Structured: map[string]any{"definitions": defs}}
	}),
}

type referenceJSON struct {
	fileSpan
	Declaration bool `json:"declaration"`
	Write       bool `json:"write"`
}

var findReferencesTool = &Tool{
	Name:  "find_references",
	Title: "Find every use of a name",
	Description: "Return every place in a WFL program that names the same thing as the name at a 1-based line and " +
		"column, each marked as a declaration and as a write (declaration or assignment) or a read. For a workspace " +
		"file given by path, a name shared through include from (declared at the top level of one file and used in " +
		"files that include it) is found in every workspace file of that family; each place names its file " +
		"(in other files than the one asked about, write marks the declarations only).",
	Input: positionInput(pageProps(map[string]*Schema{
		"includeDeclaration": boolean("include the declarations (default true)"),
	}, "places", maxReferences)),
	Output: openObject([]string{"references", "count"}, pageSchema(map[string]*Schema{
		"references": array("the places, in source order (by file, then position, across files): a page of them", spanSchema([]string{"declaration", "write"}, map[string]*Schema{
			"declaration": boolean("the place declares the name"),
			"write":       boolean("the place declares or assigns it"),
			"file":        fileProp,
		})),
		"count": integer("number of places, listed or not", 0),
	}, "places")),
	ReadOnly: true, Idempotent: true,
	Call: atPosition(func(ctx context.Context, c *Call, d *document, off int) Result {
		args := c.Args
		withDecl := boolArg(args, "includeDeclaration", true)
		x := newCrossFiles(ctx, c, d)
		refs := []referenceJSON{}
		if across, ok := navigation.ReferencesAcross(d.a, off, x.base, x.candidates(), x.includesOf, x.load); ok {
			// In the document itself the core's References knows the
			// assignments; elsewhere only the declarations are writes.
			writes := map[token.Span]bool{}
			for _, ref := range navigation.References(d.a, off, true) {
				writes[token.Span(ref.Span)] = ref.Write
			}
			for _, ref := range across {
				if ref.Decl && !withDecl {
					continue
				}
				write := ref.Decl
				if w, ok := writes[ref.Span]; ok && ref.Path == x.base {
					write = w
				}
				refs = append(refs, referenceJSON{fileSpan: x.spanAt(ref.Path, ref.Lines, ref.Span), Declaration: ref.Decl, Write: write})
			}
			return referencesPage(refs, pageArgs(args, maxReferences))
		}
		for _, ref := range navigation.References(d.a, off, withDecl) {
			refs = append(refs, referenceJSON{fileSpan: x.here(d, token.Span(ref.Span)), Declaration: ref.Decl, Write: ref.Write})
		}
		return referencesPage(refs, pageArgs(args, maxReferences))
	}),
}

// maxReferences is how many places find_references lists by default.
const maxReferences = 200

// referencesPage is find_references' answer: the page p of refs.
func referencesPage(refs []referenceJSON, p page) Result {
	end, po := paged(len(refs), p, func(i int) int { return jsonSize(refs[i]) })
	out := map[string]any{"references": refs[min(p.offset, len(refs)):end], "count": len(refs)}
	addPage(out, po)
	return Result{Structured: out}
}
