package lsp

// This file converts core's semantic tokens into LSP's relative encoding and
// serves textDocument/semanticTokens/full, /full/delta and /range. The last
// full result of each document is kept so a delta request can be answered
// with the one edit that turns it into the new one, and so that the next
// result is built from it: the tokens of the units unchanged since are
// moved, only the others' are computed (core's Snapshot.TokensSince).

import (
	"context"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/token"
)

// semanticLegend is the legend advertised in initialize; token type and
// modifier indexes are core's.
func semanticLegend() protocol.SemanticTokensLegend {
	return protocol.SemanticTokensLegend{
		TokenTypes:     append([]string(nil), presentation.SemTypeNames[:]...),
		TokenModifiers: append([]string(nil), presentation.SemModNames...),
	}
}

// tokenCache remembers the last full result per document, for deltas,
// and the last range's tokens and inlay hints, for the next range's.
type tokenCache struct {
	mu   sync.Mutex
	last map[uri.URI]cachedTokens
	seq  atomic.Uint64

	ranges rangeCache[*presentation.RangeTokens]
	hints  rangeCache[*presentation.RangeHints]
}

// A rangeCache holds the last answer of a range of each document (core's
// RangeTokens or RangeHints), which the next range's is built from.
type rangeCache[T any] struct {
	mu   sync.Mutex
	last map[uri.URI]versioned[T]
}

type versioned[T any] struct {
	version int32
	v       T
}

// get returns the last answer of a document, or the zero T.
func (c *rangeCache[T]) get(u uri.URI) T {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last[u].v
}

// put keeps the answer of a version of a document, unless that of a
// later version is kept.
func (c *rangeCache[T]) put(u uri.URI, version int32, v T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil {
		c.last = make(map[uri.URI]versioned[T])
	}
	if old, ok := c.last[u]; !ok || old.version <= version {
		c.last[u] = versioned[T]{version, v}
	}
}

func (c *rangeCache[T]) forget(u uri.URI) {
	c.mu.Lock()
	delete(c.last, u)
	c.mu.Unlock()
}

type cachedTokens struct {
	id   string
	data []uint32
	base *presentation.TokenBase // the version they are of
}

func (c *tokenCache) store(u uri.URI, data []uint32, base *presentation.TokenBase) string {
	id := strconv.FormatUint(c.seq.Add(1), 10)
	c.mu.Lock()
	if c.last == nil {
		c.last = make(map[uri.URI]cachedTokens)
	}
	c.last[u] = cachedTokens{id: id, data: data, base: base}
	c.mu.Unlock()
	return id
}

// latest returns the last result of a document, whatever its id.
func (c *tokenCache) latest(u uri.URI) (cachedTokens, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.last[u]
	return t, ok
}

func (c *tokenCache) forget(u uri.URI) {
	c.mu.Lock()
	delete(c.last, u)
	c.mu.Unlock()
	c.ranges.forget(u)
	c.hints.forget(u)
}

func semanticTokensFull(ctx context.Context, s *server, d doc, _ *protocol.SemanticTokensParams) (any, error) {
	data, base := s.wholeTokens(ctx, d)
	id := s.tokens.store(d.uri, data, base)
	return &protocol.SemanticTokens{ResultID: &id, Data: data}, nil
}

// wholeTokens returns the encoded tokens of the whole document and its
// token base: built from the last result of the document, when there is
// one, moving the tokens of what is unchanged since and computing the
// others' from partial analyses (core's Snapshot.TokensSince); else from
// the full analysis.
// The analyses wait for the short requests, outside a long turn (as
// semanticTokensRange); the encoding takes one.
func (s *server) wholeTokens(ctx context.Context, d doc) ([]uint32, *presentation.TokenBase) {
	s.lanes.stepAside(ctx)
	base := presentation.NewTokenBase(d.snap)
	if last, ok := s.tokens.latest(d.uri); ok && last.base != nil {
		if stretches, ok := presentation.TokensSince(d.snap, last.base); ok {
			defer s.lanes.longTurn(ctx)()
			return composeTokens(decodeTokens(last.data), stretches, d.mapper()), base
		}
	}
	a, m := d.analysis()
	defer s.lanes.longTurn(ctx)()
	return encodeTokens(a, m, token.Span{Start: 0, End: len(d.snap.Text)}), base
}

