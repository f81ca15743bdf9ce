package lsp

// This file holds the handlers that answer with edits: formatting, code
// actions (quick fixes and fix-all) and rename, converted from core, and
// the workspace edits they make (versioned when the client can take them).

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/core/fixes"
	"wfl-lsp/core/navigation"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

// textEdits converts core edits, whose offsets all refer to the text of the
// snapshot, into LSP edits.
func textEdits(m mapper, edits []core.Edit) []protocol.TextEdit {
	out := make([]protocol.TextEdit, len(edits))
	for i, e := range edits {
		out[i] = protocol.TextEdit{Range: m.rng(token.Span{Start: e.Start, End: e.End}), NewText: e.Text}
	}
	return out
}

func formatting(_ context.Context, _ *server, d doc, _ *protocol.DocumentFormattingParams) (any, error) {
	return formatLines(d, 0, -1)
}

func rangeFormatting(_ context.Context, _ *server, d doc, p *protocol.DocumentRangeFormattingParams) (any, error) {
	start, end := int(p.Range.Start.Line), int(p.Range.End.Line)
	if p.Range.End.Character == 0 && end > start {
		end-- // a range that ends at the start of a line does not include it
	}
	return formatLines(d, start, end)
}

func formatLines(d doc, start, end int) (any, error) {
	m := d.mapper() // formatting reads the text alone: no analysis
	edits, err := presentation.FormatLines(d.snap, start, end)
	if err != nil {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "cannot format: %v", err)
	}
	return textEdits(m, edits), nil
}

// actionData identifies a code action for codeAction/resolve.
type actionData struct {
	URI     uri.URI        `json:"uri"`
	Version int32          `json:"version"`
	Range   protocol.Range `json:"range"`
	Index   int            `json:"index"`  // which quick fix in the range
	FixAll  bool           `json:"fixAll"` // the source.fixAll action
}

func codeAction(ctx context.Context, s *server, d doc, p *protocol.CodeActionParams) (any, error) {
	m := d.mapper()
	lazy := s.session.Load().caps.resolveEdits
	want := func(k protocol.CodeActionKind) bool {
		if len(p.Context.Only) == 0 {
			return true
		}
		for _, o := range p.Context.Only {
			if o == k || o == protocol.CodeActionKindSource && k == protocol.CodeActionKindSourceFixAll {
				return true
			}
		}
		return false
	}
	data := func(a actionData) protocol.LSPAny {
		a.URI, a.Version, a.Range = d.uri, d.snap.Version, p.Range
		b, _ := json.Marshal(a)
		return protocol.LSPAny(b)
	}
	out := []protocol.CodeAction{}
	if want(protocol.CodeActionKindQuickFix) {
		kind := protocol.CodeActionKindQuickFix
		fs := fixes.At(ctx, d.snap, m.span(p.Range))
		if err := ctx.Err(); err != nil {
			return nil, err // cancelled: the fixes made so far are not all of them
		}
		for i, f := range fs {
			ca := protocol.CodeAction{
				Title:       f.Title,
				Kind:        &kind,
				Diagnostics: toDiagnostics(d.echo, m, []diag.Diagnostic{f.Diagnostic}),
			}
			if f.Preferred { // at most one a diagnostic: the one "auto fix" applies
				ca.IsPreferred = &f.Preferred
			}
			if lazy {
				ca.Data = data(actionData{Index: i})
			} else {
				ca.Edit = fixEdit(s, d, m, f)
			}
			out = append(out, ca)
		}
		if s.session.Load().caps.createFiles {
			out = append(out, createIncluded(d, m, m.span(p.Range))...)
		}
	}
	if want(protocol.CodeActionKindSourceFixAll) {
		if edit := fixAllEdit(s, d, m); edit != nil {
			kind := protocol.CodeActionKindSourceFixAll
			ca := protocol.CodeAction{Title: "Fix all layout problems", Kind: &kind}
			if lazy {
				ca.Data = data(actionData{FixAll: true})
			} else {
				ca.Edit = edit
			}
			out = append(out, ca)
		}
	}
	return out, nil
}

