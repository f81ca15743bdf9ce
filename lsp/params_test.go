package lsp

import (
	"sort"
	"strconv"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestInvalidParams: a request about a place (a document and a position or
// range, or a hierarchy item) whose params are missing, null, not an
// object, without the members that say where, or that do not decode, is
// answered InvalidParams (-32602) with a message that names the method,
// what was expected and what was found. Only a well-formed request about a
// document that is not open is RequestFailed (-32803). Before, params that
// named no document were answered -32803 "document  is not open".
func TestInvalidParams(t *testing.T) {
	c := newClient(t)
	c.initialize(nil)
	c.open(testURI, "store x as 1\ndisplay x\n", 1)
	const doc = `{"uri":"` + testURI + `"}`
	const pos = `{"line":1,"character":8}`
	const rng = `{"start":{"line":0,"character":0},"end":{"line":1,"character":0}}`
	tests := []struct {
		method string
		params string // "" sends no params member
		code   int
		msg    string // the whole message, or with a trailing "…" its start
	}{
		{protocol.MethodTextDocumentHover, "", -32602, "textDocument/hover: params: expected an object with textDocument and position, found null"},
		{protocol.MethodTextDocumentHover, "null", -32602, "textDocument/hover: params: expected an object with textDocument and position, found null"},
		{protocol.MethodTextDocumentHover, "[]", -32602, "textDocument/hover: params: expected an object with textDocument and position, found an array"},
		{protocol.MethodTextDocumentHover, `"x"`, -32602, "textDocument/hover: params: expected an object with textDocument and position, found a string"},
		{protocol.MethodTextDocumentHover, "7", -32602, "textDocument/hover: params: expected an object with textDocument and position, found a number"},
		{protocol.MethodTextDocumentHover, "{}", -32602, "textDocument/hover: params: expected an object with textDocument and position, found an object without textDocument"},
		{protocol.MethodTextDocumentHover, `{"textDocument":` + doc + `}`, -32602, "textDocument/hover: params: expected an object with textDocument and position, found an object without position"},
		{protocol.MethodTextDocumentHover, `{"textDocument":` + doc + `,"position":null}`, -32602, "textDocument/hover: params: expected an object with textDocument and position, found an object without position"},
		{protocol.MethodTextDocumentHover, `{"textDocument":{},"position":` + pos + `}`, -32602, "textDocument/hover: params: expected an object with textDocument and position, found textDocument without a uri"},
		{protocol.MethodTextDocumentHover, `{"textDocument":` + doc + `,"position":"1:8"}`, -32602, "textDocument/hover: params: position: expected an object, found a string"},
		{protocol.MethodTextDocumentHover, `{"textDocument":` + doc + `,"position":{"line":"1","character":8}}`, -32602, "textDocument/hover: params: position.line: expected a whole number, 0 or more, found a string"},
		{protocol.MethodTextDocumentHover, `{"textDocument":` + doc + `,"position":{"line":-1,"character":8}}`, -32602, "textDocument/hover: params: position.line: expected a whole number, 0 or more, found -1"},
		{protocol.MethodTextDocumentHover, `{"textDocument":"` + testURI + `","position":` + pos + `}`, -32602, "textDocument/hover: params: textDocument: expected an object, found a string"},
		{protocol.MethodTextDocumentHover, `{"textDocument":{"uri":42},"position":` + pos + `}`, -32602, "textDocument/hover: params: textDocument.uri: expected a string, found 42"},
		{protocol.MethodTextDocumentDefinition, "null", -32602, "textDocument/definition: params: expected an object with textDocument and position, found null"},
		{protocol.MethodTextDocumentDefinition, `{"textDocument":` + doc + `,"position":[1,8]}`, -32602, "textDocument/definition: params: position: expected an object, found an array"},
		{protocol.MethodTextDocumentReferences, "", -32602, "textDocument/references: params: expected an object with textDocument and position, found null"},
		{protocol.MethodTextDocumentReferences, `{"textDocument":` + doc + `,"position":` + pos + `,"context":{"includeDeclaration":"yes"}}`, -32602, "textDocument/references: params: context.includeDeclaration: expected true or false, found a string"},
		{protocol.MethodTextDocumentDocumentHighlight, "[1]", -32602, "textDocument/documentHighlight: params: expected an object with textDocument and position, found an array"},
		{protocol.MethodTextDocumentRename, `{"textDocument":` + doc + `,"newName":"y"}`, -32602, "textDocument/rename: params: expected an object with textDocument and position, found an object without position"},
		{protocol.MethodTextDocumentFormatting, "null", -32602, "textDocument/formatting: params: expected an object with textDocument, found null"},
		{protocol.MethodTextDocumentFormatting, `{"textDocument":` + doc + `,"options":{"tabSize":"two","insertSpaces":true}}`, -32602, "textDocument/formatting: params: options.tabSize: expected a whole number, 0 or more, found a string"},
		{protocol.MethodTextDocumentRangeFormatting, `{"textDocument":` + doc + `,"options":{"tabSize":4,"insertSpaces":true}}`, -32602, "textDocument/rangeFormatting: params: expected an object with textDocument and range, found an object without range"},
		{protocol.MethodTextDocumentCodeAction, `{"textDocument":` + doc + `,"range":"all","context":{"diagnostics":[]}}`, -32602, "textDocument/codeAction: params: range: expected an object, found a string"},
		{protocol.MethodTextDocumentDocumentSymbol, "{}", -32602, "textDocument/documentSymbol: params: expected an object with textDocument, found an object without textDocument"},
		{protocol.MethodTextDocumentSemanticTokensFull, `{"textDocument":null}`, -32602, "textDocument/semanticTokens/full: params: expected an object with textDocument, found an object without textDocument"},
		{protocol.MethodTextDocumentInlayHint, `{"textDocument":` + doc + `,"range":{"start":` + pos + `,"end":true}}`, -32602, "textDocument/inlayHint: params: range.end: expected an object, found true"},
		{protocol.MethodWorkspaceSymbol, "null", -32602, "workspace/symbol: params: expected an object with query, found null"},
		{protocol.MethodWorkspaceSymbol, "[]", -32602, "workspace/symbol: params: expected an object with query, found an array"},
		{protocol.MethodWorkspaceSymbol, `{"query":7}`, -32602, "workspace/symbol: params: query: expected a string, found 7"},
		{protocol.MethodCompletionItemResolve, "null", -32602, "completionItem/resolve: params: expected a completion item, an object with label, found null"},
		{protocol.MethodCompletionItemResolve, `{"kind":6}`, -32602, "completionItem/resolve: params: expected a completion item, an object with label, found an object without label"},
		{protocol.MethodCompletionItemResolve, `{"label":7}`, -32602, "completionItem/resolve: params: label: expected a string, found 7"},
		{protocol.MethodCallHierarchyIncomingCalls, "null", -32602, "callHierarchy/incomingCalls: params: expected an object with item, found null"},
		{protocol.MethodCallHierarchyOutgoingCalls, `{"item":{"name":"f"}}`, -32602, "callHierarchy/outgoingCalls: params: expected an object with item, found item without a uri"},
		{protocol.MethodTypeHierarchySupertypes, "", -32602, "typeHierarchy/supertypes: params: expected an object with item, found null"},

		// Well-formed: a document that is not open fails; position 0:0
		// and a range without position are fine.
		{protocol.MethodTextDocumentHover, `{"textDocument":{"uri":"file:///nowhere.wfl"},"position":` + pos + `}`, -32803, "document file:///nowhere.wfl is not open"},
		{protocol.MethodTextDocumentHover, `{"textDocument":` + doc + `,"position":{"line":0,"character":0}}`, 0, ""},
		{protocol.MethodTextDocumentRangeFormatting, `{"textDocument":` + doc + `,"range":` + rng + `,"options":{"tabSize":4,"insertSpaces":true}}`, 0, ""},
		{protocol.MethodTextDocumentFormatting, `{"textDocument":` + doc + `,"options":{"tabSize":4,"insertSpaces":true},"position":"ignored"}`, 0, ""},
	}
	for i, tt := range tests {
		id := 1000 + i
		body := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + tt.method + `"`
		if tt.params != "" {
			body += `,"params":` + tt.params
		}
		c.sendBody(body + "}")
		m := c.response(id)
		name := tt.method + " " + tt.params
		if tt.code == 0 {
			if m.Error != nil {
				t.Errorf("%s: error %+v, want an answer", name, m.Error)
			}
			continue
		}
		wantError(t, name, m, tt.code)
		if m.Error == nil {
			continue
		}
		if prefix, ok := strings.CutSuffix(tt.msg, "…"); ok && !strings.HasPrefix(m.Error.Message, prefix) || !ok && m.Error.Message != tt.msg {
			t.Errorf("%s:\n got message %q\nwant %q", name, m.Error.Message, tt.msg)
		}
	}
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
}

// TestEveryPlaceRequestRefusesNullParams: every request of the methods'
// table but those whose params say no place (the lifecycle, workspace
// symbols, the resolve requests, which check their own) answers null
// params with InvalidParams, so no request kind reads a document or item
// from params that name none.
func TestEveryPlaceRequestRefusesNullParams(t *testing.T) {
	noPlace := map[string]bool{
		protocol.MethodInitialize:            true,
		protocol.MethodShutdown:              true,
		protocol.MethodWorkspaceSymbol:       true,
		protocol.MethodCompletionItemResolve: true,
		protocol.MethodCodeActionResolve:     true,
		protocol.MethodCodeLensResolve:       true,
	}
	var methods []string
	for m := range requests {
		if !noPlace[m] {
			methods = append(methods, m)
		}
	}
	sort.Strings(methods)
	if len(methods) < 30 {
		t.Fatalf("only %d methods about a place: %v", len(methods), methods)
	}
	c := newClient(t)
	c.initialize(nil)
	for _, method := range methods {
		m := c.call(method, nil) // no params member
		wantError(t, method, m, -32602)
		if m.Error != nil && !strings.HasPrefix(m.Error.Message, method+": params: expected an object with ") {
			t.Errorf("%s: message %q", method, m.Error.Message)
		}
	}
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
}
