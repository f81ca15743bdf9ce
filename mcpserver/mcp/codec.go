package mcp

// This file implements the codec layer: it turns one line of input into a
// validated JSON-RPC 2.0 message (or the error that answers it) and builds
// the lines the server writes. It knows nothing of MCP methods.

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
	"unicode/utf8"
)

// JSON-RPC and MCP error codes.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
	codeMethodNotFound = -32601
	codeInvalidParams  = -32602
	codeInternalError  = -32603

	codeResourceNotFound = -32002 // legacy era only

	codeHeaderMismatch             = -32020 // 2026-07-28, HTTP only
	codeMissingRequiredCapability  = -32021 // 2026-07-28
	codeUnsupportedProtocolVersion = -32022 // 2026-07-28
)

// An rpcError is a JSON-RPC error object. Handlers return it to answer a
// request with an error instead of a result.
type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Data    any    `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return e.Message + " (" + strconv.Itoa(e.Code) + ")" }

func errInvalidParams(msg string) *rpcError {
	return &rpcError{Code: codeInvalidParams, Message: msg}
}

// A message is one decoded JSON-RPC object. Byte slices point into the line
// it was decoded from; the line is owned by the message.
type message struct {
	id       []byte // canonical JSON of the id, or nil for a notification
	method   string // "" for a response
	params   []byte // raw JSON object or array, or nil when absent or null
	response bool   // a response (result or error) sent by the client

	// Of a response only: its result or error (one of them), and why it
	// is malformed ("" when it is not). A response is never answered.
	result, errObj []byte
	malformed      string
}

// canonical JSON for the null id of errors whose request id could not be read.
var nullID = []byte("null")

// maxJSONDepth is how deep encoding/json reads nested arrays and objects.
const maxJSONDepth = 10000

// whyInvalid says why b, which json.Valid refused, is refused: nested too
// deep for the decoder, or not JSON.
func whyInvalid(b []byte) string {
	depth, inString, escaped := 0, false, false
	for _, c := range b {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > maxJSONDepth {
				return "nests arrays and objects more than 10,000 deep, more than the server reads"
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return "is not valid JSON"
}

// decodeLine decodes one line. On failure it returns the error to answer and
// the id to answer it with (the request's id when it could be read, else null).
func decodeLine(line []byte) (message, []byte, *rpcError) {
	if !json.Valid(line) {
		return message{}, nullID, &rpcError{Code: codeParseError, Message: "Parse error: the line " + whyInvalid(line)}
	}
	if !utf8.Valid(line) {
		return message{}, nullID, &rpcError{Code: codeParseError, Message: "Parse error: the line is not valid UTF-8"}
	}
	return decodeValue(trimSpace(line))
}

// decodeValue validates one JSON value known to be syntactically valid.
func decodeValue(v []byte) (message, []byte, *rpcError) {
	if len(v) == 0 || v[0] != '{' {
		return message{}, nullID, &rpcError{Code: codeInvalidRequest, Message: "Invalid Request: a message must be a JSON object"}
	}
	var (
		m                      message
		version, method, id    []byte
		params, result, errObj []byte
		hasVersion, hasMethod  bool
		hasID, hasParams, dup  bool
		hasResult, hasErrorObj bool
	)
	err := scanObject(v, func(key string, val []byte) {
		var seen *bool
		switch key {
		case "jsonrpc":
			seen, version = &hasVersion, val
		case "method":
			seen, method = &hasMethod, val
		case "id":
			seen, id = &hasID, val
		case "params":
			seen, params = &hasParams, val
		case "result":
			seen, result = &hasResult, val
		case "error":
			seen, errObj = &hasErrorObj, val
		default:
			return // other members are ignored
		}
		if *seen {
			dup = true
		}
		*seen = true
	})
	if err != nil {
		return message{}, nullID, &rpcError{Code: codeInvalidRequest, Message: "Invalid Request: " + err.Error()}
	}
	answerID := nullID
	if hasID {
		if c, ok := canonicalID(id); ok {
			m.id, answerID = c, c
		}
	}
	invalid := func(why string) (message, []byte, *rpcError) {
		return message{}, answerID, &rpcError{Code: codeInvalidRequest, Message: "Invalid Request: " + why}
	}
	if !hasMethod && (hasResult || hasErrorObj) {
		// A response: never answered, even when malformed (two peers
		// answering each other's bad responses would never stop).
		m.response = true
		m.result, m.errObj = result, errObj
		switch {
		case dup:
			m.malformed = "a member appears twice"
		case hasResult && hasErrorObj:
			m.malformed = `it carries both "result" and "error"`
		case !hasVersion || string(version) != `"2.0"`:
			m.malformed = `"jsonrpc" must be "2.0"`
		case m.id == nil:
			m.malformed = `"id" must be a string or an integer`
		}
		return m, nil, nil
	}
	switch {
	case dup:
		return invalid("a member appears twice")
	case !hasVersion || string(version) != `"2.0"`:
		return invalid(`"jsonrpc" must be "2.0"`)
	case hasID && m.id == nil:
		return invalid(`"id" must be a string or an integer`)
	case !hasMethod:
		return invalid(`"method" is missing`)
	}
	if hasResult || hasErrorObj {
		return invalid(`a request cannot carry "result" or "error"`)
	}
	if len(method) < 3 || method[0] != '"' {
		return invalid(`"method" must be a non-empty string`)
	}
	name, ok := decodeString(method)
	if !ok || name == "" {
		return invalid(`"method" must be a non-empty string`)
	}
	m.method = name
	if hasParams {
		switch params[0] {
		case '{', '[':
			m.params = params
		case 'n': // null: treated as absent
		default:
			return invalid(`"params" must be an object`)
		}
	}
	return m, nil, nil
}

// canonicalID returns the canonical JSON of a request id: an integer as
// written, a string re-encoded when it has escapes. Other values fail.
func canonicalID(raw []byte) ([]byte, bool) {
	switch c := raw[0]; {
	case c == '"':
		if bytes.IndexByte(raw, '\\') < 0 {
			return raw, true
		}
		s, ok := decodeString(raw)
		if !ok {
			return nil, false
		}
		b, _ := json.Marshal(s)
		return b, true
	case c == '-' || c >= '0' && c <= '9':
		if bytes.ContainsAny(raw, ".eE") {
			return nil, false
		}
		return raw, true
	}
	return nil, false
}

// decodeString decodes a JSON string literal.
func decodeString(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return "", false
	}
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1]), true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return "", false
	}
	return s, true
}

type scanError string

func (e scanError) Error() string { return string(e) }

// scanObject calls f for each member of the JSON object obj, which must be
// syntactically valid JSON. Keys are decoded; values are raw slices of obj.
func scanObject(obj []byte, f func(key string, val []byte)) error {
	i := skipSpace(obj, 1)
	if i < len(obj) && obj[i] == '}' {
		return nil
	}
	for i < len(obj) {
		if obj[i] != '"' {
			return scanError("malformed object")
		}
		end := skipString(obj, i)
		key, ok := decodeString(obj[i:end])
		if !ok {
			return scanError("malformed member name")
		}
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return scanError("malformed object")
		}
		i = skipSpace(obj, i+1)
		vend := skipValue(obj, i)
		f(key, obj[i:vend])
		i = skipSpace(obj, vend)
		if i >= len(obj) {
			break
		}
		if obj[i] == '}' {
			return nil
		}
		if obj[i] != ',' {
			return scanError("malformed object")
		}
		i = skipSpace(obj, i+1)
	}
	return scanError("malformed object")
}

// scanArray calls f for each element of the valid JSON array arr.
func scanArray(arr []byte, f func(elem []byte)) {
	i := skipSpace(arr, 1)
	for i < len(arr) && arr[i] != ']' {
		end := skipValue(arr, i)
		f(arr[i:end])
		i = skipSpace(arr, end)
		if i < len(arr) && arr[i] == ',' {
			i = skipSpace(arr, i+1)
		}
	}
}

// skipValue returns the offset just past the valid JSON value starting at i.
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
		i++
	}
	return i
}

// skipString returns the offset just past the string literal starting at i.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return i
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

func trimSpace(b []byte) []byte {
	i := skipSpace(b, 0)
	j := len(b)
	for j > i && (b[j-1] == ' ' || b[j-1] == '\t' || b[j-1] == '\r' || b[j-1] == '\n') {
		j--
	}
	return b[i:j]
}

// objectMember returns the raw value of key in the valid JSON object obj, or nil.
func objectMember(obj []byte, key string) []byte {
	if len(obj) == 0 || obj[0] != '{' {
		return nil
	}
	var found []byte
	scanObject(obj, func(k string, v []byte) {
		if k == key && found == nil {
			found = v
		}
	})
	return found
}

// Answer lines are built in buffers from linePool and returned to it by the
// stdio writer once written, so large static answers (a tools/list page is
// tens of kilobytes) cost a copy, not an allocation, each time.
var linePool = sync.Pool{New: func() any { return new([]byte) }}

// getLine returns an empty buffer with room for n bytes.
func getLine(n int) []byte {
	b := *linePool.Get().(*[]byte)
	if cap(b) < n {
		return make([]byte, 0, n)
	}
	return b[:0]
}

// putLine gives a written line's buffer back; very large ones are dropped.
func putLine(b []byte) {
	if cap(b) == 0 || cap(b) > 1<<20 {
		return
	}
	linePool.Put(&b)
}

// appendResult appends the line {"jsonrpc":"2.0","id":ID,"result":RESULT}.
func appendResult(buf, id, result []byte) []byte {
	buf = append(buf, `{"jsonrpc":"2.0","id":`...)
	buf = append(buf, id...)
	buf = append(buf, `,"result":`...)
	buf = append(buf, result...)
	return append(buf, '}', '\n')
}

// appendError appends the line of an error response.
func appendError(buf, id []byte, e *rpcError) []byte {
	buf = append(buf, `{"jsonrpc":"2.0","id":`...)
	buf = append(buf, id...)
	buf = append(buf, `,"error":`...)
	b, err := json.Marshal(e)
	if err != nil {
		b, _ = json.Marshal(&rpcError{Code: e.Code, Message: e.Message})
	}
	buf = append(buf, b...)
	return append(buf, '}', '\n')
}

// appendNotification appends the line of a notification; params is raw JSON.
func appendNotification(buf []byte, method string, params []byte) []byte {
	buf = append(buf, `{"jsonrpc":"2.0","method":`...)
	buf = strconv.AppendQuote(buf, method)
	if params != nil {
		buf = append(buf, `,"params":`...)
		buf = append(buf, params...)
	}
	return append(buf, '}', '\n')
}

// marshal encodes v as JSON without HTML escaping and without a newline.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	b := buf.Bytes()
	return b[:len(b)-1], nil
}
