package main

// This file implements the command-line subcommand check (fmt is in
// fmt_cmd.go) and the file collection both use.

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/lang/diag"
)

// collectFiles expands each PATH: a file stands for itself, a folder for
// every *.wfl below it (hidden folders and vendor folders skipped), in
// lexical order. Unreadable paths are reported to stderr and make ok false.
func collectFiles(paths []string, stderr io.Writer) (files []string, ok bool) {
	ok = true
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil {
			fmt.Fprintf(stderr, "wfl-lsp: %v\n", err)
			ok = false
			continue
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				fmt.Fprintf(stderr, "wfl-lsp: %v\n", err)
				ok = false
				return nil
			}
			if d.IsDir() {
				if path != p && core.SkipDir(d.Name()) {
					return filepath.SkipDir
				}
				return nil
			}
			if strings.HasSuffix(d.Name(), ".wfl") {
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			fmt.Fprintf(stderr, "wfl-lsp: %v\n", err)
			ok = false
		}
	}
	return files, ok
}

// jsonDiagnostic is one line of `check --json`, a contract of DESIGN.md.
type jsonDiagnostic struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"endLine"`
	EndColumn int    `json:"endColumn"`
	Severity  string `json:"severity"`
	Category  string `json:"category"`
	Code      string `json:"code"`
	Message   string `json:"message"`
}

func runCheck(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("check", flag.ContinueOnError)
	fset.SetOutput(stderr)
	asJSON := fset.Bool("json", false, "print one JSON object a line per diagnostic")
	noWarnings := fset.Bool("no-warnings", false, "report errors only")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "usage: wfl-lsp check [--json] [--no-warnings] PATH...")
	}
	if err := fset.Parse(args); err != nil {
		return 2
	}
	if fset.NArg() == 0 {
		fset.Usage()
		return 2
	}
	files, ok := collectFiles(fset.Args(), stderr)
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	foundError := false
	for _, path := range files {
		src, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintf(stderr, "wfl-lsp: %v\n", err)
			ok = false
			continue
		}
		a := core.NewSnapshot(core.FileURI(path), 0, string(src)).Analysis()
		diags := append([]diag.Diagnostic(nil), a.Diagnostics...)
		sort.SliceStable(diags, func(i, j int) bool { return diags[i].Span.Start < diags[j].Span.Start })
		for _, d := range diags {
			if d.Severity == diag.Error {
				foundError = true
			} else if *noWarnings {
				continue
			}
			line, col := a.Lines.OffsetPosition(d.Span.Start)
			endLine, endCol := a.Lines.OffsetPosition(d.Span.End)
			if *asJSON {
				enc.Encode(jsonDiagnostic{
					File: path, Line: line, Column: col, EndLine: endLine, EndColumn: endCol,
					Severity: d.Severity.String(), Category: d.Category.String(),
					Code: d.Code, Message: d.Message,
				})
			} else {
				fmt.Fprintf(stdout, "%s:%d:%d: %s: %s [%s]\n", path, line, col, d.Severity, d.Message, d.Code)
			}
		}
	}
	switch {
	case !ok:
		return 2
	case foundError:
		return 1
	}
	return 0
}
