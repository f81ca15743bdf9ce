package mcpserver

// This file lists the product's tools, in the order tools/list shows them.
//
// TODO(mcp): get_completions, rename_symbol and explain_diagnostic wait for
// their core functions (completion, rename, a table of diagnostic codes);
// they are left out rather than faked.

func productTools() []*tool {
	return []*tool{
		parseTool,
		analyzeTool,
		typecheckTool,
		lintTool,
		formatTool,
		fixTool,
		documentSymbolsTool,
		workspaceSymbolsTool,
		getSymbolInfoTool,
		findDefinitionTool,
		findReferencesTool,
		checkWorkspaceTool,
		lookupBuiltinTool,
	}
}
