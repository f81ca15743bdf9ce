package mcpserver

// This file is the entry point: WFL's primitives served by the protocol
// package (mcp) under wfl-lsp's name, and the protocol's types under the
// names WFL's files and main use.

import (
	"context"
	"io"
	"os"

	"wfl-lsp/mcpserver/mcp"
)

// The protocol's types that main, bench/mcp and WFL's tools name, as this
// package has always named them.
type (
	Options    = mcp.Options
	Server     = mcp.Server
	Primitives = mcp.Primitives
	Tool       = mcp.Tool
	Call       = mcp.Call
	Result     = mcp.Result
	Schema     = mcp.Schema
)

// Failed is [mcp.Failed]: the result of a tool that could not do its work
// (bench/mcp, a module of its own, serves its echo tool with it).
func Failed(err error) Result { return mcp.Failed(err) }

// info is how wfl-lsp names itself to a client, and what it tells the
// client's model.
var info = mcp.Info{
	Name:        "wfl-lsp",
	Title:       "WFL language server",
	Description: "Parse, check, lint and explore WFL programs",
	WebsiteURL:  "https://github.com/WebFirstLanguage/wfl",
	Instructions: "wfl-lsp answers questions about WFL (WebFirst Language) programs from the same " +
		"language core as the editor. Check a program with analyze_wfl (all diagnostics), parse_wfl (an outline), " +
		"typecheck_wfl or lint_wfl; each takes the program text as `source` or a workspace file as `path`. " +
		"get_symbol_info, find_definition, find_references, get_completions and rename_symbol work at a position: " +
		"1-based lines and 1-based columns counted in characters; given a workspace `path`, they follow " +
		"`include from` across the workspace's files. format_wfl, fix_wfl and rename_symbol return " +
		"edits and never write files. explain_diagnostic explains a diagnostic code; lookup_builtin documents a builtin. " +
		"Resources list the workspace's files, symbols, diagnostics and configuration; prompts help fix, " +
		"explain, write and translate WFL.",
}

// Environment variables that widen the HTTP Origin and Host checks
// (Options.AllowedOrigins, Options.AllowedHosts).
const (
	envAllowedOrigins = "WFL_MCP_ALLOWED_ORIGINS"
	envAllowedHosts   = "WFL_MCP_ALLOWED_HOSTS"
)

// wflOptions are opts with wfl-lsp's defaults: its name, WFL's primitives
// when opts names none, and the origins and hosts its environment allows.
func wflOptions(opts Options) Options {
	if opts.AllowedOrigins == "" {
		opts.AllowedOrigins = os.Getenv(envAllowedOrigins)
	}
	if opts.AllowedHosts == "" {
		opts.AllowedHosts = os.Getenv(envAllowedHosts)
	}
	if opts.Info == (mcp.Info{}) {
		opts.Info = info
	}
	if opts.Primitives == nil {
		p := WFL()
		opts.Primitives = &p
	}
	return opts
}

// New builds a server of WFL's primitives (or of opts.Primitives) under
// wfl-lsp's name.
func New(opts Options) (*Server, error) { return mcp.New(wflOptions(opts)) }

// ServeStdio serves WFL's primitives over newline-delimited JSON on in and
// out until the input ends or ctx is done (mcp.ServeStdio).
func ServeStdio(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	return mcp.ServeStdio(ctx, in, out, wflOptions(opts))
}

// ServeHTTP serves WFL's primitives over Streamable HTTP at
// http://addr/mcp until ctx ends (mcp.ServeHTTP). addr ":PORT" binds
// 127.0.0.1; a non-loopback address needs opts.Token.
func ServeHTTP(ctx context.Context, addr string, opts Options) error {
	return mcp.ServeHTTP(ctx, addr, wflOptions(opts))
}

// workspaceOf is the workspace a call of WFL's primitives reads: the one
// WFL().OpenWorkspace made of the call's folders.
func workspaceOf(c *Call) *workspace {
	ws, _ := c.Workspace().(*workspace)
	return ws
}

// failure is the isError result of a tool that failed for a reason of
// kind (a word a client can test) told by msg.
func failure(kind, msg string) Result { return mcp.Failure{Kind: kind, Message: msg}.Result() }

// pathFailure is the isError result of a tool that could not use a path.
func pathFailure(e *pathError) Result {
	return mcp.Failure{Kind: e.Kind, Message: e.Message, Path: e.Path, Line: e.Line, Byte: e.Byte}.Result()
}
