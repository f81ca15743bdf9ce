package lsp

// The navigation suite: each testdata/lsp/nav/*.txtar holds a WFL document
// (doc.wfl, opened), other files beside it in the workspace folder (on the
// disk, indexed), a list of queries and, for each position encoding, the
// transcript of the server's answers through the wire. A query is a line
//
//	typeDefinition MARKER   implementation MARKER   typeHierarchy MARKER
//	codeLens                every lens of the document, resolved
//	enter MARKER [TEXT]     TEXT (\n a line break) and a line break typed at
//	                        MARKER (a didChange), the onTypeFormatting answer,
//	                        and the text after its edits; then undone
//	rename MARKER NEW NAME  the workspace edit, as versioned documentChanges
//
// where MARKER is needle#nth+delta as in golden_test.go (~ a space). Ranges are printed
// with the text they cover, cut out by the test's own converter.
//
// Regenerate with: go test ./lsp -run TestNavGolden -update

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/internal/txtar"
)

func TestNavGolden(t *testing.T) {
	txtar.Run(t, filepath.Join("..", "testdata", "lsp", "nav", "*.txtar"), *update, func(t *testing.T, ar *txtar.Archive) {
		if _, ok := ar.Get("doc.wfl"); !ok {
			t.Fatal("no doc.wfl")
		}
		queries, _ := ar.Get("queries")
		eachEncoding(t, ar, func(enc string) string { return navTranscript(t, ar, queries, enc) })
	})
}

