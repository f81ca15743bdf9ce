package lsp

// This file serves call hierarchy for actions, converted from core. An
// item may be an action of a file the document includes, open or not, so
// the incoming and outgoing calls of an item are answered for any file of
// the workspace; its incoming calls include those of the files that
// include it.

import (
	"context"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/core/navigation"
)

// callFile is the file of a call hierarchy item: an open document or a
// file on the disk.
type callFile struct {
	uri  uri.URI
	path string
	a    *core.Analysis
	m    mapper
}

// itemRequest is a request about a call hierarchy item, answered for the
// file it is in, open or not.
func itemRequest[P any](itemOf func(*P) protocol.CallHierarchyItem, fn func(s *server, f callFile, p *P) (any, error)) request {
	sh := shapeOf[P]()
	return request{prepare: async(func(s *server, params jsonrpc2.RawMessage) (work, error) {
		p := new(P)
		if err := sh.decode(params, p); err != nil {
			return nil, err
		}
		u := itemOf(p).URI
		enc := s.session.Load().enc
		return func(context.Context) (any, error) {
			f, ok := s.callFile(u, enc)
			if !ok {
				return nil, jsonrpc2.Errorf(codeRequestFailed, "%s cannot be read", u)
			}
			return fn(s, f, p)
		}, nil
	})}
}

// callFile returns the file at u: the open document's analysis, else the
// disk's.
func (s *server) callFile(u uri.URI, enc encoding) (callFile, bool) {
	path := core.URI(u).Path()
	var a *core.Analysis
	if snap, ok := s.ws.Snapshot(core.URI(u)); ok {
		a = snap.Analysis()
	} else if got, ok := s.ws.Load(path); ok {
		a = got
	} else {
		return callFile{}, false
	}
	return callFile{uri: s.spelled(u), path: path, a: a, m: s.mapperFor(path, a.Lines, enc)}, true
}

// item converts a core item of the file f (or of the file it names).
func (s *server) item(f callFile, it navigation.CallItem) protocol.CallHierarchyItem {
	u, m := f.uri, f.m
	if it.File != "" && it.File != f.path {
		u = uri.File(it.File)
		if g, ok := s.callFile(u, f.m.enc); ok {
			m = g.m
		}
	}
	kind := protocol.SymbolKindFunction
	switch {
	case it.Method:
		kind = protocol.SymbolKindMethod
	case it.TopLevel:
		kind = protocol.SymbolKindFile
	}
	ci := protocol.CallHierarchyItem{Name: it.Name, Kind: kind, URI: u, Range: m.rng(it.Span), SelectionRange: m.rng(it.NameSpan), Detail: optional(it.Detail)}
	return ci
}

func prepareCallHierarchy(_ context.Context, s *server, d doc, p *protocol.CallHierarchyPrepareParams) (any, error) {
	a, m := d.analysis()
	it, ok := navigation.PrepareCallHierarchy(a, m.offset(p.Position))
	if !ok {
		return nil, nil
	}
	f := callFile{uri: d.echo, path: core.URI(d.uri).Path(), a: a, m: m}
	return []protocol.CallHierarchyItem{s.item(f, it)}, nil
}

func incomingCalls(s *server, f callFile, p *protocol.CallHierarchyIncomingCallsParams) (any, error) {
	out := []protocol.CallHierarchyIncomingCall{}
	calls := navigation.IncomingCallsAcross(f.a, f.m.offset(p.Item.SelectionRange.Start), f.path, s.candidatePaths(), s.includesOf, s.loadAnalysis)
	for _, c := range calls {
		g := f
		if c.Item.File != "" && c.Item.File != f.path {
			var ok bool
			if g, ok = s.callFile(uri.File(c.Item.File), f.m.enc); !ok {
				continue
			}
		}
		out = append(out, protocol.CallHierarchyIncomingCall{From: s.item(g, c.Item), FromRanges: ranges(g.m, c)})
	}
	return out, nil
}

func outgoingCalls(s *server, f callFile, p *protocol.CallHierarchyOutgoingCallsParams) (any, error) {
	out := []protocol.CallHierarchyOutgoingCall{}
	for _, c := range navigation.OutgoingCalls(f.a, f.m.offset(p.Item.SelectionRange.Start)) {
		out = append(out, protocol.CallHierarchyOutgoingCall{To: s.item(f, c.Item), FromRanges: ranges(f.m, c)})
	}
	return out, nil
}

func ranges(m mapper, c navigation.Call) []protocol.Range {
	rs := make([]protocol.Range, len(c.Spans))
	for i, s := range c.Spans {
		rs[i] = m.rng(s)
	}
	return rs
}
