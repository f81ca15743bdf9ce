package lsp

// This file frames messages on the wire (the LSP base protocol:
// "Content-Length: N\r\n\r\n" then N bytes of JSON) and is tolerant where
// go.lsp.dev/jsonrpc2 is not: a frame whose header or body cannot be decoded
// is answered or logged and skipped, and the connection goes on.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime/trace"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode/utf8"

	"go.lsp.dev/jsonrpc2"
)

// defaultMaxFrame caps the body of one message. Larger frames are read and
// discarded, and answered with an error.
const defaultMaxFrame = 256 << 20

// maxHeld bounds the requests Read keeps back while a batch is read.
const maxHeld = 16

// stream is a jsonrpc2.Stream over the server's input and output.
type stream struct {
	in       *bufio.Reader
	out      jsonrpc2.Stream // writes only; its Read is never called
	closers  []io.Closer
	log      *slog.Logger
	maxFrame int
	// batch, when set, is told that a message was read (true), and,
	// before each read, whether a whole frame is already buffered (when
	// not, the read waits for the client): the work of the messages read
	// at once waits until they are all read (warm.hold).
	batch func(more bool)
	// waits, when set, says whether a request is one that may be handed
	// to jsonrpc2 after the short requests read with it (see Read).
	waits func(method string) bool

	held  []jsonrpc2.Message // requests kept back while a batch is read
	ready []jsonrpc2.Message // messages to return before reading more
	err   error              // the read's error, returned once ready is

	// handedOff is set when a handler releases the read loop
	// (jsonrpc2.Async): the next Read that reads the client runs on a new
	// goroutine, whose stack it grows first (stack.go).
	handedOff atomic.Bool
}

func newStream(in io.Reader, out io.Writer, log *slog.Logger, maxFrame int) *stream {
	if maxFrame <= 0 {
		maxFrame = defaultMaxFrame
	}
	s := &stream{in: bufio.NewReaderSize(in, 64<<10), log: log, maxFrame: maxFrame}
	if log.Enabled(context.Background(), slog.LevelDebug) {
		out = &traceWriter{w: out, log: log}
	}
	s.out = jsonrpc2.NewHeaderStream(writeOnly{out})
	if c, ok := in.(io.Closer); ok {
		s.closers = append(s.closers, c)
	}
	if c, ok := out.(io.Closer); ok && any(c) != any(in) {
		s.closers = append(s.closers, c)
	}
	return s
}

// Read returns the next decodable message. Undecodable frames are answered
// as JSON-RPC asks (-32700 for unparsable JSON, -32600 for an invalid
// request, with the request's id when it can be found) and skipped.
//
// Within a batch (messages whose frames were read at once), the requests
// that waits names (the long ones) are returned after the requests read
// after them up to the next message of another kind: an editor sends, in
// one write, a didChange, a completion, signature help, hover, semantic
// tokens, inlay hints and a definition, and the work of the long requests
// waits for the end of the batch anyway (warm.hold), while handing one to
// jsonrpc2 costs the read loop a switch to a new goroutine. Answers may
// come in any order, and nothing passes a notification or a response, so
// what each request sees of the documents is unchanged.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	if len(s.ready) == 0 && s.handedOff.Swap(false) {
		growStack() // the goroutine that handles the next messages read
	}
	for {
		if len(s.ready) == 0 && len(s.held) > 0 && !s.frameBuffered() {
			s.release()
		}
		if len(s.ready) > 0 {
			msg := s.ready[0]
			s.ready[0] = nil
			s.ready = s.ready[1:]
			if s.batch != nil {
				s.batch(true)
			}
			return msg, 0, nil
		}
		if s.batch != nil {
			s.batch(s.frameBuffered())
		}
		if s.err != nil {
			return nil, 0, s.err
		}
		body, n, err := s.readFrame()
		var tooBig errFrameTooBig
		switch {
		case errors.As(err, &tooBig):
			s.log.Warn("frame too large, skipped", "bytes", int(tooBig))
			s.reject(ctx, jsonrpc2.ID{}, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "message of %d bytes exceeds the limit of %d bytes", int(tooBig), s.maxFrame))
			continue
		case err != nil && len(s.held) > 0:
			// The requests held are still handled, then the error returned.
			s.release()
			s.err = err
			continue
		case err != nil:
			if s.batch != nil {
				s.batch(false)
			}
			return nil, 0, err
		}
		if s.log.Enabled(ctx, slog.LevelDebug) {
			s.log.Debug("<- recv", "msg", string(body))
		}
		if s.batch != nil {
			s.batch(true)
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			s.undecodable(ctx, body, err)
			continue
		}
		if trace.IsEnabled() {
			trace.Log(ctx, "recv", describe(msg))
		}
		if call, ok := msg.(*jsonrpc2.Call); ok && s.waits != nil {
			if !s.waits(call.Method()) {
				return msg, n, nil // a short request goes first
			}
			if len(s.held) < maxHeld {
				s.held = append(s.held, msg)
				continue
			}
		}
		if len(s.held) > 0 {
			// Not a request that may pass them: what was held goes first.
			s.release()
			s.ready = append(s.ready, msg)
			continue
		}
		return msg, n, nil
	}
}

