package lsp

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestURISpelledAsTheClientDoes: a document opened under a URI the
// protocol's decoder writes otherwise (an escape it does not need,
// lower-case hex, a character left unescaped) is named as the client wrote
// it in its diagnostics, in the locations and edits of the answers about
// it, and in the empty list that clears its diagnostics when it closes. A
// client that keeps diagnostics by the URI it sent finds them.
func TestURISpelledAsTheClientDoes(t *testing.T) {
	for _, spelled := range []string{
		"file:///tmp/wfl-test/demo.wfl", // canonical: unchanged
		"file:///tmp/wfl-test/de%6Do.wfl",
		"file:///tmp/wfl-test/a%3ab.wfl",
		"file:///tmp/wfl-test/caf\u00e9.wfl",
		"file:///tmp/wfl-test/two words.wfl",
	} {
		t.Run(spelled, func(t *testing.T) {
			c := newClient(t)
			c.initialize(nil)
			c.open(spelled, "store total as 1\ndisplay total plus nope\n", 1)
			if p := c.diagnostics(spelled, 1); len(p.Diagnostics) == 0 {
				t.Fatalf("no diagnostics published for %s", spelled)
			}
			at := map[string]any{"textDocument": map[string]any{"uri": spelled}, "position": map[string]any{"line": 1, "character": 9}}
			var locs []struct{ URI string }
			if m := c.call("textDocument/definition", at); json.Unmarshal(m.Result, &locs) != nil || len(locs) != 1 || locs[0].URI != spelled {
				t.Errorf("definition: %s, want a location in %s", m.Result, spelled)
			}
			refs := map[string]any{"textDocument": at["textDocument"], "position": at["position"], "context": map[string]any{"includeDeclaration": true}}
			if m := c.call("textDocument/references", refs); json.Unmarshal(m.Result, &locs) != nil || len(locs) != 2 || locs[0].URI != spelled || locs[1].URI != spelled {
				t.Errorf("references: %s, want two locations in %s", m.Result, spelled)
			}
			rename := map[string]any{"textDocument": at["textDocument"], "position": at["position"], "newName": "sum"}
			var edit struct{ Changes map[string]json.RawMessage }
			if m := c.call("textDocument/rename", rename); json.Unmarshal(m.Result, &edit) != nil || len(edit.Changes) != 1 || edit.Changes[spelled] == nil {
				t.Errorf("rename: %s, want the edits of %s", m.Result, spelled)
			}
			c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": spelled}})
			quoted, _ := json.Marshal(spelled)
			c.await("the empty diagnostics of "+spelled, func(m *msg) bool {
				return m.Method == "textDocument/publishDiagnostics" && strings.Contains(string(m.Params), `"diagnostics":[]`) &&
					strings.Contains(string(m.Params), `"uri":`+string(quoted))
			})
			c.finish()
		})
	}
}
