package lsp

// This file holds the language-feature handlers. Each one asks core for the
// answer in byte offsets and converts it; none computes a language fact.

import (
	"context"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/core/navigation"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/token"
)

// positioned is implemented by every params type that embeds
// TextDocumentPositionParams.
type positioned interface {
	protocol.HoverParams | protocol.DefinitionParams | protocol.ReferenceParams | protocol.DocumentHighlightParams
}

func posURI[P positioned](p *P) uri.URI { return positionOf(p).TextDocument.URI }

func positionOf[P positioned](p *P) protocol.TextDocumentPositionParams {
	switch p := any(p).(type) {
	case *protocol.HoverParams:
		return p.TextDocumentPositionParams
	case *protocol.DefinitionParams:
		return p.TextDocumentPositionParams
	case *protocol.ReferenceParams:
		return p.TextDocumentPositionParams
	case *protocol.DocumentHighlightParams:
		return p.TextDocumentPositionParams
	}
	panic("unreachable")
}

func hover(_ context.Context, s *server, d doc, p *protocol.HoverParams) (any, error) {
	a, m, off := d.at(p.Position)
	h := navigation.HoverAcross(a, off, core.URI(d.uri).Path(), s.loadAnalysis)
	if h == nil {
		return nil, nil
	}
	content := &protocol.MarkupContent{Kind: protocol.MarkupKindPlainText, Value: h.PlainText()}
	if s.session.Load().caps.markdownHover {
		content = &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: h.Markdown()}
	}
	r := m.rng(h.Span)
	return &protocol.Hover{Contents: content, Range: &r}, nil
}

func definition(_ context.Context, s *server, d doc, p *protocol.DefinitionParams) (any, error) {
	a, m, off := d.at(p.Position)
	spans := navigation.Definition(a, off)
	locs := make(protocol.LocationSlice, 0, len(spans))
	for _, sp := range spans {
		locs = append(locs, protocol.Location{URI: d.echo, Range: m.rng(sp)})
	}
	if len(locs) == 0 {
		// Declared in an included file?
		for _, fs := range navigation.IncludedDefinition(a, off, core.URI(d.uri).Path(), s.loadAnalysis) {
			locs = append(locs, protocol.Location{URI: uri.File(fs.Path), Range: s.mapperFor(fs.Path, fs.Lines, d.enc).rng(fs.Span)})
		}
	}
	if len(locs) == 0 {
		return nil, nil
	}
	return locs, nil
}

// fileURI is the URI of a path: the request's own document keeps the URI
// the client gave, other files get theirs from the path.
func (s *server) fileURI(d doc, path string) uri.URI {
	if path == core.URI(d.uri).Path() {
		return d.echo
	}
	return s.spelled(uri.File(path))
}

// candidatePaths lists the files a cross-file query may look at: the open
// documents and the indexed workspace files.
func (s *server) candidatePaths() []string {
	var out []string
	for _, snap := range s.ws.Snapshots() {
		if p := snap.URI.Path(); p != "" {
			out = append(out, p)
		}
	}
	s.index.mu.Lock()
	for u := range s.index.files {
		if p := core.URI(u).Path(); p != "" {
			out = append(out, p)
		}
	}
	s.index.mu.Unlock()
	return out
}

// includesOf returns the files a file includes: from its open snapshot, the
// workspace index, or nothing.
func (s *server) includesOf(path string) []string {
	u := uri.File(path)
	if snap, ok := s.ws.Snapshot(core.URI(u)); ok {
		return snap.Analysis().Includes(path)
	}
	s.index.mu.Lock()
	defer s.index.mu.Unlock()
	return s.index.files[u].includes
}

// loadAnalysis returns the analysis of a file: its open snapshot's, or the
// disk's.
func (s *server) loadAnalysis(path string) (*core.Analysis, bool) {
	return s.ws.Load(path)
}

// loadHere is loadAnalysis, except that the request's own document (at
// path) is a, the analysis that answers about the name at the request's
// position (core's Snapshot.QueryName): every place of the document that
// names it is in a.
func (s *server) loadHere(path string, a *core.Analysis) func(string) (*core.Analysis, bool) {
	return func(p string) (*core.Analysis, bool) {
		if p == path {
			return a, true
		}
		return s.ws.Load(p)
	}
}

