package mcpserver

// This file lists the product's tools, in the order tools/list shows them.

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
		getCompletionsTool,
		getSymbolInfoTool,
		findDefinitionTool,
		findReferencesTool,
		renameTool,
		checkWorkspaceTool,
		explainTool,
		lookupBuiltinTool,
	}
}
