package core

// This file defines the workspace and its document snapshots.

import (
	"fmt"
	"iter"
	"sync"
	"sync/atomic"

	"wfl-lsp/lang/config"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"

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

	// base is an earlier version of the document whose diagnostics are
	// computed: this one's are derived from them (incremental.go). It is
	// dropped once they are.
	base     atomic.Pointer[Snapshot]
	diagOnce sync.Once
	diags    atomic.Pointer[diagState]
	derived  bool // the diagnostics were derived from an earlier version's
	lines    atomic.Pointer[token.Lines]
	raw      atomic.Pointer[rawAnalysis] // the analysis' parts, until the diagnostics are computed
}

// NewSnapshot returns a snapshot of text that belongs to no workspace, for
// one-shot queries such as `wfl-lsp check` or an MCP tool given a source.
func NewSnapshot(uri URI, version int32, text string) *Snapshot {
	return &Snapshot{URI: uri, Version: version, Text: text}
}

// Analysis returns the snapshot's analysis, computing it on first use. It is
// safe to call from many goroutines.
func (s *Snapshot) Analysis() *Analysis {
	s.once.Do(s.analyze)
	return s.analysis
}

// analyze computes the analysis (once). Until the diagnostics are
// computed it keeps the parts they are built from, so that a full state
// does not analyse the text a second time.
func (s *Snapshot) analyze() {
	a, r := analyze(s.URI, s.Text)
	s.analysis = a
	s.lines.CompareAndSwap(nil, a.Lines)
	if s.diags.Load() == nil {
		s.raw.Store(&r)
	}
}

// Lines returns the line table of the snapshot's text: the one its
// diagnostics or its analysis computed, or a new one.
func (s *Snapshot) Lines() *token.Lines {
	if l := s.lines.Load(); l != nil {
		return l
	}
	l := token.NewLines(s.Text)
	s.lines.CompareAndSwap(nil, l)
	return s.lines.Load()
}

// Diagnostics returns the snapshot's diagnostics in the order they are
// published (by position) and the line table of its text. After an edit
// they are derived from the previous version's where that is equivalent
// (incremental.go), so they may be ready long before Analysis. It is safe
// to call from many goroutines.
func (s *Snapshot) Diagnostics() (*token.Lines, []diag.Diagnostic) {
	st := s.diagState()
	return st.lines, st.assemble()
}

// DiagnosticsSeq is Diagnostics without building the list: it returns the
// line table, an upper bound of the number of diagnostics, and the
// diagnostics in the same order. For a document with thousands of findings
// republished on every keystroke, the list is a large part of the work.
func (s *Snapshot) DiagnosticsSeq() (*token.Lines, int, iter.Seq[diag.Diagnostic]) {
	st := s.diagState()
	return st.lines, st.count(), st.all()
}

// Derived reports whether the snapshot's diagnostics, once computed, were
// derived from an earlier version's rather than from a full analysis.
func (s *Snapshot) Derived() bool {
	s.diagState()
	return s.derived
}

func (s *Snapshot) diagState() *diagState {
	s.diagOnce.Do(func() {
		var st *diagState
		if b := s.base.Load(); b != nil {
			if prev := b.diags.Load(); prev != nil {
				st = deriveSafely(prev, s.Text, ConfigFor(s.URI))
				s.derived = st != nil
			}
		}
		if st == nil {
			// The diagnostics are not computed yet, so the analysis, whether
			// it is computed here or was before, kept its parts.
			s.once.Do(s.analyze)
			st = fullState(s.Text, s.analysis, s.raw.Swap(nil))
		}
		s.diags.Store(st)
		s.lines.CompareAndSwap(nil, st.lines)
		s.base.Store(nil)
		s.raw.Store(nil) // derived: the analysis' parts are not needed
	})
	return s.diags.Load()
}

// deriveSafely is derive, with a full analysis instead of a crash should it
// fail: the tests call derive itself.
func deriveSafely(prev *diagState, text string, cfg config.Config) (st *diagState) {
	defer func() {
		if recover() != nil {
			st = nil
		}
	}()
	return derive(prev, text, cfg)
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
	// Derive the diagnostics from the newest version that has them.
	if old.diags.Load() != nil {
		s.base.Store(old)
	} else if b := old.base.Load(); b != nil {
		s.base.Store(b)
	}
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
