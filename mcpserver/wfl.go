package mcpserver

// This file gathers WFL's primitives: what `wfl-lsp --mcp` serves. Each
// tool is in its own tool_*.go file, the resources and templates in
// wfl_resources.go, the prompts in wfl_prompts.go; all are declared like
// any other server's (primitives.go).

// WFL returns wfl-lsp's tools, resources, templates and prompts, in the
// order their list methods show them; they read the workspace through
// the *workspace its OpenWorkspace makes of the session's folders.
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
		OpenWorkspace: func(folders []string) (any, error) {
			return newWorkspace(folders)
		},
	}
}