// release makes the requests held the next messages Read returns.
func (s *stream) release() {
	s.ready = append(s.ready, s.held...)
	clear(s.held)
	s.held = s.held[:0]
}

// undecodable answers a frame that is not a valid JSON-RPC message.
func (s *stream) undecodable(ctx context.Context, body []byte, err error) {
	trimmed := bytes.TrimSpace(body)
	var probe struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	switch {
	case !json.Valid(trimmed):
		s.log.Warn("unparsable message skipped", "err", err, "body", clip(body))
		s.reject(ctx, jsonrpc2.ID{}, jsonrpc2.NewError(jsonrpc2.ParseError, "invalid JSON"))
	case trimmed[0] == '[':
		s.log.Warn("batch message rejected: LSP does not use batches")
		s.reject(ctx, jsonrpc2.ID{}, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "batch messages are not supported"))
	case trimmed[0] != '{' || json.Unmarshal(trimmed, &probe) != nil:
		s.log.Warn("message that is not an object skipped", "body", clip(body))
		s.reject(ctx, jsonrpc2.ID{}, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "a message must be a JSON object"))
	case probe.Method == nil:
		// A response we cannot read: there is no one to answer.
		s.log.Warn("invalid response skipped", "err", err, "body", clip(body))
	default:
		id, _ := parseID(probe.ID)
		s.log.Warn("invalid request skipped", "err", err, "body", clip(body))
		s.reject(ctx, id, jsonrpc2.Errorf(jsonrpc2.InvalidRequest, "invalid request: %v", err))
	}
}

func (s *stream) reject(ctx context.Context, id jsonrpc2.ID, err error) {
	if _, werr := s.out.Write(ctx, jsonrpc2.NewResponse(id, nil, err)); werr != nil {
		s.log.Warn("writing error response", "err", werr)
	}
}

// Write implements jsonrpc2.Stream.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	n, err := s.out.Write(ctx, msg)
	if trace.IsEnabled() {
		trace.Log(ctx, "sent", describe(msg))
	}
	return n, err
}

// describe names a message in an execution trace: its method, and its id
// for a request or a response.
func describe(msg jsonrpc2.Message) string {
	switch m := msg.(type) {
	case *jsonrpc2.Call:
		return fmt.Sprintf("%s %v", m.Method(), m.ID())
	case *jsonrpc2.Notification:
		return m.Method()
	case *jsonrpc2.Response:
		return fmt.Sprintf("response %v", m.ID())
	}
	// The connection's own envelopes, whose types are not exported.
	var probe struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if b, err := jsonrpc2.EncodeMessage(msg); err == nil && json.Unmarshal(b, &probe) == nil {
		if probe.Method != "" {
			return strings.TrimSpace(probe.Method + " " + string(probe.ID))
		}
		return "response " + string(probe.ID)
	}
	return "?"
}

// Close closes the input and output when they can be closed.
func (s *stream) Close() error {
	var errs []error
	for _, c := range s.closers {
		errs = append(errs, c.Close())
	}
	return errors.Join(errs...)
}

type errFrameTooBig int

func (e errFrameTooBig) Error() string { return fmt.Sprintf("frame of %d bytes is too large", int(e)) }