// createIncluded returns, for each include that names no file among the
// document's findings touching span, the action that creates the file (to
// a client that takes resource operations): an include written before its
// file is how a program is split.
func createIncluded(d doc, m mapper, span token.Span) []protocol.CodeAction {
	base := core.URI(d.uri).Path()
	_, shown := d.snap.Diagnostics()
	var out []protocol.CodeAction
	for _, f := range shown {
		if f.Kind != diag.MissingInclude || len(f.Names) != 1 || f.Span.Start > span.End || span.Start > f.Span.End {
			continue
		}
		target := core.IncludedPath(f.Names[0], base)
		if target == "" {
			continue
		}
		kind, yes := protocol.CodeActionKindQuickFix, true
		out = append(out, protocol.CodeAction{
			Title:       fmt.Sprintf("Create '%s'", f.Names[0]),
			Kind:        &kind,
			Diagnostics: toDiagnostics(d.echo, m, []diag.Diagnostic{f}),
			Edit: &protocol.WorkspaceEdit{DocumentChanges: []protocol.DocumentChange{
				&protocol.CreateFile{Kind: "create", URI: uri.File(target), Options: &protocol.CreateFileOptions{IgnoreIfExists: &yes}},
			}},
		})
	}
	return out
}

func fixEdit(s *server, d doc, m mapper, f fixes.Fix) *protocol.WorkspaceEdit {
	return s.workspaceEdit([]fileEdits{d.edits(textEdits(m, f.Edits))})
}

// fixAllEdit replaces the text with its safely fixed version, or is nil
// when there is nothing to fix.
func fixAllEdit(s *server, d doc, m mapper) *protocol.WorkspaceEdit {
	fixed, n, err := fixes.All(d.snap)
	if err != nil || n == 0 || fixed == d.snap.Text {
		return nil
	}
	all := token.Span{Start: 0, End: len(d.snap.Text)}
	return s.workspaceEdit([]fileEdits{d.edits([]protocol.TextEdit{{Range: m.rng(all), NewText: fixed}})})
}

// fileEdits are the edits of one file in a workspace edit, with the
// version of the text they were computed on: the document's snapshot's, or
// nil for a file that is not open (its text on the disk).
type fileEdits struct {
	uri     uri.URI
	version *int32
	edits   []protocol.TextEdit
}

// edits are edits of the request's document, computed on its snapshot.
func (d doc) edits(edits []protocol.TextEdit) fileEdits {
	v := d.snap.Version
	return fileEdits{uri: d.echo, version: &v, edits: edits}
}

// workspaceEdit builds the edit of the files, in the form the client
// takes: versioned documentChanges when it declared support for them (it
// then refuses an edit of a text that changed since, instead of applying it
// in the wrong place), else changes by URI.
func (s *server) workspaceEdit(files []fileEdits) *protocol.WorkspaceEdit {
	if !s.session.Load().caps.documentChanges {
		changes := make(map[uri.URI][]protocol.TextEdit, len(files))
		for _, f := range files {
			changes[f.uri] = append(changes[f.uri], f.edits...)
		}
		return &protocol.WorkspaceEdit{Changes: changes}
	}
	slices.SortStableFunc(files, func(a, b fileEdits) int { return strings.Compare(string(a.uri), string(b.uri)) })
	out := make([]protocol.DocumentChange, 0, len(files))
	for _, f := range files {
		elems := make([]protocol.TextDocumentEditElement, len(f.edits))
		for i := range f.edits {
			elems[i] = &f.edits[i]
		}
		out = append(out, &protocol.TextDocumentEdit{
			TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
				TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: f.uri},
				Version:                f.version,
			},
			Edits: elems,
		})
	}
	return &protocol.WorkspaceEdit{DocumentChanges: out}
}

// versionedLoader loads the files a cross-file query reads and remembers
// which text of each it read: the request's own snapshot for its document,
// an open document's current snapshot, or the file on the disk.
type versionedLoader struct {
	s *server
	d doc

	mu    sync.Mutex
	files map[string]loaded // by path
}

type loaded struct {
	a       *core.Analysis
	uri     uri.URI // the open document's own URI, or ""
	version *int32  // nil: read from the disk
}

func (s *server) versionedLoader(d doc) *versionedLoader {
	return &versionedLoader{s: s, d: d, files: map[string]loaded{}}
}

// load is a core load function; a file is read once, so every answer about
// it refers to the same text.
func (l *versionedLoader) load(path string) (*core.Analysis, bool) {
	path = filepath.Clean(path)
	l.mu.Lock()
	defer l.mu.Unlock()
	if f, ok := l.files[path]; ok {
		return f.a, true
	}
	var f loaded
	if base := core.URI(l.d.uri).Path(); base != "" && filepath.Clean(base) == path {
		v := l.d.snap.Version
		f = loaded{a: l.d.snap.Analysis(), uri: l.d.echo, version: &v}
	} else if snap, ok := l.s.ws.OpenSnapshot(path); ok {
		v := snap.Version
		f = loaded{a: snap.Analysis(), uri: l.s.spelled(uri.URI(snap.URI)), version: &v}
	} else if a, ok := l.s.ws.Load(path); ok {
		f = loaded{a: a}
	} else {
		return nil, false
	}
	l.files[path] = f
	return f.a, true
}

