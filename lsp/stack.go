package lsp

// This file gives each new read loop a stack as large as a keystroke's
// work needs, at once.
//
// jsonrpc2 hands the reading of messages to a new goroutine whenever a
// handler releases itself (jsonrpc2.Async), as every long request does
// (completion, semantic tokens, inlay hints: dispatch.go's call): after a
// keystroke's batch, the goroutine that reads the next one is new. That
// goroutine applies the next keystroke and makes its diagnostics' state,
// partial analysis and short answers (dispatch.go), whose parse and checks
// recurse a few dozen frames deep, and a new goroutine's stack starts at
// the runtime's starting size (2 KiB here): the runtime grew it by
// copying, four or five times, at the deepest frames, on the path of every
// hover, definition and signature help (runtime.newstack was 8% of the
// server's processor time in the typing benchmark on a 10,000-line
// document, 5% after this). Grown once, while the goroutine is about to
// read and its stack is a few frames deep, the copy costs little.

// readerStack is the stack a read loop is given. In BenchmarkReaderStack
// 64 and 128 KiB saved no more than 32 KiB: the larger frame costs its
// zeroing.
const readerStack = 32 << 10

// growStack makes the calling goroutine's stack at least readerStack
// large: its frame is that large, so the runtime grows the stack to fit it
// before it runs, copying only the frames below it.
//
//go:noinline
func growStack() {
	var frame [readerStack - 4<<10]byte
	touch(frame[:])
}

// touch reads b, so that the compiler keeps growStack's frame; b does not
// escape.
//
//go:noinline
func touch(b []byte) byte { return b[len(b)-1] }
