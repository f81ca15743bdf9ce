// Package mcpserver is wfl-lsp's MCP front door: WFL's tools, resources,
// templates and prompts, answering from the same language core as the
// editor, served by the protocol package mcp (mcpserver/mcp).
//
// Start with [WFL] (wfl.go), which lists the primitives, and [ServeStdio]
// and [ServeHTTP] (serve.go), which main calls. The files:
//
//   - wfl.go, tool_*.go (one file per tool), wfl_resources.go,
//     wfl_summaries.go, wfl_prompts.go: WFL's primitives, declared as any
//     server's are (mcp.Primitives).
//   - document.go: the program a tool reads (source or a workspace path)
//     and the diagnostics as tools and resources show them; positions.go,
//     changes.go: positions, edits and whole-file changes in answers;
//     budget.go: answers sized for a model, lists paged; crossfile.go:
//     navigation and rename across included files; schemas.go: the tools'
//     schemas and arguments.
//   - workspace.go: the folders tools may read and path confinement,
//     through a core.FileAccess confined to them (os.Root), opened for
//     each set of folders the protocol finds (WFL().OpenWorkspace).
//   - serve.go: the entry points, wfl-lsp's name and instructions, and
//     mcp's types under the names this package has always used.
//
// Invariants:
//   - Every file a tool, resource, template or prompt reads, and every file
//     the core follows for it through `include from`, is a WFL file (*.wfl,
//     .wflcfg) inside the workspace, outside hidden folders, of at most
//     core.MaxFileSize bytes, opened through an os.Root of its folder
//     (core.Confine): a path or link that leaves it is refused when the
//     file is opened, and an include that leaves it is reported on its line
//     without saying whether the file exists.
//   - mcpserver computes no language facts: it calls core (and reads the
//     lang/builtins registry).
package mcpserver
