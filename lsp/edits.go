package lsp

// This file holds the handlers that answer with edits or annotations:
// formatting, code actions (quick fixes and fix-all), rename, declaration,
// document links and inlay hints; all converted from core.

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

func init() {
	td := func(u protocol.TextDocumentIdentifier) uri.URI { return u.URI }
	requests[protocol.MethodTextDocumentFormatting] = wholeDocRequest(func(p *protocol.DocumentFormattingParams) uri.URI { return td(p.TextDocument) }, formatting)
	requests[protocol.MethodTextDocumentRangeFormatting] = docRequest(func(p *protocol.DocumentRangeFormattingParams) uri.URI { return td(p.TextDocument) }, rangeFormatting)
	requests[protocol.MethodTextDocumentCodeAction] = docRequest(func(p *protocol.CodeActionParams) uri.URI { return td(p.TextDocument) }, codeAction)
	requests[protocol.MethodCodeActionResolve] = request{prepare: resolveCodeAction}
	requests[protocol.MethodTextDocumentRename] = docRequest(func(p *protocol.RenameParams) uri.URI { return td(p.TextDocument) }, rename)
	requests[protocol.MethodTextDocumentPrepareRename] = docRequest(func(p *protocol.PrepareRenameParams) uri.URI { return td(p.TextDocument) }, prepareRename)
	requests[protocol.MethodTextDocumentDeclaration] = docRequest(func(p *protocol.DeclarationParams) uri.URI { return td(p.TextDocument) }, declaration)
	requests[protocol.MethodTextDocumentDocumentLink] = wholeDocRequest(func(p *protocol.DocumentLinkParams) uri.URI { return td(p.TextDocument) }, documentLink)
	requests[protocol.MethodTextDocumentInlayHint] = docRequest(func(p *protocol.InlayHintParams) uri.URI { return td(p.TextDocument) }, inlayHint)
}

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
	_, m := d.analysis()
	edits, err := d.snap.FormatEdits(start, end)
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

func codeAction(_ context.Context, s *server, d doc, p *protocol.CodeActionParams) (any, error) {
	_, m := d.analysis()
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
		for i, f := range d.snap.Fixes(m.span(p.Range)) {
			ca := protocol.CodeAction{
				Title:       f.Title,
				Kind:        &kind,
				Diagnostics: toDiagnostics(d.uri, m, []diag.Diagnostic{f.Diagnostic}),
			}
			if f.Preferred { // at most one a diagnostic: the one "auto fix" applies
				ca.IsPreferred = &f.Preferred
			}
			if lazy {
				ca.Data = data(actionData{Index: i})
			} else {
				ca.Edit = fixEdit(d, m, f)
			}
			out = append(out, ca)
		}
	}
	if want(protocol.CodeActionKindSourceFixAll) {
		if edit := fixAllEdit(d, m); edit != nil {
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

func fixEdit(d doc, m mapper, f core.Fix) *protocol.WorkspaceEdit {
	return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{d.uri: textEdits(m, f.Edits)}}
}

// fixAllEdit replaces the text with its safely fixed version, or is nil
// when there is nothing to fix.
func fixAllEdit(d doc, m mapper) *protocol.WorkspaceEdit {
	fixed, n, err := d.snap.FixAll()
	if err != nil || n == 0 || fixed == d.snap.Text {
		return nil
	}
	all := token.Span{Start: 0, End: len(d.snap.Text)}
	return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{d.uri: {{Range: m.rng(all), NewText: fixed}}}}
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
	snap, ok := s.ws.Snapshot(core.URI(data.URI))
	if !ok {
		return nil, errNotOpen(data.URI)
	}
	d := doc{uri: data.URI, snap: snap, enc: s.session.Load().enc}
	return func(context.Context) (any, error) {
		if snap.Version != data.Version {
			return nil, jsonrpc2.NewError(protocol.CodeContentModified, "the document changed since the code action was offered")
		}
		_, m := d.analysis()
		if data.FixAll {
			ca.Edit = fixAllEdit(d, m)
		} else if fixes := snap.Fixes(m.span(data.Range)); data.Index >= 0 && data.Index < len(fixes) {
			ca.Edit = fixEdit(d, m, fixes[data.Index])
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
	span, name, err := a.PrepareRename(off)
	if err != nil {
		// A name declared in an included file can be renamed there and here.
		if _, ok := a.ReferencesAcross(off, core.URI(d.uri).Path(), s.candidatePaths(), s.includesOf, s.loadAnalysis); ok {
			if id, _ := a.SymbolAt(off); id != nil {
				return &protocol.PrepareRenamePlaceholder{Range: m.rng(token.Span{Start: id.Pos(), End: id.End()}), Placeholder: id.Name}, nil
			}
		}
		return nil, jsonrpc2.Errorf(codeRequestFailed, "%v", err)
	}
	return &protocol.PrepareRenamePlaceholder{Range: m.rng(span), Placeholder: name}, nil
}

func rename(_ context.Context, s *server, d doc, p *protocol.RenameParams) (any, error) {
	a, m := d.analysis()
	off := m.offset(p.Position)
	byFile, ok, err := a.RenameAcross(off, p.NewName, core.URI(d.uri).Path(), s.candidatePaths(), s.includesOf, s.loadAnalysis)
	if ok {
		if err != nil {
			return nil, jsonrpc2.Errorf(codeRequestFailed, "%v", err)
		}
		changes := map[uri.URI][]protocol.TextEdit{}
		for path, edits := range byFile {
			b, loaded := s.loadAnalysis(path)
			if !loaded {
				continue
			}
			changes[s.fileURI(d, path)] = textEdits(newMapper(b.Lines, d.enc), edits)
		}
		return &protocol.WorkspaceEdit{Changes: changes}, nil
	}
	edits, err := a.Rename(off, p.NewName)
	if err != nil {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "%v", err)
	}
	return &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{d.uri: textEdits(m, edits)}}, nil
}

func declaration(ctx context.Context, s *server, d doc, p *protocol.DeclarationParams) (any, error) {
	// WFL declares and defines a name in one place.
	return definition(ctx, s, d, &protocol.DefinitionParams{TextDocumentPositionParams: p.TextDocumentPositionParams})
}

func documentLink(_ context.Context, _ *server, d doc, _ *protocol.DocumentLinkParams) (any, error) {
	a, m := d.analysis()
	links := a.DocumentLinks(core.URI(d.uri).Path())
	out := make([]protocol.DocumentLink, 0, len(links))
	for _, l := range links {
		target := uri.File(l.Target)
		out = append(out, protocol.DocumentLink{Range: m.rng(l.Span), Target: &target})
	}
	return out, nil
}

func inlayHint(_ context.Context, _ *server, d doc, p *protocol.InlayHintParams) (any, error) {
	m := d.mapper()
	span := m.span(p.Range)
	hints := d.snap.Query(span).InlayHints(span)
	out := make([]protocol.InlayHint, 0, len(hints))
	yes := true
	for _, h := range hints {
		ih := protocol.InlayHint{Position: m.position(h.Offset), Label: protocol.String(h.Label)}
		if h.Parameter {
			ih.Kind = protocol.InlayHintKindParameter
			ih.PaddingRight = &yes
		} else {
			ih.Kind = protocol.InlayHintKindType
		}
		out = append(out, ih)
	}
	return out, nil
}
