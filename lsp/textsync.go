package lsp

// This file keeps the workspace in step with the editor: didOpen, didChange
// (incremental and whole-document changes), didSave and didClose. These run
// on the read loop in wire order and stay cheap: they update the workspace
// and hand the new snapshot to the diagnostics publisher.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/lang/token"
)

// synced makes the handler of a document change: f runs on the decoded
// params (and the raw ones) holding syncMu, so that the open documents
// change one at a time.
func synced[P any](f func(s *server, p *P, raw jsonrpc2.RawMessage) error) notification {
	return func(s *server, params jsonrpc2.RawMessage) error {
		s.syncMu.Lock()
		defer s.syncMu.Unlock()
		var p P
		if err := decodeParams(params, &p); err != nil {
			return err
		}
		return f(s, &p, params)
	}
}

func (s *server) didOpen(p *protocol.DidOpenTextDocumentParams, raw jsonrpc2.RawMessage) error {
	td := p.TextDocument
	if spelling, ok := clientSpelling(raw, td.URI); ok {
		s.spellings.Store(uri.URI(ownURI(td.URI)), spelling)
	} else {
		s.spellings.Delete(td.URI)
	}
	// A second didOpen of an open document replaces it.
	snap := s.ws.Open(ownURI(td.URI), td.Version, td.Text)
	s.diags.update(snap)
	s.refreshIncluders(snap.URI, nil)
	s.republishIncluded(snap)
	return nil
}

// clientSpelling returns the URI of a didOpen's document as the client
// wrote it in raw, when that is not u, the protocol decoder's canonical form
// of it (which escapes what it must, and only that, in upper-case hex), but
// means the same document. The specification asks a server to name a
// document as its client does: a client that finds a document's
// diagnostics by its URI as a string would otherwise not find them.
func clientSpelling(raw jsonrpc2.RawMessage, u uri.URI) (uri.URI, bool) {
	// Most clients write the canonical form: then the text, which may be
	// large, is not decoded a second time.
	quoted, _ := json.Marshal(string(u))
	if bytes.Contains(raw, append([]byte(`"uri":`), quoted...)) || bytes.Contains(raw, append([]byte(`"uri": `), quoted...)) {
		return "", false
	}
	var p struct {
		TextDocument struct {
			URI string `json:"uri"`
		} `json:"textDocument"`
	}
	if json.Unmarshal(raw, &p) != nil || p.TextDocument.URI == string(u) {
		return "", false
	}
	if c, err := uri.Parse(p.TextDocument.URI); err != nil || c != u {
		return "", false
	}
	return uri.URI(p.TextDocument.URI), true
}

// spelled returns the URI of a document as its client spells it
// (clientSpelling): u itself unless the client opened it otherwise.
func (s *server) spelled(u uri.URI) uri.URI {
	if v, ok := s.spellings.Load(u); ok {
		return v.(uri.URI)
	}
	return u
}

// ownURI returns a document's URI in memory of its own, for the workspace
// to keep as the document's key and its snapshots' URI: a string the
// decoder made shares the memory of the whole message it came in, which
// for a didOpen is the whole text (escaped) and would stay as long as the
// document is open, and after, until the workspace's map forgets the key.
func ownURI(u uri.URI) core.URI { return core.URI(strings.Clone(string(u))) }

