package core

// This file defines the workspace and its document snapshots.

import (
	"context"
	"fmt"
	"iter"
	"path/filepath"
	"runtime/trace"
	"strings"
	"sync"
	"sync/atomic"
	"weak"

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
	analysis *Analysis // the reference's reading (see Analysis)

	quote quoteState // a quote left open in the text (openquote.go)

	// ctx, for a snapshot of NewSnapshotContext, ends when its analyses
	// are no longer wanted; nil for every other.
	ctx context.Context

	// src finds the files the document includes: its workspace, or a
	// FileAccess for a snapshot of no workspace.
	src     includeSource
	ownOnce sync.Once
	ownA    *Analysis // see own

	incOnce  sync.Once
	incs     []string // see includePaths
	usesOnce sync.Once
	usesSet  map[string]bool // see uses

	// base is an earlier version of the document whose diagnostics are
	// computed: this one's are derived from them (incremental.go). It is
	// dropped once they are.
	base     atomic.Pointer[Snapshot]
	diagOnce sync.Once
	diags    atomic.Pointer[diagState]
	derived  bool // the diagnostics were derived from an earlier version's
	// reimport is set when the files the document includes changed since
	// base (Workspace.Refresh): the state derived from base's is then
	// checked with their names read again (incremental_imports.go).
	reimport bool
	// same is how much of the start and end of the text is base's text,
	// known from the edits, so that deriving need not compare the texts.
	same sameEnds
	// includeWord says whether the text holds the word include, where the
	// edits since an opened version tell it (see mayInclude).
	includeWord wordKnown
	lines       atomic.Pointer[token.Lines]
	raw         atomic.Pointer[rawAnalysis] // the analysis' parts, until the diagnostics are computed

	// analysed is set once the analysis is computed.
	analysed atomic.Bool
	// qbase is what the queries start from (query.go) of the latest
	// earlier version whose analysis was computed when this one was made;
	// nil once this one's is computed, or when there is none.
	qbase atomic.Pointer[queryBase]
	qOnce sync.Once
	q     *queryState // nil: queries use the analysis

	// outline holds the types of the top-level stores of the units of
	// the latest version whose outline was made when this one was
	// (symbols_since.go).
	outline atomic.Pointer[OutlineTypes]

	// stating is set while the diagnostics' state is being made: an
	// analysis made then lints in both modes for it (analyzeModes).
	stating atomic.Bool

	// parsed is the parse made for the requests that read only the tree
	// and line table (syntax.go), before the analysis, held weakly.
	syntaxMu sync.Mutex
	parsed   weak.Pointer[parsedText]
}

// NewSnapshot returns a snapshot of text that belongs to no workspace, for
// one-shot queries such as `wfl-lsp check` or an MCP tool given a source.
func NewSnapshot(uri URI, version int32, text string) *Snapshot {
	return disk.NewSnapshot(uri, version, text)
}

// NewSnapshotContext is NewSnapshot for the one request that ctx is the
// context of (an MCP tool call): once ctx ends (cancelled, out of time),
// its analysis stops at the next statement the parser or the checker
// comes to, and what the snapshot answers from then on is incomplete; Err
// says so, and the request drops it.
func NewSnapshotContext(ctx context.Context, uri URI, version int32, text string) *Snapshot {
	return disk.NewSnapshotContext(ctx, uri, version, text)
}

// Err returns the error of the context of a snapshot of
// NewSnapshotContext once it ended (its answers may then be incomplete),
// and nil otherwise.
func (s *Snapshot) Err() error {
	if s.ctx == nil {
		return nil
	}
	return s.ctx.Err()
}

// done returns the channel that closes when the snapshot's analyses are
// no longer wanted, or nil.
func (s *Snapshot) done() <-chan struct{} {
	if s.ctx == nil {
		return nil
	}
	return s.ctx.Done()
}