func references(_ context.Context, s *server, d doc, p *protocol.ReferenceParams) (any, error) {
	m := d.mapper()
	off := m.offset(p.Position)
	a := d.snap.QueryName(off)
	path := core.URI(d.uri).Path()
	if refs, ok := navigation.ReferencesAcross(a, off, path, s.candidatePaths(), s.includesOf, s.loadHere(path, a)); ok {
		// A name shared through include: every file of the family.
		locs := []protocol.Location{}
		for _, r := range refs {
			if r.Decl && !p.Context.IncludeDeclaration {
				continue
			}
			locs = append(locs, protocol.Location{URI: s.fileURI(d, r.Path), Range: s.mapperFor(r.Path, r.Lines, d.enc).rng(r.Span)})
		}
		return locs, nil
	}
	refs := navigation.References(a, off, p.Context.IncludeDeclaration)
	locs := make([]protocol.Location, len(refs))
	for i, r := range refs {
		locs[i] = protocol.Location{URI: d.echo, Range: m.rng(r.Span)}
	}
	return locs, nil
}

func highlight(_ context.Context, s *server, d doc, p *protocol.DocumentHighlightParams) (any, error) {
	m := d.mapper()
	off := m.offset(p.Position)
	a := d.snap.QueryName(off)
	refs := navigation.Highlights(a, off)
	if len(refs) == 0 {
		// A name from an included file: its places in this document.
		path := core.URI(d.uri).Path()
		shared, _ := navigation.ReferencesAcross(a, off, path, nil, s.includesOf, s.loadHere(path, a))
		for _, r := range shared {
			if r.Path == path {
				refs = append(refs, navigation.Reference{Span: r.Span, Decl: r.Decl, Write: r.Decl})
			}
		}
	}
	out := make([]protocol.DocumentHighlight, len(refs))
	for i, r := range refs {
		kind := protocol.DocumentHighlightKindRead
		if r.Write {
			kind = protocol.DocumentHighlightKindWrite
		}
		out[i] = protocol.DocumentHighlight{Range: m.rng(r.Span), Kind: kind}
	}
	return out, nil
}

var outlineKinds = map[presentation.OutlineKind]protocol.SymbolKind{
	presentation.OutlineAction:    protocol.SymbolKindFunction,
	presentation.OutlineMethod:    protocol.SymbolKindMethod,
	presentation.OutlineParameter: protocol.SymbolKindVariable,
	presentation.OutlineContainer: protocol.SymbolKindClass,
	presentation.OutlineInterface: protocol.SymbolKindInterface,
	presentation.OutlineProperty:  protocol.SymbolKindProperty,
	presentation.OutlineEvent:     protocol.SymbolKindEvent,
	presentation.OutlineVariable:  protocol.SymbolKindVariable,
	presentation.OutlineConstant:  protocol.SymbolKindConstant,
	presentation.OutlineList:      protocol.SymbolKindArray,
	presentation.OutlineMap:       protocol.SymbolKindObject,
	presentation.OutlinePattern:   protocol.SymbolKindString,
	presentation.OutlineDescribe:  protocol.SymbolKindNamespace,
	presentation.OutlineTest:      protocol.SymbolKindMethod,
}

// documentSymbol answers the outline. After an edit it comes from the
// tree and from the types of the top-level stores an earlier outline
// found, those of the statements checked again since found anew
// (presentation.Outline): an editor asks for it after every pause in
// typing (VS Code's outline, breadcrumbs and sticky scroll).
func documentSymbol(_ context.Context, s *server, d doc, _ *protocol.DocumentSymbolParams) (any, error) {
	syms := presentation.Outline(d.snap)
	m := d.mapper()
	if s.session.Load().caps.hierarchicalSymbols {
		return protocol.DocumentSymbolSlice(toDocumentSymbols(m, syms)), nil
	}
	// Older clients get a flat list, each entry naming its container.
	out := protocol.SymbolInformationSlice{}
	var flatten func(parent string, ss []presentation.DocumentSymbol)
	flatten = func(parent string, ss []presentation.DocumentSymbol) {
		for _, sym := range ss {
			info := protocol.SymbolInformation{Location: protocol.Location{URI: d.echo, Range: m.rng(sym.Span)}}
			info.Name, info.Kind = sym.Name, outlineKinds[sym.Kind]
			if parent != "" {
				p := parent
				info.ContainerName = &p
			}
			out = append(out, info)
			flatten(sym.Name, sym.Children)
		}
	}
	flatten("", syms)
	return out, nil
}