// didChange applies the changes of a document. A change that cannot be
// applied as it is written (a range with a negative or fractional number,
// a line past the end of the text, an end before its start) is refused
// with all the others of the notification, and the document stays as it
// was: reading it some other way (the protocol's decoder took a change
// whose range it could not read for a whole-document change) would leave
// the server's text silently different from the client's.
func (s *server) didChange(p *protocol.DidChangeTextDocumentParams, raw jsonrpc2.RawMessage) error {
	u := ownURI(p.TextDocument.URI)
	old, ok := s.ws.Snapshot(u)
	if !ok {
		return fmt.Errorf("didChange for %s, which is not open", u)
	}
	version := p.TextDocument.Version
	edits, text, err := s.convertChanges(old, p.ContentChanges, raw, version <= old.Version)
	if err != nil {
		return fmt.Errorf("didChange for %s version %d: %w", u, version, err)
	}
	var snap *core.Snapshot
	if version <= old.Version {
		// The client's numbering went wrong; the text it describes is still
		// the truth, so keep it rather than drifting out of step.
		s.log.Warn("didChange version does not increase", "uri", u, "version", version, "previous", old.Version)
		snap = s.ws.Open(u, version, text)
	} else if snap, err = s.ws.Change(u, version, edits...); err != nil {
		return err
	}
	s.diags.update(snap)
	s.refreshIncluders(u, old)
	return nil
}

// convertChanges converts content changes into byte-offset edits. Each
// change is converted against the text the previous ones left, as the
// specification says they apply one after another. It returns the edits and,
// when wantText is set, the final text. raw is the notification's params,
// to tell a whole-document change from a change with a range that could
// not be decoded. A character past the end of its line means the end of
// the line, as the specification says of every position; a line past the
// end of the text, or a range ending before it starts, is an error.
func (s *server) convertChanges(old *core.Snapshot, changes []protocol.TextDocumentContentChangeEvent, raw jsonrpc2.RawMessage, wantText bool) ([]core.Edit, string, error) {
	enc := s.session.Load().enc
	text := old.Text
	edits := make([]core.Edit, 0, len(changes))
	var ranged []bool // which changes carry a range, read from raw when needed
	for i, c := range changes {
		var e core.Edit
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangePartial:
			lines := old.Lines() // the snapshot's table for the first change
			if i > 0 {
				lines = token.NewLines(text)
			}
			r := c.Range
			if n := lines.Count(); int(r.Start.Line) >= n || int(r.End.Line) >= n {
				return nil, "", fmt.Errorf("content change %d: range %s past the end of the text (%d lines)", i, showRange(r), n)
			}
			if r.End.Line < r.Start.Line || r.End.Line == r.Start.Line && r.End.Character < r.Start.Character {
				return nil, "", fmt.Errorf("content change %d: range %s ends before it starts", i, showRange(r))
			}
			sp := newMapper(lines, enc).span(r)
			e = core.Edit{Start: sp.Start, End: sp.End, Text: c.Text}
		case *protocol.TextDocumentContentChangeWholeDocument:
			if ranged == nil && bytes.Contains(raw, []byte(`"range"`)) {
				ranged = changesWithRange(raw, len(changes))
			}
			if i < len(ranged) && ranged[i] {
				return nil, "", fmt.Errorf("content change %d: its range is not a range (each line and character a whole number from 0)", i)
			}
			e = core.Edit{Start: 0, End: len(text), Text: c.Text}
		default:
			return nil, "", fmt.Errorf("content change %d has no text", i)
		}
		edits = append(edits, e)
		if i < len(changes)-1 || wantText {
			var err error
			if text, err = core.ApplyEdits(text, e); err != nil {
				return nil, "", err
			}
		}
	}
	return edits, text, nil
}

// showRange writes r as line:character-line:character, 0-based.
func showRange(r protocol.Range) string {
	return fmt.Sprintf("%d:%d-%d:%d", r.Start.Line, r.Start.Character, r.End.Line, r.End.Character)
}

// changesWithRange reports which of the n content changes of didChange
// params have a "range" member (decoding no text).
func changesWithRange(raw jsonrpc2.RawMessage, n int) []bool {
	var p struct {
		ContentChanges []struct {
			Range json.RawMessage `json:"range"`
		} `json:"contentChanges"`
	}
	out := make([]bool, n)
	if json.Unmarshal(raw, &p) == nil {
		for i, c := range p.ContentChanges {
			if i < n && c.Range != nil && string(c.Range) != "null" {
				out[i] = true
			}
		}
	}
	return out
}

