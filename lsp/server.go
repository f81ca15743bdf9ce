// Package lsp is the language-server front door: it speaks LSP over
// go.lsp.dev/protocol and go.lsp.dev/jsonrpc2 and answers every request from
// core. (Being built: see issue "Foundation".)
package lsp

import (
	"context"
	"errors"
	"io"
	"log/slog"
)

// ErrExitWithoutShutdown is returned by Serve when the client sent exit
// without shutdown, or closed the stream; the process should exit 1.
var ErrExitWithoutShutdown = errors.New("exit without shutdown")

// Options configure Serve.
type Options struct {
	Version   string       // server version reported in initialize
	Logger    *slog.Logger // never nil
	ClientPID int          // the editor's process id, or 0
}

// Serve runs the language server on the stream until exit.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	return errors.New("lsp: not built yet")
}
