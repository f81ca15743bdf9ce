package mcpserver

// This file lists the product's tools, in the order tools/list shows them.
//
// TODO(mcp): get_completions waits for its core function (completion); it
// is left out rather than faked.

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
		renameTool,
		checkWorkspaceTool,
		explainTool,
		lookupBuiltinTool,
	}
}