func (s *server) didClose(p *protocol.DidCloseTextDocumentParams, _ jsonrpc2.RawMessage) error {
	u := core.URI(p.TextDocument.URI)
	last, _ := s.ws.Snapshot(u)
	included := s.ws.IncludedUsing(u, last, s.announced[u])
	if !s.ws.Close(u) {
		return fmt.Errorf("didClose for %s, which is not open", u)
	}
	delete(s.announced, u)
	s.diags.closed(p.TextDocument.URI)
	s.tokens.forget(p.TextDocument.URI)
	s.refreshIncluders(u, last) // they now read the file on the disk
	for _, snap := range included {
		s.diags.update(snap) // it no longer uses their variables
	}
	if last != nil && len(last.Text) >= reclaimSize {
		s.reclaim()
	}
	return nil
}

// reclaimSize is the size of a closed document from which the server
// returns the memory its analysis held to the system at once (about 20
// bytes a byte, and as much garbage again): the collector would only
// find it free at its next collection, which an idle server does not
// make, and then give it back a little at a time.
const reclaimSize = 1 << 20

// reclaim collects and returns the free memory to the system, on a
// goroutine of its own (a collection of what is still live, then the
// release), one at a time: the closes that come meanwhile make one more.
func (s *server) reclaim() {
	if s.reclaiming.Add(1) != 1 {
		return // the running one makes one more
	}
	go func() {
		for {
			n := s.reclaiming.Load()
			debug.FreeOSMemory()
			if s.reclaiming.Add(-n) == 0 {
				return
			}
		}
	}()
}

// didSave publishes anew the diagnostics of the open documents the saved
// one includes: which of their variables it uses may have changed (see
// core's Workspace.Diagnostics). Editing a file does not, to keep typing
// cheap; saving, opening and closing it do.
func (s *server) didSave(params jsonrpc2.RawMessage) error {
	var p protocol.DidSaveTextDocumentParams
	if err := decodeParams(params, &p); err != nil {
		return err
	}
	s.syncMu.Lock()
	defer s.syncMu.Unlock()
	if snap, ok := s.ws.Snapshot(core.URI(p.TextDocument.URI)); ok {
		s.republishIncluded(snap)
	}
	return nil
}

// republishIncluded publishes anew the diagnostics of the open documents
// that snap's document includes whose unused-variable warnings may change
// with what it uses now or used when they were last published
// (core.Workspace.IncludedUsing): in an include cycle opened file by file,
// the one or two files whose names the new file uses, not all of them.
func (s *server) republishIncluded(snap *core.Snapshot) {
	if s.announced == nil {
		s.announced = map[core.URI]*core.Snapshot{}
	}
	before := s.announced[snap.URI]
	s.announced[snap.URI] = snap
	others := s.ws.IncludedUsing(snap.URI, snap, before)
	for _, other := range others {
		s.diags.update(other)
	}
	s.refreshPulled(len(others))
}

// refreshIncluders publishes anew the diagnostics of the open documents
// that include the document at u, when what it gives them changed (before
// is the snapshot it had, or nil when it was opened, closed or changed on
// the disk).
func (s *server) refreshIncluders(u core.URI, before *core.Snapshot) {
	others := s.ws.Refresh(u, before)
	for _, snap := range others {
		s.diags.update(snap)
	}
	s.refreshPulled(len(others))
}

// refreshPulled asks a client that pulls diagnostics, and takes
// workspace/diagnostic/refresh, to pull them again, when changed other
// documents than the one it changed (a pushing client was sent them): it
// pulls a document's after a change of that document only. Not on the
// read loop, which reads the answer.
func (s *server) refreshPulled(changed int) {
	if changed == 0 {
		return
	}
	if sess := s.session.Load(); sess == nil || !sess.caps.pullDiagnostics || !sess.caps.diagnosticRefresh {
		return
	}
	go func() {
		if _, err := s.conn.Call(s.ctx, protocol.MethodWorkspaceDiagnosticRefresh, nil, nil); err != nil {
			s.log.Debug("workspace/diagnostic/refresh failed", "err", err)
		}
	}()
}
