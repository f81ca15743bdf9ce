package cli

// This file reads the text a PATH of "-" stands for (standard input), as
// editors' linters and formatters pipe an unsaved buffer into a command,
// and warns of the configuration problems that apply to what check reads.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"wfl-lsp/core"
)

// stdinPath is the PATH that stands for standard input.
const stdinPath = "-"

// stdinDefaultName is what messages call standard input when no
// --stdin-name says which file it stands for (gofmt's name for it).
const stdinDefaultName = "<standard input>"

// stdinText is the text read from standard input and what it stands for.
type stdinText struct {
	name string   // as messages call it
	dir  string   // the folder its includes and .wflcfg are found from
	uri  core.URI // the document's URI: a file in dir
	text []byte
}

// stdinSource reads standard input when paths hold "-", at most
// core.MaxFileSize bytes. name (--stdin-name) is the file it stands for:
// messages call it so, and includes and the .wflcfg are found from its
// folder; without it, from the current folder. It returns nil when no
// PATH is "-", and an error for a name without "-" or input too large.
func stdinSource(stdin io.Reader, name string, paths []string) (*stdinText, error) {
	if !slices.Contains(paths, stdinPath) {
		if name != "" {
			return nil, errors.New("--stdin-name names the file standard input stands for: give - among the paths too")
		}
		return nil, nil
	}
	text, err := io.ReadAll(io.LimitReader(stdin, core.MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	if len(text) > core.MaxFileSize {
		return nil, fmt.Errorf("standard input is larger than %d MB, the most a program may be", core.MaxFileSize>>20)
	}
	in := &stdinText{name: name, text: text}
	path := name
	if name == "" {
		in.name = stdinDefaultName
		cwd, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("standard input's folder: %w", err)
		}
		path = filepath.Join(cwd, stdinDefaultName)
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	in.dir, in.uri = filepath.Dir(path), core.FileURI(path)
	return in, nil
}

// warnConfig writes to stderr, once each, the problems of the
// configuration files that apply to files (and to standard input's text):
// a mistyped key or value there changes what the linter reports, and
// would otherwise pass in silence. They do not change the exit status.
func warnConfig(files []string, in *stdinText, stderr io.Writer) {
	seenDir, seen := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		dir := filepath.Dir(f)
		if f == stdinPath && in != nil {
			dir = in.dir
		}
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
		if seenDir[dir] {
			continue
		}
		seenDir[dir] = true
		_, _, problems := core.LoadConfig(dir)
		for _, p := range problems {
			if msg := p.Error(); !seen[msg] {
				seen[msg] = true
				fmt.Fprintf(stderr, "wfl-lsp check: warning: %s\n", msg)
			}
		}
	}
}
