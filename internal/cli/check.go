package cli

// This file implements the command-line subcommand check (fmt is in
// fmt.go) and the file collection both use.

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sort"

	"wfl-lsp/core"
	"wfl-lsp/lang/diag"
)

// collectFiles expands each PATH: a file stands for itself, a folder for
// every *.wfl below it (hidden folders and vendor folders skipped, and
// entries that are not regular files: named pipes, devices, sockets and
// links to them), in lexical order. Unreadable paths are reported to
// stderr and make ok false.
func collectFiles(paths []string, stderr io.Writer) (files []string, ok bool) {
	ok = true
	// A file named twice (`check a.wfl a.wfl`, or a folder and a file in
	// it) is checked once, under the name it had first.
	seen := map[string]bool{}
	add := func(path string) {
		key := path
		if abs, err := filepath.Abs(path); err == nil && path != stdinPath {
			key = abs
		}
		if !seen[key] {
			seen[key] = true
			files = append(files, path)
		}
	}
	for _, p := range paths {
		if p == stdinPath {
			add(p) // read once, by whoever asked for it (stdinSource)
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			fmt.Fprintf(stderr, "wfl-lsp: %v\n", err)
			ok = false
			continue
		}
		if !fi.IsDir() {
			add(p) // read through core.AnyFile, which says what it is not
			continue
		}
		found := 0
		err = core.AnyFile().WFLFiles(p, func(path string, err error) bool {
			if err != nil {
				fmt.Fprintf(stderr, "wfl-lsp: %v\n", err)
				ok = false
			} else {
				add(path)
				found++
			}
			return true
		})
		if err != nil {
			fmt.Fprintf(stderr, "wfl-lsp: %v\n", err)
			ok = false
		} else if found == 0 {
			// Not an error (a folder may hold no program yet), but a
			// silent success would hide a mistyped path.
			fmt.Fprintf(stderr, "wfl-lsp: no .wfl file in %s\n", p)
		}
	}
	return files, ok
}

// jsonDiagnostic is one line of `check --json`. Other tools parse these lines
// (the parity script among them), so the fields' names and meaning are a
// contract: file as given, 1-based lines and columns counted in characters,
// severity error|warning|information|hint, category parse|semantic|type|lint.
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

// Check runs `wfl-lsp check [--json] [--no-warnings] [--all] PATH...`: it
// reports the diagnostics of each file (folders searched for *.wfl) on
// stdout, as compiler messages or, with --json, as one JSON object a line.
// A PATH of "-" is the text on stdin (stdinSource). Problems in the
// configuration files that apply are warned of on stderr, once each. It
// exits 2 on a usage or I/O error, 1 when an error was found, 0 otherwise.
func Check(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("check", flag.ContinueOnError)
	fset.SetOutput(stderr)
	asJSON := fset.Bool("json", false, "print one JSON object a line per diagnostic")
	noWarnings := fset.Bool("no-warnings", false, "report errors only")
	all := fset.Bool("all", false, "also the semantic and type findings of the statements that parse when one does not (as the editor shows them)")
	stdinName := fset.String("stdin-name", "", "with PATH -: the file the text on stdin stands for (its name in the output, its folder for includes and .wflcfg)")
	fset.Usage = func() {
		fmt.Fprintln(stderr, "usage: wfl-lsp check [--json] [--no-warnings] [--all] [--stdin-name FILE] PATH... (PATH - reads stdin)")
		fset.PrintDefaults()
	}
	paths, err := parseArgs(fset, args)
	if err != nil {
		return exitOf(err)
	}
	if len(paths) == 0 {
		fset.Usage()
		return 2
	}
	in, err := stdinSource(stdin, *stdinName, paths)
	if err != nil {
		fmt.Fprintf(stderr, "wfl-lsp check: %v\n", err)
		return 2
	}
	files, ok := collectFiles(paths, stderr)
	warnConfig(files, in, stderr)
	foundError := false
	results := checkFiles(files, checkOptions{json: *asJSON, noWarnings: *noWarnings, all: *all, stdin: in})
	for i := range files {
		r := <-results[i]
		if r.err != nil {
			fmt.Fprintf(stderr, "wfl-lsp: %v\n", r.err)
			ok = false
			continue
		}
		stdout.Write(r.out)
		foundError = foundError || r.hasError
	}
	switch {
	case !ok:
		return 2
	case foundError:
		return 1
	}
	return 0
}

// checkResult is what `check` prints for one file.
type checkResult struct {
	out      []byte // the file's diagnostic lines
	hasError bool   // an error-severity diagnostic was found
	err      error  // the file could not be read
}

// checkFiles checks files on all CPUs and returns one channel a file, in
// the order given, so output stays in order while work runs in parallel.
func checkFiles(files []string, opts checkOptions) []chan checkResult {
	results := make([]chan checkResult, len(files))
	for i := range results {
		results[i] = make(chan checkResult, 1)
	}
	jobs := make(chan int)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		go func() {
			for i := range jobs {
				results[i] <- checkFile(files[i], opts)
			}
		}()
	}
	go func() {
		for i := range files {
			jobs <- i
		}
		close(jobs)
	}()
	return results
}

// checkOptions are check's flags.
type checkOptions struct {
	json       bool // one JSON object a line
	noWarnings bool // errors only
	all        bool // the tolerant list (core.Snapshot.Tolerant), not the reference's
	stdin      *stdinText
}

// checkFile analyzes one file and renders its diagnostics in source order.
func checkFile(path string, opts checkOptions) checkResult {
	uri, src, err := core.FileURI(path), []byte(nil), error(nil)
	if path == stdinPath && opts.stdin != nil {
		uri, src, path = opts.stdin.uri, opts.stdin.text, opts.stdin.name
	} else if src, err = core.AnyFile().ReadFile(path); err != nil { // a regular file of at most core.MaxFileSize bytes
		return checkResult{err: err}
	}
	snap := core.NewSnapshot(uri, 0, string(src))
	a := snap.Analysis()
	diags := append([]diag.Diagnostic(nil), a.Diagnostics...)
	if opts.all {
		_, diags = snap.Tolerant()
	}
	sort.SliceStable(diags, func(i, j int) bool { return diags[i].Span.Start < diags[j].Span.Start })
	asJSON, noWarnings := opts.json, opts.noWarnings
	var r checkResult
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	for _, d := range diags {
		if d.Severity == diag.Error {
			r.hasError = true
		} else if noWarnings {
			continue
		}
		line, col := a.Lines.OffsetPosition(d.Span.Start)
		endLine, endCol := a.Lines.OffsetPosition(d.Span.End)
		if asJSON {
			enc.Encode(jsonDiagnostic{
				File: path, Line: line, Column: col, EndLine: endLine, EndColumn: endCol,
				Severity: d.Severity.String(), Category: d.Category.String(),
				Code: d.Code, Message: d.Message,
			})
		} else {
			fmt.Fprintf(&buf, "%s:%d:%d: %s: %s [%s]\n", path, line, col, d.Severity, d.Message, d.Code)
		}
	}
	r.out = buf.Bytes()
	return r
}
