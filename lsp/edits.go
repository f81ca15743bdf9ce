package lsp

// This file holds the handlers that answer with edits or annotations:
// formatting, code actions (quick fixes and fix-all), rename, declaration,
// document links and inlay hints; all converted from core.

import (
	"context"

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

func codeAction(_ context.Context, _ *server, d doc, p *protocol.CodeActionParams) (any, error) {
	_, m := d.analysis()
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
	out := []protocol.CodeAction{}
	if want(protocol.CodeActionKindQuickFix) {
		kind := protocol.CodeActionKindQuickFix
		for _, f := range d.snap.Fixes(m.span(p.Range)) {
			preferred := f.Safe
			out = append(out, protocol.CodeAction{
				Title:       f.Title,
				Kind:        &kind,
				Diagnostics: toDiagnostics(d.uri, m, []diag.Diagnostic{f.Diagnostic}),
				IsPreferred: &preferred,
				Edit:        &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{d.uri: textEdits(m, f.Edits)}},
			})
		}
	}
	if want(protocol.CodeActionKindSourceFixAll) {
		fixed, n, err := d.snap.FixAll()
		if err == nil && n > 0 && fixed != d.snap.Text {
			kind := protocol.CodeActionKindSourceFixAll
			all := token.Span{Start: 0, End: len(d.snap.Text)}
			out = append(out, protocol.CodeAction{
				Title: "Fix all layout problems",
				Kind:  &kind,
				Edit: &protocol.WorkspaceEdit{Changes: map[uri.URI][]protocol.TextEdit{
					d.uri: {{Range: m.rng(all), NewText: fixed}},
				}},
			})
		}
	}
	return out, nil
}

func prepareRename(_ context.Context, _ *server, d doc, p *protocol.PrepareRenameParams) (any, error) {
	a, m := d.analysis()
	span, name, err := a.PrepareRename(m.offset(p.Position))
	if err != nil {
		return nil, jsonrpc2.Errorf(codeRequestFailed, "%v", err)
	}
	return &protocol.PrepareRenamePlaceholder{Range: m.rng(span), Placeholder: name}, nil
}

func rename(_ context.Context, _ *server, d doc, p *protocol.RenameParams) (any, error) {
	a, m := d.analysis()
	edits, err := a.Rename(m.offset(p.Position), p.NewName)
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
	a, m := d.analysis()
	hints := a.InlayHints(m.span(p.Range))
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