func toDocumentSymbols(m mapper, ss []presentation.DocumentSymbol) []protocol.DocumentSymbol {
	out := make([]protocol.DocumentSymbol, 0, len(ss))
	for _, sym := range ss {
		ds := protocol.DocumentSymbol{
			Name:           sym.Name,
			Kind:           outlineKinds[sym.Kind],
			Range:          m.rng(sym.Span),
			SelectionRange: m.rng(sym.NameSpan),
			Detail:         optional(sym.Detail),
		}
		if len(sym.Children) > 0 {
			ds.Children = toDocumentSymbols(m, sym.Children)
		}
		out = append(out, ds)
	}
	return out
}

func foldingRange(_ context.Context, s *server, d doc, _ *protocol.FoldingRangeParams) (any, error) {
	a, m := d.syntax()
	lineOnly := s.session.Load().caps.lineFoldingOnly
	folds := presentation.FoldingRanges(a)
	out := make([]protocol.FoldingRange, 0, len(folds))
	for _, f := range folds {
		start, end := m.position(f.Start), m.position(f.End)
		fr := protocol.FoldingRange{StartLine: start.Line, EndLine: end.Line}
		if !lineOnly {
			sc, ec := start.Character, end.Character
			fr.StartCharacter, fr.EndCharacter = &sc, &ec
		}
		if f.Comment {
			fr.Kind = protocol.FoldingRangeKindComment
		}
		out = append(out, fr)
	}
	return out, nil
}

// maxSelection is the most ranges a selection range chain holds.
const maxSelection = 256

func selectionRange(_ context.Context, _ *server, d doc, p *protocol.SelectionRangeParams) (any, error) {
	a, m := d.syntax()
	out := make([]protocol.SelectionRange, 0, len(p.Positions))
	for _, pos := range p.Positions {
		off := m.offset(pos)
		chain := presentation.SelectionRange(a, off)
		if len(chain) == 0 {
			chain = []token.Span{{Start: off, End: off}}
		}
		if len(chain) > maxSelection {
			// The innermost ranges, then the outermost: an expression
			// nested thousands deep would make as many nested objects,
			// past what clients decode (Neovim's JSON decoder stops at
			// 1,000 levels).
			chain = append(chain[:maxSelection-1:maxSelection-1], chain[len(chain)-1])
		}
		// Build from the outside in so each range points at its parent.
		var parent *protocol.SelectionRange
		for i := len(chain) - 1; i >= 0; i-- {
			parent = &protocol.SelectionRange{Range: m.rng(chain[i]), Parent: parent}
		}
		out = append(out, *parent)
	}
	return out, nil
}

func pullDiagnostics(_ context.Context, s *server, d doc, _ *protocol.DocumentDiagnosticParams) (any, error) {
	lines, diags := s.ws.Diagnostics(d.snap, core.TolerantFor(d.snap.URI))
	return &protocol.RelatedFullDocumentDiagnosticReport{
		FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{
			Kind:  "full",
			Items: toDiagnostics(d.echo, newMapper(lines, d.enc), diags),
		},
	}, nil
}

// declaration answers as definition: WFL declares and defines a name in
// one place.
func declaration(ctx context.Context, s *server, d doc, p *protocol.DeclarationParams) (any, error) {
	return definition(ctx, s, d, &protocol.DefinitionParams{TextDocumentPositionParams: p.TextDocumentPositionParams})
}

// optional is s for a protocol field that is left out when empty: nil for
// "".
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
