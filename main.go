// Command wfl-lsp is the WFL language server. Started plainly it speaks LSP
// over stdio; with --mcp it speaks MCP over stdio or, with --http, over
// Streamable HTTP; `wfl-lsp check` and `wfl-lsp fmt` answer on the command
// line. This file only reads flags and picks a mode: the work is done in
// core (the language core), lsp and mcpserver (the two front doors) and
// internal/cli (the command-line subcommands).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
	"wfl-lsp/internal/cli"

	"wfl-lsp/internal/gcpolicy"
	"wfl-lsp/lsp"
	"wfl-lsp/mcpserver"
)

// version is the server's version; the WFL VS Code extension requires
// `--version` output to begin with "wfl-lsp version ".
const version = "0.1.0"

const usage = `wfl-lsp: the WFL language server

Usage:
  wfl-lsp [--stdio]                            LSP over stdio (the default)
  wfl-lsp --mcp [--root DIR]                   MCP over stdio; the workspace is DIR, else the client's
                                               roots, else the current folder
  wfl-lsp --mcp --http ADDR [--token-file F] [--instance NAME] [--max-connections N]
                [--max-sessions N] [--session-idle D] [--drain-period D] [--session-key-file K]
                                               MCP over Streamable HTTP at ADDR (path /mcp); NAME
                                               prefixes its session ids (several instances); at most
                                               N connections open at once (default 512); at most N
                                               sessions (default 1000; a new one ends the one unused
                                               the longest); a session unused for D ends (default
                                               30m); once stopped, /healthz answers 503 for D while
                                               requests are still served (default 0s); instances
                                               given the same key K take up each other's sessions
                                               and survive restarts
  wfl-lsp check [--json] [--no-warnings] [--all] PATH...
                                               report diagnostics like a compiler
  wfl-lsp fmt [-w | -l | -d] PATH...           print, write, list or diff the canonical format
  wfl-lsp version | --version                  print the version
  wfl-lsp --help                               print this help

A PATH may be a file or a folder (searched recursively for *.wfl), or - for
standard input (--stdin-name FILE: the file it stands for).

Common flags:
  --log-level debug|info|warn|error   log verbosity (default warn); --debug is --log-level debug
  --log-file PATH                     write logs to PATH instead of stderr
  --stdio, --clientProcessId N        LSP clients pass them: stdio is the default; the server
                                      exits when process N does

check exits 0 when no error was found, 1 when one was, 2 on a usage or I/O failure.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// globalFlags are the flags that come before a subcommand.
type globalFlags struct {
	stdio, mcp, debug, showVersion, help bool
	clientPID, maxConns, maxSessions     int
	sessionIdle, drainPeriod             time.Duration
	root, httpAddr, tokenFile, instance  string
	sessionKeyFile                       string
	logLevel, logFile                    string
}

// run is main without the process: it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var g globalFlags
	fs := flag.NewFlagSet("wfl-lsp", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&g.stdio, "stdio", false, "")
	fs.BoolVar(&g.mcp, "mcp", false, "")
	fs.BoolVar(&g.debug, "debug", false, "")
	fs.BoolVar(&g.showVersion, "version", false, "")
	fs.BoolVar(&g.showVersion, "v", false, "")
	fs.BoolVar(&g.help, "help", false, "")
	fs.BoolVar(&g.help, "h", false, "")
	fs.IntVar(&g.clientPID, "clientProcessId", 0, "")
	fs.StringVar(&g.root, "root", "", "")
	fs.StringVar(&g.httpAddr, "http", "", "")
	fs.StringVar(&g.tokenFile, "token-file", "", "")
	fs.StringVar(&g.instance, "instance", "", "")
	fs.StringVar(&g.sessionKeyFile, "session-key-file", "", "")
	fs.IntVar(&g.maxConns, "max-connections", 0, "")
	fs.IntVar(&g.maxSessions, "max-sessions", 0, "")
	fs.DurationVar(&g.sessionIdle, "session-idle", 0, "")
	fs.DurationVar(&g.drainPeriod, "drain-period", 0, "")
	fs.StringVar(&g.logLevel, "log-level", "warn", "")
	fs.StringVar(&g.logFile, "log-file", "", "")
	if err := fs.Parse(args); err != nil {
		fmt.Fprintf(stderr, "wfl-lsp: %v\nRun 'wfl-lsp --help' for usage.\n", err)
		return 2
	}
	switch {
	case g.help:
		fmt.Fprint(stdout, usage)
		return 0
	case g.showVersion:
		fmt.Fprintf(stdout, "wfl-lsp version %s\n", version)
		return 0
	}

	// A mistyped level is a usage error in every mode, those that do not
	// log (check, fmt) too.
	if _, err := logLevel(g); err != nil {
		fmt.Fprintf(stderr, "wfl-lsp: %v\n", err)
		return 2
	}
	if rest := fs.Args(); len(rest) > 0 {
		switch rest[0] {
		case "check":
			return cli.Check(rest[1:], stdin, stdout, stderr)
		case "fmt":
			return cli.Fmt(rest[1:], stdin, stdout, stderr)
		case "version":
			fmt.Fprintf(stdout, "wfl-lsp version %s\n", version)
			return 0
		case "help":
			fmt.Fprint(stdout, usage)
			return 0
		default:
			fmt.Fprintf(stderr, "wfl-lsp: unknown command %q\nRun 'wfl-lsp --help' for usage.\n", rest[0])
			return 2
		}
	}

	logger, closeLog, err := newLogger(g, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "wfl-lsp: %v\n", err)
		return 2
	}
	defer closeLog()
	gcpolicy.ForServer()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// A second signal ends the process at once, whatever it was waiting
	// for (a drain period, requests in flight).
	go func() { <-ctx.Done(); stop() }()

	if g.httpAddr != "" && !g.mcp {
		fmt.Fprintln(stderr, "wfl-lsp: --http needs --mcp")
		return 2
	}
	if g.mcp {
		// Without --root the workspace is the client's roots when it
		// declares them, else the current folder (mcpserver.Options.Root).
		var abs string
		if g.root != "" {
			var err error
			if abs, err = filepath.Abs(g.root); err != nil {
				fmt.Fprintf(stderr, "wfl-lsp: --root %s: %v\n", g.root, err)
				return 2
			}
			if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
				fmt.Fprintf(stderr, "wfl-lsp: --root %s: not a folder\n", g.root)
				return 2
			}
		}
		if g.instance != "" && g.httpAddr == "" {
			fmt.Fprintln(stderr, "wfl-lsp: --instance needs --http")
			return 2
		}
		if g.maxConns != 0 && (g.httpAddr == "" || g.maxConns < 0) {
			fmt.Fprintln(stderr, "wfl-lsp: --max-connections needs --http and a number from 1")
			return 2
		}
		if (g.maxSessions != 0 || g.sessionIdle != 0 || g.drainPeriod != 0 || g.sessionKeyFile != "") && g.httpAddr == "" ||
			g.maxSessions < 0 || g.sessionIdle < 0 || g.drainPeriod < 0 {
			fmt.Fprintln(stderr, "wfl-lsp: --max-sessions, --session-idle, --drain-period and --session-key-file need --http; the numbers are not negative")
			return 2
		}
		opts := mcpserver.Options{Root: abs, Version: version, Logger: logger, Instance: g.instance, MaxConnections: g.maxConns,
			MaxSessions: g.maxSessions, SessionIdle: g.sessionIdle, DrainPeriod: g.drainPeriod}
		if g.httpAddr != "" {
			if g.tokenFile != "" {
				tok, err := readSecret("--token-file", g.tokenFile, logger)
				if err != nil {
					fmt.Fprintf(stderr, "wfl-lsp: %v\n", err)
					return 2
				}
				opts.Token = tok
			}
			if g.sessionKeyFile != "" {
				key, err := readSecret("--session-key-file", g.sessionKeyFile, logger)
				if err != nil {
					fmt.Fprintf(stderr, "wfl-lsp: %v\n", err)
					return 2
				}
				opts.SessionKey = []byte(key)
			}
			if err := mcpserver.ServeHTTP(ctx, g.httpAddr, opts); err != nil {
				fmt.Fprintf(stderr, "wfl-lsp: %v\n", err)
				return 1
			}
			return 0
		}
		if err := mcpserver.ServeStdio(ctx, stdin, stdout, opts); err != nil {
			logger.Error("mcp server stopped", "err", err)
			return 1
		}
		return 0
	}

	if f, ok := stdout.(*os.File); ok {
		cli.GrowPipe(f)
	}
	// The editor's keystrokes come with pauses: collect in them rather
	// than during one (gcpolicy.Idle).
	idle := gcpolicy.NewIdle()
	defer idle.Stop()
	err = lsp.Serve(ctx, stdin, stdout, lsp.Options{Version: version, Logger: logger, ClientPID: g.clientPID, OnMessage: idle.Busy})
	if err != nil {
		if !errors.Is(err, lsp.ErrExitWithoutShutdown) {
			logger.Error("language server stopped", "err", err)
		}
		return 1
	}
	return 0
}

// newLogger builds the stderr (or --log-file) logger for the server modes.
func newLogger(g globalFlags, stderr io.Writer) (*slog.Logger, func(), error) {
	lv, err := logLevel(g)
	if err != nil {
		return nil, nil, err
	}
	w, closeFn := stderr, func() {}
	if g.logFile != "" {
		f, err := os.OpenFile(g.logFile, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return nil, nil, fmt.Errorf("--log-file: %w", err)
		}
		w, closeFn = f, func() { f.Close() }
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: lv})), closeFn, nil
}

// logLevel is the level --log-level (or --debug) asks for.
func logLevel(g globalFlags) (slog.Level, error) {
	level := g.logLevel
	if g.debug {
		level = "debug"
	}
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(level)); err != nil {
		return lv, fmt.Errorf("--log-level %q: want debug, info, warn or error", level)
	}
	return lv, nil
}

// minTokenLen is the shortest secret --token-file or --session-key-file
// may hold: a secret anyone can guess in a few tries protects nothing.
const minTokenLen = 16

// readSecret reads the secret of --token-file or --session-key-file (flag):
// the file's content, surrounding blanks trimmed. A secret shorter than
// minTokenLen bytes is refused; a file other users may read is served
// with a warning (secrets mounted by container runtimes are often
// readable by all, inside a container of one user).
func readSecret(flag, path string, logger *slog.Logger) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", flag, err)
	}
	tok := strings.TrimSpace(string(b))
	switch {
	case tok == "":
		return "", fmt.Errorf("%s %s is empty", flag, path)
	case len(tok) < minTokenLen:
		return "", fmt.Errorf("%s %s: the secret is %d bytes; use at least %d (for example: openssl rand -hex 32 > %s)",
			flag, path, len(tok), minTokenLen, path)
	case flag == "--token-file" && strings.IndexFunc(tok, func(r rune) bool { return r <= ' ' || r == 0x7F }) >= 0:
		// No client could send it: a header's value holds no line break,
		// and a bearer token no blank.
		return "", fmt.Errorf("%s %s: the token holds a blank, a line break or a control character, which an Authorization header cannot carry; write it on one line", flag, path)
	}
	if fi, err := os.Stat(path); err == nil && runtime.GOOS != "windows" && fi.Mode().Perm()&0o077 != 0 {
		logger.Warn("mcp: "+flag+" can be read by other users than its owner; chmod 600 it",
			"file", path, "mode", fmt.Sprintf("%04o", fi.Mode().Perm()))
	}
	return tok, nil
}
