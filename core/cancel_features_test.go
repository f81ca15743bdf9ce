package core_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
)

// TestSnapshotContextStops analyses a text for a request whose context
// ended: the analysis checks nothing (the parser stops at its first
// statement, the checker at its first), Err says so, and every answer
// still comes (incomplete, for a request that drops it). With a context
// that has not ended, the answers are NewSnapshot's.
func TestSnapshotContextStops(t *testing.T) {
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(t.TempDir(), "none"))
	src := strings.Repeat("store total as 1\nchange total to total plus 1\ndisplay totl\n", 3000)
	uri := core.FileURI("/tmp/cancel.wfl")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s := core.NewSnapshotContext(ctx, uri, 0, src)
	a := s.Analysis()
	if s.Err() == nil {
		t.Fatal("Err is nil for a snapshot whose context ended")
	}
	if n := len(a.Info.Defs) + len(a.Info.Uses); n > 4 {
		t.Errorf("%d names resolved after the context ended", n)
	}
	s.Diagnostics()
	s.Tolerant()
	presentation.Outline(s)

	live := core.NewSnapshotContext(context.Background(), uri, 0, src)
	want := core.NewSnapshot(uri, 0, src)
	if live.Err() != nil {
		t.Fatalf("Err = %v for a live context", live.Err())
	}
	_, got := live.Diagnostics()
	_, exp := want.Diagnostics()
	if !reflect.DeepEqual(got, exp) || len(got) < 3000 {
		t.Errorf("a live context's %d diagnostics differ from core.NewSnapshot's %d", len(got), len(exp))
	}
}
