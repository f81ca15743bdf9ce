package mcp

// This file tests the codec directly and fuzzes it: every line gets either
// a message or an error to answer, never a panic.

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDecodeLine(t *testing.T) {
	tests := []struct {
		line   string
		method string
		id     string
		params string
		code   int
	}{
		{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, "ping", "1", "", 0},
		{` {"method":"x","jsonrpc":"2.0","id":"a","params":{"k":[1,{"b":"}"}]}} `, "x", `"a"`, `{"k":[1,{"b":"}"}]}`, 0},
		{`{"jsonrpc":"2.0","id":-7,"method":"x","params":null}`, "x", "-7", "", 0},
		{`{"jsonrpc":"2.0","id":"\u0041","method":"\u0070ing"}`, "ping", `"A"`, "", 0},
		{`{"jsonrpc":"2.0","method":"notifications/initialized","extra":true}`, "notifications/initialized", "", "", 0},
		{`{"jsonrpc":"2.0","id":1e3,"method":"x"}`, "", "null", "", codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":1,"method":"x","params":3}`, "", "1", "", codeInvalidRequest},
		{`{}`, "", "null", "", codeInvalidRequest},
		{`{"jsonrpc":"2.0","id":1,"method":"x"`, "", "null", "", codeParseError},
	}
	for _, tt := range tests {
		m, id, err := decodeLine([]byte(tt.line))
		if tt.code != 0 {
			if err == nil || err.Code != tt.code || string(id) != tt.id {
				t.Errorf("%s: got %v id %s, want code %d id %s", tt.line, err, id, tt.code, tt.id)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.line, err)
			continue
		}
		if m.method != tt.method || string(m.id) != tt.id || string(m.params) != tt.params {
			t.Errorf("%s: got method %q id %s params %s", tt.line, m.method, m.id, m.params)
		}
	}
	// Nested deeper than the decoder reads: the error says so, not that
	// the line is not JSON (it is).
	deep := `{"jsonrpc":"2.0","id":1,"method":"x","params":{"a":` + strings.Repeat("[", maxJSONDepth+1) + strings.Repeat("]", maxJSONDepth+1) + `}}`
	if _, _, err := decodeLine([]byte(deep)); err == nil || err.Code != codeParseError || !strings.Contains(err.Message, "more than 10,000 deep") {
		t.Errorf("a line nested too deep: %v", err)
	}
	if _, _, err := decodeLine([]byte(`{"a":"[[[[",`)); err == nil || !strings.Contains(err.Message, "is not valid JSON") {
		t.Errorf("a line cut short: %v", err)
	}
	// A client's response is recognised and never answered, even when it
	// is malformed: then it says why, for the log.
	for _, tt := range []struct{ line, id, malformed string }{
		{`{"jsonrpc":"2.0","id":3,"result":{}}`, "3", ""},
		{`{"jsonrpc":"2.0","id":"s1","error":{"code":-1,"message":"no"}}`, `"s1"`, ""},
		{`{"jsonrpc":"2.0","id":1,"result":{},"error":{}}`, "1", `it carries both "result" and "error"`},
		{`{"jsonrpc":"2.0","result":{}}`, "", `"id" must be a string or an integer`},
		{`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"x"}}`, "", `"id" must be a string or an integer`},
		{`{"jsonrpc":"1.0","id":2,"result":{}}`, "2", `"jsonrpc" must be "2.0"`},
	} {
		m, _, err := decodeLine([]byte(tt.line))
		if err != nil || !m.response || string(m.id) != tt.id || m.malformed != tt.malformed {
			t.Errorf("%s: got response %v id %s malformed %q err %v, want id %s malformed %q", tt.line, m.response, m.id, m.malformed, err, tt.id, tt.malformed)
		}
	}
}

func FuzzDecodeLine(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"echo","arguments":{"text":"\"}"}}}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":null}`, `{"a":{"b":[1,2,{"c":"d"}]},"jsonrpc":"2.0"}`, `"\u00e9"`, `{`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		m, id, err := decodeLine(line)
		if err != nil {
			if !json.Valid(id) {
				t.Fatalf("error answer id %q is not JSON", id)
			}
			if b := appendError(nil, id, err); !json.Valid(b[:len(b)-1]) {
				t.Fatalf("error line is not JSON: %s", b)
			}
			return
		}
		if m.response {
			return
		}
		if m.method == "" {
			t.Fatal("a request without a method was accepted")
		}
		if m.id != nil && !json.Valid(m.id) {
			t.Fatalf("id %q is not JSON", m.id)
		}
		if m.params != nil && !json.Valid(m.params) {
			t.Fatalf("params %q are not JSON", m.params)
		}
		if m.id != nil {
			if b := appendResult(nil, m.id, []byte(`{}`)); !json.Valid(b[:len(b)-1]) {
				t.Fatalf("result line is not JSON: %s", b)
			}
		}
	})
}
