package lsp

// This file serves navigation by type and the editing aids built on the
// same model, each converted from core: go to type definition, go to
// implementation, type hierarchy, code lens with reference counts
// (resolved lazily), and the block closer inserted after Enter
// (onTypeFormatting).

import (
	"context"
	"encoding/json"
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/core/navigation"
	"wfl-lsp/core/presentation"
)

// files are the files a cross-file query about d reads, with d's own
// snapshot for d.
func (s *server) files(d doc) navigation.Files {
	return navigation.Files{Base: core.URI(d.uri).Path(), Candidates: s.candidatePaths(), IncludesOf: s.includesOf,
		Load: s.versionedLoader(d).load}
}

// locations converts spans of the document and of other files.
func (s *server) locations(d doc, spans []navigation.FileSpan) any {
	if len(spans) == 0 {
		return nil
	}
	out := make([]protocol.Location, len(spans))
	for i, fs := range spans {
		out[i] = protocol.Location{URI: s.fileURI(d, fs.Path), Range: s.mapperFor(fs.Path, fs.Lines, d.enc).rng(fs.Span)}
	}
	return out
}

func typeDefinition(_ context.Context, s *server, d doc, p *protocol.TypeDefinitionParams) (any, error) {
	a, m := d.analysis()
	return s.locations(d, navigation.TypeDefinition(a, m.offset(p.Position), s.files(d))), nil
}

func implementation(_ context.Context, s *server, d doc, p *protocol.ImplementationParams) (any, error) {
	a, m := d.analysis()
	return s.locations(d, navigation.Implementations(a, m.offset(p.Position), s.files(d))), nil
}

// typeItem converts a core type item; f is the file the request is about.
func (s *server) typeItem(f callFile, it navigation.TypeItem) protocol.TypeHierarchyItem {
	u := f.uri
	if it.Path != f.path {
		u = uri.File(it.Path)
		if snap, ok := s.ws.OpenSnapshot(it.Path); ok {
			u = s.spelled(uri.URI(snap.URI))
		}
	}
	m := s.mapperFor(it.Path, it.Lines, f.m.enc)
	kind := protocol.SymbolKindClass
	if it.Interface {
		kind = protocol.SymbolKindInterface
	}
	ti := protocol.TypeHierarchyItem{Name: it.Name, Kind: kind, URI: u, Range: m.rng(it.Span), SelectionRange: m.rng(it.NameSpan), Detail: optional(it.Detail)}
	return ti
}

func prepareTypeHierarchy(_ context.Context, s *server, d doc, p *protocol.TypeHierarchyPrepareParams) (any, error) {
	a, m := d.analysis()
	it, ok := navigation.PrepareTypeHierarchy(a, m.offset(p.Position), s.files(d))
	if !ok {
		return nil, nil
	}
	f := callFile{uri: d.echo, path: core.URI(d.uri).Path(), a: a, m: m}
	return []protocol.TypeHierarchyItem{s.typeItem(f, it)}, nil
}

// typeItemRequest is a request about a type hierarchy item, answered for
// the file it is in, open or not.
func typeItemRequest[P any](itemOf func(*P) protocol.TypeHierarchyItem, fn func(s *server, f callFile, item protocol.TypeHierarchyItem) []navigation.TypeItem) request {
	sh := shapeOf[P]()
	return request{prepare: async(func(s *server, params jsonrpc2.RawMessage) (work, error) {
		p := new(P)
		if err := sh.decode(params, p); err != nil {
			return nil, err
		}
		item := itemOf(p)
		enc := s.session.Load().enc
		return func(context.Context) (any, error) {
			f, ok := s.callFile(item.URI, enc)
			if !ok {
				return nil, jsonrpc2.Errorf(codeRequestFailed, "%s cannot be read", item.URI)
			}
			out := []protocol.TypeHierarchyItem{}
			for _, it := range fn(s, f, item) {
				out = append(out, s.typeItem(f, it))
			}
			return out, nil
		}, nil
	})}
}

