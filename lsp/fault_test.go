package lsp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// A fault is one malformed or out-of-order input and the answer the
// specification gives for it.
type fault struct {
	name string
	raw  string // bytes sent as they are, or
	body string // a body sent in a correct frame
	// wantID is the id of the expected error response ("null" for a
	// response without id), or "" when no response is due.
	wantID   string
	wantCode int
}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// TestFaultInjection sends malformed and out-of-order inputs (requests and
// notifications before initialize, a second initialize, invalid or truncated
// JSON, batches, bad ids, unknown methods, wrong params) and checks that each gets the answer the LSP
// 3.17 specification gives, that nothing else is answered, and that the server
// still serves requests and shuts down cleanly afterwards.
func TestFaultInjection(t *testing.T) {
	const maxFrame = 4096
	c := newClient(t, func(o *Options) { o.MaxFrame = maxFrame })
	const doc = `{"textDocument":{"uri":"` + testURI + `"}}`
	textReq := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"wfl/test/text","params":` + doc + `}`
	}

	before := []fault{
		{name: "request before initialize", body: `{"jsonrpc":"2.0","id":101,"method":"textDocument/hover","params":{}}`, wantID: "101", wantCode: -32002},
		{name: "shutdown before initialize", body: `{"jsonrpc":"2.0","id":102,"method":"shutdown"}`, wantID: "102", wantCode: -32002},
		{name: "didOpen before initialize is dropped", body: `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"` + testURI + `","languageId":"wfl","version":1,"text":"early"}}}`},
		{name: "initialized before initialize is dropped", body: `{"jsonrpc":"2.0","method":"initialized","params":{}}`},
		{name: "unparsable JSON before initialize", body: `{"jsonrpc":`, wantID: "null", wantCode: -32700},
	}
	after := []fault{
		{name: "second initialize", body: `{"jsonrpc":"2.0","id":201,"method":"initialize","params":{"capabilities":{}}}`, wantID: "201", wantCode: -32600},
		{name: "document opened before initialize is unknown", body: textReq("202"), wantID: "202", wantCode: -32803},
		{name: "unparsable JSON", body: `{not json`, wantID: "null", wantCode: -32700},
		{name: "truncated JSON", body: `{"jsonrpc":"2.0","id":203,"method":"wfl/test/text","params":{`, wantID: "null", wantCode: -32700},
		{name: "trailing garbage after the object", body: `{"jsonrpc":"2.0","id":204,"method":"x"} extra`, wantID: "null", wantCode: -32700},
		{name: "empty body", raw: "Content-Length: 0\r\n\r\n", wantID: "null", wantCode: -32700},
		{name: "whitespace body", body: "  \n ", wantID: "null", wantCode: -32700},
		{name: "empty batch", body: `[]`, wantID: "null", wantCode: -32600},
		{name: "batch", body: `[{"jsonrpc":"2.0","id":205,"method":"shutdown"}]`, wantID: "null", wantCode: -32600},
		{name: "a string, not an object", body: `"hello"`, wantID: "null", wantCode: -32600},
		{name: "null message", body: `null`, wantID: "null", wantCode: -32600},
		{name: "jsonrpc 1.0", body: `{"jsonrpc":"1.0","id":206,"method":"wfl/test/text","params":` + doc + `}`, wantID: "206", wantCode: -32600},
		{name: "missing jsonrpc member", body: `{"id":207,"method":"wfl/test/text","params":` + doc + `}`, wantID: "207", wantCode: -32600},
		{name: "method is a number", body: `{"jsonrpc":"2.0","id":208,"method":5}`, wantID: "208", wantCode: -32600},
		{name: "fractional id", body: `{"jsonrpc":"2.0","id":1.5,"method":"wfl/test/text"}`, wantID: "null", wantCode: -32600},
		{name: "unknown method", body: `{"jsonrpc":"2.0","id":209,"method":"textDocument/noSuchThing","params":{}}`, wantID: "209", wantCode: -32601},
		{name: "exit sent as a request is not a request", body: `{"jsonrpc":"2.0","id":210,"method":"exit"}`, wantID: "210", wantCode: -32601},
		{name: "params of the wrong type", body: `{"jsonrpc":"2.0","id":211,"method":"wfl/test/text","params":"bad"}`, wantID: "211", wantCode: -32602},
		{name: "params of the wrong shape", body: `{"jsonrpc":"2.0","id":212,"method":"wfl/test/text","params":{"textDocument":{"uri":42}}}`, wantID: "212", wantCode: -32602},
		{name: "request on a document that is not open", body: `{"jsonrpc":"2.0","id":213,"method":"wfl/test/text","params":{"textDocument":{"uri":"file:///nowhere.wfl"}}}`, wantID: "213", wantCode: -32803},
		{name: "big integer id", body: `{"jsonrpc":"2.0","id":9007199254740993,"method":"wfl/noSuch"}`, wantID: "9007199254740993", wantCode: -32601},
		{name: "string id", body: `{"jsonrpc":"2.0","id":"abc","method":"wfl/noSuch"}`, wantID: `"abc"`, wantCode: -32601},
		{name: "unknown notification", body: `{"jsonrpc":"2.0","method":"wfl/unknownNotification","params":{}}`},
		{name: "unknown $/ notification", body: `{"jsonrpc":"2.0","method":"$/unknown","params":{}}`},
		{name: "cancel of an unknown id", body: `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":4242}}`},
		{name: "cancel with malformed params", body: `{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":{"x":1}}}`},
		{name: "response to a request never made", body: `{"jsonrpc":"2.0","id":999,"result":null}`},
		{name: "error response to a request never made", body: `{"jsonrpc":"2.0","id":998,"error":{"code":-1,"message":"x"}}`},
		{name: "didChange of a document that is not open", body: `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///nowhere.wfl","version":2},"contentChanges":[{"text":"x"}]}}`},
		{name: "didClose of a document that is not open", body: `{"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///nowhere.wfl"}}}`},
		{name: "didOpen with bad params", body: `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":"x"}}`},
		{name: "didOpen", body: `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"` + testURI + `","languageId":"wfl","version":1,"text":"abc\ndef"}}}`},
		{name: "didOpen again replaces the document", body: `{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"` + testURI + `","languageId":"wfl","version":1,"text":"one\ntwo"}}}`},
		{name: "didChange with contentChanges not a list", body: `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"` + testURI + `","version":2},"contentChanges":{"text":"x"}}}`},
		{name: "didChange with a range past the end is refused", body: `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"` + testURI + `","version":3},"contentChanges":[{"range":{"start":{"line":9,"character":0},"end":{"line":99,"character":99}},"text":"?"}]}}`},
		{name: "didChange with a character past the end of the line is at its end", body: `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"` + testURI + `","version":3},"contentChanges":[{"range":{"start":{"line":1,"character":9},"end":{"line":1,"character":99}},"text":"!"}]}}`},
		{name: "didChange with end before start is refused", body: `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"` + testURI + `","version":4},"contentChanges":[{"range":{"start":{"line":1,"character":1},"end":{"line":0,"character":1}},"text":"?"}]}}`},
		{name: "didChange with a negative position is refused", body: `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"` + testURI + `","version":4},"contentChanges":[{"range":{"start":{"line":-1,"character":-5},"end":{"line":0,"character":0}},"text":"?"}]}}`},
		{name: "didChange with end before start", body: `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"` + testURI + `","version":4},"contentChanges":[{"range":{"start":{"line":0,"character":1},"end":{"line":1,"character":1}},"text":"-"}]}}`},
		{name: "didChange whose version does not increase still applies", body: `{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"` + testURI + `","version":4},"contentChanges":[{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":0}},"text":">"}]}}`},
		{name: "header line without a colon", raw: "garbage line\r\n\r\n"},
		{name: "no Content-Length", raw: "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"},
		{name: "Content-Length not a number", raw: "Content-Length: abc\r\n\r\n"},
		{name: "negative Content-Length", raw: "Content-Length: -5\r\n\r\n"},
		{name: "junk between frames", raw: "%%%% junk %%%%" + frame(`{"jsonrpc":"2.0","id":214,"method":"wfl/noSuch"}`), wantID: "214", wantCode: -32601},
		{name: "lower-case header and a Content-Type", raw: "content-type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 48\r\n\r\n" + `{"jsonrpc":"2.0","id":215,"method":"wfl/noSuch"}`, wantID: "215", wantCode: -32601},
		{name: "frame over the size limit", body: `{"jsonrpc":"2.0","id":216,"method":"wfl/noSuch","params":"` + strings.Repeat("x", maxFrame) + `"}`, wantID: "null", wantCode: -32600},
		{name: "deeply nested params", body: `{"jsonrpc":"2.0","id":217,"method":"wfl/test/text","params":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`, wantID: "217", wantCode: -32602},
		{name: "panic in a handler", body: `{"jsonrpc":"2.0","id":218,"method":"wfl/test/panic"}`, wantID: "218", wantCode: -32603},
		{name: "invalid UTF-8 in a document", body: "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":{\"uri\":\"file:///tmp/wfl-test/bad.wfl\",\"languageId\":\"wfl\",\"version\":1,\"text\":\"a\xffb\"}}}"},
	}

	run := func(fs []fault) {
		for _, f := range fs {
			if f.raw != "" {
				c.sendRaw(f.raw)
			} else {
				c.sendBody(f.body)
			}
			if f.wantID == "" {
				continue
			}
			m := c.await(f.name, func(m *msg) bool {
				id := string(m.ID)
				if id == "" {
					id = "null"
				}
				return m.isResponse() && id == f.wantID
			})
			wantError(t, f.name, m, f.wantCode)
		}
	}
	run(before)
	c.initialize(nil)
	run(after)
	if n := len(before) + len(after); n < 30 {
		t.Fatalf("only %d faults", n)
	}

	// The server still answers, with the document as the changes left it.
	r := c.call("wfl/test/text", json.RawMessage(doc))
	var got struct {
		Text    string
		Version int
	}
	if r.Error != nil {
		t.Fatalf("request after the faults: %+v", r.Error)
	}
	json.Unmarshal(r.Result, &got)
	if want := ">o-wo!"; got.Text != want || got.Version != 4 {
		t.Errorf("document after the faults: %q version %d, want %q version 4", got.Text, got.Version, want)
	}
	for _, m := range c.seen {
		if m.isResponse() {
			t.Errorf("unexpected response: %s", m.raw)
		}
	}
	if err := c.finish(); err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
}
