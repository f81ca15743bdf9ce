package lsp

// This file reads the client's settings: the "wfl" configuration section,
// whose keys override the `.wflcfg` lint and format settings (precedence in
// core/settings.go: client keys > nearest .wflcfg > the VS Code extension's
// format.indentSize > global file > defaults).
//
// Settings given as initializationOptions are read first. A client that
// answers workspace/configuration is asked after initialized
// and again on every workspace/didChangeConfiguration (whose payload is then
// only a signal), once per workspace folder with the folder as scope. A
// client that does not is read from the didChangeConfiguration payload
// (`{"wfl": {...}}`, or the section itself), applied to every folder. After
// a change, the open documents are analysed again and their diagnostics
// published anew; clients that pull diagnostics are asked to refresh.

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
)

// settingsSection is the configuration section the server reads.
const settingsSection = "wfl"

// folderSettings is the settings registered for one folder ("" for every
// document when the session has no folders).
type folderSettings struct {
	dir string
	s   core.Settings
}

// configured starts reading the settings after initialized: first those
// given as initializationOptions (Helix sends its `config` there), then,
// from a client that answers them, those of workspace/configuration.
func (s *server) configured() {
	sess := s.session.Load()
	if len(sess.initOpts) > 0 && string(sess.initOpts) != "null" {
		s.applyPushed(sess.initOpts)
	}
	caps := sess.caps
	if caps.configChangeRegistration {
		go s.registerConfigChange()
	}
	if caps.configuration {
		go s.pullSettings()
	}
}

// registerConfigChange asks a client that registers dynamically to send
// didChangeConfiguration for the "wfl" section.
func (s *server) registerConfigChange() {
	params := &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: "wfl-configuration", Method: protocol.MethodWorkspaceDidChangeConfiguration,
		RegisterOptions: protocol.LSPAny(`{"section":"` + settingsSection + `"}`),
	}}}
	if _, err := s.conn.Call(s.ctx, protocol.MethodClientRegisterCapability, params, nil); err != nil {
		s.log.Debug("configuration change not registered", "err", err)
	}
}

func (s *server) didChangeConfiguration(params jsonrpc2.RawMessage) error {
	if s.session.Load().caps.configuration {
		go s.pullSettings()
		return nil
	}
	var p struct {
		Settings json.RawMessage `json:"settings"`
	}
	if err := json.Unmarshal(params, &p); err != nil {
		return fmt.Errorf("didChangeConfiguration: %w", err)
	}
	s.applyPushed(p.Settings)
	return nil
}

// applyPushed installs settings a client sent (`{"wfl": {...}}`, or the
// section itself) for every folder.
func (s *server) applyPushed(settings json.RawMessage) {
	section := settings
	var whole map[string]json.RawMessage
	if json.Unmarshal(settings, &whole) == nil {
		if v, ok := whole[settingsSection]; ok {
			section = v
		}
	}
	st, problems := core.ParseSettings(section)
	var folders []folderSettings
	for _, dir := range s.settingsScopes() {
		folders = append(folders, folderSettings{dir: dir, s: st})
	}
	s.applySettings(s.cfgSeq.Add(1), folders, problems)
}

// settingsScopes are the folders settings are registered for: the
// workspace folders, or "" (every document) without any.
func (s *server) settingsScopes() []string {
	if roots := s.session.Load().roots; len(roots) > 0 {
		return roots
	}
	return []string{""}
}

// pullSettings asks the client for the "wfl" section of every folder.
func (s *server) pullSettings() {
	seq := s.cfgSeq.Add(1)
	scopes := s.settingsScopes()
	section := settingsSection
	items := make([]protocol.ConfigurationItem, len(scopes))
	for i, dir := range scopes {
		items[i].Section = &section
		if dir != "" {
			u := uri.File(dir)
			items[i].ScopeURI = &u
		}
	}
	var raw jsonrpc2.RawMessage
	if _, err := s.conn.Call(s.ctx, protocol.MethodWorkspaceConfiguration, &protocol.ConfigurationParams{Items: items}, &raw); err != nil {
		s.log.Warn("workspace/configuration failed", "err", err)
		return
	}
	var values []json.RawMessage
	if err := json.Unmarshal(raw, &values); err != nil || len(values) != len(scopes) {
		s.log.Warn("workspace/configuration: want one value per item", "items", len(scopes), "answer", clip(raw))
		return
	}
	var folders []folderSettings
	var problems []error
	for i, dir := range scopes {
		st, errs := core.ParseSettings(values[i])
		problems = append(problems, errs...)
		folders = append(folders, folderSettings{dir: dir, s: st})
	}
	s.applySettings(seq, folders, problems)
}

// applySettings installs the settings read by the seq-th read (an older
// read that finishes later is dropped), reports their problems to the user,
// and, if they changed, analyses the open documents again.
func (s *server) applySettings(seq uint64, folders []folderSettings, problems []error) {
	if len(problems) > 0 {
		msg := "wfl-lsp: " + errors.Join(problems...).Error()
		s.log.Warn(msg)
		s.conn.Notify(s.ctx, protocol.MethodWindowLogMessage, &protocol.LogMessageParams{Type: protocol.MessageTypeWarning, Message: msg})
	}
	s.cfgMu.Lock()
	if seq < s.cfgApplied || s.ctx.Err() != nil {
		s.cfgMu.Unlock()
		return
	}
	s.cfgApplied = seq
	// Only settings that say something count: a client that answers
	// with an empty section (most do, before the user sets anything)
	// changes nothing, and nothing is analysed again.
	folders = slices.DeleteFunc(folders, func(f folderSettings) bool { return f.s.IsZero() })
	changed := !slices.Equal(folders, s.cfgFolders)
	if changed {
		for _, remove := range s.cfgRemove {
			remove()
		}
		s.cfgRemove = s.cfgRemove[:0]
		for _, f := range folders {
			s.cfgRemove = append(s.cfgRemove, core.SetSettings(f.dir, f.s))
		}
		s.cfgFolders = folders
	}
	s.cfgMu.Unlock()
	if changed {
		s.log.Info("settings changed", "folders", len(folders))
		s.reanalyse()
	}
}

// reanalyse replaces every open document's snapshot by a fresh one of the
// same text and version, so that its analysis runs under the new settings,
// and publishes its diagnostics (or asks a pulling client to refresh).
func (s *server) reanalyse() {
	s.syncMu.Lock()
	if s.state.Load() != stateRunning {
		s.syncMu.Unlock()
		return
	}
	for _, old := range s.ws.Snapshots() {
		s.diags.update(s.ws.Open(old.URI, old.Version, old.Text))
	}
	s.syncMu.Unlock()
	s.refreshPulled(1)
}

// dropSettings removes the session's settings when it ends.
func (s *server) dropSettings() {
	s.cfgMu.Lock()
	defer s.cfgMu.Unlock()
	for _, remove := range s.cfgRemove {
		remove()
	}
	s.cfgRemove, s.cfgFolders = nil, nil
	s.cfgApplied = ^uint64(0) // a read still in flight installs nothing
}
