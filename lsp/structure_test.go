package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/core/navigation"
	"wfl-lsp/core/presentation"
	"wfl-lsp/internal/benchdoc"
)

// TestStructureRequestsWithoutAnalysis: after a keystroke, the requests
// that read the text or its tree alone (formatting, folding ranges,
// document links, selection ranges, code lenses, the outline once it was
// made, the closer after Enter) answer without
// making the document's full analysis, which costs a multiple of what they
// need on a large document. Their answers are those of a full analysis
// (core's TestSyntaxEqualsAnalysis, TestLensesAreDeclarations and
// TestOutlineEqualsFull).
func TestStructureRequestsWithoutAnalysis(t *testing.T) {
	s, u, text, _ := openTyped()
	at := strings.Index(text, "\ndisplay call") + 1
	line := uint32(strings.Count(text[:at], "\n"))
	id := protocol.TextDocumentIdentifier{URI: u}
	pos := protocol.Position{Line: line, Character: 3}
	requests := []struct {
		name string
		ask  func(d doc) (any, error)
	}{
		{"formatting", func(d doc) (any, error) {
			return formatting(s.ctx, s, d, &protocol.DocumentFormattingParams{TextDocument: id})
		}},
		{"range formatting", func(d doc) (any, error) {
			return rangeFormatting(s.ctx, s, d, &protocol.DocumentRangeFormattingParams{TextDocument: id,
				Range: protocol.Range{Start: protocol.Position{Line: line}, End: protocol.Position{Line: line + 3}}})
		}},
		{"folding ranges", func(d doc) (any, error) {
			return foldingRange(s.ctx, s, d, &protocol.FoldingRangeParams{TextDocument: id})
		}},
		{"document links", func(d doc) (any, error) {
			return documentLink(s.ctx, s, d, &protocol.DocumentLinkParams{TextDocument: id})
		}},
		{"selection ranges", func(d doc) (any, error) {
			return selectionRange(s.ctx, s, d, &protocol.SelectionRangeParams{TextDocument: id, Positions: []protocol.Position{pos}})
		}},
		{"code lens", func(d doc) (any, error) {
			return codeLens(s.ctx, s, d, &protocol.CodeLensParams{TextDocument: id})
		}},
		{"document symbols", func(d doc) (any, error) {
			return documentSymbol(s.ctx, s, d, &protocol.DocumentSymbolParams{TextDocument: id})
		}},
		{"on-type formatting", func(d doc) (any, error) {
			return onTypeFormatting(s.ctx, s, d, &protocol.DocumentOnTypeFormattingParams{TextDocument: id, Position: pos, Ch: "\n"})
		}},
	}
	for k, r := range requests {
		snap, err := s.ws.Change(core.URI(u), int32(k+2), core.Edit{Start: at, End: at, Text: " "})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.ask(doc{uri: u, snap: snap, enc: utf16}); err != nil {
			t.Fatalf("%s: %v", r.name, err)
		}
		if snap.Analysed() {
			t.Errorf("%s after a keystroke made the full analysis", r.name)
		}
	}
}

// TestLensCountWithoutAnalysis: after a keystroke, a code lens's count of
// an action that few statements name is made from an analysis of those
// statements (as references are), and is the count of a full analysis.
func TestLensCountWithoutAnalysis(t *testing.T) {
	s, u, text, _ := openTyped()
	at := strings.Index(text, "\ndisplay call") + 1
	snap, err := s.ws.Change(core.URI(u), 2, core.Edit{Start: at, End: at, Text: " "})
	if err != nil {
		t.Fatal(err)
	}
	d := doc{uri: u, snap: snap, enc: utf16}
	list, err := codeLens(s.ctx, s, d, &protocol.CodeLensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}})
	if err != nil {
		t.Fatal(err)
	}
	lenses := list.([]protocol.CodeLens)
	if len(lenses) < 3 {
		t.Fatalf("%d lenses in a document that declares an action every few lines", len(lenses))
	}
	for _, lens := range lenses[:3] {
		params, _ := json.Marshal(lens)
		w, err := resolveCodeLens(s, params)
		if err != nil {
			t.Fatal(err)
		}
		got, err := w(s.ctx)
		if err != nil {
			t.Fatal(err)
		}
		if snap.Analysed() {
			t.Fatalf("resolving the lens at %v made the full analysis", lens.Range.Start)
		}
		a := (&core.Snapshot{URI: snap.URI, Text: snap.Text}).Analysis()
		m := newMapper(a.Lines, utf16)
		n, _ := navigation.ReferenceCount(a, m.offset(lens.Range.Start), navigation.Files{})
		title := got.(*protocol.CodeLens).Command.Title
		if want := fmt.Sprintf("%d reference", n); !strings.HasPrefix(title, want) {
			t.Errorf("lens at %v: %q, want %q", lens.Range.Start, title, want)
		}
	}
}

