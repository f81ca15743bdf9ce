package lsp

import (
	"encoding/json"
	"strings"
	"testing"
	u16 "unicode/utf16"
)

// TestOpenQuoteColumns: while a quote is left open and its line ends in a
// character of several bytes (é, ✓, 日, 😀), the answers about the text's
// structure count columns over the text the client holds, in the
// negotiated encoding: the string's token ends at the line's end, and no
// token, range or fold ends past its line or inside a character. The
// features read a copy of the text with the quote closed on its line, of
// the same bytes but not the same characters there; before, columns were
// counted over that copy (a token ending inside 😀's surrogate pair, a
// selection range past the line's end). An include path left open is no
// link yet (it named the file without its last character).
func TestOpenQuoteColumns(t *testing.T) {
	texts := []string{
		`display "😀`,
		"display \"é\n",
		"check if 1 is 1:\n    display \"✓ 日\n",
		"store s as \"e\u0301",
		"define action called f:\n    display \"𝄞\nend action\n",
	}
	count := map[string]func(string) int{
		"utf-16": func(s string) int { return len(u16.Encode([]rune(s))) },
		"utf-8":  func(s string) int { return len(s) },
	}
	for _, enc := range []string{"utf-16", "utf-8"} {
		units := count[enc]
		for _, text := range texts {
			c := newClient(t)
			c.initialize(map[string]any{"general": map[string]any{"positionEncodings": []string{enc}}})
			const u = "file:///tmp/q.wfl"
			c.open(u, text, 1)
			lines := strings.Split(text, "\n")
			// inLine checks that column col of line is on a character's
			// boundary of the line, at most at its end.
			inLine := func(what string, line, col int) {
				t.Helper()
				if line < 0 || line >= len(lines) {
					t.Errorf("%s %q: %s on line %d of %d", enc, text, what, line, len(lines))
					return
				}
				l, n := lines[line], 0
				for _, r := range l {
					if n == col {
						return
					}
					n += units(string(r))
				}
				if n != col {
					t.Errorf("%s %q: %s at %d:%d, past the line's end (%d) or inside a character", enc, text, what, line, col, n)
				}
			}
			doc := map[string]any{"uri": u}

			var toks struct{ Data []int }
			json.Unmarshal(c.call("textDocument/semanticTokens/full", map[string]any{"textDocument": doc}).Result, &toks)
			line, col, lastEnd := 0, 0, [2]int{}
			for i := 0; i+4 < len(toks.Data); i += 5 {
				if toks.Data[i] > 0 {
					line, col = line+toks.Data[i], 0
				}
				col += toks.Data[i+1]
				inLine("a token's start", line, col)
				inLine("a token's end", line, col+toks.Data[i+2])
				lastEnd = [2]int{line, col + toks.Data[i+2]}
			}
			quoteLine := 0
			for i, l := range lines {
				if strings.Contains(l, `"`) {
					quoteLine = i
				}
			}
			if want := [2]int{quoteLine, units(lines[quoteLine])}; lastEnd != want && !strings.Contains(text, "end action") {
				t.Errorf("%s %q: the last token ends at %v, want the open string's line end %v", enc, text, lastEnd, want)
			}

			var sel []struct {
				Range  wireRange
				Parent *json.RawMessage
			}
			json.Unmarshal(c.call("textDocument/selectionRange", map[string]any{"textDocument": doc,
				"positions": []map[string]int{{"line": quoteLine, "character": 0}}}).Result, &sel)
			for _, s := range sel {
				inLine("a selection range's end", s.Range.End.Line, s.Range.End.Character)
			}
			var folds []struct{ EndLine, EndCharacter *int }
			json.Unmarshal(c.call("textDocument/foldingRange", map[string]any{"textDocument": doc}).Result, &folds)
			for _, f := range folds {
				if f.EndLine != nil && f.EndCharacter != nil {
					inLine("a fold's end", *f.EndLine, *f.EndCharacter)
				}
			}
			var syms []struct{ Range, SelectionRange wireRange }
			json.Unmarshal(c.call("textDocument/documentSymbol", map[string]any{"textDocument": doc}).Result, &syms)
			for _, s := range syms {
				inLine("a symbol's end", s.Range.End.Line, s.Range.End.Character)
			}
			c.finish()
		}
	}

	c := newClient(t)
	c.initialize(nil)
	c.open("file:///tmp/inc.wfl", "include from \"lib.wfl\ndisplay answer\n", 1)
	if r := c.call("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": "file:///tmp/inc.wfl"}}); string(r.Result) != "[]" {
		t.Errorf("a link for an include path left open: %s", r.Result)
	}
	c.finish()
}
