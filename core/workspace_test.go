package core

import (
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestApplyEdits(t *testing.T) {
	tests := []struct {
		name    string
		text    string
		edits   []Edit
		want    string
		wantErr string
	}{
		{name: "insert", text: "store x as 1", edits: []Edit{{12, 12, "0"}}, want: "store x as 10"},
		{name: "replace", text: "store x as 1", edits: []Edit{{6, 7, "total"}}, want: "store total as 1"},
		{name: "delete", text: "display x\n", edits: []Edit{{7, 9, ""}}, want: "display\n"},
		{name: "sequential", text: "ab", edits: []Edit{{0, 0, "x"}, {3, 3, "y"}}, want: "xaby"},
		{name: "whole document", text: "old", edits: []Edit{{0, 3, "new text"}}, want: "new text"},
		{name: "multi-byte", text: "display \"héllo\"", edits: []Edit{{10, 12, "e"}}, want: "display \"hello\""},
		{name: "out of range", text: "abc", edits: []Edit{{2, 9, ""}}, wantErr: "outside"},
		{name: "reversed", text: "abc", edits: []Edit{{2, 1, ""}}, wantErr: "outside"},
		{name: "splits character", text: "é", edits: []Edit{{1, 2, ""}}, wantErr: "splits"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ApplyEdits(tt.text, tt.edits...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ApplyEdits error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("ApplyEdits = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestWorkspaceLifecycle(t *testing.T) {
	w := NewWorkspace()
	const uri URI = "file:///a.wfl"
	if _, err := w.Change(uri, 2, Edit{0, 0, "x"}); err == nil {
		t.Fatal("Change of an unopened document succeeded")
	}
	first := w.Open(uri, 1, "store x as 1\n")
	s, err := w.Change(uri, 2, Edit{11, 12, "2"})
	if err != nil {
		t.Fatal(err)
	}
	if s.Text != "store x as 2\n" || s.Version != 2 {
		t.Fatalf("after change: %q v%d", s.Text, s.Version)
	}
	if first.Text != "store x as 1\n" {
		t.Fatalf("the earlier snapshot changed: %q", first.Text)
	}
	if _, err := w.Change(uri, 2, Edit{0, 0, "y"}); err == nil {
		t.Fatal("Change with a version that is not newer succeeded")
	}
	if _, err := w.Change(uri, 3, Edit{0, 99, ""}); err == nil {
		t.Fatal("Change with an edit outside the text succeeded")
	}
	if cur, _ := w.Snapshot(uri); cur != s {
		t.Fatal("a failed change replaced the current snapshot")
	}
	if !w.Close(uri) || w.Close(uri) {
		t.Fatal("Close should report true once, then false")
	}
	if _, ok := w.Snapshot(uri); ok {
		t.Fatal("closed document still has a snapshot")
	}
}

// TestWorkspaceConcurrent edits one document from a single writer (edits are
// applied in order, as the protocol delivers them) while readers analyze
// whatever snapshot is current. Run it with -race.
func TestWorkspaceConcurrent(t *testing.T) {
	w := NewWorkspace()
	const uri URI = "file:///c.wfl"
	w.Open(uri, 1, "")
	const edits = 300
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for r := 0; r < 4; r++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			last := int32(0)
			for {
				select {
				case <-stop:
					return
				default:
				}
				s, ok := w.Snapshot(uri)
				if !ok {
					t.Error("document vanished")
					return
				}
				if s.Version < last {
					t.Errorf("version went back from %d to %d", last, s.Version)
					return
				}
				last = s.Version
				if a := s.Analysis(); a == nil || a.Lines.Text() != s.Text {
					t.Error("analysis does not match its snapshot")
					return
				}
			}
		}()
	}
	for v := int32(2); v <= edits; v++ {
		cur, _ := w.Snapshot(uri)
		line := fmt.Sprintf("store x%d as %d\n", v, v)
		if _, err := w.Change(uri, v, Edit{len(cur.Text), len(cur.Text), line}); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	s, _ := w.Snapshot(uri)
	if got := strings.Count(s.Text, "\n"); got != edits-1 || s.Version != edits {
		t.Fatalf("final snapshot has %d lines at version %d, want %d at %d", got, s.Version, edits-1, edits)
	}
	for v := 2; v <= edits; v++ {
		if !strings.Contains(s.Text, fmt.Sprintf("store x%d as %d\n", v, v)) {
			t.Fatalf("edit %d lost", v)
		}
	}
}

func TestSnapshotAnalysisOnce(t *testing.T) {
	s := NewSnapshot("file:///o.wfl", 1, "display 1\n")
	var wg sync.WaitGroup
	results := make([]*Analysis, 8)
	for i := range results {
		wg.Add(1)
		go func() { defer wg.Done(); results[i] = s.Analysis() }()
	}
	wg.Wait()
	for _, a := range results[1:] {
		if a != results[0] {
			t.Fatal("Analysis computed more than once")
		}
	}
}

func TestFileURIRoundTrip(t *testing.T) {
	for _, p := range []string{"/tmp/a.wfl", "/tmp/with space/ü.wfl", "/tmp/100%/x#y.wfl"} {
		u := FileURI(p)
		if !strings.HasPrefix(string(u), "file:///") {
			t.Errorf("FileURI(%q) = %q", p, u)
		}
		if got := u.Path(); got != p {
			t.Errorf("FileURI(%q).Path() = %q", p, got)
		}
	}
	if URI("https://x/y").Path() != "" {
		t.Error("Path of a non-file URI should be empty")
	}
}