// TestHighlightWhileTyping: as a new name is typed, an editor asks for the
// highlights of the word at the cursor after each keystroke; a name that
// resolves to nothing has none, and finding that needs no full analysis.
func TestHighlightWhileTyping(t *testing.T) {
	s, u, text, _ := openTyped()
	at := strings.Index(text, "\ndisplay call") + 1
	line := uint32(strings.Count(text[:at], "\n"))
	const typed = "display nowhere_yet"
	for k := range len(typed) {
		snap, err := s.ws.Change(core.URI(u), int32(k+2), core.Edit{Start: at + k, End: at + k, Text: typed[k : k+1]})
		if err != nil {
			t.Fatal(err)
		}
		snap.Diagnostics()
		d := doc{uri: u, snap: snap, enc: utf16}
		got, err := highlight(s.ctx, s, d, &protocol.DocumentHighlightParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: line, Character: uint32(k + 1)}}})
		if err != nil {
			t.Fatal(err)
		}
		if snap.Analysed() {
			t.Fatalf("the highlights after %q made the full analysis", typed[:k+1])
		}
		if hs := got.([]protocol.DocumentHighlight); strings.HasPrefix(typed[:k+1], "display n") && len(hs) != 0 {
			t.Errorf("after %q: %d highlights of a name that names nothing", typed[:k+1], len(hs))
		}
	}
}

// TestEditorKeystrokesWithoutAnalysis types a line into the middle of a
// 600-line document, a character at a time, and after each keystroke asks
// what VS Code asks then: completion, signature help, hover, definition
// and highlights at the cursor, the semantic tokens and inlay hints of the
// visible lines, the code actions at the cursor (where a finding nearly
// always is while a line is typed: a parse error, an undefined name, a
// name not in snake_case), and, as typing pauses, the outline, the code
// lenses and the folding ranges. None of them makes the document's full
// analysis; the outline was asked once when the document was opened, as
// an editor does. The documents: benchdoc's chunks, and a program of tests
// whose every test writes the same counts (benchdoc.Tests), where the line
// typed writes a test's value without retyping it. (The highlights of a
// count itself need every test: the full analysis answers them.)
func TestEditorKeystrokesWithoutAnalysis(t *testing.T) {
	for _, c := range []struct {
		name, text, after, typed string
	}{
		{"chunks", benchdoc.Clean(600), "\ndisplay call", "\nstore myCount as totl_c0 plus 1"},
		{"tests", benchdoc.Tests(600), "\ndisplay \"so far", "\nchange value_c20 to value_c20 plus value_c1"},
	} {
		t.Run(c.name, func(t *testing.T) { editorKeystrokes(t, c.text, c.after, c.typed) })
	}
}