func navTranscript(t *testing.T, ar *txtar.Archive, queries, enc string) string {
	dir := t.TempDir()
	texts := map[string]string{} // by file name
	for _, f := range ar.Files {
		if !strings.HasSuffix(f.Name, ".wfl") {
			continue
		}
		texts[f.Name] = f.Data
		if err := os.WriteFile(filepath.Join(dir, f.Name), []byte(f.Data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	docURI := "file://" + filepath.Join(dir, "doc.wfl")
	src := texts["doc.wfl"]
	c := newClient(t, quiet)
	c.initializeWith(map[string]any{"rootUri": "file://" + dir, "capabilities": map[string]any{
		"general":   map[string]any{"positionEncodings": []string{enc}},
		"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": true}},
	}})
	c.await("the workspace index", func(m *msg) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "indexed")
	})
	version := 1
	c.open(docURI, src, version)
	c.diagnostics(docURI, version)

	var out strings.Builder
	p := func(format string, args ...any) { fmt.Fprintf(&out, format+"\n", args...) }
	td := map[string]any{"uri": docURI}
	// show prints a range of a file with the text it covers.
	show := func(u string, r wireRange) string {
		name := filepath.Base(u)
		text := texts[name]
		if name == "doc.wfl" {
			text = src
		}
		return name + ":" + conv{src: text, utf8: enc == "utf-8"}.show(r)
	}
	at := func(marker string) map[string]any {
		pos := positionIn(conv{src: src, utf8: enc == "utf-8"}, src, markerOffset(t, src, strings.ReplaceAll(marker, "~", " ")))
		return map[string]any{"textDocument": td, "position": map[string]any{"line": pos.Line, "character": pos.Character}}
	}
	type location struct {
		URI   string    `json:"uri"`
		Range wireRange `json:"range"`
	}
	type typeItem struct {
		Name           string    `json:"name"`
		Kind           int       `json:"kind"`
		Detail         string    `json:"detail"`
		URI            string    `json:"uri"`
		SelectionRange wireRange `json:"selectionRange"`
	}
	items := func(raw json.RawMessage) []json.RawMessage {
		var xs []json.RawMessage
		json.Unmarshal(raw, &xs)
		return xs
	}
	showItem := func(raw json.RawMessage) string {
		var it typeItem
		json.Unmarshal(raw, &it)
		return fmt.Sprintf("%s (kind %d) %q %s", it.Name, it.Kind, it.Detail, show(it.URI, it.SelectionRange))
	}

	for _, q := range strings.Split(strings.TrimSpace(queries), "\n") {
		f := strings.Fields(q)
		if len(f) == 0 {
			continue
		}
		p("> %s", strings.Join(f, " "))
		switch f[0] {
		case "typeDefinition", "implementation":
			raw := result(t, c.call("textDocument/"+f[0], at(f[1])))
			var locs []location
			json.Unmarshal(raw, &locs)
			if string(raw) == "null" {
				p("  null")
			}
			for _, l := range locs {
				p("  %s", show(l.URI, l.Range))
			}
		case "typeHierarchy":
			raw := result(t, c.call("textDocument/prepareTypeHierarchy", at(f[1])))
			if string(raw) == "null" {
				p("  null")
				break
			}
			for _, it := range items(raw) {
				p("  %s", showItem(it))
				for _, dir := range []string{"supertypes", "subtypes"} {
					for _, x := range items(result(t, c.call("typeHierarchy/"+dir, map[string]any{"item": it}))) {
						p("    %s: %s", dir, showItem(x))
					}
				}
			}
		case "codeLens":
			var lenses []json.RawMessage
			json.Unmarshal(result(t, c.call("textDocument/codeLens", map[string]any{"textDocument": td})), &lenses)
			for _, l := range lenses {
				var bare struct {
					Range   wireRange       `json:"range"`
					Command json.RawMessage `json:"command"`
				}
				json.Unmarshal(l, &bare)
				var resolved struct {
					Range   wireRange `json:"range"`
					Command struct {
						Title   string `json:"title"`
						Command string `json:"command"`
					} `json:"command"`
				}
				json.Unmarshal(result(t, c.call("codeLens/resolve", l)), &resolved)
				p("  %s unresolved command %s -> %q (command %q)", show(docURI, bare.Range), orNone(bare.Command), resolved.Command.Title, resolved.Command.Command)
			}
		case "enter":
			// The rest of the line (\n a line break) is typed first.
			off := markerOffset(t, src, strings.ReplaceAll(f[1], "~", " "))
			_, rest, _ := strings.Cut(strings.TrimSpace(q), f[1])
			ins := strings.ReplaceAll(strings.TrimPrefix(rest, " "), `\n`, "\n") + "\n"
			cv := conv{src: src, utf8: enc == "utf-8"}
			pos := positionIn(cv, src, off)
			version++
			c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": docURI, "version": version},
				"contentChanges": []any{map[string]any{"range": map[string]any{"start": pos, "end": pos}, "text": ins}}})
			typed := src[:off] + ins + src[off:]
			after := positionIn(conv{src: typed, utf8: enc == "utf-8"}, typed, off+len(ins))
			raw := result(t, c.call("textDocument/onTypeFormatting", map[string]any{"textDocument": td, "position": after, "ch": "\n",
				"options": map[string]any{"tabSize": 4, "insertSpaces": true}}))
			var edits []wireTextEdit
			json.Unmarshal(raw, &edits)
			if string(raw) == "null" {
				p("  null")
			}
			result := typed
			tc := conv{src: typed, utf8: enc == "utf-8"}
			for i := len(edits) - 1; i >= 0; i-- {
				e := edits[i]
				p("  %s -> %q", tc.show(e.Range), e.NewText)
				s, end := tc.offset(e.Range.Start.Line, e.Range.Start.Character), tc.offset(e.Range.End.Line, e.Range.End.Character)
				result = result[:s] + e.NewText + result[end:]
			}
			if len(edits) > 0 {
				p("  then the lines around the cursor read:\n%s", indentLines(around(result, off+len(ins)), "    | "))
			}
			version++
			c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": docURI, "version": version},
				"contentChanges": []any{map[string]any{"text": src}}})
			c.diagnostics(docURI, version)
		case "rename":
			q := at(f[1])
			q["newName"] = strings.Join(f[2:], " ")
			var we wireEdit
			json.Unmarshal(result(t, c.call("textDocument/rename", q)), &we)
			for _, dc := range we.DocumentChanges {
				p("  %s version %s", filepath.Base(dc.TextDocument.URI), dc.TextDocument.Version)
				for _, e := range dc.Edits {
					p("    %s -> %q", show(dc.TextDocument.URI, e.Range), e.NewText)
				}
			}
		default:
			t.Fatalf("unknown query %q", q)
		}
	}
	c.finish()
	return out.String()
}

func orNone(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "none"
	}
	return string(raw)
}

// around returns the line of offset with the lines before and after it.
func around(text string, offset int) string {
	lines := strings.Split(text, "\n")
	line := strings.Count(text[:offset], "\n")
	from, to := max(line-1, 0), min(line+2, len(lines)-1)
	return strings.Join(lines[from:to+1], "\n")
}

func indentLines(s, prefix string) string {
	lines := strings.Split(s, "\n")
	for i := range lines {
		lines[i] = prefix + lines[i]
	}
	return strings.Join(lines, "\n")
}
