package mcpserver

// This file lets the position tools follow `include from "…"` across the
// workspace's files, as the language server does: it gives the core's
// cross-file queries (IncludedDefinition, HoverAcross, ReferencesAcross,
// RenameAcross) their loader, their candidate files and the includes of a
// file. Every file is read through readFile, so it stays inside the root;
// an include that leads outside, or to nothing, is simply not followed.

import (
	"context"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/lang/token"
)

// crossFiles loads workspace files for one tool call, each at most once.
type crossFiles struct {
	ws    *workspace
	ctx   context.Context
	base  string // the document's absolute path ("" for inline source)
	self  *core.Analysis
	texts map[string]*string        // nil: unreadable
	an    map[string]*core.Analysis // analysed files
}

// newCrossFiles returns the loader for a document given by path; for inline
// source it has no base, and the core's queries then stay in the document.
func newCrossFiles(ctx context.Context, c *Call, d *document) *crossFiles {
	x := &crossFiles{ws: workspaceOf(c), ctx: ctx, self: d.a, texts: map[string]*string{}, an: map[string]*core.Analysis{}}
	if d.path != "" {
		x.base = x.ws.abs(d.path)
	}
	return x
}

func (c *crossFiles) text(path string) (string, bool) {
	if t, ok := c.texts[path]; ok {
		return deref(t)
	}
	if c.ctx.Err() != nil { // timed out or cancelled: stop reading
		return "", false
	}
	text, _, err := c.ws.readFile(path)
	if err != nil {
		c.texts[path] = nil
		return "", false
	}
	c.texts[path] = &text
	return text, true
}

func deref(p *string) (string, bool) {
	if p == nil {
		return "", false
	}
	return *p, true
}

// load returns the analysis of a workspace file (the document's own for its
// path).
func (c *crossFiles) load(path string) (*core.Analysis, bool) {
	if path == c.base && c.base != "" {
		return c.self, true
	}
	if a, ok := c.an[path]; ok {
		return a, a != nil
	}
	text, ok := c.text(path)
	if !ok {
		c.an[path] = nil
		return nil, false
	}
	a := c.ws.files.NewSnapshot(core.FileURI(path), 0, text).Analysis()
	c.an[path] = a
	return a, true
}

// includesOf returns the files a file includes. A file whose text does not
// contain the word is not analysed.
func (c *crossFiles) includesOf(path string) []string {
	if path != c.base {
		text, ok := c.text(path)
		if !ok || !strings.Contains(strings.ToLower(text), "include") {
			return nil
		}
	}
	a, ok := c.load(path)
	if !ok {
		return nil
	}
	return a.Includes(path)
}

// candidates are the workspace's WFL files, as absolute paths.
func (c *crossFiles) candidates() []string {
	if c.base == "" {
		return nil
	}
	files := c.ws.wflFiles()
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = c.ws.abs(f)
	}
	return out
}

// fileSpan is a span with the workspace file it is in.
type fileSpan struct {
	File string `json:"file,omitempty"`
	spanJSON
}

// spanAt converts a span of the file at path (root-relative in the output).
func (c *crossFiles) spanAt(path string, lines *token.Lines, sp token.Span) fileSpan {
	l, col := lines.OffsetPosition(sp.Start)
	el, ec := lines.OffsetPosition(sp.End)
	return fileSpan{File: c.ws.rel(path), spanJSON: spanJSON{Line: l, Column: col, EndLine: el, EndColumn: ec}}
}

// here converts a span of the document itself.
func (c *crossFiles) here(d *document, sp token.Span) fileSpan {
	return fileSpan{File: d.path, spanJSON: spanOf(d.a, sp)}
}

// fileProp is the schema of the file member of a span in another file.
var fileProp = str("the workspace file it is in (root-relative); absent for inline source")
