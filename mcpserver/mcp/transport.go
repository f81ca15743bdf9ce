package mcp

// This file implements the stdio transport: newline-delimited JSON in, whole
// lines out through one writer. Other transports (Streamable HTTP) feed the
// same session layer with decoded lines and give it their own [sink].

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"sync"
)

// A sink receives the complete lines (each ending in '\n') a session writes.
// send must not block for long and must keep lines whole and in order.
type sink interface {
	send(line []byte)
}

// errLineTooLong reports a line longer than the reader's limit; the rest of
// the line has been skipped and reading may go on. The error is a
// *tooLong, which keeps the line's ends.
var errLineTooLong = errors.New("line too long")

// A tooLong is a line skipped for its length: its first and last bytes,
// where the request's id may be read.
type tooLong struct {
	head, tail []byte
}

func (e *tooLong) Error() string        { return errLineTooLong.Error() }
func (e *tooLong) Is(target error) bool { return target == errLineTooLong }

// Bytes kept of each end of a line too long.
const (
	tooLongHead = 4096
	tooLongTail = 256
)

// add keeps frag's bytes that may be the line's ends.
func (e *tooLong) add(frag []byte) {
	if n := tooLongHead - len(e.head); n > 0 {
		e.head = append(e.head, frag[:min(n, len(frag))]...)
	}
	e.tail = append(e.tail, frag[max(len(frag)-tooLongTail, 0):]...)
	if len(e.tail) > tooLongTail {
		e.tail = append(e.tail[:0], e.tail[len(e.tail)-tooLongTail:]...)
	}
}

// id reads the id of the request a line too long carried, from the
// members at its start or from its last member: nil when neither shows it.
func (e *tooLong) id() []byte {
	dec := json.NewDecoder(bytes.NewReader(e.head))
	dec.UseNumber()
	depth, key := 0, false // key: the next token at depth 1 is a member name
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case json.Delim:
			if t == '{' || t == '[' {
				depth++
				key = depth == 1 && t == '{'
			} else {
				depth--
				key = depth == 1
			}
			continue
		}
		if depth != 1 {
			continue
		}
		if key {
			if tok == "id" {
				v, err := dec.Token()
				if err != nil {
					break
				}
				raw, _ := json.Marshal(v)
				if c, ok := canonicalID(raw); ok {
					return c
				}
				return nil
			}
			key = false
			continue
		}
		key = true // a value at depth 1 ends a member
	}
	// The last member, `"id":…}` at the very end: one closing brace after
	// it, so the object it ends is the message itself (inside a string a
	// quote is escaped).
	if m := lastID.FindSubmatch(bytes.TrimRight(e.tail, " \t\r\n")); m != nil {
		if c, ok := canonicalID(m[1]); ok {
			return c
		}
	}
	return nil
}

var lastID = regexp.MustCompile(`[{,]\s*"id"\s*:\s*(-?[0-9]+|"(?:[^"\\]|\\.)*")\s*}$`)

// A lineReader reads newline-terminated lines of at most max bytes. A longer
// line is skipped up to its newline and reported as errLineTooLong, so one
// bad line never ends the stream.
type lineReader struct {
	r   *bufio.Reader
	max int
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its line break, in a fresh slice the
// caller owns. At the end of input it returns the last unterminated line, if
// any, then io.EOF.
func (lr *lineReader) next() ([]byte, error) {
	var line []byte
	var long *tooLong
	for {
		frag, err := lr.r.ReadSlice('\n')
		if long == nil {
			if len(line)+len(frag) > lr.max+2 { // allow for "\r\n"
				long = &tooLong{}
				long.add(line)
				line = nil
			} else {
				line = append(line, frag...)
			}
		}
		if long != nil {
			long.add(frag)
		}
		switch {
		case err == nil:
			if long != nil {
				return nil, long
			}
			return bytes.TrimRight(line, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if long != nil {
				return nil, long
			}
			if len(line) > 0 {
				return bytes.TrimRight(line, "\r\n"), nil
			}
			return nil, io.EOF
		default:
			return nil, err
		}
	}
}

// A lineWriter is the one goroutine that writes to the output. Lines queue
// on a channel; the buffer is flushed whenever the queue runs empty.
type lineWriter struct {
	ch   chan []byte
	done chan struct{}
	w    *bufio.Writer

	mu  sync.Mutex
	err error // first write error; later lines are dropped
}

func newLineWriter(w io.Writer) *lineWriter {
	lw := &lineWriter{ch: make(chan []byte, 1024), done: make(chan struct{}), w: bufio.NewWriterSize(w, 64<<10)}
	go lw.loop()
	return lw
}

func (lw *lineWriter) send(line []byte) { lw.ch <- line }

func (lw *lineWriter) loop() {
	defer close(lw.done)
	var err error
	for line := range lw.ch {
		if err != nil {
			continue
		}
		if _, err = lw.w.Write(line); err == nil && len(lw.ch) == 0 {
			err = lw.w.Flush()
		}
		putLine(line)
		if err != nil {
			lw.mu.Lock()
			lw.err = err
			lw.mu.Unlock()
		}
	}
	if err == nil {
		err = lw.w.Flush()
	}
	lw.mu.Lock()
	if lw.err == nil {
		lw.err = err
	}
	lw.mu.Unlock()
}

// close writes every queued line, flushes, and returns the first write error.
func (lw *lineWriter) close() error {
	close(lw.ch)
	<-lw.done
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.err
}
