package lsp

// Benchmarks of the server as an editor sees it: real Serve on pipes, raw
// frames, generated WFL documents of 1,000 and 10,000 lines. Each reports the
// 50th and 99th percentile latency (µs) of its operation, measured from the
// moment the client has written the message to the moment it has read the
// answer (for didChange: the publishDiagnostics of that version; the clock
// stops when its last byte is read, before the client decodes it: decoding
// 3,300 findings is the client's work, about 10 ms for this Go client).
//
//   go test -run '^$' -bench 'DidChange|Requests' -benchtime 1000x ./lsp

import (
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/core/completion"
	"wfl-lsp/core/navigation"
	"wfl-lsp/core/presentation"
	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/lang/token"
)

// benchDoc returns the dense generated document of about n lines (4
// warnings every 12 lines; internal/benchdoc).
func benchDoc(n int) string { return benchdoc.Dense(n) }

// lineCol returns the 0-based line and UTF-16 column of the nth occurrence
// of needle (ASCII text, so bytes are characters).
func lineCol(text, needle string, nth int) (int, int) {
	i := -1
	for k := 0; k <= nth; k++ {
		i += 1 + strings.Index(text[i+1:], needle)
	}
	line := strings.Count(text[:i], "\n")
	return line, i - (strings.LastIndex(text[:i], "\n") + 1)
}

func quiet(o *Options) { o.Logger = slog.New(slog.DiscardHandler) }

// report records the percentiles of samples on b.
func report(b *testing.B, samples []time.Duration) {
	slices.Sort(samples)
	pct := func(p float64) float64 {
		i := int(float64(len(samples)-1) * p)
		return float64(samples[i].Nanoseconds()) / 1e3
	}
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
	b.ReportMetric(0, "ns/op") // the percentiles are the result
}

// BenchmarkDidChangeToDiagnostics measures the generated document (4
// warnings a chunk) and, as clean=true, the same program written so that it
// has no diagnostic, which separates the cost of the analysis from the cost
// of sending thousands of diagnostics.
func BenchmarkDidChangeToDiagnostics(b *testing.B) {
	for _, clean := range []bool{false, true} {
		for _, lines := range []int{1000, 10000} {
			name := fmt.Sprintf("lines=%d", lines)
			if clean {
				name = "clean=true/" + name
			}
			b.Run(name, func(b *testing.B) { benchDidChange(b, clean, lines) })
		}
	}
}

func benchDidChange(b *testing.B, clean bool, lines int) {
	text := benchDoc(lines)
	if clean {
		text = benchdoc.Clean(lines)
	}
	c := newClient(b, quiet)
	c.initialize(nil)
	c.open(testURI, text, 1)
	if p := c.diagnostics(testURI, 1); clean && len(p.Diagnostics) != 0 {
		b.Fatalf("the clean document has %d diagnostics, e.g. %+v", len(p.Diagnostics), p.Diagnostics[0])
	}
	// Each change edits the initial value on the line of the
	// middle chunk's `store total`, back and forth.
	line, col := lineCol(text, "as 0", lines/24)
	col += len("as ")
	samples := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v := i + 2
		start := time.Now()
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": testURI, "version": v},
			"contentChanges": []any{map[string]any{"range": rng(line, col, line, col+1), "text": fmt.Sprint(i % 10)}},
		})
		p := c.diagnostics(testURI, v)
		samples = append(samples, p.at.Sub(start))
		c.seen = c.seen[:0]
	}
	b.StopTimer()
	report(b, samples)
	c.finish()
}

