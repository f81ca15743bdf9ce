package lsp

// The golden suite: each testdata/lsp/*.txtar holds a WFL document, a list
// of cursor markers and, for each position encoding, the transcript of what
// the server answers through the wire: diagnostics, document symbols,
// folding ranges, semantic tokens, and at every marker hover, definition,
// references, highlight and selection range; a settings.json file is pushed
// as the client's settings first. Ranges are printed with the
// text they cover, cut out of the document by this file's own converter (a
// second implementation, so the mapper is checked too).
//
// Regenerate with: go test ./lsp -run TestGolden -update

import (
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"wfl-lsp/internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata/lsp")

func TestGolden(t *testing.T) {
	txtar.Run(t, filepath.Join("..", "testdata", "lsp", "*.txtar"), *update, func(t *testing.T, ar *txtar.Archive) {
		src, ok := ar.Get("doc.wfl")
		if !ok {
			// txtar ends every file with a line break; this name says
			// the document has none.
			if src, ok = ar.Get("doc.wfl (no final newline)"); !ok {
				t.Fatal("no doc.wfl")
			}
			src = strings.TrimSuffix(src, "\n")
		}
		markers, _ := ar.Get("markers")
		settings, _ := ar.Get("settings.json")
		eachEncoding(t, ar, func(enc string) string { return transcript(t, src, markers, settings, enc) })
	})
}

// eachEncoding compares the archive's transcript in each position encoding
// (the file named for it) with the one got makes, or under -update writes
// it.
func eachEncoding(t *testing.T, ar *txtar.Archive, got func(enc string) string) {
	t.Helper()
	for _, enc := range []string{"utf-16", "utf-8"} {
		got := got(enc)
		want, _ := ar.Get(enc)
		if *update {
			ar.Set(enc, got)
			continue
		}
		if got != want {
			t.Errorf("%s transcript differs (run with -update to regenerate):\n%s", enc, txtar.Diff(want, got))
		}
	}
}

// conv converts LSP positions of one encoding to byte offsets, rune by rune.
type conv struct {
	src  string
	utf8 bool
}

func (c conv) offset(line, char int) int {
	off := 0
	for l := 0; l < line; l++ {
		i := strings.IndexAny(c.src[off:], "\r\n")
		if i < 0 {
			return len(c.src)
		}
		off += i
		if strings.HasPrefix(c.src[off:], "\r\n") {
			off += 2
		} else {
			off++
		}
	}
	for n := 0; n < char && off < len(c.src) && c.src[off] != '\n' && c.src[off] != '\r'; {
		units, size := c.units(c.src[off:])
		n += units
		off += size
	}
	return off
}

// units returns the length of the first character of s in the encoding's
// code units, and in bytes.
func (c conv) units(s string) (units, size int) {
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case c.utf8:
		return size, size
	case r >= 0x10000:
		return 2, size
	}
	return 1, size
}

func (c conv) text(r wireRange) string {
	s, e := c.offset(r.Start.Line, r.Start.Character), c.offset(r.End.Line, r.End.Character)
	if e < s {
		return "<reversed>"
	}
	return c.src[s:e]
}

func (c conv) show(r wireRange) string {
	return fmt.Sprintf("%d:%d-%d:%d %q", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character, c.text(r))
}

