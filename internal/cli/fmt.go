package cli

// This file implements `wfl-lsp fmt`, which works like gofmt.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/format"
)

// Fmt formats files: it prints their canonical form (the default), writes
// it back (-w, through replaceFile, which cannot leave a file half
// written), lists the files whose form differs (-l) or prints a unified
// diff (-d). With no PATH, or a PATH of "-", it formats standard input to
// standard output (--stdin-name: the file it stands for, whose .wflcfg
// applies). It exits 2 on a usage or I/O error, 1 when a file does not
// parse (such a file is left alone), 0 otherwise.
func Fmt(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fset.SetOutput(stderr)
	write := fset.Bool("w", false, "write the result to the file instead of printing it")
	list := fset.Bool("l", false, "list files whose formatting differs")
	diff := fset.Bool("d", false, "print a unified diff instead of the formatted text")
	stdinName := fset.String("stdin-name", "", "with PATH - (or none): the file the text on stdin stands for (its name in messages, its folder's .wflcfg)")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "usage: wfl-lsp fmt [-w | -l | -d] [--stdin-name FILE] PATH... (no PATH, or -, reads stdin)")
		fset.PrintDefaults()
	}
	paths, err := parseArgs(fset, args)
	if err != nil {
		return exitOf(err)
	}
	if len(paths) == 0 {
		paths = []string{stdinPath}
	}
	in, err := stdinSource(stdin, *stdinName, paths)
	if err != nil {
		fmt.Fprintf(stderr, "wfl-lsp fmt: %v\n", err)
		return 2
	}
	if in != nil && *write {
		fmt.Fprintln(stderr, "wfl-lsp fmt: cannot use -w with standard input")
		return 2
	}
	files, ok := collectFiles(paths, stderr)
	reported := map[string]bool{}
	code := 0
	for _, path := range files {
		m := fmtMode{write: *write, list: *list, diff: *diff, reported: reported}
		if path == stdinPath {
			code = max(code, fmtOne(in.name, in.dir, in.text, m, stdout, stderr))
			continue
		}
		src, err := core.AnyFile().ReadFile(path) // a regular file of at most core.MaxFileSize bytes
		if err != nil {
			fmt.Fprintf(stderr, "wfl-lsp fmt: %v\n", err)
			ok = false
			continue
		}
		code = max(code, fmtOne(path, filepath.Dir(path), src, m, stdout, stderr))
	}
	if !ok {
		return 2
	}
	return code
}

type fmtMode struct {
	write, list, diff bool
	reported          map[string]bool // configuration problems already printed
}

// fmtOne formats one text; name is what messages call it, dir the folder
// whose .wflcfg applies.
func fmtOne(name, dir string, src []byte, m fmtMode, stdout, stderr io.Writer) int {
	cfg, _, problems := core.LoadConfig(dir)
	for _, p := range problems {
		if !m.reported[p.Error()] {
			m.reported[p.Error()] = true
			fmt.Fprintf(stderr, "wfl-lsp fmt: warning: %v\n", p)
		}
	}
	opt := format.Options{IndentSize: cfg.IndentSize}
	text := string(src)
	out, err := format.Source(text, opt)
	if err != nil {
		var se *format.SyntaxError
		if errors.As(err, &se) {
			fmt.Fprintf(stderr, "%s:%v (not formatted: the file does not parse)\n", name, se)
			return 1
		}
		fmt.Fprintf(stderr, "%s: %v\n", name, err)
		return 2
	}
	changed := out != text
	if m.list && changed {
		fmt.Fprintln(stdout, name)
	}
	if m.write && changed {
		if err := replaceFile(name, []byte(out)); err != nil {
			fmt.Fprintf(stderr, "wfl-lsp fmt: %s not written, it is unchanged: %v\n", name, err)
			return 2
		}
	}
	if m.diff && changed {
		edits, err := format.Edits(text, opt, 0, -1)
		if err != nil {
			fmt.Fprintf(stderr, "%s: %v\n", name, err)
			return 2
		}
		io.WriteString(stdout, presentation.UnifiedDiff(name, text, coreEdits(edits)))
	}
	if !m.write && !m.list && !m.diff {
		io.WriteString(stdout, out)
	}
	return 0
}

// coreEdits converts the formatter's edits to the core's.
func coreEdits(edits []format.Edit) []core.Edit {
	out := make([]core.Edit, len(edits))
	for i, e := range edits {
		out[i] = core.Edit{Start: e.Start, End: e.End, Text: e.Text}
	}
	return out
}
