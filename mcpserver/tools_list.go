package mcpserver

// This file lists the product's tools, in the order tools/list shows them.
//
// TODO(mcp): get_completions and rename_symbol wait for their core
// functions (completion, rename); they are left out rather than faked.

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
		explainTool,
		lookupBuiltinTool,
	}
}