// transcript runs the document through the server in one encoding.
// transcript runs a session on src and writes down every answer. settings,
// when not empty, is the JSON the client pushes with didChangeConfiguration
// before it opens the document.
func transcript(t *testing.T, src, markers, settings, enc string) string {
	c := newClient(t, quiet)
	init := c.initialize(map[string]any{
		"general": map[string]any{"positionEncodings": []string{enc}},
		"textDocument": map[string]any{
			"hover":          map[string]any{"contentFormat": []string{"plaintext"}},
			"documentSymbol": map[string]any{"hierarchicalDocumentSymbolSupport": true},
		},
	})
	var caps struct {
		Capabilities struct {
			PositionEncoding string `json:"positionEncoding"`
			Semantic         struct {
				Legend struct {
					Types []string `json:"tokenTypes"`
					Mods  []string `json:"tokenModifiers"`
				} `json:"legend"`
			} `json:"semanticTokensProvider"`
		} `json:"capabilities"`
	}
	json.Unmarshal(init.Result, &caps)
	if caps.Capabilities.PositionEncoding != enc {
		t.Fatalf("negotiated %q, want %q", caps.Capabilities.PositionEncoding, enc)
	}
	cv := conv{src: src, utf8: enc == "utf-8"}
	var out strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&out, format+"\n", args...) }

	if settings != "" {
		c.notify("workspace/didChangeConfiguration", map[string]any{"settings": json.RawMessage(settings)})
	}
	c.open(testURI, src, 1)
	d := c.diagnostics(testURI, 1)
	p("diagnostics:")
	for _, g := range d.Diagnostics {
		p("  %s %s %d [%s] %s", cv.show(g.Range), g.Code, g.Severity, g.Source, g.Message)
	}
	td := map[string]any{"uri": testURI}

	p("symbols:")
	type symbol struct {
		Name, Detail   string
		Kind           int
		SelectionRange wireRange `json:"selectionRange"`
		Children       json.RawMessage
	}
	var printSyms func(raw json.RawMessage, indent string)
	printSyms = func(raw json.RawMessage, indent string) {
		var syms []symbol
		if err := json.Unmarshal(raw, &syms); err != nil {
			t.Fatalf("symbols: %v", err)
		}
		for _, s := range syms {
			p("%s%s (kind %d) %q name %s", indent, s.Name, s.Kind, s.Detail, cv.show(s.SelectionRange))
			if len(s.Children) > 0 {
				printSyms(s.Children, indent+"  ")
			}
		}
	}
	printSyms(result(t, c.call("textDocument/documentSymbol", map[string]any{"textDocument": td})), "  ")

	p("folding:")
	var folds []struct {
		StartLine, EndLine int
		Kind               string
	}
	json.Unmarshal(result(t, c.call("textDocument/foldingRange", map[string]any{"textDocument": td})), &folds)
	for _, f := range folds {
		p("  %d-%d %s", f.StartLine, f.EndLine, f.Kind)
	}

	p("semantic tokens:")
	var st struct{ Data []int }
	json.Unmarshal(result(t, c.call("textDocument/semanticTokens/full", map[string]any{"textDocument": td})), &st)
	line, col := 0, 0
	for i := 0; i+4 < len(st.Data); i += 5 {
		if st.Data[i] > 0 {
			line, col = line+st.Data[i], st.Data[i+1]
		} else {
			col += st.Data[i+1]
		}
		var mods []string
		for bit, name := range caps.Capabilities.Semantic.Legend.Mods {
			if st.Data[i+4]&(1<<bit) != 0 {
				mods = append(mods, name)
			}
		}
		r := wireRange{Start: wirePos{line, col}, End: wirePos{line, col + st.Data[i+2]}}
		p("  %s %s %s", cv.show(r), caps.Capabilities.Semantic.Legend.Types[st.Data[i+3]], strings.Join(mods, ","))
	}

	p("inlay hints:")
	var hints []struct {
		Position wirePos
		Label    string
		Kind     int
	}
	json.Unmarshal(result(t, c.call("textDocument/inlayHint", map[string]any{"textDocument": td,
		"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 9999, "character": 0}}})), &hints)
	for _, h := range hints {
		p("  %d:%d %q kind %d", h.Position.Line, h.Position.Character, h.Label, h.Kind)
	}
	p("links:")
	var links []struct {
		Range  wireRange
		Target string
	}
	json.Unmarshal(result(t, c.call("textDocument/documentLink", map[string]any{"textDocument": td})), &links)
	for _, l := range links {
		p("  %s -> %s", cv.show(l.Range), filepath.Base(l.Target))
	}
	p("formatting:")
	type edit struct {
		Range   wireRange
		NewText string
	}
	var edits []edit
	if m := c.call("textDocument/formatting", map[string]any{"textDocument": td, "options": map[string]any{"tabSize": 4, "insertSpaces": true}}); m.Error != nil {
		p("  error %d", m.Error.Code)
	} else {
		json.Unmarshal(m.Result, &edits)
		for _, e := range edits {
			p("  %s -> %q", cv.show(e.Range), e.NewText)
		}
	}
	p("code actions:")
	var actions []struct {
		Title, Kind string
		IsPreferred bool
		Edit        struct{ Changes map[string][]edit }
	}
	json.Unmarshal(result(t, c.call("textDocument/codeAction", map[string]any{"textDocument": td,
		"range":   map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 9999, "character": 0}},
		"context": map[string]any{"diagnostics": []any{}}})), &actions)
	for _, a := range actions {
		var es []string
		for _, e := range a.Edit.Changes[testURI] {
			if len(e.NewText) > 40 {
				e.NewText = e.NewText[:40] + "…"
			}
			es = append(es, fmt.Sprintf("%s -> %q", cv.show(e.Range), e.NewText))
		}
		preferred := ""
		if a.IsPreferred {
			preferred = " (preferred)"
		}
		p("  %s %q%s: %s", a.Kind, a.Title, preferred, strings.Join(es, "; "))
	}

	for _, m := range strings.Split(strings.TrimSpace(markers), "\n") {
		m = strings.TrimSpace(m)
		if m == "" {
			continue
		}
		off := markerOffset(t, src, m)
		pos := positionIn(cv, src, off)
		at := map[string]any{"textDocument": td, "position": map[string]any{"line": pos.Line, "character": pos.Character}}
		p("at %s (%d:%d):", m, pos.Line, pos.Character)

		var h struct {
			Contents struct{ Value string }
			Range    *wireRange
		}
		raw := result(t, c.call("textDocument/hover", at))
		if string(raw) == "null" {
			p("  hover: none")
		} else {
			json.Unmarshal(raw, &h)
			p("  hover: %s %q", cv.show(*h.Range), h.Contents.Value)
		}
		var locs []struct{ Range wireRange }
		raw = result(t, c.call("textDocument/definition", at))
		json.Unmarshal(raw, &locs)
		p("  definition:%s", showAll(cv, locs, func(l struct{ Range wireRange }) wireRange { return l.Range }))
		at["context"] = map[string]any{"includeDeclaration": true}
		json.Unmarshal(result(t, c.call("textDocument/references", at)), &locs)
		p("  references:%s", showAll(cv, locs, func(l struct{ Range wireRange }) wireRange { return l.Range }))
		delete(at, "context")
		var hl []struct {
			Range wireRange
			Kind  int
		}
		json.Unmarshal(result(t, c.call("textDocument/documentHighlight", at)), &hl)
		var hs []string
		for _, h := range hl {
			hs = append(hs, fmt.Sprintf("%s/%d", cv.show(h.Range), h.Kind))
		}
		p("  highlight: %s", strings.Join(hs, " "))
		var sel []struct {
			Range  wireRange
			Parent json.RawMessage
		}
		json.Unmarshal(result(t, c.call("textDocument/selectionRange", map[string]any{"textDocument": td, "positions": []any{at["position"]}})), &sel)
		var chain []string
		for len(sel) > 0 {
			s := sel[0]
			chain = append(chain, cv.show(s.Range))
			if len(chain) == 3 || len(s.Parent) == 0 || string(s.Parent) == "null" {
				break
			}
			sel = sel[:0]
			var parent struct {
				Range  wireRange
				Parent json.RawMessage
			}
			json.Unmarshal(s.Parent, &parent)
			sel = append(sel, parent)
		}
		p("  selection: %s", strings.Join(chain, " < "))

		var list struct {
			Items []struct {
				Label    string
				TextEdit struct {
					Range   wireRange
					NewText string
				}
			}
		}
		json.Unmarshal(result(t, c.call("textDocument/completion", at)), &list)
		var labels []string
		for i, it := range list.Items {
			if i == 6 {
				labels = append(labels, fmt.Sprintf("… (%d)", len(list.Items)))
				break
			}
			labels = append(labels, it.Label)
		}
		if len(list.Items) > 0 {
			p("  completion: replaces %s: %s", cv.show(list.Items[0].TextEdit.Range), strings.Join(labels, ", "))
		} else {
			p("  completion: none")
		}
		var sig struct {
			Signatures []struct {
				Label      string
				Parameters []struct{ Label string }
			}
			ActiveParameter int
		}
		if raw := result(t, c.call("textDocument/signatureHelp", at)); string(raw) == "null" {
			p("  signature: none")
		} else {
			json.Unmarshal(raw, &sig)
			p("  signature: %q active %d", sig.Signatures[0].Label, sig.ActiveParameter)
		}
		if m := c.call("textDocument/prepareRename", at); m.Error != nil {
			p("  rename: prepareRename failed (%d) %s", m.Error.Code, m.Error.Message)
		} else if string(m.Result) == "null" {
			// Nothing to rename; rename itself says why.
			at["newName"] = "renamed thing"
			r := c.call("textDocument/rename", at)
			delete(at, "newName")
			if r.Error == nil {
				t.Fatalf("prepareRename answered null, but rename answered %s", r.Result)
			}
			p("  rename: none; rename refused (%d) %s", r.Error.Code, r.Error.Message)
		} else {
			at["newName"] = "renamed thing"
			var we struct{ Changes map[string][]edit }
			json.Unmarshal(result(t, c.call("textDocument/rename", at)), &we)
			delete(at, "newName")
			var rs []string
			for _, e := range we.Changes[testURI] {
				rs = append(rs, cv.show(e.Range))
			}
			p("  rename: %s", strings.Join(rs, " "))
		}
		var items []json.RawMessage
		if raw := result(t, c.call("textDocument/prepareCallHierarchy", at)); string(raw) != "null" {
			json.Unmarshal(raw, &items)
			var item struct{ Name string }
			json.Unmarshal(items[0], &item)
			var in []struct {
				From       struct{ Name string }
				FromRanges []wireRange
			}
			json.Unmarshal(result(t, c.call("callHierarchy/incomingCalls", map[string]any{"item": items[0]})), &in)
			var callers []string
			for _, c := range in {
				callers = append(callers, fmt.Sprintf("%s×%d", c.From.Name, len(c.FromRanges)))
			}
			p("  calls: %s called by %s", item.Name, strings.Join(callers, ", "))
		}
	}
	c.finish()
	return out.String()
}

func showAll[T any](cv conv, xs []T, rng func(T) wireRange) string {
	var b strings.Builder
	for _, x := range xs {
		b.WriteString(" " + cv.show(rng(x)))
	}
	return b.String()
}

func result(t *testing.T, m *msg) json.RawMessage {
	t.Helper()
	if m.Error != nil {
		t.Fatalf("error %d: %s", m.Error.Code, m.Error.Message)
	}
	return m.Result
}

// markerOffset reads "needle#nth+delta" (nth and delta optional).
func markerOffset(t *testing.T, src, m string) int {
	needle, nth, delta := m, 0, 0
	if i := strings.LastIndex(needle, "+"); i > 0 {
		delta, _ = strconv.Atoi(needle[i+1:])
		needle = needle[:i]
	}
	if i := strings.LastIndex(needle, "#"); i > 0 {
		nth, _ = strconv.Atoi(needle[i+1:])
		needle = needle[:i]
	}
	off := -1
	for k := 0; k <= nth; k++ {
		j := strings.Index(src[off+1:], needle)
		if j < 0 {
			t.Fatalf("marker %q: not found", m)
		}
		off += 1 + j
	}
	return off + delta
}

// positionIn converts an offset with the test's own converter, by search.
func positionIn(cv conv, src string, off int) wirePos {
	line, start := 0, 0
	for i := 0; i < off; i++ {
		if src[i] == '\n' || (src[i] == '\r' && (i+1 >= len(src) || src[i+1] != '\n')) {
			line, start = line+1, i+1
		}
	}
	n := 0
	for i := start; i < off; {
		units, size := cv.units(src[i:])
		n += units
		i += size
	}
	return wirePos{line, n}
}