// Analysis returns the snapshot's analysis, computing it on first use. It is
// safe to call from many goroutines.
//
// While a quote is left open (a string being typed: lexer.OpenQuotes), the
// reference pairs it with the next line's quote and reads every string
// below inside out. The analysis is then that of the text with the quote
// closed on its line (openquote.go), so that what an editor asks below the
// line (hover, definition, outline, tokens, ...) is answered as with the
// quote closed; the verdict (Diagnostics) stays the reference's reading's.
func (s *Snapshot) Analysis() *Analysis {
	if c := s.reading(); c != s {
		s.quote.readOnce.Do(func() {
			a := c.Analysis()
			_, verdict := s.Diagnostics()
			s.quote.readA = &Analysis{Syntax: a.Syntax, Info: a.Info, Diagnostics: verdict, cuts: a.cuts, exports: s.own}
			s.quote.readDone.Store(true)
		})
		return s.quote.readA
	}
	return s.reference()
}

// reference returns the analysis of the text as the reference reads it,
// computing it on first use: the one the diagnostics' state and the
// partial queries start from.
func (s *Snapshot) reference() *Analysis {
	s.once.Do(s.analyze)
	return s.analysis
}

// analyze computes the analysis (once). Until the diagnostics are
// computed it keeps the parts they are built from, so that a full state
// does not analyse the text a second time.
func (s *Snapshot) analyze() {
	defer trace.StartRegion(context.Background(), "core.analyze").End()
	// While the diagnostics' state is made from it, the linter reports in
	// both its modes at once.
	a, r := analyzeModes(s.URI, s.Text, s.src, s.stating.Load() && s.diags.Load() == nil, s.takeParse(), s.done())
	a.diags = &s.diags
	if s.quote.closes > 0 {
		a.cuts = []int{s.quote.closes - 1}
	}
	s.analysis = a
	s.lines.CompareAndSwap(nil, a.Lines)
	if s.diags.Load() == nil {
		s.raw.Store(&r)
	}
	s.analysed.Store(true)
	s.qbase.Store(nil) // queries use the analysis now
}

// Analysed reports whether the snapshot's full analysis has been made.
// After an edit, the requests that read less (a position's partial
// analysis, the tree, the text) leave it unmade.
func (s *Snapshot) Analysed() bool { return s.analysed.Load() }

// WithText returns a version of the snapshot with text, unpublished:
// its diagnostics are derived from the snapshot's, and its includes are
// found where the snapshot's are. The quick fixes check a candidate on one.
func (s *Snapshot) WithText(text string) *Snapshot {
	v := &Snapshot{URI: s.URI, Version: s.Version, Text: text, src: s.src}
	v.base.Store(s)
	return v
}

