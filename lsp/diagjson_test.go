package lsp

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

// TestDiagnosticsJSON checks that the publishDiagnostics params written
// directly decode to the same JSON value as the protocol types' encoding,
// on the corpus programs' diagnostics in both encodings and on messages
// with every character JSON escapes.
func TestDiagnosticsJSON(t *testing.T) {
	files := testcorpus.Glob(t, "wfl/TestPrograms/*.wfl")
	odd := "a \"quoted\" \\ <b> & é 😀 \u2028\u2029 \x00\x1f\t\r\n \xff\xfe end"
	texts := []string{"store " + odd + "\n", "display x\n"}
	for _, f := range files {
		if data, err := os.ReadFile(f); err == nil {
			texts = append(texts, string(data))
		}
	}
	u := uri.URI("file:///dir/a%20b.wfl")
	for i, text := range texts {
		snap := core.NewSnapshot(core.URI(u), 3, text)
		lines, ds := snap.Diagnostics()
		if i == 0 {
			ds = append(ds,
				diag.Diagnostic{Span: token.Span{Start: 1, End: 3}, Severity: diag.Hint, Code: "", Message: odd,
					Tags: diag.Unnecessary | diag.Deprecated},
				diag.Diagnostic{Span: token.Span{Start: 0, End: len(text)}, Severity: diag.Information, Code: "X",
					Message: "m", Related: []diag.Related{{Span: token.Span{Start: 2, End: 4}, Message: odd}}})
		}
		for _, enc := range []encoding{utf16, utf8enc} {
			m := newMapper(lines, enc)
			got := appendPublishParams(nil, u, 3, m, slices.Values(ds))
			want, err := protocol.Marshal(&protocol.PublishDiagnosticsParams{URI: u, Version: protocol.NewOptional(int32(3)), Diagnostics: toDiagnostics(u, m, ds)})
			if err != nil {
				t.Fatal(err)
			}
			var g, w any
			if err := json.Unmarshal(got, &g); err != nil {
				t.Fatalf("text %d: the written JSON does not decode: %v\n%s", i, err, got)
			}
			if err := json.Unmarshal(want, &w); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("text %d, encoding %d:\n got %s\nwant %s", i, enc, got, want)
			}
		}
	}
	// A closed document's empty list has no version.
	var closed map[string]any
	if err := json.Unmarshal(appendPublishParams(nil, u, -1, mapper{}, slices.Values([]diag.Diagnostic(nil))), &closed); err != nil || closed["version"] != nil || len(closed["diagnostics"].([]any)) != 0 {
		t.Fatalf("closed document: %v %v", closed, err)
	}
}

// BenchmarkPublishParams writes the publishDiagnostics params of the
// generated 10,000-line document (about 3,300 findings).
func BenchmarkPublishParams(b *testing.B) {
	text := benchDoc(10000)
	snap := core.NewSnapshot("file:///bench.wfl", 1, text)
	lines, ds := snap.Diagnostics()
	m := newMapper(lines, utf16)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = appendPublishParams(buf[:0], "file:///bench.wfl", 1, m, slices.Values(ds))
	}
	b.SetBytes(int64(len(buf)))
}

// TestLargePublish: a publishDiagnostics of a thousand findings (200 KB) is
// one well-formed frame with every finding, and the server goes on.
func TestLargePublish(t *testing.T) {
	text := benchDoc(3000) // about 1,000 findings, 200 KB of params
	want := len(core.NewSnapshot("file:///big.wfl", 1, text).Analysis().Diagnostics)
	c := newClient(t, quiet)
	c.initialize(nil)
	c.open("file:///big.wfl", text, 1)
	p := c.diagnostics("file:///big.wfl", 1)
	if len(p.raw) < 100<<10 {
		t.Fatalf("params of %d bytes: not a large notification", len(p.raw))
	}
	if len(p.Diagnostics) != want {
		t.Fatalf("%d diagnostics published, want %d", len(p.Diagnostics), want)
	}
	// The server goes on answering after it.
	if r := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///big.wfl"},
		"position": map[string]any{"line": 4, "character": 8}}); r.Error != nil {
		t.Fatalf("hover after a large publish: %+v", r.Error)
	}
	c.finish()
}

