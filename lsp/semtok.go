package lsp

// This file converts core's semantic tokens into LSP's relative encoding and
// serves textDocument/semanticTokens/full, /full/delta and /range. The last
// full result of each document is kept so a delta request can be answered
// with the one edit that turns it into the new one.

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/lang/token"
)

func init() {
	requests[protocol.MethodTextDocumentSemanticTokensFull] = wholeDocRequest(
		func(p *protocol.SemanticTokensParams) uri.URI { return p.TextDocument.URI }, semanticTokensFull)
	requests[protocol.MethodTextDocumentSemanticTokensFullDelta] = wholeDocRequest(
		func(p *protocol.SemanticTokensDeltaParams) uri.URI { return p.TextDocument.URI }, semanticTokensDelta)
	requests[protocol.MethodTextDocumentSemanticTokensRange] = docRequest(
		func(p *protocol.SemanticTokensRangeParams) uri.URI { return p.TextDocument.URI }, semanticTokensRange)
}

// semanticLegend is the legend advertised in initialize; token type and
// modifier indexes are core's.
func semanticLegend() protocol.SemanticTokensLegend {
	return protocol.SemanticTokensLegend{
		TokenTypes:     append([]string(nil), core.SemTypeNames[:]...),
		TokenModifiers: append([]string(nil), core.SemModNames...),
	}
}

// tokenCache remembers the last full result per document, for deltas.
type tokenCache struct {
	mu   sync.Mutex
	last map[uri.URI]cachedTokens
	seq  atomic.Uint64
}

type cachedTokens struct {
	id   string
	data []uint32
}

func (c *tokenCache) store(u uri.URI, data []uint32) string {
	id := strconv.FormatUint(c.seq.Add(1), 10)
	c.mu.Lock()
	if c.last == nil {
		c.last = make(map[uri.URI]cachedTokens)
	}
	c.last[u] = cachedTokens{id: id, data: data}
	c.mu.Unlock()
	return id
}

func (c *tokenCache) load(u uri.URI, id string) ([]uint32, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.last[u]
	if !ok || t.id != id {
		return nil, false
	}
	return t.data, true
}

func (c *tokenCache) forget(u uri.URI) {
	c.mu.Lock()
	delete(c.last, u)
	c.mu.Unlock()
}

func semanticTokensFull(_ context.Context, s *server, d doc, _ *protocol.SemanticTokensParams) (any, error) {
	a, m := d.analysis()
	data := encodeTokens(a, m, token.Span{Start: 0, End: len(d.snap.Text)})
	id := s.tokens.store(d.uri, data)
	return &protocol.SemanticTokens{ResultID: &id, Data: data}, nil
}

func semanticTokensRange(ctx context.Context, s *server, d doc, p *protocol.SemanticTokensRangeParams) (any, error) {
	m := d.mapper()
	span := m.span(p.Range)
	// All long work, its analysis too: the range is not where the
	// cursor is, so no short request shares it (lanes.go).
	defer s.lanes.beginLong(ctx)()
	a := d.snap.Query(span)
	return &protocol.SemanticTokens{Data: encodeTokens(a, m, span)}, nil
}

func semanticTokensDelta(_ context.Context, s *server, d doc, p *protocol.SemanticTokensDeltaParams) (any, error) {
	a, m := d.analysis()
	data := encodeTokens(a, m, token.Span{Start: 0, End: len(d.snap.Text)})
	prev, ok := s.tokens.load(d.uri, p.PreviousResultID)
	id := s.tokens.store(d.uri, data)
	if !ok {
		return &protocol.SemanticTokens{ResultID: &id, Data: data}, nil
	}
	// One edit: replace what lies between the common prefix and suffix.
	pre := 0
	for pre < len(prev) && pre < len(data) && prev[pre] == data[pre] {
		pre++
	}
	suf := 0
	for suf < len(prev)-pre && suf < len(data)-pre && prev[len(prev)-1-suf] == data[len(data)-1-suf] {
		suf++
	}
	edits := []protocol.SemanticTokensEdit{}
	if pre != len(prev) || pre != len(data) {
		edits = append(edits, protocol.SemanticTokensEdit{
			Start:       uint32(pre),
			DeleteCount: uint32(len(prev) - pre - suf),
			Data:        append([]uint32{}, data[pre:len(data)-suf]...),
		})
	}
	return &protocol.SemanticTokensDelta{ResultID: &id, Edits: edits}, nil
}

// encodeTokens returns the tokens overlapping span in LSP's relative form:
// five numbers a token (line delta, start delta, length, type, modifiers),
// lengths in the session's encoding. A token that spans lines (a string with
// line breaks) is split into one token a line.
func encodeTokens(a *core.Analysis, m mapper, span token.Span) []uint32 {
	toks := a.SemanticTokens(span)
	data := make([]uint32, 0, 5*len(toks))
	text := a.Lines.Text()
	var prevLine, prevChar uint32
	// Tokens come in order, so the line and the column are found by walking
	// forward from the previous token rather than searched for each time.
	line := 0
	lineStart, lineEnd := a.Lines.LineStart(0), a.Lines.LineEnd(0)
	at, atUnits := lineStart, 0 // a known offset on the line and its column
	emit := func(start, end int, t core.SemanticToken) {
		if end <= start {
			return
		}
		for start > lineEnd && line < a.Lines.Count()-1 {
			line++
			lineStart, lineEnd = a.Lines.LineStart(line), a.Lines.LineEnd(line)
			at, atUnits = lineStart, 0
		}
		if start < at {
			at, atUnits = lineStart, 0
		}
		col := atUnits + m.units(text[at:start])
		at, atUnits = start, col
		n := uint32(m.units(text[start:end]))
		l, c := uint32(line), uint32(col)
		dl, dc := l-prevLine, c
		if dl == 0 {
			dc = c - prevChar
		}
		data = append(data, dl, dc, n, uint32(t.Type), uint32(t.Mods))
		prevLine, prevChar = l, c
	}
	for _, t := range toks {
		start, end := t.Span.Start, t.Span.End
		for line := a.Lines.Line(start); start < end; line++ {
			lineEnd := a.Lines.LineEnd(line)
			if lineEnd > end {
				lineEnd = end
			}
			emit(start, lineEnd, t)
			next := a.Lines.LineStart(line + 1)
			if next <= start { // last line
				break
			}
			start = next
		}
	}
	return data
}
