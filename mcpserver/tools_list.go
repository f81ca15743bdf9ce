package mcpserver

// This file lists the product's tools, in the order tools/list shows them.

func productTools() []*tool {
	return []*tool{
		analyzeTool,
		typecheckTool,
		lintTool,
		checkWorkspaceTool,
		lookupBuiltinTool,
	}
}
