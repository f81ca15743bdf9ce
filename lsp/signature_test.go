package lsp

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestSignatureHelpLabelOffsets: a client that declares labelOffsetSupport
// gets each parameter as its [start, end) in the signature's label, so it
// cannot highlight the wrong place ("a" of "action" for the parameter a);
// another client gets the parameter's text.
func TestSignatureHelpLabelOffsets(t *testing.T) {
	src := "define action called f with x and a:\n    give back a\nend action\n" +
		"store s as \"hello\"\ndisplay call f with 1 and \ndisplay substring of s and \n"
	for _, tt := range []struct {
		name    string
		offsets bool
		line    int
		char    int
		want    []any
	}{
		{"action, offsets", true, 4, 26, []any{[]any{14.0, 15.0}, []any{20.0, 21.0}}},
		{"builtin, offsets", true, 5, 27, []any{[]any{10.0, 22.0}, []any{24.0, 39.0}, []any{41.0, 57.0}}},
		{"action, text", false, 4, 26, []any{"x", "a"}},
		{"builtin, text", false, 5, 27, []any{"text as Text", "start as Number", "length as Number"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(t)
			c.initialize(map[string]any{"textDocument": map[string]any{"signatureHelp": map[string]any{
				"signatureInformation": map[string]any{"parameterInformation": map[string]any{"labelOffsetSupport": tt.offsets}}}}})
			c.open(testURI, src, 1)
			r := c.call("textDocument/signatureHelp", map[string]any{"textDocument": map[string]any{"uri": testURI},
				"position": map[string]any{"line": tt.line, "character": tt.char}})
			if r.Error != nil {
				t.Fatalf("signatureHelp: %+v", r.Error)
			}
			var sh struct {
				Signatures []struct {
					Label      string `json:"label"`
					Parameters []struct {
						Label any `json:"label"`
					} `json:"parameters"`
				} `json:"signatures"`
				ActiveParameter int `json:"activeParameter"`
			}
			if err := json.Unmarshal(r.Result, &sh); err != nil || len(sh.Signatures) != 1 {
				t.Fatalf("signatureHelp = %s (%v)", r.Result, err)
			}
			var got []any
			for _, p := range sh.Signatures[0].Parameters {
				got = append(got, p.Label)
			}
			if !reflect.DeepEqual(got, tt.want) || sh.ActiveParameter != 1 {
				t.Errorf("parameters %v, active %d; want %v, active 1 (%s)", got, sh.ActiveParameter, tt.want, r.Result)
			}
			if err := c.finish(); err != nil {
				t.Error(err)
			}
		})
	}
}
