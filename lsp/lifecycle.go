package lsp

// This file implements the lifecycle: initialize, initialized, shutdown and
// exit (exit is handled in dispatch.go, as it must work in every state).

import (
	"context"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"wfl-lsp/core"
)

// initialize negotiates the position encoding, records the client
// capabilities the server adapts to, and advertises what the server does.
// initializeParams is what initialize's params must be: an object (its
// members may be left out, as some clients do, and then mean what their
// absence means).
var initializeParams = shape{want: "an object with capabilities"}

func (s *server) initialize(params jsonrpc2.RawMessage) (work, error) {
	var p protocol.InitializeParams
	if err := initializeParams.decode(params, &p); err != nil {
		return nil, err
	}
	sess := &session{enc: utf16, clientName: p.ClientInfo.Name, initOpts: p.InitializationOptions}
	if p.ProcessID != nil {
		s.parent.watch(int(*p.ProcessID), s.ctx.Done()) // unless --clientProcessId named one
	}
	caps := p.Capabilities
	if caps.General != nil {
		sess.enc = negotiate(caps.General.PositionEncodings)
	}
	//lint:ignore SA1019 clients before LSP 3.6 send only rootUri
	rootURI := p.RootURI
	if folders, ok := p.WorkspaceFolders.Get(); ok && len(folders) > 0 {
		for _, f := range folders {
			if path := core.URI(f.URI).Path(); path != "" {
				sess.roots = append(sess.roots, path)
			}
		}
	} else if rootURI != nil {
		if path := core.URI(*rootURI).Path(); path != "" {
			sess.roots = append(sess.roots, path)
		}
	}
	if w := caps.Workspace; w != nil && w.DidChangeWatchedFiles != nil && w.DidChangeWatchedFiles.DynamicRegistration != nil {
		sess.caps.watchFiles = *w.DidChangeWatchedFiles.DynamicRegistration
	}
	if w := caps.Workspace; w != nil {
		sess.caps.configuration = w.Configuration != nil && *w.Configuration
		if d := w.DidChangeConfiguration; d != nil && d.DynamicRegistration != nil {
			sess.caps.configChangeRegistration = *d.DynamicRegistration
		}
		if d := w.Diagnostics; d != nil && d.RefreshSupport != nil {
			sess.caps.diagnosticRefresh = *d.RefreshSupport
		}
		if e := w.WorkspaceEdit; e != nil && e.DocumentChanges != nil {
			sess.caps.documentChanges = *e.DocumentChanges
			sess.caps.createFiles = *e.DocumentChanges && slices.Contains(e.ResourceOperations, protocol.ResourceOperationKindCreate)
		}
	}
	if w := caps.Window; w != nil && w.WorkDoneProgress != nil {
		sess.caps.workDoneProgress = *w.WorkDoneProgress
	}
	if td := caps.TextDocument; td != nil {
		if td.DocumentSymbol != nil && td.DocumentSymbol.HierarchicalDocumentSymbolSupport != nil {
			sess.caps.hierarchicalSymbols = *td.DocumentSymbol.HierarchicalDocumentSymbolSupport
		}
		if td.Hover != nil {
			sess.caps.markdownHover = slices.Contains(td.Hover.ContentFormat, protocol.MarkupKindMarkdown)
		}
		if td.FoldingRange != nil && td.FoldingRange.LineFoldingOnly != nil {
			sess.caps.lineFoldingOnly = *td.FoldingRange.LineFoldingOnly
		}
		sess.caps.pullDiagnostics = td.Diagnostic != nil
		if ca := td.CodeAction; ca != nil && ca.DataSupport != nil && *ca.DataSupport {
			sess.caps.resolveEdits = slices.Contains(ca.ResolveSupport.Properties, "edit")
		}
		if c := td.Completion; c != nil && c.CompletionItem != nil && c.CompletionItem.SnippetSupport != nil {
			sess.caps.snippets = *c.CompletionItem.SnippetSupport
		}
		if sh := td.SignatureHelp; sh != nil && sh.SignatureInformation != nil && sh.SignatureInformation.ParameterInformation != nil {
			if o := sh.SignatureInformation.ParameterInformation.LabelOffsetSupport; o != nil {
				sess.caps.labelOffsets = *o
			}
		}
	}
	return func(context.Context) (any, error) {
		s.session.Store(sess)
		s.state.Store(stateRunning)
		s.log.Info("initialize", "client", sess.clientName, "positionEncoding", sess.enc.kind())
		return &protocol.InitializeResult{
			Capabilities: s.capabilities(sess),
			ServerInfo:   protocol.ServerInfo{Name: "wfl-lsp", Version: protocol.NewOptional(s.opts.Version)},
		}, nil
	}, nil
}

