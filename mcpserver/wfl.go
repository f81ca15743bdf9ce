package mcpserver

// This file gathers WFL's primitives: what `wfl-lsp --mcp` serves. Each
// tool is in its own tool_*.go file, the resources and templates in
// wfl_resources.go, the prompts in wfl_prompts.go; all are declared like
// any other server's (primitives.go).

import (
	"context"
	"runtime"
)

// WFL returns wfl-lsp's tools, resources, templates and prompts, in the
// order their list methods show them; they read the workspace through
// the *workspace its OpenWorkspace makes of the session's folders.
func WFL() Primitives {
	return Primitives{
		Tools: []*Tool{
			bounded(parseTool),
			bounded(analyzeTool),
			bounded(typecheckTool),
			bounded(lintTool),
			bounded(formatTool),
			bounded(fixTool),
			bounded(documentSymbolsTool),
			bounded(workspaceSymbolsTool),
			bounded(getCompletionsTool),
			bounded(getSymbolInfoTool),
			bounded(findDefinitionTool),
			bounded(findReferencesTool),
			bounded(renameTool),
			bounded(moveFileTool),
			bounded(checkWorkspaceTool),
			explainTool,       // a table's entry: no analysis
			lookupBuiltinTool, // likewise
		},
		Resources: wflResources(),
		Templates: wflTemplates(),
		Prompts:   wflPrompts(),
		OpenWorkspace: func(folders []string) (any, error) {
			return newWorkspace(folders)
		},
	}
}

// analysing holds a token for each tool call analysing WFL at the moment,
// in every session of the process: at most one a processor. A burst of
// calls on large programs (ten 5 MB programs at once, 3.8 s each alone)
// otherwise shared the processors until every one of them passed its time
// limit, none answered; in turn they are answered one after another, each
// call's limit counting from its request, so that one that waits too long
// is answered with the timeout without having used a processor.
var analysing = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)))

// bounded returns t, whose calls wait for a token of analysing to run.
func bounded(t *Tool) *Tool {
	b := *t
	call := t.Call
	b.Call = func(ctx context.Context, c *Call) Result {
		select {
		case analysing <- struct{}{}:
		case <-ctx.Done():
			return c.Interrupted(ctx)
		}
		defer func() { <-analysing }()
		return call(ctx, c)
	}
	return &b
}
