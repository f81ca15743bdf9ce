package mcpserver

// This file implements the stdio transport: newline-delimited JSON in, whole
// lines out through one writer. Other transports (Streamable HTTP) feed the
// same session layer with decoded lines and give it their own [sink].

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"sync"
)

// A sink receives the complete lines (each ending in '\n') a session writes.
// send must not block for long and must keep lines whole and in order.
type sink interface {
	send(line []byte)
}

// errLineTooLong reports a line longer than the reader's limit; the rest of
// the line has been skipped and reading may go on.
var errLineTooLong = errors.New("line too long")

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
	tooLong := false
	for {
		frag, err := lr.r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(frag) > lr.max+2 { // allow for "\r\n"
				tooLong, line = true, nil
			} else {
				line = append(line, frag...)
			}
		}
		switch {
		case err == nil:
			if tooLong {
				return nil, errLineTooLong
			}
			return bytes.TrimRight(line, "\r\n"), nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			if tooLong {
				return nil, errLineTooLong
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