// capabilities lists what the server does; each feature adds itself here
// only once it works.
func (s *server) capabilities(sess *session) protocol.ServerCapabilities {
	change := protocol.TextDocumentSyncKindIncremental
	openClose := true
	yes := true
	caps := protocol.ServerCapabilities{
		PositionEncoding:                sess.enc.kind(),
		TextDocumentSync:                &protocol.TextDocumentSyncOptions{OpenClose: &openClose, Change: &change},
		HoverProvider:                   protocol.Boolean(true),
		DefinitionProvider:              protocol.Boolean(true),
		ReferencesProvider:              protocol.Boolean(true),
		DocumentHighlightProvider:       protocol.Boolean(true),
		DocumentSymbolProvider:          protocol.Boolean(true),
		FoldingRangeProvider:            protocol.Boolean(true),
		SelectionRangeProvider:          protocol.Boolean(true),
		DeclarationProvider:             protocol.Boolean(true),
		DocumentFormattingProvider:      protocol.Boolean(true),
		DocumentRangeFormattingProvider: protocol.Boolean(true),
		CodeActionProvider: &protocol.CodeActionOptions{
			CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, protocol.CodeActionKindSourceFixAll},
			ResolveProvider: &sess.caps.resolveEdits,
		},
		RenameProvider:                   &protocol.RenameOptions{PrepareProvider: &yes},
		DocumentLinkProvider:             &protocol.DocumentLinkOptions{},
		InlayHintProvider:                protocol.Boolean(true),
		CallHierarchyProvider:            protocol.Boolean(true),
		TypeDefinitionProvider:           protocol.Boolean(true),
		ImplementationProvider:           protocol.Boolean(true),
		TypeHierarchyProvider:            protocol.Boolean(true),
		CodeLensProvider:                 &protocol.CodeLensOptions{ResolveProvider: &yes},
		DocumentOnTypeFormattingProvider: protocol.DocumentOnTypeFormattingOptions{FirstTriggerCharacter: "\n"},
		WorkspaceSymbolProvider:          protocol.Boolean(true),
		Workspace: &protocol.WorkspaceOptions{WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{
			Supported: &yes, ChangeNotifications: protocol.Boolean(true),
		}, FileOperations: fileOperations()},
		CompletionProvider: &protocol.CompletionOptions{
			TriggerCharacters: []string{"."},
			ResolveProvider:   &yes,
		},
		SignatureHelpProvider: &protocol.SignatureHelpOptions{TriggerCharacters: []string{" "}},
		SemanticTokensProvider: &protocol.SemanticTokensOptions{
			Legend: semanticLegend(),
			Range:  protocol.Boolean(true),
			Full:   &protocol.SemanticTokensFullDelta{Delta: &yes},
		},
	}
	if sess.caps.pullDiagnostics {
		// Clients that pull get diagnostics only that way, so they are not
		// shown twice. A document's depend on the files it includes: a
		// client then pulls the other open documents' again after a change
		// (and the server asks for a refresh when an include's names
		// change, refreshIncluders).
		caps.DiagnosticProvider = &protocol.DiagnosticOptions{InterFileDependencies: true}
	}
	return caps
}

// shutdown publishes the diagnostics still pending and stops background
// work; the session then waits for exit and answers every other request with
// InvalidRequest.
func (s *server) shutdown(jsonrpc2.RawMessage) (work, error) {
	return func(context.Context) (any, error) {
		s.syncMu.Lock() // a settings change re-analysing documents finishes first
		s.state.Store(stateShutdown)
		s.syncMu.Unlock()
		s.shutdownSeen.Store(true)
		s.diags.finish()
		return nil, nil
	}, nil
}

// initialized starts what the server does once the client is ready: watching
// files, indexing the workspace, asking for the configuration.
func (s *server) initialized(_ jsonrpc2.RawMessage) error {
	sess := s.session.Load()
	s.log.Info("client initialized", "client", sess.clientName)
	if sess.caps.watchFiles {
		go s.watchFiles()
	}
	if len(sess.roots) > 0 {
		s.startIndexing(sess.roots)
	}
	s.configured()
	return nil
}
