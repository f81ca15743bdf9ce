package lsp

import (
	"math/rand/v2"
	"os"
	"slices"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/token"
)

// TestComposedTokensEqualFull checks the whole-document semantic tokens
// built from the last result (wholeTokens' composeTokens over core's
// TokensSince) against those of a full analysis, encoded the same way, in
// both encodings, after chains of random edits of the corpus's test
// programs (and of a text with characters of every width); each result is
// the next one's starting point, as the cache's is. Under the race detector
// it edits every eighth program.
func TestComposedTokensEqualFull(t *testing.T) {
	t.Parallel()
	files := testcorpus.Glob(t, "wfl/TestPrograms/*.wfl")
	texts := []string{"store é as \"😀 x\"\n// ü 😀\nstore b as é plus 1\ndisplay b\n\ncount from 1 to 3:\n    display \"日本\" with count\nend count\n"}
	for i, f := range files {
		if i%testcorpus.RaceStride(8) != 0 {
			continue
		}
		if data, err := os.ReadFile(f); err == nil {
			texts = append(texts, string(data))
		}
	}
	built := 0
	for n, text := range texts {
		for _, enc := range []encoding{utf16, utf8enc} {
			rng := rand.New(rand.NewPCG(uint64(n), uint64(enc)))
			ws := core.NewWorkspace()
			u := core.URI("file:///dir/tokens.wfl")
			s := ws.Open(u, 1, text)
			s.Diagnostics()
			last := encodeTokens(s.Analysis(), newMapper(s.QueryLines(), enc), token.Span{Start: 0, End: len(s.Text)})
			base := presentation.NewTokenBase(s)
			for k := 0; k < 12; k++ {
				at := rng.IntN(len(s.Text) + 1)
				for at > 0 && at < len(s.Text) && s.Text[at]&0xC0 == 0x80 {
					at--
				}
				end := min(len(s.Text), at+rng.IntN(4))
				for end < len(s.Text) && s.Text[end]&0xC0 == 0x80 {
					end++
				}
				ins := []string{"", "x", " ", "\n", "é", "😀", "store y as 2\n", "\"", "end", ":"}[rng.IntN(10)]
				var err error
				if s, err = ws.Change(u, s.Version+1, core.Edit{Start: at, End: end, Text: ins}); err != nil {
					t.Fatal(err)
				}
				m := newMapper(s.QueryLines(), enc)
				want := encodeTokens(core.NewSnapshot(u, 1, s.Text).Analysis(), m, token.Span{Start: 0, End: len(s.Text)})
				got := want
				if stretches, ok := presentation.TokensSince(s, base); ok {
					built++
					got = composeTokens(decodeTokens(last), stretches, m)
				}
				if !slices.Equal(got, want) {
					t.Fatalf("text %d, encoding %d, edit %d ([%d,%d) ← %q): composed tokens differ\n got %v\nwant %v\ntext:\n%s", n, enc, k, at, end, ins, got, want, s.Text)
				}
				last, base = got, presentation.NewTokenBase(s)
			}
		}
	}
	if built == 0 {
		t.Error("no tokens were built from the last result")
	}
	t.Logf("%d texts, %d results built from the last one", len(texts), built)
}