// editorKeystrokes is TestEditorKeystrokesWithoutAnalysis in text, typing
// typed at the end of the line before the first occurrence of after in
// the text's second half.
func editorKeystrokes(t *testing.T, text, after, typed string) {
	s, u, _ := openText(text)
	at := strings.Index(text[len(text)/2:], after) + len(text)/2 // the end of a line
	line := uint32(strings.Count(text[:at], "\n")) + 1
	id := protocol.TextDocumentIdentifier{URI: u}
	visible := protocol.Range{Start: protocol.Position{Line: line - 30}, End: protocol.Position{Line: line + 30}}
	for k := range len(typed) {
		snap, err := s.ws.Change(core.URI(u), int32(k+2), core.Edit{Start: at + k, End: at + k, Text: typed[k : k+1]})
		if err != nil {
			t.Fatal(err)
		}
		snap.Diagnostics() // as the publisher makes them
		d := doc{uri: u, snap: snap, enc: utf16}
		col := uint32(k) // the cursor, after the character typed on the new line
		pos := protocol.TextDocumentPositionParams{TextDocument: id, Position: protocol.Position{Line: line, Character: col}}
		requests := []struct {
			name string
			ask  func() (any, error)
		}{
			{"completion", func() (any, error) {
				return complete(s.ctx, s, d, &protocol.CompletionParams{TextDocumentPositionParams: pos})
			}},
			{"signature help", func() (any, error) {
				return signatureHelp(s.ctx, s, d, &protocol.SignatureHelpParams{TextDocumentPositionParams: pos})
			}},
			{"hover", func() (any, error) { return hover(s.ctx, s, d, &protocol.HoverParams{TextDocumentPositionParams: pos}) }},
			{"definition", func() (any, error) {
				return definition(s.ctx, s, d, &protocol.DefinitionParams{TextDocumentPositionParams: pos})
			}},
			{"highlights", func() (any, error) {
				return highlight(s.ctx, s, d, &protocol.DocumentHighlightParams{TextDocumentPositionParams: pos})
			}},
			{"semantic tokens", func() (any, error) {
				return semanticTokensRange(s.ctx, s, d, &protocol.SemanticTokensRangeParams{TextDocument: id, Range: visible})
			}},
			{"inlay hints", func() (any, error) {
				return inlayHint(s.ctx, s, d, &protocol.InlayHintParams{TextDocument: id, Range: visible})
			}},
			{"code actions", func() (any, error) {
				return codeAction(s.ctx, s, d, &protocol.CodeActionParams{TextDocument: id,
					Range: protocol.Range{Start: pos.Position, End: pos.Position}})
			}},
			{"outline", func() (any, error) {
				return documentSymbol(s.ctx, s, d, &protocol.DocumentSymbolParams{TextDocument: id})
			}},
			{"code lenses", func() (any, error) { return codeLens(s.ctx, s, d, &protocol.CodeLensParams{TextDocument: id}) }},
			{"folding ranges", func() (any, error) {
				return foldingRange(s.ctx, s, d, &protocol.FoldingRangeParams{TextDocument: id})
			}},
		}
		for _, r := range requests {
			if _, err := r.ask(); err != nil {
				t.Fatalf("%s after %q: %v", r.name, typed[:k+1], err)
			}
			if snap.Analysed() {
				t.Fatalf("%s after %q made the full analysis", r.name, typed[:k+1])
			}
		}
	}
}

// openTyped opens a 600-line document in a new server as an editor does:
// its diagnostics published, its analysis made, its outline asked for.
// The tests type into it from there.
func openTyped() (s *server, u uri.URI, text string, snap *core.Snapshot) {
	text = benchdoc.Clean(600)
	s, u, snap = openText(text)
	return s, u, text, snap
}

// openText is openTyped with text.
func openText(text string) (s *server, u uri.URI, snap *core.Snapshot) {
	s = newServer(context.Background(), Options{})
	u = uri.File("/nowhere/typed.wfl")
	snap = s.ws.Open(core.URI(u), 1, text)
	snap.Diagnostics()
	snap.Analysis()
	presentation.Outline(snap)
	return s, u, snap
}

// TestSelectionRangeOfDeepExpression asks the selection ranges inside an
// expression nested as deep as the parser accepts: the chain holds at
// most maxSelection ranges, the innermost ones and the outermost, each
// inside the next. It held 9,980 nested objects (1 MB), past the depth
// some clients' JSON decoders accept.
func TestSelectionRangeOfDeepExpression(t *testing.T) {
	const d = 9990
	text := "store x as " + strings.Repeat("(", d-3) + "1" + strings.Repeat(")", d-3) + "\ndisplay x\n"
	s, u, snap := openText(text)
	pos := protocol.Position{Line: 0, Character: uint32(len("store x as ") + d - 3)}
	res, err := selectionRange(s.ctx, s, doc{uri: u, snap: snap, enc: utf16},
		&protocol.SelectionRangeParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Positions: []protocol.Position{pos}})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for r := &res.([]protocol.SelectionRange)[0]; r != nil; r = r.Parent {
		n++
		if p := r.Parent; p != nil && (before(r.Range.Start, p.Range.Start) || before(p.Range.End, r.Range.End)) {
			t.Fatalf("range %d %v is not inside its parent %v", n, r.Range, p.Range)
		}
	}
	if n != maxSelection {
		t.Errorf("%d ranges, want %d", n, maxSelection)
	}
}

func before(a, b protocol.Position) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Character < b.Character
}