func BenchmarkRequests(b *testing.B) {
	type req struct {
		name   string
		method string
		params func(line, col int) any
	}
	td := map[string]any{"uri": testURI}
	at := func(line, col int) map[string]any {
		return map[string]any{"textDocument": td, "position": map[string]any{"line": line, "character": col}}
	}
	reqs := []req{
		{"hover", "textDocument/hover", func(l, c int) any { return at(l, c) }},
		{"definition", "textDocument/definition", func(l, c int) any { return at(l, c) }},
		{"references", "textDocument/references", func(l, c int) any {
			p := at(l, c)
			p["context"] = map[string]any{"includeDeclaration": true}
			return p
		}},
		{"highlight", "textDocument/documentHighlight", func(l, c int) any { return at(l, c) }},
		{"completion", "textDocument/completion", func(l, c int) any { return at(l, c) }},
		{"signatureHelp", "textDocument/signatureHelp", func(l, c int) any { return at(l, c) }},
		{"selectionRange", "textDocument/selectionRange", func(l, c int) any {
			return map[string]any{"textDocument": td, "positions": []any{map[string]any{"line": l, "character": c}}}
		}},
		{"semanticTokens", "textDocument/semanticTokens/full", func(int, int) any { return map[string]any{"textDocument": td} }},
		{"documentSymbol", "textDocument/documentSymbol", func(int, int) any { return map[string]any{"textDocument": td} }},
		{"foldingRange", "textDocument/foldingRange", func(int, int) any { return map[string]any{"textDocument": td} }},
	}
	for _, lines := range []int{1000, 10000} {
		text := benchDoc(lines)
		for _, r := range reqs {
			b.Run(fmt.Sprintf("%s/lines=%d", r.name, lines), func(b *testing.B) {
				c := newClient(b, quiet)
				c.initialize(map[string]any{"textDocument": map[string]any{
					"hover":          map[string]any{"contentFormat": []string{"markdown"}},
					"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true},
				}})
				c.open(testURI, text, 1)
				c.diagnostics(testURI, 1) // the analysis is done
				samples := make([]time.Duration, 0, b.N)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					// A use of a variable in a different chunk each time.
					line, col := lineCol(text, "with total c", (i*37)%(lines/12))
					col += len("with total c") - 2
					if r.name == "signatureHelp" { // inside a call's arguments
						line, col = lineCol(text, "and 1", (i*37)%(lines/12))
					}
					start := time.Now()
					m := c.call(r.method, r.params(line, col))
					samples = append(samples, m.at.Sub(start))
					if m.Error != nil || string(m.Result) == "null" {
						b.Fatalf("%s at %d:%d: %s %+v", r.method, line, col, m.Result, m.Error)
					}
				}
				b.StopTimer()
				report(b, samples)
				c.finish()
			})
		}
	}
}

// BenchmarkHeapPerDocument reports the heap an open document keeps: its
// snapshot (its text among it: the server keeps the text it was sent) with
// the published diagnostics' incremental state, the analysis and the query
// index computed, divided by the number of documents, and as a multiple of
// the source size. The typed/ documents have then been
// edited 20 times, each version's diagnostics computed and a completion
// asked (so they keep the analysed version the queries start from, and the
// current version's partial analyses).
func BenchmarkHeapPerDocument(b *testing.B) {
	for _, typed := range []bool{false, true} {
		for _, lines := range []int{1000, 10000} {
			name := fmt.Sprintf("lines=%d", lines)
			if typed {
				name = "typed/" + name
			}
			b.Run(name, func(b *testing.B) { heapPerDocument(b, lines, typed) })
		}
	}
}

// publish makes the params of the snapshot's publishDiagnostics as the
// server does, with what it keeps for the next versions.
func publish(ws *core.Workspace, u uri.URI, s *core.Snapshot) {
	_, diags := publishedDiagnostics(ws, u, s, utf16)
	appendPublishEncoded(nil, u, s.Version, diags)
}

// settle collects garbage a few times, letting the runtime's cleanups
// and the collector's background sweeping run between, so that what is
// counted is what the documents keep.
func settle() {
	for range 3 {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
}

func heapPerDocument(b *testing.B, lines int, typed bool) {
	const docs = 10
	texts := make([]string, docs)
	for i := range texts {
		texts[i] = benchDoc(lines) + fmt.Sprintf("// %d\n", i)
	}
	var perDoc float64
	for n := 0; n < b.N; n++ {
		ws := core.NewWorkspace()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for i, t := range texts {
			// A text of its own, as a server decodes it from didOpen: the
			// document keeps it.
			t = strings.Clone(t)
			u := uri.URI(fmt.Sprintf("file:///bench/%d.wfl", i))
			s := ws.Open(core.URI(u), 1, t)
			publish(ws, u, s) // what the server publishes, kept for the next edit
			a := s.Analysis()
			a.IdentAt(len(t) / 2)
			navigation.Hover(a, len(t)/2)
			presentation.Outline(s) // an editor's outline, whose types later outlines keep
			if !typed {
				continue
			}
			at := strings.Index(t, " as 0\n") + len(" as ")
			for k := range 20 {
				var err error
				s, err = ws.Change(s.URI, s.Version+1, core.Edit{Start: at, End: at + 1, Text: string(rune('1' + k%9))})
				if err != nil {
					b.Fatal(err)
				}
				publish(ws, u, s)
				completion.List(s.Query(token.Span{Start: at + 1, End: at + 1}), at+1, completion.Options{})
			}
			presentation.Outline(s) // once typing pauses
		}
		settle()
		runtime.ReadMemStats(&after)
		perDoc = float64(after.HeapAlloc-before.HeapAlloc) / docs
		runtime.KeepAlive(ws)
	}
	b.ReportMetric(perDoc/1024, "KiB/doc")
	b.ReportMetric(perDoc/float64(len(texts[0])), "x-source")
	b.ReportMetric(0, "ns/op")
}