// own returns the analysis of the document that does not follow its
// includes: what another file that includes it learns of it. For a
// document that includes nothing, it is the analysis.
func (s *Snapshot) own() *Analysis {
	s.ownOnce.Do(func() {
		if !strings.Contains(s.Text, "include") {
			s.ownA = s.reference()
			return
		}
		s.ownA, _ = analyze(s.URI, s.Text, nil)
	})
	return s.ownA
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

// Tolerant returns the snapshot's diagnostics as an editor shows them
// while a line is being typed (see diagState.tolerant): the same as
// Diagnostics when the text parses; else, besides the parse findings, the
// semantic and type findings of the statements that parse. The verdict
// (MCP's valid, `wfl-lsp check` without --all) stays Diagnostics'.
func (s *Snapshot) Tolerant() (*token.Lines, []diag.Diagnostic) {
	lines, n, seq := s.TolerantSeq()
	out := make([]diag.Diagnostic, 0, n)
	for d := range seq {
		out = append(out, d)
	}
	return lines, out
}

// TolerantSeq is Tolerant without building the list.
func (s *Snapshot) TolerantSeq() (*token.Lines, int, iter.Seq[diag.Diagnostic]) {
	if lines, n, seq, ok := s.openQuoteList(); ok {
		return lines, n, seq
	}
	st := s.diagState()
	return st.lines, st.count(), st.tolerant()
}

// Derive makes the snapshot's diagnostics' state when it is derived from
// an earlier version's (Diagnostics; a full analysis only should the
// derivation fail), and does nothing when it would take a full analysis.
// The LSP layer calls it on its read loop before it waits for the client,
// so that the diagnostics' worker starts from the state.
func (s *Snapshot) Derive() {
	if s.closedRuns() {
		s.reading().Derive() // the list is the closed text's (closedList)
		return
	}
	if _, ok := s.leftOpen(); ok {
		s.reading().Derive() // the list above the quote's statement is the closed text's (quoteList)
	}
	if b := s.base.Load(); b != nil && b.diags.Load() != nil {
		s.diagState()
	}
}

// Derived reports whether the snapshot's diagnostics, once computed, were
// derived from an earlier version's rather than from a full analysis.
func (s *Snapshot) Derived() bool {
	s.diagState()
	return s.derived
}

func (s *Snapshot) diagState() *diagState {
	s.diagOnce.Do(func() {
		defer trace.StartRegion(context.Background(), "core.diagState").End()
		s.stating.Store(true)
		var st *diagState
		if b := s.base.Load(); b != nil {
			if prev := b.diags.Load(); prev != nil {
				st = s.deriveFrom(s.nearestState(prev))
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

// deriveFrom returns the snapshot's diagnostics' state derived from from,
// an earlier version's: its text edited (incremental.go), then, when the
// files it includes changed since, checked with the names they give read
// again (incremental_imports.go); or nil when a full analysis must make it.
func (s *Snapshot) deriveFrom(from derivation) *diagState {
	cfg := ConfigFor(s.URI)
	st := from.st // immutable: the same text needs no edit
	if !from.reimport || s.Text != st.text {
		st = deriveSafely(st, s.Text, cfg, from.same, s.lines.Load())
	}
	if st != nil && from.reimport {
		st = reimportSafely(st, s.URI.Path(), s.src, cfg)
	}
	return st
}

// A derivation is an earlier state a snapshot's diagnostics' state is
// derived from: what the snapshot's text is known to share with its text,
// and whether the files it includes are to be read again.
type derivation struct {
	st       *diagState
	same     sameEnds
	reimport bool
}

// nearestState returns what to derive the snapshot's state from: its
// base's state, prev, or, when that reads a quote left open (strings
// inside out to the end of the text) and this text leaves none open, the
// state of an earlier version's text with the quote closed on its line
// (openquote.go), the nearest: a quote typed or deleted again changes how
// every line below it is lexed, and from prev the derivation would parse
// and check the rest of the text again, where from the closed text it
// reads only the lines typed.
func (s *Snapshot) nearestState(prev *diagState) derivation {
	best := derivation{st: prev, same: s.same, reimport: s.reimport}
	var closed [2]*Snapshot
	if b := s.base.Load(); b != nil {
		closed[0] = b.quote.closed.Load()
	}
	closed[1] = s.quote.prevClosed.Load()
	if closed == [2]*Snapshot{} || !prev.mayOpenQuote() || s.openQuotes() != nil {
		return best
	}
	least := -1
	for _, c := range closed {
		var st *diagState
		if c != nil {
			st = c.diags.Load()
		}
		if st == nil || c.openQuotes() != nil {
			continue // (another quote left open: read inside out in turn)
		}
		if n := diffSize(st.text, s.Text); least < 0 || n < least {
			// The files it includes may have changed since that
			// version: their names are read again.
			best, least = derivation{st: st, reimport: s.mayInclude()}, n
		}
	}
	return best
}

// diffSize returns how many bytes of the longer of two texts differ
// (diffRange).
func diffSize(old, text string) int {
	from, oldEnd, newEnd := diffRange(old, text, sameEnds{})
	return max(oldEnd, newEnd) - from
}

// deriveSafely is derive, with a full analysis instead of a crash should it
// fail: the tests call derive itself.
func deriveSafely(prev *diagState, text string, cfg config.Config, same sameEnds, lines *token.Lines) (st *diagState) {
	defer func() {
		if recover() != nil {
			st = nil
		}
	}()
	return derive(prev, text, cfg, same, lines)
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
	docs   *xsync.MapOf[URI, *Snapshot]
	byPath *xsync.MapOf[string, URI] // the open documents' file paths
	files  *FileAccess               // how the files that are not open are read

	// diskIncluders, when set, returns the files on the disk that include
	// the file at a path, directly or through other files (the adapter's
	// index of the workspace's files knows them).
	diskIncluders atomic.Pointer[func(path string) []string]

	writeMu sync.Mutex // serializes Open, Change and Close

	loaded loadCache // the analyses Load made of files that are not open (loaded.go)
}

// NewWorkspace returns an empty workspace.
func NewWorkspace() *Workspace {
	return &Workspace{docs: xsync.NewMapOf[URI, *Snapshot](), byPath: xsync.NewMapOf[string, URI](), files: disk}
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
	s := w.newSnapshot(uri, version, text)
	s.includeWord = includeIn(text)
	w.docs.Store(uri, s)
	if p := uri.Path(); p != "" {
		w.byPath.Store(filepath.Clean(p), uri)
	}
	return s
}

func (w *Workspace) newSnapshot(uri URI, version int32, text string) *Snapshot {
	return &Snapshot{URI: uri, Version: version, Text: text, src: w}
}

// wordKnown is whether a text holds a word: not known, or known absent or
// present.
type wordKnown uint8

const (
	wordUnknown wordKnown = iota
	wordAbsent
	wordPresent
)

// includeKeyword is the word a text that includes a file holds.
const includeKeyword = "include"

// includeIn tells whether text holds the word include.
func includeIn(text string) wordKnown {
	if strings.Contains(text, includeKeyword) {
		return wordPresent
	}
	return wordAbsent
}

// after returns whether text, made by edits from a text whose k tells,
// holds the word include: still present (a version that held it is taken
// to hold it still: what reads it again only does more work than needed),
// or absent unless the one edit made it around where it was made. Several
// edits at once are not followed.
func (k wordKnown) after(text string, edits []Edit) wordKnown {
	if len(edits) != 1 {
		return wordUnknown
	}
	if k != wordAbsent {
		return k
	}
	e := edits[0]
	from, to := max(e.Start-len(includeKeyword)+1, 0), min(e.Start+len(e.Text)+len(includeKeyword)-1, len(text))
	return includeIn(text[from:max(from, to)])
}

// mayInclude reports whether the text may include a file: whether it holds
// the word include, without reading it where the edits since it was opened
// tell (a keystroke in a string left open asks at each, and the scan of
// 10,000 lines took a tenth of its time).
func (s *Snapshot) mayInclude() bool {
	switch s.includeWord {
	case wordAbsent:
		return false
	case wordPresent:
		return true
	}
	return strings.Contains(s.Text, includeKeyword)
}

// own implements includeSource: an open document's own analysis, else the
// file's on the disk.
func (w *Workspace) own(path string) (*Analysis, error) {
	lookups.Add(1)
	if u, ok := w.byPath.Load(filepath.Clean(path)); ok {
		if s, ok := w.docs.Load(u); ok {
			return s.own(), nil
		}
	}
	return w.files.own(path)
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
	s := w.newSnapshot(uri, version, text)
	s.follow(old, false, edits)
	s.quote.heldCuts, s.quote.cutsHeld = old.cutsAfter(edits)
	s.includeWord = old.includeWord.after(text, edits)
	s.quote.closedCuts, s.quote.closedHeld = old.closedAfter(edits, s.quote.cutsHeld)
	if c := old.quote.closed.Load(); c != nil {
		s.quote.prevClosed.Store(c)
	} else if c := old.quote.prevClosed.Load(); c != nil {
		s.quote.prevClosed.Store(c)
	}
	if l := old.lines.Load(); l != nil && len(edits) == 1 {
		// The line table follows the edit, as the next change's positions
		// are read with it: while a burst of keystrokes comes faster than
		// the diagnostics, no version would have one, and each change
		// would scan the whole text for its line starts.
		e := edits[0]
		s.lines.Store(l.Splice(text, e.Start, e.End, e.Start+len(e.Text)))
	}
	w.docs.Store(uri, s)
	return s, nil
}

// follow makes s, a later version of old's document not yet published,
// derive its diagnostics from the newest version that has them, and
// answer queries from the newest analysed one. reimport says that the
// files the document includes changed since old; edits made s's text of
// old's.
func (s *Snapshot) follow(old *Snapshot, reimport bool, edits []Edit) {
	if old.diags.Load() != nil {
		s.base.Store(old)
		s.reimport = reimport
		n := len(old.Text)
		s.same = sameEnds{prefix: n, suffix: n, known: true}.after(n, edits)
	} else if b := old.base.Load(); b != nil {
		s.base.Store(b)
		s.reimport = reimport || old.reimport // old's own base came before them
		s.same = old.same.after(len(old.Text), edits)
	}
	if o := old.outline.Load(); o != nil {
		s.outline.Store(o)
	}
	if old.analysed.Load() {
		s.qbase.Store(newQueryBase(old))
	} else if b := old.qbase.Load(); b != nil {
		s.qbase.Store(b)
	}
}

// Load returns the analysis of the file at path as the workspace sees it:
// an open document's current one, or else the file on the disk's (its
// includes followed through the workspace, so open documents win).
func (w *Workspace) Load(path string) (*Analysis, bool) {
	if u, ok := w.byPath.Load(filepath.Clean(path)); ok {
		if s, ok := w.docs.Load(u); ok {
			return s.Analysis(), true
		}
	}
	return w.loadFile(filepath.Clean(path))
}

// Refresh gives the open documents that include the document at uri
// (directly or through other files) a new snapshot each, of the same text
// and version, when what that document gives them (see exportKey) is not
// what it was when they read it. It returns them, for their diagnostics
// to be published. Callers pass the snapshot the change replaced (or the
// one closed), or nil when the document was opened or changed on the
// disk. An includer whose diagnostics were made from the very text the
// document has now is left as it is (the files of an include cycle opened
// one after the other read each other from the disk first, with the same
// text), and so is every includer when the document's export key is the
// same as before. A new snapshot reads the included files again; its
// diagnostics are derived from those of the one it replaces where that is
// equivalent (only the statements that name what the included files
// changed are checked again, incremental_imports.go), and its position
// queries start from the latest analysed version, as after an edit
// (query.go).
func (w *Workspace) Refresh(uri URI, before *Snapshot) []*Snapshot {
	path := uri.Path()
	if path == "" {
		return nil
	}
	path = filepath.Clean(path)
	includers := w.includers(path)
	if len(includers) == 0 {
		return nil
	}
	now, open := w.Snapshot(uri)
	text, readable := "", false
	if open {
		text, readable = now.Text, true
	} else if f, err := w.files.cached(path); err == nil {
		text, readable = f.a.Lines.Text(), true
	}
	changed := sync.OnceValue(func() bool {
		var old string
		switch {
		case before != nil:
			old = exportKey(before.own())
		case open:
			old = w.diskKey(path) // what the includers read before it was opened
		default:
			return true // changed on the disk: what they read is not known
		}
		cur := w.diskKey(path)
		if open {
			cur = exportKey(now.own())
		}
		return old != cur
	})
	var stale []*Snapshot
	for _, s := range includers {
		if st := s.diags.Load(); st != nil && readable {
			if t, ok := st.included[path]; ok && t == text {
				continue // made from this very text
			}
		}
		if changed() {
			stale = append(stale, s)
		}
	}
	if len(stale) == 0 {
		return nil
	}
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	out := make([]*Snapshot, 0, len(stale))
	for _, s := range stale {
		if cur, ok := w.docs.Load(s.URI); ok && cur == s {
			n := w.newSnapshot(s.URI, s.Version, s.Text)
			n.follow(s, true, nil)
			// The same text: the same own analysis and includes.
			n.ownOnce.Do(func() { n.ownA = s.own() })
			n.incOnce.Do(func() { n.incs = s.includePaths() })
			w.docs.Store(s.URI, n)
			out = append(out, n)
		}
	}
	return out
}

// diskKey is the export key of the file at path on the disk, or what
// makes it unreadable.
func (w *Workspace) diskKey(path string) string {
	f, err := w.files.cached(path)
	if err != nil {
		return "\x00" + err.Error()
	}
	return exportKey(f.a)
}

// Included returns the current snapshots of the open documents that the
// open document at uri includes, directly or through other files.
func (w *Workspace) Included(uri URI) []*Snapshot {
	s, ok := w.Snapshot(uri)
	if !ok || !strings.Contains(s.Text, "include") {
		return nil
	}
	base := filepath.Clean(uri.Path())
	var out []*Snapshot
	for p := range w.reachedFrom(base) {
		if u, ok := w.byPath.Load(p); ok && u != uri {
			if d, ok := w.docs.Load(u); ok {
				out = append(out, d)
			}
		}
	}
	return out
}

// IncludedUsing returns the open documents that the open document at uri
// includes, directly or through other files, whose diagnostics may show
// an unused-variable warning about a name that one of users (versions of
// that document, nil ones skipped) uses without declaring it: those whose
// list changes when the document is opened, saved or closed (see
// Diagnostics). A document whose diagnostics are not made yet is left
// out: they will be made with the document as it is.
func (w *Workspace) IncludedUsing(uri URI, users ...*Snapshot) []*Snapshot {
	names := map[string]bool{}
	for _, u := range users {
		if u != nil {
			for n := range u.uses() {
				names[n] = true
			}
		}
	}
	if len(names) == 0 {
		return nil
	}
	var out []*Snapshot
	for _, d := range w.Included(uri) {
		st := d.diags.Load()
		if st == nil {
			continue
		}
		for r := range st.allRefs() {
			if f := st.finding(r); f.Kind == diag.Unused && names[unusedName(f.Diagnostic)] {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

// SetDiskIncluders tells the workspace how to find the files on the disk
// that include a file (see Diagnostics).
func (w *Workspace) SetDiskIncluders(f func(path string) []string) {
	w.diskIncluders.Store(&f)
}

// Diagnostics returns the diagnostics of an open document as the workspace
// sees them: its snapshot's, less the unused-variable warnings about the
// variables that a file including it uses (the reference checks a file on
// its own and calls them unused).
func (w *Workspace) Diagnostics(s *Snapshot, tolerant bool) (*token.Lines, []diag.Diagnostic) {
	lines, n, seq := w.DiagnosticsSeq(s, tolerant)
	out := make([]diag.Diagnostic, 0, n)
	for d := range seq {
		out = append(out, d)
	}
	return lines, out
}

// DiagnosticsSeq is Diagnostics without building the list (see
// Snapshot.DiagnosticsSeq).
func (w *Workspace) DiagnosticsSeq(s *Snapshot, tolerant bool) (*token.Lines, int, iter.Seq[diag.Diagnostic]) {
	if tolerant {
		if lines, n, seq, ok := s.openQuoteList(); ok {
			return lines, n, seq
		}
	}
	st := s.diagState()
	return st.lines, st.count(), st.diagnosticsOf(w.shownRefs(s, st, tolerant))
}

// shownRefs yields the findings of the snapshot's state st the editor is
// shown (tolerant: the list while typing), in order, but for the unused
// variables that files including it read.
func (w *Workspace) shownRefs(s *Snapshot, st *diagState, tolerant bool) iter.Seq[ref] {
	refs := st.allRefs()
	if tolerant {
		refs = st.tolerantRefs()
	}
	used := w.usedByIncluders(s.URI)
	if len(used) == 0 {
		return refs
	}
	return func(yield func(ref) bool) {
		for r := range refs {
			if d := st.finding(r); d.Kind == diag.Unused && usedBy(used, unusedName(d.Diagnostic)) {
				continue
			}
			if !yield(r) {
				return
			}
		}
	}
}

// DiagnosticsEncoded is DiagnosticsSeq for a client that encodes each
// diagnostic by itself (encode appends one to dst): it yields what encode
// makes of each, in the same order, and, once the document is edited,
// keeps each statement's encodings for the versions after, which encode
// again only the statements edited, checked again or moved to other lines
// (diagState.encoded; key says what else the encodings depend on).
func (w *Workspace) DiagnosticsEncoded(s *Snapshot, tolerant bool, key string, encode func(dst []byte, d diag.Diagnostic) []byte) (*token.Lines, int, iter.Seq[[]byte]) {
	if tolerant {
		if lines, n, seq, ok := s.openQuoteList(); ok {
			// While a quote is open, each version's list is its own.
			return lines, n, func(yield func([]byte) bool) {
				for d := range seq {
					if !yield(encode(nil, d)) {
						return
					}
				}
			}
		}
	}
	st := s.diagState()
	refs := w.shownRefs(s, st, tolerant)
	// Kept once the document is edited (the state is derived): a
	// document only opened, maybe never edited, holds no more than its
	// state (BenchmarkHeapPerDocument's budget).
	return st.lines, st.count(), st.encoded(refs, key, s.derived, encode)
}

// FileDiagnostics returns the diagnostics of the file at path as the
// workspace sees them, open or not (see Diagnostics).
func (w *Workspace) FileDiagnostics(path string) (*token.Lines, []diag.Diagnostic, bool) {
	if u, ok := w.byPath.Load(filepath.Clean(path)); ok {
		if s, ok := w.docs.Load(u); ok {
			lines, ds := w.Diagnostics(s, false)
			return lines, ds, true
		}
	}
	b, err := w.files.ReadFile(path)
	if err != nil {
		return nil, nil, false
	}
	lines, ds := w.Diagnostics(w.newSnapshot(FileURI(path), 0, string(b)), false)
	return lines, ds, true
}

// unusedName returns the name an unused-variable finding is about.
func unusedName(d diag.Diagnostic) string {
	if d.Kind != diag.Unused || len(d.Names) == 0 {
		return ""
	}
	return d.Names[0]
}

// usedByIncluders returns, for each file including the document at uri
// (open documents, and those diskIncluders names), the names it uses
// without declaring them; none when no file includes it.
func (w *Workspace) usedByIncluders(uri URI) []map[string]bool {
	path := uri.Path()
	if path == "" {
		return nil
	}
	path = filepath.Clean(path)
	var users []map[string]bool
	seen := map[string]bool{path: true}
	for _, s := range w.includers(path) {
		seen[filepath.Clean(s.URI.Path())] = true
		users = append(users, s.uses())
	}
	if f := w.diskIncluders.Load(); f != nil {
		for _, p := range (*f)(path) {
			if p = filepath.Clean(p); !seen[p] {
				seen[p] = true
				if a, err := w.own(p); err == nil {
					users = append(users, usesOf(a))
				}
			}
		}
	}
	return users
}

// usedBy reports whether one of the sets of names users holds name.
func usedBy(users []map[string]bool, name string) bool {
	for _, u := range users {
		if u[name] {
			return true
		}
	}
	return false
}

// Close forgets an open document. It reports whether the document was open.
func (w *Workspace) Close(uri URI) bool {
	w.writeMu.Lock()
	defer w.writeMu.Unlock()
	_, ok := w.docs.LoadAndDelete(uri)
	if p := uri.Path(); p != "" {
		w.byPath.Compute(filepath.Clean(p), func(old URI, loaded bool) (URI, bool) { return old, !loaded || old == uri })
	}
	return ok
}

// LineBreak returns the line break src uses: that of its first line, or "\n"
// when it has one line.
func LineBreak(src string) string {
	if i := strings.IndexAny(src, "\r\n"); i >= 0 {
		if src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n' {
			return "\r\n"
		}
		return src[i : i+1]
	}
	return "\n"
}
