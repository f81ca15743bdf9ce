package lsp

// This file keeps the workspace in step with the editor: didOpen, didChange
// (incremental and whole-document changes), didSave and didClose. These run
// on the read loop in wire order and stay cheap: they update the workspace
// and hand the new snapshot to the diagnostics publisher.

import (
	"fmt"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"wfl-lsp/core"
	"wfl-lsp/lang/token"
)

func init() {
	notifications[protocol.MethodTextDocumentDidOpen] = synced((*server).didOpen)
	notifications[protocol.MethodTextDocumentDidChange] = synced((*server).didChange)
	notifications[protocol.MethodTextDocumentDidClose] = synced((*server).didClose)
	notifications[protocol.MethodTextDocumentDidSave] = (*server).didSave
}

// synced makes the handler of a document change: f runs on the decoded
// params holding syncMu, so that the open documents change one at a time.
func synced[P any](f func(s *server, p *P) error) notification {
	return func(s *server, params jsonrpc2.RawMessage) error {
		s.syncMu.Lock()
		defer s.syncMu.Unlock()
		var p P
		if err := decodeParams(params, &p); err != nil {
			return err
		}
		return f(s, &p)
	}
}

func (s *server) didOpen(p *protocol.DidOpenTextDocumentParams) error {
	td := p.TextDocument
	// A second didOpen of an open document replaces it.
	snap := s.ws.Open(core.URI(td.URI), td.Version, td.Text)
	s.diags.update(snap)
	s.refreshIncluders(snap.URI, nil)
	s.republishIncluded(snap)
	return nil
}

func (s *server) didChange(p *protocol.DidChangeTextDocumentParams) error {
	u := core.URI(p.TextDocument.URI)
	old, ok := s.ws.Snapshot(u)
	if !ok {
		return fmt.Errorf("didChange for %s, which is not open", u)
	}
	version := p.TextDocument.Version
	edits, text, err := s.convertChanges(old, p.ContentChanges, version <= old.Version)
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
// when wantText is set, the final text.
func (s *server) convertChanges(old *core.Snapshot, changes []protocol.TextDocumentContentChangeEvent, wantText bool) ([]core.Edit, string, error) {
	enc := s.session.Load().enc
	text := old.Text
	edits := make([]core.Edit, 0, len(changes))
	for i, c := range changes {
		var e core.Edit
		switch c := c.(type) {
		case *protocol.TextDocumentContentChangePartial:
			lines := old.Lines() // the snapshot's table for the first change
			if i > 0 {
				lines = token.NewLines(text)
			}
			sp := newMapper(lines, enc).span(c.Range)
			e = core.Edit{Start: sp.Start, End: sp.End, Text: c.Text}
		case *protocol.TextDocumentContentChangeWholeDocument:
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

func (s *server) didClose(p *protocol.DidCloseTextDocumentParams) error {
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
	return nil
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
	for _, other := range s.ws.IncludedUsing(snap.URI, snap, before) {
		s.diags.update(other)
	}
}

// refreshIncluders publishes anew the diagnostics of the open documents
// that include the document at u, when what it gives them changed (before
// is the snapshot it had, or nil when it was opened, closed or changed on
// the disk).
func (s *server) refreshIncluders(u core.URI, before *core.Snapshot) {
	for _, snap := range s.ws.Refresh(u, before) {
		s.diags.update(snap)
	}
}
