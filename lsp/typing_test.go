package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	gouri "go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/token"
)

// TestTypingMatchesFullAnalysis types into open documents through the wire,
// fast (the server coalesces and derives each version's diagnostics from an
// older one), and checks that what it publishes for the last version of
// each burst equals what a full analysis of that text gives: in every
// fourth of the corpus's test programs, every sixteenth under the race
// detector.
func TestTypingMatchesFullAnalysis(t *testing.T) {
	t.Parallel()
	texts := []string{
		"store total as 0\ncount from 1 to 3:\n    change total to total plus count\nend count\ndisplay total\n",
		"define action called greet with name:\n    display \"hi \" with name\nend action\ncall greet with \"x\"\nstore x as 1\n",
	}
	files := testcorpus.Glob(t, "wfl/TestPrograms/*.wfl")
	for i, f := range files {
		if i%(8*testcorpus.RaceStride(4)) != 0 { // every 8th program (every 4th: 20 s), 32nd under the race detector
			continue
		}
		if b, err := os.ReadFile(f); err == nil {
			texts = append(texts, string(b))
		}
	}
	typed := []string{"a", " ", "\n", "\"", ":", "store y as 2\n", "end check\n", "display x\n", "é", "1"}
	var derived, full atomic.Int32
	c := newClient(t, func(o *Options) {
		o.Logger = slog.New(recordHandler(func(r slog.Record) {
			if r.Message != "diagnostics" {
				return
			}
			r.Attrs(func(a slog.Attr) bool {
				if a.Key == "derived" {
					if a.Value.Bool() {
						derived.Add(1)
					} else {
						full.Add(1)
					}
				}
				return true
			})
		}))
	})
	c.initialize(nil)
	for n, text := range texts {
		rng := rand.New(rand.NewPCG(uint64(n), 11))
		u := "file:///typing/doc" + string(rune('a'+n%26)) + ".wfl"
		c.open(u, text, 1)
		c.diagnostics(u, 1)
		v := 1
		for burst := 0; burst < 6; burst++ {
			for k := 0; k < 12; k++ {
				m := newMapper(token.NewLines(text), utf16)
				from := rng.IntN(len(text) + 1)
				for from > 0 && from < len(text) && text[from]&0xC0 == 0x80 {
					from--
				}
				to := from
				ins := typed[rng.IntN(len(typed))]
				if rng.IntN(3) == 0 { // a deletion instead
					to = min(len(text), from+1+rng.IntN(4))
					for to < len(text) && text[to]&0xC0 == 0x80 {
						to++
					}
					ins = ""
				}
				start, end := m.position(from), m.position(to)
				v++
				c.notify("textDocument/didChange", map[string]any{
					"textDocument": map[string]any{"uri": u, "version": v},
					"contentChanges": []any{map[string]any{
						"range": rng2(start.Line, start.Character, end.Line, end.Character), "text": ins}},
				})
				text = text[:from] + ins + text[to:]
			}
			got := c.diagnostics(u, v)
			lines, ds := core.NewSnapshot(core.URI(u), int32(v), text).Tolerant() // what the server publishes (settings not strict)
			var want struct{ Diagnostics []any }
			json.Unmarshal(appendPublishParams(nil, gouri.URI(u), -1, newMapper(lines, utf16), slices.Values(ds)), &want)
			var have struct{ Diagnostics []any }
			json.Unmarshal(got.raw, &have)
			if !reflect.DeepEqual(have.Diagnostics, want.Diagnostics) {
				t.Fatalf("document %d version %d: published\n%v\nwant (full analysis)\n%v\ntext:\n%s", n, v, have.Diagnostics, want.Diagnostics, text)
			}
		}
	}
	c.finish()
	t.Logf("%d publishes derived, %d from a full analysis", derived.Load(), full.Load())
	if derived.Load() < full.Load() {
		t.Errorf("only %d of %d publishes were derived", derived.Load(), derived.Load()+full.Load())
	}
}

// recordHandler is a slog handler that passes every record to f.
type recordHandler func(slog.Record)

func (h recordHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h recordHandler) Handle(_ context.Context, r slog.Record) error {
	h(r)
	return nil
}
func (h recordHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h recordHandler) WithGroup(string) slog.Handler      { return h }

func rng2(l1, c1, l2, c2 uint32) map[string]any {
	return rng(int(l1), int(c1), int(l2), int(c2))
}

// TestRangeAnswersWhileTyping types into a document large enough for
// partial analyses and, after each keystroke, asks the semantic tokens and
// inlay hints of the lines around the cursor (each built from the last
// range's answer where nothing changed), and checks every answer against a
// second server's of the same text opened afresh (a full analysis).
func TestRangeAnswersWhileTyping(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 24<<10; i++ {
		fmt.Fprintf(&b, "define action called add%[1]d with a and b:\n    return a plus b\nend action\nstore n%[1]d as 0\ncount from 1 to 3:\n    change n%[1]d to n%[1]d plus count\nend count\ndisplay add%[1]d with n%[1]d and 1\n", i)
	}
	text := b.String()
	typing, fresh := newClient(t), newClient(t)
	typing.initialize(nil)
	fresh.initialize(nil)
	u := "file:///typing/ranges.wfl"
	typing.open(u, text, 1)
	r := rand.New(rand.NewPCG(3, 4))
	cursor := strings.Index(text, "display add40 with n40 and 1") + len("display add40 with n40 and 1")
	typed := []string{"+", "n", "4", "0", " ", "x", "\n", "é"}
	for v := 2; v < 60; v++ {
		m := newMapper(token.NewLines(text), utf16)
		from, to, ins := cursor, cursor, typed[r.IntN(len(typed))]
		if r.IntN(3) == 0 && cursor > 0 { // a backspace
			from = cursor - 1
			for from > 0 && text[from]&0xC0 == 0x80 {
				from--
			}
			ins = ""
		}
		start, end := m.position(from), m.position(to)
		typing.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": u, "version": v},
			"contentChanges": []any{map[string]any{"range": rng2(start.Line, start.Character, end.Line, end.Character), "text": ins}},
		})
		text, cursor = text[:from]+ins+text[to:], from+len(ins)
		line := int(newMapper(token.NewLines(text), utf16).position(cursor).Line)
		visible := rng(max(0, line-30), 0, line+30, 0)
		fu := fmt.Sprintf("file:///typing/fresh%d.wfl", v)
		fresh.open(fu, text, 1)
		for _, method := range []string{"textDocument/semanticTokens/range", "textDocument/inlayHint"} {
			got := typing.call(method, map[string]any{"textDocument": map[string]any{"uri": u}, "range": visible})
			want := fresh.call(method, map[string]any{"textDocument": map[string]any{"uri": fu}, "range": visible})
			if got.Error != nil || want.Error != nil {
				t.Fatalf("version %d, %s: errors %+v, %+v", v, method, got.Error, want.Error)
			}
			if string(got.Result) != string(want.Result) {
				t.Fatalf("version %d, %s: typed into\n%s\nwant (a full analysis)\n%s", v, method, got.Result, want.Result)
			}
		}
		fresh.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fu}})
	}
	typing.finish()
	fresh.finish()
}
