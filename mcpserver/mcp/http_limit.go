package mcp

// This file caps the HTTP connections open at once.

import (
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// A limitListener accepts at most cap(slots) connections at once: while
// that many are open, Accept waits for one to close, and the connections
// beyond wait in the system's queue of the listening socket. Without it
// each connection held open (a request whose body never comes, an idle
// keep-alive) costs a file descriptor, and a few thousand of them leave
// the process none for its clients or its files.
type limitListener struct {
	net.Listener
	slots  chan struct{}
	done   chan struct{} // closed by Close: a waiting Accept returns
	closer sync.Once
	logger *slog.Logger
	warned atomic.Int64 // when the last warning about the cap was logged (UnixNano)
}

func newLimitListener(ln net.Listener, n int, logger *slog.Logger) *limitListener {
	return &limitListener{Listener: ln, slots: make(chan struct{}, n), done: make(chan struct{}), logger: logger}
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	default:
		if now := time.Now().UnixNano(); now-l.warned.Load() > int64(10*time.Second) {
			l.warned.Store(now)
			l.logger.Warn("mcp: as many HTTP connections open as --max-connections allows; new ones wait", "max", cap(l.slots))
		}
		select {
		case l.slots <- struct{}{}:
		case <-l.done:
			return nil, net.ErrClosed
		}
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	return &limitConn{Conn: c, slots: l.slots}, nil
}

func (l *limitListener) Close() error {
	l.closer.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// A limitConn gives its slot back when it is closed, once.
type limitConn struct {
	net.Conn
	slots    chan struct{}
	released atomic.Bool
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	if c.released.CompareAndSwap(false, true) {
		<-c.slots
	}
	return err
}

// CloseWrite half-closes the connection when it can, as the HTTP server
// does after an error before it closes it.
func (c *limitConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}
