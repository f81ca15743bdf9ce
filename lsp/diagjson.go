package lsp

// This file writes the params of textDocument/publishDiagnostics as JSON
// directly from core's diagnostics. A document can have thousands of
// findings, republished on every keystroke: building protocol values for
// them and encoding those costs several times more than writing the bytes.
// TestDiagnosticsJSON checks that the result decodes to what the protocol
// types encode.

import (
	"iter"
	"runtime"
	"strconv"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/lang/diag"
)

// appendPublishParams appends the PublishDiagnosticsParams of a document
// version (none when version < 0) to dst.
func appendPublishParams(dst []byte, u uri.URI, version int32, m mapper, ds iter.Seq[diag.Diagnostic]) jsonrpc2.RawMessage {
	c := m.cursor()
	return appendPublishEncoded(dst, u, version, func(yield func([]byte) bool) {
		var one []byte
		for d := range ds {
			one = appendDiagnostic(one[:0], u, c, d)
			if !yield(one) {
				return
			}
		}
	})
}

// appendPublishEncoded is appendPublishParams of diagnostics each already
// encoded by appendDiagnostic.
func appendPublishEncoded(dst []byte, u uri.URI, version int32, ds iter.Seq[[]byte]) jsonrpc2.RawMessage {
	dst = append(dst, `{"uri":`...)
	dst = appendJSONString(dst, string(u))
	if version >= 0 {
		dst = append(dst, `,"version":`...)
		dst = strconv.AppendInt(dst, int64(version), 10)
	}
	dst = append(dst, `,"diagnostics":[`...)
	i := 0
	for d := range ds {
		if i > 0 {
			dst = append(dst, ',')
		}
		i++
		if i&127 == 0 {
			// A long list: the read loop and the short requests may be
			// waiting for this processor (lanes.go).
			runtime.Gosched()
		}
		dst = append(dst, d...)
	}
	return append(dst, "]}"...)
}

// appendDiagnostic appends a Diagnostic of document u, its places read
// with c.
func appendDiagnostic(dst []byte, u uri.URI, c *cursor, d diag.Diagnostic) []byte {
	dst = append(dst, `{"range":`...)
	dst = appendRange(dst, c.rng(d.Span))
	dst = append(dst, `,"severity":`...)
	dst = strconv.AppendInt(dst, int64(severity(d.Severity)), 10)
	if d.Code != "" {
		dst = append(dst, `,"code":`...)
		dst = appendJSONString(dst, d.Code)
	}
	dst = append(dst, `,"source":"wfl","message":`...)
	dst = appendJSONString(dst, d.Message)
	if d.Tags != 0 {
		dst = append(dst, `,"tags":[`...)
		n := 0
		for _, t := range diag.AllTags {
			if !d.Tags.Has(t) {
				continue
			}
			var code int
			switch t {
			case diag.Unnecessary:
				code = 1
			case diag.Deprecated:
				code = 2
			default:
				continue
			}
			if n > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(dst, int64(code), 10)
			n++
		}
		dst = append(dst, ']')
	}
	if len(d.Related) > 0 {
		dst = append(dst, `,"relatedInformation":[`...)
		for k, r := range d.Related {
			if k > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, `{"location":{"uri":`...)
			dst = appendJSONString(dst, string(u))
			dst = append(dst, `,"range":`...)
			dst = appendRange(dst, c.rng(r.Span))
			dst = append(dst, `},"message":`...)
			dst = appendJSONString(dst, r.Message)
			dst = append(dst, '}')
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

func appendRange(dst []byte, r protocol.Range) []byte {
	dst = append(dst, `{"start":{"line":`...)
	dst = strconv.AppendUint(dst, uint64(r.Start.Line), 10)
	dst = append(dst, `,"character":`...)
	dst = strconv.AppendUint(dst, uint64(r.Start.Character), 10)
	dst = append(dst, `},"end":{"line":`...)
	dst = strconv.AppendUint(dst, uint64(r.End.Line), 10)
	dst = append(dst, `,"character":`...)
	dst = strconv.AppendUint(dst, uint64(r.End.Character), 10)
	return append(dst, "}}"...)
}

// plain reports whether every byte of s is one appendJSONString copies as
// it is, looking at eight bytes at a time.
func plain(s string) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	// hasByte reports whether a byte of x is b; below whether one is less than b.
	hasByte := func(x, b uint64) bool { y := x ^ (b * ones); return (y-ones)&^y&highs != 0 }
	below := func(x, b uint64) bool { return (x-b*ones)&^x&highs != 0 }
	i := 0
	for ; i+8 <= len(s); i += 8 {
		b := s[i : i+8]
		x := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		if x&highs != 0 || below(x, 0x20) || hasByte(x, '"') || hasByte(x, '\\') ||
			hasByte(x, '<') || hasByte(x, '>') || hasByte(x, '&') {
			return false
		}
	}
	for ; i < len(s); i++ {
		if !jsonPlain[s[i]] {
			return false
		}
	}
	return true
}

// jsonPlain marks the bytes appendJSONString copies as they are.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONString appends s as a JSON string, as encoding/json writes it:
// invalid UTF-8 becomes U+FFFD; control characters, <, >, &, U+2028 and
// U+2029 are escaped.
func appendJSONString(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	if plain(s) { // most messages: copied whole
		dst = append(dst, s...)
		return append(dst, '"')
	}
	start := 0
	for i := 0; i < len(s); {
		for i < len(s) && jsonPlain[s[i]] {
			i++
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hex[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}
