package mcpserver

// This file gathers WFL's primitives: what `wfl-lsp --mcp` serves. Each
// tool is in its own tool_*.go file, the resources and templates in
// wfl_resources.go, the prompts in wfl_prompts.go; all are declared like
// any other server's (primitives.go).

// WFL returns wfl-lsp's tools, resources, templates and prompts, in the
// order their list methods show them.
func WFL() Primitives {
	return Primitives{
		Tools: []*Tool{
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
		},
		Resources: wflResources(),
		Templates: wflTemplates(),
		Prompts:   wflPrompts(),
	}
}
