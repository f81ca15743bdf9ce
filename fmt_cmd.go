package main

// This file implements `wfl-lsp fmt`, which works like gofmt.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/lang/format"
)

// runFmt formats files: it prints their canonical form (the default), writes
// it back (-w, through replaceFile, which cannot leave a file half
// written), lists the files whose form differs (-l) or prints a unified
// diff (-d). With no PATH it formats standard input to standard output.
// It exits 2 on a usage or I/O error, 1 when a file does not parse (such a
// file is left alone), 0 otherwise.
func runFmt(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fset.SetOutput(stderr)
	write := fset.Bool("w", false, "write the result to the file instead of printing it")
	list := fset.Bool("l", false, "list files whose formatting differs")
	diff := fset.Bool("d", false, "print a unified diff instead of the formatted text")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "usage: wfl-lsp fmt [-w | -l | -d] PATH...")
		fset.PrintDefaults()
	}
	if err := fset.Parse(args); err != nil {
		return 2
	}
	if fset.NArg() == 0 {
		if *write {
			fmt.Fprintln(stderr, "wfl-lsp fmt: cannot use -w with standard input")
			return 2
		}
		src, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "wfl-lsp fmt: %v\n", err)
			return 2
		}
		cwd, _ := os.Getwd()
		return fmtOne("<standard input>", cwd, src, fmtMode{list: *list, diff: *diff, reported: map[string]bool{}}, stdout, stderr)
	}
	files, ok := collectFiles(fset.Args(), stderr)
	reported := map[string]bool{}
	code := 0
	for _, path := range files {
		src, err := core.AnyFile().ReadFile(path) // a regular file of at most core.MaxFileSize bytes
		if err != nil {
			fmt.Fprintf(stderr, "wfl-lsp fmt: %v\n", err)
			ok = false
			continue
		}
		c := fmtOne(path, filepath.Dir(path), src, fmtMode{write: *write, list: *list, diff: *diff, reported: reported}, stdout, stderr)
		code = max(code, c)
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
		io.WriteString(stdout, unifiedDiff(name, text, edits))
	}
	if !m.write && !m.list && !m.diff {
		io.WriteString(stdout, out)
	}
	return 0
}

// A lineChange replaces the old lines [lo, hi) with new lines.
type lineChange struct {
	lo, hi int
	new    []string
}

// unifiedDiff renders line-replacing edits of text as a unified diff with
// three lines of context, as `diff -u` prints it.
func unifiedDiff(name, text string, edits []format.Edit) string {
	const context = 3
	oldLines := splitKeep(text)
	starts := make([]int, len(oldLines)+1) // offset of each line start
	for i, l := range oldLines {
		starts[i+1] = starts[i] + len(l)
	}
	lineOf := func(off int) int {
		return sort.Search(len(oldLines), func(i int) bool { return starts[i+1] > off })
	}
	var changes []lineChange
	for _, e := range edits {
		changes = append(changes, lineChange{lineOf(e.Start), lineOf(e.End), splitKeep(e.Text)})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "diff %s.orig %s\n--- %s.orig\n+++ %s\n", name, name, name, name)
	shift := 0 // lines added by earlier hunks
	for i := 0; i < len(changes); {
		j := i + 1 // changes[i:j] share a hunk: their context windows touch
		for j < len(changes) && changes[j].lo-changes[j-1].hi <= 2*context {
			j++
		}
		lo := max(changes[i].lo-context, 0)
		hi := min(changes[j-1].hi+context, len(oldLines))
		var body strings.Builder
		oldN, newN := 0, 0
		emit := func(prefix, l string) {
			body.WriteString(prefix)
			body.WriteString(strings.TrimRight(l, "\r\n"))
			body.WriteString("\n")
			if !strings.HasSuffix(l, "\n") && !strings.HasSuffix(l, "\r") {
				body.WriteString("\\ No newline at end of file\n")
			}
		}
		pos := lo
		for _, c := range changes[i:j] {
			for ; pos < c.lo; pos++ {
				emit(" ", oldLines[pos])
				oldN++
				newN++
			}
			for _, l := range oldLines[c.lo:c.hi] {
				emit("-", l)
				oldN++
			}
			for _, l := range c.new {
				emit("+", l)
				newN++
			}
			pos = c.hi
		}
		for ; pos < hi; pos++ {
			emit(" ", oldLines[pos])
			oldN++
			newN++
		}
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(lo, oldN), hunkRange(lo+shift, newN))
		b.WriteString(body.String())
		shift += newN - oldN
		i = j
	}
	return b.String()
}

// hunkRange prints a hunk's line range the way diff -u does: 1-based start
// and count, or the line before it when the count is 0.
func hunkRange(lo, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", lo)
	}
	return fmt.Sprintf("%d,%d", lo+1, n)
}

// splitKeep splits text into lines that keep their line breaks.
func splitKeep(text string) []string {
	var lines []string
	for len(text) > 0 {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			lines = append(lines, text)
			break
		}
		j := i + 1
		if text[i] == '\r' && j < len(text) && text[j] == '\n' {
			j++
		}
		lines = append(lines, text[:j])
		text = text[j:]
	}
	return lines
}
