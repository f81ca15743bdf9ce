package lsp

// This file is the table of the methods the server answers: each
// request and notification of LSP it handles, and the function that does,
// grouped by feature area as the files that implement them. How a request
// is scheduled (short, background, a document's or the whole document's
// snapshot) is said here too; dispatch.go runs the table.

import (
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// requests maps a request method to how it is prepared and run.
var requests = map[string]request{
	// lifecycle.go
	protocol.MethodInitialize: {prepare: async((*server).initialize), inline: true},
	protocol.MethodShutdown:   {prepare: async((*server).shutdown), inline: true},
	// workspace.go
	protocol.MethodWorkspaceSymbol: {prepare: async(workspaceSymbol)},
	// filerename.go
	protocol.MethodWorkspaceWillRenameFiles: {prepare: async(willRenameFiles)},
	// features.go
	protocol.MethodTextDocumentHover:             short(docRequest(posURI[protocol.HoverParams], hover)),
	protocol.MethodTextDocumentDefinition:        short(docRequest(posURI[protocol.DefinitionParams], definition)),
	protocol.MethodTextDocumentReferences:        docRequest(posURI[protocol.ReferenceParams], references),
	protocol.MethodTextDocumentDocumentHighlight: short(docRequest(posURI[protocol.DocumentHighlightParams], highlight)),
	protocol.MethodTextDocumentDocumentSymbol:    background(receiptDocRequest(func(p *protocol.DocumentSymbolParams) uri.URI { return p.TextDocument.URI }, documentSymbol)),
	protocol.MethodTextDocumentFoldingRange:      background(receiptDocRequest(func(p *protocol.FoldingRangeParams) uri.URI { return p.TextDocument.URI }, foldingRange)),
	protocol.MethodTextDocumentSelectionRange:    docRequest(func(p *protocol.SelectionRangeParams) uri.URI { return p.TextDocument.URI }, selectionRange),
	protocol.MethodTextDocumentDiagnostic:        background(wholeDocRequest(func(p *protocol.DocumentDiagnosticParams) uri.URI { return p.TextDocument.URI }, pullDiagnostics)),
	// navigate.go
	protocol.MethodTextDocumentTypeDefinition:       short(docRequest(func(p *protocol.TypeDefinitionParams) uri.URI { return p.TextDocument.URI }, typeDefinition)),
	protocol.MethodTextDocumentImplementation:       docRequest(func(p *protocol.ImplementationParams) uri.URI { return p.TextDocument.URI }, implementation),
	protocol.MethodTextDocumentPrepareTypeHierarchy: docRequest(func(p *protocol.TypeHierarchyPrepareParams) uri.URI { return p.TextDocument.URI }, prepareTypeHierarchy),
	protocol.MethodTypeHierarchySupertypes:          typeItemRequest(func(p *protocol.TypeHierarchySupertypesParams) protocol.TypeHierarchyItem { return p.Item }, supertypes),
	protocol.MethodTypeHierarchySubtypes:            typeItemRequest(func(p *protocol.TypeHierarchySubtypesParams) protocol.TypeHierarchyItem { return p.Item }, subtypes),
	protocol.MethodTextDocumentCodeLens:             background(receiptDocRequest(func(p *protocol.CodeLensParams) uri.URI { return p.TextDocument.URI }, codeLens)),
	protocol.MethodCodeLensResolve:                  {prepare: async(resolveCodeLens)},
	protocol.MethodTextDocumentOnTypeFormatting:     docRequest(func(p *protocol.DocumentOnTypeFormattingParams) uri.URI { return p.TextDocument.URI }, onTypeFormatting),
	// calls.go
	protocol.MethodTextDocumentPrepareCallHierarchy: docRequest(func(p *protocol.CallHierarchyPrepareParams) uri.URI { return p.TextDocument.URI }, prepareCallHierarchy),
	protocol.MethodCallHierarchyIncomingCalls:       itemRequest(func(p *protocol.CallHierarchyIncomingCallsParams) protocol.CallHierarchyItem { return p.Item }, incomingCalls),
	protocol.MethodCallHierarchyOutgoingCalls:       itemRequest(func(p *protocol.CallHierarchyOutgoingCallsParams) protocol.CallHierarchyItem { return p.Item }, outgoingCalls),
	// completion.go
	protocol.MethodTextDocumentCompletion:    docRequest(func(p *protocol.CompletionParams) uri.URI { return p.TextDocument.URI }, complete),
	protocol.MethodCompletionItemResolve:     {prepare: async(resolveCompletion)},
	protocol.MethodTextDocumentSignatureHelp: short(docRequest(func(p *protocol.SignatureHelpParams) uri.URI { return p.TextDocument.URI }, signatureHelp)),
	// semtok.go
	protocol.MethodTextDocumentSemanticTokensFull:      background(receiptDocRequest(func(p *protocol.SemanticTokensParams) uri.URI { return p.TextDocument.URI }, semanticTokensFull)),
	protocol.MethodTextDocumentSemanticTokensFullDelta: background(receiptDocRequest(func(p *protocol.SemanticTokensDeltaParams) uri.URI { return p.TextDocument.URI }, semanticTokensDelta)),
	protocol.MethodTextDocumentSemanticTokensRange:     background(docRequest(func(p *protocol.SemanticTokensRangeParams) uri.URI { return p.TextDocument.URI }, semanticTokensRange)),
	// edits.go
	protocol.MethodTextDocumentFormatting:      wholeDocRequest(func(p *protocol.DocumentFormattingParams) uri.URI { return p.TextDocument.URI }, formatting),
	protocol.MethodTextDocumentRangeFormatting: docRequest(func(p *protocol.DocumentRangeFormattingParams) uri.URI { return p.TextDocument.URI }, rangeFormatting),
	protocol.MethodTextDocumentCodeAction:      docRequest(func(p *protocol.CodeActionParams) uri.URI { return p.TextDocument.URI }, codeAction),
	protocol.MethodCodeActionResolve:           {prepare: async(resolveCodeAction)},
	protocol.MethodTextDocumentRename:          docRequest(func(p *protocol.RenameParams) uri.URI { return p.TextDocument.URI }, rename),
	protocol.MethodTextDocumentPrepareRename:   short(docRequest(func(p *protocol.PrepareRenameParams) uri.URI { return p.TextDocument.URI }, prepareRename)),
	protocol.MethodTextDocumentDeclaration:     short(docRequest(func(p *protocol.DeclarationParams) uri.URI { return p.TextDocument.URI }, declaration)),
	protocol.MethodTextDocumentDocumentLink:    background(receiptDocRequest(func(p *protocol.DocumentLinkParams) uri.URI { return p.TextDocument.URI }, documentLink)),
	protocol.MethodTextDocumentInlayHint:       background(docRequest(func(p *protocol.InlayHintParams) uri.URI { return p.TextDocument.URI }, inlayHint)),
}

// notifications maps a notification method to its handler, run on the
// read loop in the order the notifications came.
var notifications = map[string]notification{
	// lifecycle.go
	protocol.MethodInitialized: (*server).initialized,
	// textsync.go
	protocol.MethodTextDocumentDidOpen:   synced((*server).didOpen),
	protocol.MethodTextDocumentDidChange: synced((*server).didChange),
	protocol.MethodTextDocumentDidClose:  synced((*server).didClose),
	protocol.MethodTextDocumentDidSave:   (*server).didSave,
	// config.go
	protocol.MethodWorkspaceDidChangeConfiguration: (*server).didChangeConfiguration,
	// workspace.go
	protocol.MethodWorkspaceDidChangeWatchedFiles:     (*server).didChangeWatchedFiles,
	protocol.MethodWorkspaceDidChangeWorkspaceFolders: (*server).didChangeWorkspaceFolders,
}
