package core

// This file defines the workspace and its document snapshots.

import (
	"fmt"
	"sync"

	"github.com/puzpuzpuz/xsync/v3"
)

// A URI names a document. LSP documents are named by their canonical file://
// URIs, MCP and CLI documents by file:// URIs made from their paths.
type URI string

// A Snapshot is one version of one document. It is immutable once published;
// its analysis is computed lazily, once, by whichever reader asks first.
type Snapshot struct {
	URI     URI
	Version int32  // client's version number; 0 for documents read from disk
	Text    string // full UTF-8 text

	once     sync.Once
	analysis *Analysis
}

// NewSnapshot returns a snapshot of text that belongs to no workspace, for
// one-shot queries such as `wfl-lsp check` or an MCP tool given a source.
func NewSnapshot(uri URI, version int32, text string) *Snapshot {
	return &Snapshot{URI: uri, Version: version, Text: text}
}

// Analysis returns the snapshot's analysis, computing it on first use. It is
// safe to call from many goroutines.
func (s *Snapshot) Analysis() *Analysis {
	s.once.Do(func() { s.analysis = analyze(s.URI, s.Text) })
	return s.analysis
}

// An Edit replaces the bytes [Start, End) of a text with Text.
type Edit struct {
	Start, End int
	Text       string
}

// ApplyEdits applies edits in order, each to the result of the previous one,
// and returns the new text. It fails, changing nothing, when an edit's span
// lies outside the text it applies to or splits a UTF-8 character.
func ApplyEdits(text string, edits ...Edit) (string, error) {
	for i, e := range edits {
		if e.Start < 0 || e.End < e.Start || e.End > len(text) {
			return "", fmt.Errorf("edit %d: span [%d, %d) outside a text of %d bytes", i, e.Start, e.End, len(text))
		}
		if !runeBoundary(text, e.Start) || !runeBoundary(text, e.End) {
			return "", fmt.Errorf("edit %d: span [%d, %d) splits a UTF-8 character", i, e.Start, e.End)
		}
		text = text[:e.Start] + e.Text + text[e.End:]
	}
	return text, nil
}

func runeBoundary(s string, i int) bool {
	return i == 0 || i == len(s) || s[i]&0xC0 != 0x80
}

// A Workspace holds the open documents. Writers (Open, Change, Close) are
// serialized so edits apply in the order they were made; readers load the
// current snapshot of a document without locking.
type Workspace struct {
	docs *xsync.MapOf[URI, *Snapshot]

	writeMu sync.Mutex // serializes Open, Change and Close
}

// NewWorkspace returns an empty workspace.
func NewWorkspace() *Workspace {
	return &Workspace{docs: xsync.NewMapOf[URI, *Snapshot]()}
}

// Snapshot returns the current snapshot of an open document.
func (w *Workspace) Snapshot(uri URI) (*Snapshot, bool) {
	return w.docs.Load(uri)
}

// Snapshots returns the current snapshots of all open documents, in no
// particular order.
func (w *Workspace) Snapshots() []*Snapshot {
	var all []*Snapshot
	w.docs.Range(func(_ URI, s *Snapshot) bool {
		all = append(all, s)
		return true
	})
	return all
}

// Open publishes the first snapshot of a document, replacing any earlier one.
func (w *Workspace) Open(uri URI, version int32, text string) *Snapshot {
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	s := NewSnapshot(uri, version, text)
	w.docs.Store(uri, s)
	return s
}

// Change applies edits (in byte offsets, each relative to the text the
// previous one left) to an open document and publishes the result as version.
// It fails, publishing nothing, when the document is not open, the version
// does not increase, or an edit does not fit the text.
func (w *Workspace) Change(uri URI, version int32, edits ...Edit) (*Snapshot, error) {
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	old, ok := w.docs.Load(uri)
	if !ok {
		return nil, fmt.Errorf("change to %s: document is not open", uri)
	}
	if version <= old.Version {
		return nil, fmt.Errorf("change to %s: version %d is not newer than %d", uri, version, old.Version)
	}
	text, err := ApplyEdits(old.Text, edits...)
	if err != nil {
		return nil, fmt.Errorf("change to %s version %d: %w", uri, version, err)
	}
	s := NewSnapshot(uri, version, text)
	w.docs.Store(uri, s)
	return s, nil
}

// Close forgets an open document. It reports whether the document was open.
func (w *Workspace) Close(uri URI) bool {
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	_, ok := w.docs.LoadAndDelete(uri)
	return ok
}
