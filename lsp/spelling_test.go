package lsp

import (
	"encoding/json"
	"slices"
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

// TestEveryAnswerSpellsTheURIAsSent holds TestURISpelledAsTheClientDoes for
// every request the server answers (the table in methods.go, so that a
// method added later is held too): asked about a document opened under a
// spelling the decoder writes otherwise, no answer, error or item names a
// file by another spelling. The requests that take an item (the
// hierarchies' calls, the resolves) are asked with the items the others
// answered. What a client keeps opaque (data) is not read.
func TestEveryAnswerSpellsTheURIAsSent(t *testing.T) {
	for _, spelled := range []string{"file:///tmp/wfl-test/de%6Do.wfl", "untitled:de%6Do"} {
		t.Run(spelled, func(t *testing.T) { everyAnswerSpells(t, spelled) })
	}
}

func everyAnswerSpells(t *testing.T, spelled string) {
	src := "create interface Shape:\n    requires action area\nend\n" +
		"create container Square implements Shape:\n    property side: Number\n    action area:\n        display side\n    end\nend\n" +
		"define action called double with parameters n:\n    return n times 2\nend action\n" +
		"store total as double of 2\ndisplay total plus totl\n"
	c := newClient(t)
	c.initialize(nil)
	c.open(spelled, src, 1)
	published := c.diagnostics(spelled, 1)
	if len(published.Diagnostics) == 0 {
		t.Fatal("no diagnostics: the code actions would have nothing to fix")
	}
	lines := strings.Split(src, "\n")
	posOf := func(line int, word string) map[string]any {
		return map[string]any{"line": line, "character": strings.Index(lines[line], word) + 1}
	}
	last := len(lines) - 1
	// A parameter object that fits every request about a position or a
	// range of the document: the fields one method does not read, it
	// ignores.
	params := func(pos map[string]any) map[string]any {
		return map[string]any{
			"textDocument": map[string]any{"uri": spelled},
			"position":     pos,
			"positions":    []any{pos},
			"range":        map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": last, "character": 0}},
			"context":      map[string]any{"includeDeclaration": true, "diagnostics": published.Diagnostics, "triggerKind": 1, "isRetrigger": false},
			"newName":      "twice",
			"options":      map[string]any{"tabSize": 4, "insertSpaces": true},
			"ch":           "\n",
			"query":        "",
		}
	}
	byItem := map[string]string{ // a method that takes an item, and the method that answers such items
		"typeHierarchy/supertypes":    "textDocument/prepareTypeHierarchy",
		"typeHierarchy/subtypes":      "textDocument/prepareTypeHierarchy",
		"callHierarchy/incomingCalls": "textDocument/prepareCallHierarchy",
		"callHierarchy/outgoingCalls": "textDocument/prepareCallHierarchy",
		"codeLens/resolve":            "textDocument/codeLens",
		"codeAction/resolve":          "textDocument/codeAction",
		"completionItem/resolve":      "textDocument/completion",
	}
	var methods []string
	for m := range requests {
		if m != "initialize" && m != "shutdown" {
			methods = append(methods, m)
		}
	}
	slices.Sort(methods)
	scheme := spelled[:strings.Index(spelled, ":")+1]
	items := map[string][]json.RawMessage{} // by the method that answered them
	named := map[string]bool{}              // the methods whose answers named the document
	check := func(method string, m *msg) {
		t.Helper()
		if m.Error != nil {
			if strings.Contains(m.Error.Message, scheme) && !strings.Contains(m.Error.Message, spelled) {
				t.Errorf("%s: error %q names a file otherwise", method, m.Error.Message)
			}
			return
		}
		var v any
		if err := json.Unmarshal(m.Result, &v); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		for _, s := range uriStrings(v, scheme) {
			if s != spelled {
				t.Errorf("%s: the answer names %q, want %q: %s", method, s, spelled, m.Result)
			}
			named[method] = true
		}
	}
	for _, pos := range []map[string]any{posOf(12, "double"), posOf(3, "Square"), posOf(13, "total")} {
		for _, method := range methods {
			if byItem[method] != "" {
				continue
			}
			m := c.call(method, params(pos))
			check(method, m)
			if m.Error == nil {
				items[method] = append(items[method], answerItems(m.Result)...)
			}
		}
	}
	for _, method := range methods {
		from := byItem[method]
		if from == "" {
			continue
		}
		if len(items[from]) == 0 {
			t.Errorf("%s: %s answered no item to ask it with", method, from)
		}
		for _, it := range items[from] {
			var p any = it
			if strings.HasPrefix(method, "typeHierarchy/") || strings.HasPrefix(method, "callHierarchy/") {
				p = map[string]any{"item": it}
			}
			check(method, c.call(method, p))
		}
	}
	for _, want := range []string{"textDocument/definition", "textDocument/references", "textDocument/rename",
		"textDocument/implementation", "textDocument/prepareTypeHierarchy", "textDocument/prepareCallHierarchy",
		"callHierarchy/incomingCalls", "workspace/symbol", "textDocument/codeAction"} {
		if !named[want] {
			t.Errorf("%s named no document: the property was not tried on it", want)
		}
	}
	c.finish()
}

// uriStrings returns the strings of a decoded answer that begin with
// scheme, but for those under a data key (opaque to the client).
func uriStrings(v any, scheme string) []string {
	var out []string
	switch v := v.(type) {
	case string:
		if strings.HasPrefix(v, scheme) {
			out = append(out, v)
		}
	case []any:
		for _, x := range v {
			out = append(out, uriStrings(x, scheme)...)
		}
	case map[string]any:
		for k, x := range v {
			if k != "data" {
				out = append(out, uriStrings(x, scheme)...)
			}
			if k == "changes" { // a workspace edit's keys are URIs
				if m, ok := x.(map[string]any); ok {
					for u := range m {
						out = append(out, u)
					}
				}
			}
		}
	}
	return out
}

// answerItems returns the items of an answer: the elements of a list, or
// of a completion list's items.
func answerItems(raw json.RawMessage) []json.RawMessage {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	var cl struct{ Items []json.RawMessage }
	if json.Unmarshal(raw, &cl) == nil {
		return cl.Items
	}
	return nil
}
