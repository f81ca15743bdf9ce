package core

import (
	"fmt"
	"strings"
	"testing"

	"wfl-lsp/internal/benchdoc"
)

// BenchmarkBurst times the part of a keystroke the LSP layer's didChange
// does on its read loop (the line table of the version before, to read the
// change's positions, and the change itself) while keystrokes come faster
// than the diagnostics: they are computed after every tenth keystroke only.
//
//	go test -run '^$' -bench Burst ./core
func BenchmarkBurst(b *testing.B) {
	text := benchdoc.Clean(10000)
	const chunk = (10000 + 11) / 12 / 2
	call := fmt.Sprintf("display call sum_numbers_c%[1]d with total_c%[1]d and 1", chunk)
	at := strings.Index(text, call) + len(call)
	ws := NewWorkspace()
	uri := URI("file:///bench/burst.wfl")
	s := ws.Open(uri, 1, text)
	s.Diagnostics()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s.Lines()
		e := Edit{Start: at, End: at, Text: "x"}
		if i%2 == 1 {
			e = Edit{Start: at, End: at + 1}
		}
		var err error
		if s, err = ws.Change(uri, s.Version+1, e); err != nil {
			b.Fatal(err)
		}
		if i%10 == 9 {
			s.Diagnostics()
		}
	}
}
