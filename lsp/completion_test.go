package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"wfl-lsp/core"
	"wfl-lsp/core/completion"
	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/token"
)

// TestCompletionJSON checks that the completion list written directly is,
// byte for byte, what protocol.Marshal writes of the list of protocol
// values made of the same items: at every few bytes of benchdoc's documents
// and of the corpus's test programs, in both encodings, with and without
// snippets, cut or not; and for made-up items with every character JSON
// escapes and kinds LSP has no number for. Under the race detector it asks
// at every 136th byte instead of every 17th.
func TestCompletionJSON(t *testing.T) {
	t.Parallel()
	texts := []string{benchdoc.Clean(360), benchdoc.Dense(240),
		"define action called f with a:\n    return a\nend action\nstore né as \"é😀\"\ncreate container Box:\n    property size\nend\nstore b as new Box\ndisplay b.\n"}
	files := testcorpus.Glob(t, "wfl/TestPrograms/*.wfl")
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil {
			texts = append(texts, string(data))
		}
	}
	check := func(what string, incomplete bool, rng protocol.Range, items []completion.Item) {
		t.Helper()
		got := appendCompletionList(nil, incomplete, rng, items)
		want, err := protocol.Marshal(protocolCompletionList(incomplete, rng, items))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%s:\n got %s\nwant %s", what, got, want)
		}
	}
	lists := 0
	for i, text := range texts {
		a := core.NewSnapshot("file:///dir/t.wfl", 1, text).Analysis()
		for off := 0; off <= len(text); off += 17 * testcorpus.RaceStride(24) {
			for _, snippets := range []bool{false, true} {
				span, items := completion.List(a, off, completion.Options{Snippets: snippets, Max: maxCompletionItems + 1})
				incomplete := len(items) > maxCompletionItems
				if incomplete {
					items = items[:maxCompletionItems]
				}
				for _, enc := range []encoding{utf16, utf8enc} {
					lists++
					check(fmt.Sprintf("text %d at %d, snippets %v, encoding %d", i, off, snippets, enc), incomplete, newMapper(a.Lines, enc).rng(span), items)
				}
			}
		}
	}
	odd := "a \"quoted\" \\ <b> & é 😀 \u2028\u2029 \x00\x1f\x7f\t\r\n \xff\xfe end"
	var items []completion.Item
	for k := range completion.Folder + 2 {
		items = append(items,
			completion.Item{Label: "plain", Kind: k, Insert: "plain"},
			completion.Item{Label: odd, Kind: k, Detail: odd, Doc: odd, Insert: odd, Snippet: odd},
			completion.Item{Label: odd, Kind: k, Detail: "d", Insert: ""})
	}
	lines := token.NewLines("x\ny\n")
	check("made-up items", true, newMapper(lines, utf16).rng(token.Span{Start: 2, End: 3}), items)
	check("no items", false, protocol.Range{}, nil)
	for i := range 250000 {
		if got, want := string(appendSortKey(nil, i)), fmt.Sprintf("%05d", i%100000); got != want {
			t.Fatalf("sort key of %d: %s, want %s", i, got, want)
		}
	}
	t.Logf("%d lists of %d texts", lists, len(texts))
}

// protocolCompletionList is the CompletionList of items, each replacing
// rng, as protocol values.
func protocolCompletionList(incomplete bool, rng protocol.Range, items []completion.Item) *protocol.CompletionList {
	out := make([]protocol.CompletionItem, 0, len(items))
	for i, it := range items {
		ci := protocol.CompletionItem{
			Label:    it.Label,
			Kind:     completionKinds[it.Kind],
			SortText: protocol.NewOptional(fmt.Sprintf("%05d", i%100000)),
			TextEdit: &protocol.TextEdit{Range: rng, NewText: it.Insert},
		}
		if it.Detail != "" {
			ci.Detail = protocol.NewOptional(it.Detail)
		}
		if it.Doc != "" {
			ci.Documentation = protocol.String(it.Doc)
		}
		if it.Snippet != "" {
			ci.TextEdit = &protocol.TextEdit{Range: rng, NewText: it.Snippet}
			ci.InsertTextFormat = protocol.InsertTextFormatSnippet
		}
		if it.Kind == completion.Builtin {
			data, _ := json.Marshal(resolveData{Builtin: it.Label})
			ci.Data = protocol.LSPAny(data)
		}
		out = append(out, ci)
	}
	return &protocol.CompletionList{IsIncomplete: incomplete, Items: out}
}

// BenchmarkCompletionList writes the completion list at the end of a call's
// arguments in the middle of the generated 10,000-line document, a `t`
// typed: the first 200 items, cut.
func BenchmarkCompletionList(b *testing.B) {
	text := benchdoc.Clean(10000)
	call := "display call sum_numbers_c416 with total_c416 and 1"
	at := strings.Index(text, call) + len(call)
	text = text[:at] + "+t" + text[at:]
	a := core.NewSnapshot("file:///bench.wfl", 1, text).Analysis()
	span, items := completion.List(a, at+2, completion.Options{Max: maxCompletionItems + 1})
	if len(items) <= maxCompletionItems {
		b.Fatalf("%d items", len(items))
	}
	items = items[:maxCompletionItems]
	rng := newMapper(a.Lines, utf16).rng(span)
	var n int
	b.ReportAllocs()
	for b.Loop() {
		n = len(appendCompletionList(nil, true, rng, items))
	}
	b.SetBytes(int64(n))
}