// readFrame reads one header block and its body. A header block that is
// malformed (a line without a colon, a missing or unreadable Content-Length)
// is logged and skipped: the reader resynchronizes on the next line that
// holds "Content-Length:".
func (s *stream) readFrame() ([]byte, int64, error) {
	var consumed int64
	length, ok := -1, true
	first := true
	for {
		line, err := s.in.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// An absurdly long header line: drain it and treat it as junk.
			for errors.Is(err, bufio.ErrBufferFull) {
				consumed += int64(len(line))
				line, err = s.in.ReadSlice('\n')
			}
			ok = false
		}
		consumed += int64(len(line))
		if err != nil {
			if errors.Is(err, io.EOF) && consumed > 0 {
				return nil, 0, io.ErrUnexpectedEOF
			}
			return nil, 0, err
		}
		content := bytes.TrimRight(line, "\r\n")
		if len(content) == 0 {
			if first {
				// Stray blank lines between frames are harmless.
				continue
			}
			if ok && length >= 0 {
				break
			}
			s.log.Warn("malformed message header skipped")
			length, ok, first = -1, true, true
			continue
		}
		i := indexFold(content, "content-length:")
		if !ok && i < 0 {
			continue // still skipping junk
		}
		if i > 0 || !ok {
			// A header starts here, after junk: start the block over.
			if i > 0 {
				s.log.Warn("junk before a message header skipped", "junk", clip(content[:i]))
			}
			content = content[i:]
			length, ok = -1, true
		}
		first = false
		name, value, found := bytes.Cut(content, []byte(":"))
		if !found {
			ok = false
			continue
		}
		if bytes.EqualFold(bytes.TrimSpace(name), []byte("content-length")) {
			n, err := strconv.Atoi(string(bytes.TrimSpace(value)))
			if err != nil || n < 0 {
				ok = false
				continue
			}
			length = n
		}
	}
	if length > s.maxFrame {
		if _, err := io.CopyN(io.Discard, s.in, int64(length)); err != nil {
			return nil, 0, io.ErrUnexpectedEOF
		}
		return nil, 0, errFrameTooBig(length)
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(s.in, body); err != nil {
		return nil, 0, io.ErrUnexpectedEOF
	}
	return body, consumed + int64(length), nil
}

// frameBuffered reports whether a whole frame is in the read buffer: a
// header block with a Content-Length and that many bytes after it. It
// reads nothing.
func (s *stream) frameBuffered() bool {
	n := s.in.Buffered()
	if n == 0 {
		return false
	}
	buf, _ := s.in.Peek(n)
	end := bytes.Index(buf, []byte("\r\n\r\n"))
	if end < 0 {
		return false
	}
	for header := buf[:end]; len(header) > 0; {
		var line []byte
		line, header, _ = bytes.Cut(header, []byte("\r\n"))
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok || !bytes.EqualFold(bytes.TrimSpace(name), []byte("content-length")) {
			continue
		}
		length, err := strconv.Atoi(string(bytes.TrimSpace(value)))
		return err == nil && length >= 0 && end+4+length <= n
	}
	return false
}

// indexFold returns the index of the ASCII string sub in s ignoring case, or -1.
func indexFold(s []byte, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if bytes.EqualFold(s[i:i+len(sub)], []byte(sub)) {
			return i
		}
	}
	return -1
}

// parseID reads a JSON-RPC id: a number or a string.
func parseID(raw json.RawMessage) (jsonrpc2.ID, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return jsonrpc2.ID{}, false
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return jsonrpc2.NewStringID(s), true
		}
		return jsonrpc2.ID{}, false
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil {
		return jsonrpc2.ID{}, false
	}
	return jsonrpc2.NewNumberID(n), true
}

// clip returns the start of b for a log line: at most 200 bytes, cut at
// the start of a character.
func clip(b []byte) string {
	const max = 200
	if len(b) > max {
		n := max
		for n > 0 && !utf8.RuneStart(b[n]) {
			n--
		}
		return string(b[:n]) + "…"
	}
	return string(b)
}

// writeOnly adapts the output to the io.ReadWriteCloser jsonrpc2 wants; the
// stream reads with its own framer and closes the streams itself.
type writeOnly struct{ io.Writer }

func (writeOnly) Read([]byte) (int, error) { return 0, io.EOF }
func (writeOnly) Close() error             { return nil }

// traceWriter logs every frame the server writes, at debug level.
type traceWriter struct {
	w   io.Writer
	log *slog.Logger
}

func (t *traceWriter) Write(p []byte) (int, error) {
	if i := bytes.Index(p, []byte("\r\n\r\n")); i >= 0 {
		t.log.Debug("-> send", "msg", string(p[i+4:]))
	}
	return t.w.Write(p)
}