// hierarchyFiles are the files a type hierarchy request about f reads.
func (s *server) hierarchyFiles(f callFile) navigation.Files {
	return navigation.Files{Base: f.path, Candidates: s.candidatePaths(), IncludesOf: s.includesOf, Load: s.loadAnalysis}
}

func supertypes(s *server, f callFile, item protocol.TypeHierarchyItem) []navigation.TypeItem {
	return navigation.Supertypes(f.a, f.m.offset(item.SelectionRange.Start), s.hierarchyFiles(f))
}

func subtypes(s *server, f callFile, item protocol.TypeHierarchyItem) []navigation.TypeItem {
	return navigation.Subtypes(f.a, f.m.offset(item.SelectionRange.Start), s.hierarchyFiles(f))
}

// lensData identifies the document and the version a code lens was made
// for, so that codeLens/resolve counts on the same text.
type lensData struct {
	URI     uri.URI `json:"uri"`
	Version int32   `json:"version"`
}

// codeLens answers the lenses without their counts (their commands), which
// codeLens/resolve computes for the lenses the editor shows. The lenses are
// read from the syntax tree: an editor asks for them after every pause in
// typing, and they need no analysis.
func codeLens(_ context.Context, _ *server, d doc, _ *protocol.CodeLensParams) (any, error) {
	x, m := d.syntax()
	data, _ := json.Marshal(lensData{URI: d.uri, Version: d.snap.Version})
	out := []protocol.CodeLens{}
	for _, l := range navigation.CodeLenses(x) {
		out = append(out, protocol.CodeLens{Range: m.rng(l.Span), Data: protocol.LSPAny(data)})
	}
	return out, nil
}

// resolveCodeLens gives a lens its title, the number of references to the
// name it is on (across the files that include the document), as a
// command with no action to run.
func resolveCodeLens(s *server, params jsonrpc2.RawMessage) (work, error) {
	var lens protocol.CodeLens
	if err := decodeParams(params, &lens); err != nil {
		return nil, err
	}
	var data lensData
	if len(lens.Data) == 0 || json.Unmarshal(lens.Data, &data) != nil || data.URI == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, "code lens without resolve data")
	}
	d, stale, err := s.resolveTarget(data.URI, data.Version, "the code lens was made")
	if err != nil {
		return nil, err
	}
	return func(context.Context) (any, error) {
		if err := stale(); err != nil {
			return nil, err
		}
		// As references counts them: from an analysis of the statements
		// that name the name, when they are few (core's QueryName).
		off := d.mapper().offset(lens.Range.Start)
		a := d.snap.QueryName(off)
		path := core.URI(d.uri).Path()
		n, ok := navigation.ReferenceCount(a, off, navigation.Files{Base: path, Candidates: s.candidatePaths(), IncludesOf: s.includesOf, Load: s.loadHere(path, a)})
		if !ok {
			return nil, jsonrpc2.NewError(codeRequestFailed, "the code lens is on no declared name")
		}
		title := fmt.Sprintf("%d references", n)
		if n == 1 {
			title = "1 reference"
		}
		lens.Command = protocol.Command{Title: title}
		return &lens, nil
	}, nil
}

// onTypeFormatting inserts the closer of the block whose header Enter
// followed, when it is not closed.
func onTypeFormatting(_ context.Context, _ *server, d doc, p *protocol.DocumentOnTypeFormattingParams) (any, error) {
	if p.Ch != "\n" && p.Ch != "\r\n" {
		return nil, nil
	}
	// The closer is decided by parsing the text from the header's
	// statement on (presentation.CloseBlock): no analysis is needed.
	m := d.mapper()
	e, ok := presentation.CloseBlock(d.snap, m.offset(p.Position))
	if !ok {
		return nil, nil
	}
	return textEdits(m, []core.Edit{e}), nil
}
