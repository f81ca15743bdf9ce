package lsp

import (
	"os"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/token"
)

// TestEncodeTokens checks the relative encoding against a direct
// conversion of each token, in both encodings, on text with multi-byte and
// astral characters, CRLF and lone CR line breaks, a string that spans lines
// and no final newline, and on every corpus program.
func TestEncodeTokens(t *testing.T) {
	texts := []string{
		"store naïve name as \"日本 😀\"\r\ndisplay naïve name with \"a\nb\rc\" // 😀 note\rdisplay 1 plus 2",
		"",
		"// only a comment",
	}
	files := testcorpus.Glob(t, "wfl/TestPrograms/*.wfl")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	for _, text := range texts {
		for _, enc := range []encoding{utf16, utf8enc} {
			d := doc{snap: core.NewSnapshot("file:///t.wfl", 1, text), enc: enc}
			a, m := d.analysis()
			got := encodeTokens(a, m, token.Span{Start: 0, End: len(text)})
			want := naiveTokens(d)
			if len(got) != len(want) {
				t.Errorf("%.40q %v: %d numbers, want %d", text, enc.kind(), len(got), len(want))
				continue
			}
			for i := range got {
				if got[i] != want[i] {
					t.Errorf("%.40q %v: token %d field %d = %d, want %d", text, enc.kind(), i/5, i%5, got[i], want[i])
					break
				}
			}
		}
	}
}

// naiveTokens encodes each piece of each token with mapper.position.
func naiveTokens(d doc) []uint32 {
	a, m := d.analysis()
	text := a.Lines.Text()
	var out []uint32
	var pl, pc uint32
	for _, tok := range presentation.SemanticTokens(a, token.Span{Start: 0, End: len(text)}) {
		s := text[tok.Span.Start:tok.Span.End]
		start := tok.Span.Start
		for _, piece := range splitLines(s) {
			if piece != "" {
				p := m.position(start)
				dc := p.Character
				if p.Line == pl {
					dc -= pc
				}
				out = append(out, p.Line-pl, dc, uint32(m.units(piece)), uint32(tok.Type), uint32(tok.Mods))
				pl, pc = p.Line, p.Character
			}
			start += len(piece)
			if start < tok.Span.End && text[start] == '\r' {
				start++
			}
			if start < tok.Span.End && text[start] == '\n' {
				start++
			}
		}
	}
	return out
}

// splitLines splits at "\r\n", "\n" and "\r".
func splitLines(s string) []string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.ReplaceAll(s, "\r", "\n")
	return strings.Split(s, "\n")
}