// TestJSONString: appendJSONString writes what encoding/json writes, for
// strings of every byte, short and long, valid UTF-8 or not.
func TestJSONString(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"a", "Z", " ", "\"", "\\", "<", ">", "&", "\n", "\t", "\x00", "\x1f", "\x7f", "é", "😀", "\u2028", "\u2029", "\xff", "\xe2\x80"}
	for range 20000 {
		var b strings.Builder
		for n := rng.IntN(40); n > 0; n-- {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		s := b.String()
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); string(got) != string(want) {
			t.Fatalf("%q: got %s, want %s", s, got, want)
		}
	}
}

// TestEncodedDiagnosticsWhileTyping edits corpus programs, mutants and a
// dense document at random (characters, lines added and removed, quotes),
// publishing every version as the server does (each statement's encoding
// kept for the versions after, in either position encoding), and checks
// every list, byte for byte, against one encoded afresh. Under the race
// detector it edits every eighth program and mutant.
func TestEncodedDiagnosticsWhileTyping(t *testing.T) {
	t.Parallel()
	texts := []string{benchDoc(240)}
	for _, pattern := range []string{"wfl/TestPrograms/*.wfl", "wfl-mutants/0*5.wfl"} {
		files := testcorpus.Glob(t, pattern)
		for i, f := range files {
			if i%(2*testcorpus.RaceStride(8)) != 0 { // every second file (all: 18 s), every 16th under the race detector
				continue
			}
			if data, err := os.ReadFile(f); err == nil {
				texts = append(texts, string(data))
			}
		}
	}
	pieces := []string{"x", " ", "\n", "\n\n", "\"", ":", "end", "store y as 1\n", "// note\n", "display é😀\n"}
	u := uri.URI("file:///dir/typed.wfl")
	edits := 40
	if testing.Short() {
		edits = 10
	}
	for n, text := range texts {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		ws := core.NewWorkspace()
		snap := ws.Open(core.URI(u), 1, text)
		for v := 0; v < edits; v++ {
			for _, tolerant := range []bool{true, false} {
				enc := []encoding{utf16, utf8enc}[rng.IntN(2)]
				var c *cursor
				lines, _, encoded := ws.DiagnosticsEncoded(snap, tolerant, encodingKey(u, enc),
					func(dst []byte, d diag.Diagnostic) []byte { return appendDiagnostic(dst, u, c, d) })
				c = newMapper(lines, enc).cursor()
				got := appendPublishEncoded(nil, u, snap.Version, encoded) // what publishedDiagnostics makes, either mode
				lines, _, ds := ws.DiagnosticsSeq(snap, tolerant)
				want := appendPublishParams(nil, u, snap.Version, newMapper(lines, enc), ds)
				if string(got) != string(want) {
					t.Fatalf("program %d, version %d (tolerant %v, encoding %d):\n got %s\nwant %s\ntext:\n%s", n, snap.Version, tolerant, enc, got, want, snap.Text)
				}
			}
			// An edit: a piece typed, or a stretch deleted, at a random
			// place (on a character's start).
			text := snap.Text
			at := rng.IntN(len(text) + 1)
			for at < len(text) && !utf8.RuneStart(text[at]) {
				at++
			}
			e := core.Edit{Start: at, End: at, Text: pieces[rng.IntN(len(pieces))]}
			if rng.IntN(3) == 0 {
				e.Text = ""
				e.End = min(len(text), at+1+rng.IntN(40))
				for e.End < len(text) && !utf8.RuneStart(text[e.End]) {
					e.End++
				}
			}
			var err error
			if snap, err = ws.Change(core.URI(u), snap.Version+1, e); err != nil {
				t.Fatal(err)
			}
		}
	}
}
