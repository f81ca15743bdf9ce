package lsp

// This file answers the requests that decorate a document: its links (an
// include's or a load's path) and its inlay hints (parameter names and
// inferred types).

import (
	"context"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
)

// documentLink links each include and load module path to its file.
func documentLink(_ context.Context, _ *server, d doc, _ *protocol.DocumentLinkParams) (any, error) {
	a, m := d.syntax()
	links := presentation.DocumentLinks(a, core.URI(d.uri).Path())
	out := make([]protocol.DocumentLink, 0, len(links))
	for _, l := range links {
		if l.Span.End >= len(d.snap.Text) || d.snap.Text[l.Span.End] != '"' {
			continue // a path whose quote is left open: not yet the file it will name
		}
		target := uri.File(l.Target)
		out = append(out, protocol.DocumentLink{Range: m.rng(l.Span), Target: &target})
	}
	return out, nil
}

// inlayHint answers the hints of a range, from the last range's where
// nothing changed since.
func inlayHint(ctx context.Context, s *server, d doc, p *protocol.InlayHintParams) (any, error) {
	m := d.mapper()
	span := m.span(p.Range)
	s.lanes.stepAside(ctx) // as semantic tokens of a range
	// As those tokens, the hints are the last range's where nothing changed
	// since (presentation.HintsIn).
	rh := presentation.HintsIn(d.snap, span, s.tokens.hints.get(d.uri))
	s.tokens.hints.put(d.uri, d.snap.Version, rh)
	defer s.lanes.longTurn(ctx)()
	hints := rh.Hints()
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
