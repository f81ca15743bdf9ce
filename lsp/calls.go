package lsp

// This file serves call hierarchy for actions, converted from core.

import (
	"context"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
)

func init() {
	requests[protocol.MethodTextDocumentPrepareCallHierarchy] = docRequest(
		func(p *protocol.CallHierarchyPrepareParams) uri.URI { return p.TextDocument.URI }, prepareCallHierarchy)
	requests[protocol.MethodCallHierarchyIncomingCalls] = docRequest(
		func(p *protocol.CallHierarchyIncomingCallsParams) uri.URI { return p.Item.URI }, incomingCalls)
	requests[protocol.MethodCallHierarchyOutgoingCalls] = docRequest(
		func(p *protocol.CallHierarchyOutgoingCallsParams) uri.URI { return p.Item.URI }, outgoingCalls)
}

func callItem(d doc, m mapper, it core.CallItem) protocol.CallHierarchyItem {
	kind := protocol.SymbolKindFunction
	switch {
	case it.Method:
		kind = protocol.SymbolKindMethod
	case it.TopLevel:
		kind = protocol.SymbolKindFile
	}
	ci := protocol.CallHierarchyItem{Name: it.Name, Kind: kind, URI: d.uri, Range: m.rng(it.Span), SelectionRange: m.rng(it.NameSpan)}
	if it.Detail != "" {
		detail := it.Detail
		ci.Detail = &detail
	}
	return ci
}

func prepareCallHierarchy(_ context.Context, _ *server, d doc, p *protocol.CallHierarchyPrepareParams) (any, error) {
	a, m := d.analysis()
	it, ok := a.PrepareCallHierarchy(m.offset(p.Position))
	if !ok {
		return nil, nil
	}
	return []protocol.CallHierarchyItem{callItem(d, m, it)}, nil
}

func incomingCalls(_ context.Context, _ *server, d doc, p *protocol.CallHierarchyIncomingCallsParams) (any, error) {
	a, m := d.analysis()
	out := []protocol.CallHierarchyIncomingCall{}
	for _, c := range a.IncomingCalls(m.offset(p.Item.SelectionRange.Start)) {
		out = append(out, protocol.CallHierarchyIncomingCall{From: callItem(d, m, c.Item), FromRanges: ranges(m, c)})
	}
	return out, nil
}

func outgoingCalls(_ context.Context, _ *server, d doc, p *protocol.CallHierarchyOutgoingCallsParams) (any, error) {
	a, m := d.analysis()
	out := []protocol.CallHierarchyOutgoingCall{}
	for _, c := range a.OutgoingCalls(m.offset(p.Item.SelectionRange.Start)) {
		out = append(out, protocol.CallHierarchyOutgoingCall{To: callItem(d, m, c.Item), FromRanges: ranges(m, c)})
	}
	return out, nil
}

func ranges(m mapper, c core.Call) []protocol.Range {
	rs := make([]protocol.Range, len(c.Spans))
	for i, s := range c.Spans {
		rs[i] = m.rng(s)
	}
	return rs
}