// fileEdits converts core edits of a file the loader read.
func (l *versionedLoader) fileEdits(path string, edits []core.Edit) (fileEdits, bool) {
	a, ok := l.load(path)
	if !ok {
		return fileEdits{}, false
	}
	l.mu.Lock()
	f := l.files[filepath.Clean(path)]
	l.mu.Unlock()
	u := f.uri
	if u == "" {
		u = uri.File(path)
	}
	return fileEdits{uri: u, version: f.version, edits: textEdits(l.s.mapperFor(path, a.Lines, l.d.enc), edits)}, true
}

// resolveCodeAction computes the edit of an action answered without one.
func resolveCodeAction(s *server, params jsonrpc2.RawMessage) (work, error) {
	var ca protocol.CodeAction
	if err := decodeParams(params, &ca); err != nil {
		return nil, err
	}
	var data actionData
	if len(ca.Data) == 0 || json.Unmarshal(ca.Data, &data) != nil || data.URI == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "code action without resolve data")
	}
	d, stale, err := s.resolveTarget(data.URI, data.Version, "the code action was offered")
	if err != nil {
		return nil, err
	}
	snap := d.snap
	return func(ctx context.Context) (any, error) {
		if err := stale(); err != nil {
			return nil, err
		}
		// The fixes make the analysis only when one is at the range
		// (fixes.At and fixes.All).
		m := d.mapper()
		if data.FixAll {
			ca.Edit = fixAllEdit(s, d, m)
		} else if fs := fixes.At(ctx, snap, m.span(data.Range)); ctx.Err() != nil {
			return nil, ctx.Err()
		} else if data.Index >= 0 && data.Index < len(fs) {
			ca.Edit = fixEdit(s, d, m, fs[data.Index])
		}
		if ca.Edit == nil {
			return nil, jsonrpc2.NewError(codeRequestFailed, "the code action no longer applies")
		}
		return &ca, nil
	}, nil
}

func prepareRename(_ context.Context, s *server, d doc, p *protocol.PrepareRenameParams) (any, error) {
	a, m := d.analysis()
	off := m.offset(p.Position)
	span, name, err := navigation.PrepareRename(a, off)
	if err != nil {
		// A name declared in an included file can be renamed there and here.
		if _, ok := navigation.ReferencesAcross(a, off, core.URI(d.uri).Path(), s.candidatePaths(), s.includesOf, s.loadAnalysis); ok {
			if id, _ := a.SymbolAt(off); id != nil {
				return &protocol.PrepareRenamePlaceholder{Range: m.rng(token.Span{Start: id.Pos(), End: id.End()}), Placeholder: id.Name}, nil
			}
		}
		// No name that can be renamed: null, as the specification asks
		// (clients then say there is nothing to rename); rename itself
		// says why.
		s.log.Debug("prepareRename: nothing to rename", "why", err)
		return nil, nil
	}
	return &protocol.PrepareRenamePlaceholder{Range: m.rng(span), Placeholder: name}, nil
}

// rename renames a name in the document, and in the files that share it
// through include; each file's edits carry the version of the text they
// were computed on (null for a file that is not open).
func rename(_ context.Context, s *server, d doc, p *protocol.RenameParams) (any, error) {
	a, m := d.analysis()
	off := m.offset(p.Position)
	files := s.versionedLoader(d)
	byFile, ok, err := navigation.RenameAcross(a, off, p.NewName, core.URI(d.uri).Path(), s.candidatePaths(), s.includesOf, files.load)
	if ok {
		if err != nil {
			return nil, jsonrpc2.Errorf(codeRequestFailed, "%v", err)
		}
		var out []fileEdits
		for path, edits := range byFile {
			if fe, ok := files.fileEdits(path, edits); ok {
				out = append(out, fe)
			}
		}
		return s.workspaceEdit(out), nil
	}
	edits, err := navigation.Rename(a, off, p.NewName)
	if err != nil {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "%v", err)
	}
	return s.workspaceEdit([]fileEdits{d.edits(textEdits(m, edits))}), nil
}

// resolveTarget finds the open document a resolve request's data names, as
// it was when the item was made (version); stale then answers
// ContentModified if it has changed since (what happened then).
func (s *server) resolveTarget(u uri.URI, version int32, what string) (doc, func() error, error) {
	snap, ok := s.ws.Snapshot(core.URI(u))
	if !ok {
		return doc{}, nil, errNotOpen(u)
	}
	stale := func() error {
		if snap.Version != version {
			return jsonrpc2.NewError(protocol.CodeContentModified, "the document changed since "+what)
		}
		return nil
	}
	return doc{uri: u, echo: s.spelled(u), snap: snap, enc: s.session.Load().enc}, stale, nil
}
