// Package mcpserver is the MCP front door. (Being built: see issue "Foundation".)
package mcpserver

import (
	"context"
	"errors"
	"io"
	"log/slog"
)

// Options configure the MCP server.
type Options struct {
	Root    string       // absolute workspace folder
	Version string       // server version reported in initialize
	Logger  *slog.Logger // never nil
	Token   string       // bearer token for HTTP, or ""
}

// ServeStdio serves MCP over newline-delimited JSON on in and out.
func ServeStdio(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	return errors.New("mcp: not built yet")
}

// ServeHTTP serves MCP over Streamable HTTP at addr until ctx ends.
func ServeHTTP(ctx context.Context, addr string, opts Options) error {
	return errors.New("mcp http: not built yet")
}
