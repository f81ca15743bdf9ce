package typingbench

// The client's side of the wire: frames in and out, and a scanner that finds
// what the driver needs in a message (its id, its method, a publish's URI
// and version) without decoding it, so that the client does as little work
// as it can while the server it measures is working on the same cores.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// message is one message the server sent, read whole.
type message struct {
	at     time.Time // when its last byte was read
	body   []byte
	id     []byte // the id's JSON text; nil for a notification
	method string // "" for a response
	result []byte // a response's result (JSON text), nil for an error
	error  []byte // a response's error (JSON text)
	params []byte
	err    error // the read failed: the stream is over
}

// readMessages reads frames from r until it fails, sending each message to
// out, stamped when its last byte has been read, then the error and closes
// out. The frames are read on a goroutine of their own and scanned on
// another, so that a message is stamped when it arrives, not when the
// scanning of the long ones before it (a publishDiagnostics of thousands
// of findings) is over.
func readMessages(r io.Reader, out chan<- message) {
	defer close(out)
	raw := make(chan message, 1024)
	go readFrames(r, raw)
	for m := range raw {
		if m.err == nil {
			m.scan()
		}
		out <- m
	}
}

// scan finds the message's id, method, result, error and params; the
// params of a publishDiagnostics are left unmeasured (scanFields), from
// their start to the end of the body.
func (m *message) scan() {
	lazy := func(key string) bool { return key == "params" && m.method == kindInfo[Diagnostics].method }
	scanFields(m.body, lazy, func(key string, val []byte) bool {
		switch key {
		case "id":
			if !bytes.Equal(val, []byte("null")) {
				m.id = val
			}
		case "method":
			m.method, _ = unquote(val)
		case "result":
			m.result = val
		case "error":
			m.error = val
		case "params":
			m.params = val
		}
		return true
	})
}

// readFrames reads frames from r until it fails, sending each body to out,
// stamped, then the error, and closes out.
func readFrames(r io.Reader, out chan<- message) {
	defer close(out)
	br := bufio.NewReaderSize(r, 1<<20)
	var long []byte // the buffer long bodies are read into
	for {
		n := -1
		for {
			line, err := br.ReadString('\n')
			if err != nil {
				out <- message{err: fmt.Errorf("reading a header: %w", err)}
				return
			}
			line = strings.TrimRight(line, "\r\n")
			if line == "" {
				break
			}
			if v, ok := cutPrefixFold(line, "Content-Length:"); ok {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		if n < 0 {
			out <- message{err: fmt.Errorf("a frame without Content-Length")}
			return
		}
		body := make([]byte, min(n, longBody))
		if n > longBody {
			if cap(long) < n {
				long = make([]byte, n)
			}
			body = long[:n]
		}
		if _, err := io.ReadFull(br, body); err != nil {
			out <- message{err: fmt.Errorf("reading a body of %d bytes: %w", n, err)}
			return
		}
		at := time.Now()
		if n > longBody {
			body = keep(body)
		}
		out <- message{at: at, body: body}
	}
}

// longBody is the size from which a body is read into a buffer the reader
// reuses, and only what keep keeps of it is allocated: a server publishing
// thousands of findings sends hundreds of kilobytes a keystroke, and a
// client that allocated them would be collecting its garbage, on the cores
// the server works on, while it should be reading.
const longBody = 64 << 10

// keep returns what the client reads of a long body, in memory of its own:
// of a publishDiagnostics whose uri and version its first kilobytes hold,
// those kilobytes; of anything else, all of it.
func keep(body []byte) []byte {
	head := body[:min(len(body), 4<<10)]
	m := message{body: head}
	m.scan()
	var uri, version []byte
	if m.method == kindInfo[Diagnostics].method {
		uri, version = publishedVersion(m.params)
	}
	if uri != nil && version != nil {
		return bytes.Clone(head)
	}
	return bytes.Clone(body)
}

// publishedVersion returns the uri and version of a publishDiagnostics's
// params, read up to its list of diagnostics.
func publishedVersion(params []byte) (uri, version []byte) {
	scanFields(params, func(key string) bool { return key == "diagnostics" }, func(key string, val []byte) bool {
		switch key {
		case "uri":
			uri = val
		case "version":
			version = val
		}
		return uri == nil || version == nil
	})
	return uri, version
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return "", false
}

// frame returns body framed for the wire.
func frame(body []byte) []byte {
	return append(fmt.Appendf(nil, "Content-Length: %d\r\n\r\n", len(body)), body...)
}

// fields calls f with each key of the JSON object obj and the JSON text of
// its value, in order. It does not validate: it is given what a server
// wrote, and a server that writes broken JSON fails elsewhere.
func fields(obj []byte, f func(key string, val []byte)) {
	scanFields(obj, nil, func(key string, val []byte) bool {
		f(key, val)
		return true
	})
}

// scanFields is fields that stops when f returns false, and when lazy(key)
// holds (lazy may be nil): then f gets the rest of obj from the value on,
// unmeasured, and the scan ends. The client reads the uri and version of a
// publishDiagnostics without running over its list, often hundreds of
// kilobytes, while the server it measures works on the same cores.
func scanFields(obj []byte, lazy func(key string) bool, f func(key string, val []byte) bool) {
	i := skipSpace(obj, 0)
	if i >= len(obj) || obj[i] != '{' {
		return
	}
	i++
	for {
		i = skipSpace(obj, i)
		if i >= len(obj) || obj[i] == '}' {
			return
		}
		if obj[i] == ',' {
			i++
			continue
		}
		end := skipValue(obj, i)
		key, ok := unquote(obj[i:end])
		if !ok {
			return
		}
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return
		}
		i = skipSpace(obj, i+1)
		if lazy != nil && lazy(key) {
			f(key, obj[i:])
			return
		}
		end = skipValue(obj, i)
		if !f(key, obj[i:end]) {
			return
		}
		i = end
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipValue returns the end of the JSON value that starts at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		for i++; i < len(b); i++ {
			switch b[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return i
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipValue(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return i
	default: // a number, true, false or null
		for i < len(b) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(b[i])) {
			i++
		}
		return i
	}
}

// unquote returns the text of a JSON string without escapes (the keys and
// methods of the protocol have none).
func unquote(v []byte) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' || bytes.IndexByte(v, '\\') >= 0 {
		return "", false
	}
	return string(v[1 : len(v)-1]), true
}

// nonEmpty reports whether a JSON value says something: not null, not an
// empty array, object or string.
func nonEmpty(v []byte) bool {
	v = bytes.TrimSpace(v)
	if len(v) == 0 {
		return false
	}
	switch v[0] {
	case 'n':
		return false
	case '"':
		return len(v) > 2
	case '[', '{':
		i := skipSpace(v, 1)
		return i < len(v) && v[i] != ']' && v[i] != '}'
	}
	return true
}

// member returns the value of key in the JSON object obj, or nil.
func member(obj []byte, key string) []byte {
	var v []byte
	fields(obj, func(k string, val []byte) {
		if k == key {
			v = val
		}
	})
	return v
}