func semanticTokensRange(ctx context.Context, s *server, d doc, p *protocol.SemanticTokensRangeParams) (any, error) {
	m := d.mapper()
	span := m.span(p.Range)
	// Its analysis is not the one the short requests at the cursor wait
	// for: it waits for them (lanes.go), but not in a long turn, which
	// the diagnostics must not wait behind.
	// The tokens of the units unchanged since the last range asked are
	// that answer's; the others' come from the analyses the requests at
	// the cursor built (presentation.TokensIn).
	s.lanes.stepAside(ctx)
	toks := presentation.TokensIn(d.snap, span, s.tokens.ranges.get(d.uri))
	s.tokens.ranges.put(d.uri, d.snap.Version, toks)
	defer s.lanes.longTurn(ctx)()
	return &protocol.SemanticTokens{Data: relativeTokens(encodeTokenList(toks.Tokens(), m))}, nil
}

func semanticTokensDelta(ctx context.Context, s *server, d doc, p *protocol.SemanticTokensDeltaParams) (any, error) {
	last, ok := s.tokens.latest(d.uri)
	ok = ok && last.id == p.PreviousResultID
	data, base := s.wholeTokens(ctx, d)
	id := s.tokens.store(d.uri, data, base)
	if !ok {
		return &protocol.SemanticTokens{ResultID: &id, Data: data}, nil
	}
	prev := last.data
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
	return relativeTokens(encodeTokenList(presentation.SemanticTokens(a, span), m))
}

// encodeTokenList returns tokens, in order, with the line and column they
// start at (the five numbers of relativeTokens with absolute positions),
// split into one token a line.
func encodeTokenList(toks []presentation.SemanticToken, m mapper) []uint32 {
	data := make([]uint32, 0, 5*len(toks))
	lines := m.lines
	text := lines.Text()
	// Tokens come in order, so the line and the column are found by walking
	// forward from the previous token rather than searched for each time.
	line := 0
	lineStart, lineEnd := lines.LineStart(0), lines.LineEnd(0)
	at, atUnits := lineStart, 0 // a known offset on the line and its column
	emit := func(start, end int, t presentation.SemanticToken) {
		if end <= start {
			return
		}
		if start < lineStart || start > lineEnd {
			line = lines.Line(start)
			lineStart, lineEnd = lines.LineStart(line), lines.LineEnd(line)
			at, atUnits = lineStart, 0
		}
		if start < at {
			at, atUnits = lineStart, 0
		}
		col := atUnits + m.units(text[at:start])
		at, atUnits = start, col
		data = append(data, uint32(line), uint32(col), uint32(m.units(text[start:end])), uint32(t.Type), uint32(t.Mods))
	}
	for _, t := range toks {
		start, end := t.Span.Start, t.Span.End
		for line := lines.Line(start); start < end; line++ {
			lineEnd := lines.LineEnd(line)
			if lineEnd > end {
				lineEnd = end
			}
			emit(start, lineEnd, t)
			next := lines.LineStart(line + 1)
			if next <= start { // last line
				break
			}
			start = next
		}
	}
	return data
}

// relativeTokens encodes tokens with absolute positions (encodeTokenList)
// in LSP's relative form, in place.
func relativeTokens(data []uint32) []uint32 {
	var prevLine, prevChar uint32
	for i := 0; i+4 < len(data); i += 5 {
		l, c := data[i], data[i+1]
		dl, dc := l-prevLine, c
		if dl == 0 {
			dc = c - prevChar
		}
		data[i], data[i+1] = dl, dc
		prevLine, prevChar = l, c
	}
	return data
}

// decodeTokens returns the tokens of LSP's relative encoding with their
// line and column, five numbers a token as encoded.
func decodeTokens(data []uint32) []uint32 {
	out := make([]uint32, len(data))
	var line, col uint32
	for i := 0; i+4 < len(data); i += 5 {
		if data[i] > 0 {
			line, col = line+data[i], data[i+1]
		} else {
			col += data[i+1]
		}
		out[i], out[i+1], out[i+2], out[i+3], out[i+4] = line, col, data[i+2], data[i+3], data[i+4]
	}
	return out
}

// composeTokens encodes the tokens of a document's stretches: those of a
// stretch that is the earlier version's (whose tokens are abs, decoded)
// moved to where it now starts, the others' encoded with m.
func composeTokens(abs []uint32, stretches []presentation.TokenStretch, m mapper) []uint32 {
	data := make([]uint32, 0, len(abs)+64)
	for _, x := range stretches {
		if !x.Reused() {
			data = append(data, encodeTokenList(x.Tokens, m)...)
			continue
		}
		from, to := uint32(x.FromLines[0]), uint32(x.FromLines[1])
		at := uint32(m.lines.Line(x.Span.Start))
		i := sort.Search(len(abs)/5, func(i int) bool { return abs[5*i] >= from }) * 5
		for ; i+4 < len(abs) && abs[i] < to; i += 5 {
			data = append(data, abs[i]-from+at, abs[i+1], abs[i+2], abs[i+3], abs[i+4])
		}
	}
	return relativeTokens(data)
}
