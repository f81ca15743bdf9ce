package lsp

// This file serves completion (with completionItem/resolve, which adds a
// builtin's documentation) and signature help, converted from core.

import (
	"context"
	"encoding/json"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"wfl-lsp/core"
)

func init() {
	requests[protocol.MethodTextDocumentCompletion] = docRequest(func(p *protocol.CompletionParams) uri.URI { return p.TextDocument.URI }, completion)
	requests[protocol.MethodCompletionItemResolve] = request{prepare: resolveCompletion}
	requests[protocol.MethodTextDocumentSignatureHelp] = short(docRequest(func(p *protocol.SignatureHelpParams) uri.URI { return p.TextDocument.URI }, signatureHelp))
}

var completionKinds = map[core.CompletionKind]protocol.CompletionItemKind{
	core.CompleteKeyword:   protocol.CompletionItemKindKeyword,
	core.CompleteSnippet:   protocol.CompletionItemKindSnippet,
	core.CompleteVariable:  protocol.CompletionItemKindVariable,
	core.CompleteConstant:  protocol.CompletionItemKindConstant,
	core.CompleteParameter: protocol.CompletionItemKindVariable,
	core.CompleteAction:    protocol.CompletionItemKindFunction,
	core.CompleteBuiltin:   protocol.CompletionItemKindFunction,
	core.CompleteContainer: protocol.CompletionItemKindClass,
	core.CompleteProperty:  protocol.CompletionItemKindProperty,
	core.CompleteMethod:    protocol.CompletionItemKindMethod,
	core.CompleteInterface: protocol.CompletionItemKindInterface,
	core.CompleteType:      protocol.CompletionItemKindTypeParameter,
	core.CompleteFile:      protocol.CompletionItemKindFile,
	core.CompleteFolder:    protocol.CompletionItemKindFolder,
}

// maxCompletionItems bounds one completion answer.
const maxCompletionItems = 200

// resolveData is what a builtin's item carries for completionItem/resolve.
type resolveData struct {
	Builtin string `json:"builtin"`
}

func completion(ctx context.Context, s *server, d doc, p *protocol.CompletionParams) (any, error) {
	a, m, off := d.at(p.Position)
	s.lanes.stepAside(ctx) // the list waits for the short answers
	snippets := s.session.Load().caps.snippets
	span, items := a.Completion(off, core.CompletionOptions{Snippets: snippets, Path: core.URI(d.uri).Path(), Max: maxCompletionItems + 1})
	// Long lists are cut; the client asks again as the prefix grows.
	incomplete := len(items) > maxCompletionItems
	if incomplete {
		items = items[:maxCompletionItems]
	}
	rng := m.rng(span)
	out := make([]protocol.CompletionItem, 0, len(items))
	for i, it := range items {
		ci := protocol.CompletionItem{
			Label:    it.Label,
			Kind:     completionKinds[it.Kind],
			SortText: protocol.NewOptional(sortKey(i)),
			TextEdit: &protocol.TextEdit{Range: rng, NewText: it.Insert},
		}
		if it.Detail != "" {
			ci.Detail = protocol.NewOptional(it.Detail)
		}
		if it.Doc != "" {
			ci.Documentation = protocol.String(it.Doc)
		}
		if it.Snippet != "" {
			ci.TextEdit = &protocol.TextEdit{Range: rng, NewText: it.Snippet}
			ci.InsertTextFormat = protocol.InsertTextFormatSnippet
		}
		if it.Kind == core.CompleteBuiltin {
			data, _ := json.Marshal(resolveData{Builtin: it.Label})
			ci.Data = protocol.LSPAny(data)
		}
		out = append(out, ci)
	}
	return &protocol.CompletionList{IsIncomplete: incomplete, Items: out}, nil
}

// sortKey keeps core's order.
func sortKey(i int) string {
	const digits = "0123456789"
	b := []byte{'0', '0', '0', '0', '0'}
	for k := len(b) - 1; k >= 0 && i > 0; k-- {
		b[k] = digits[i%10]
		i /= 10
	}
	return string(b)
}

// resolveCompletion adds a builtin's documentation to its item.
func resolveCompletion(_ *server, params jsonrpc2.RawMessage) (work, error) {
	var item protocol.CompletionItem
	if err := decodeParams(params, &item); err != nil {
		return nil, err
	}
	return func(context.Context) (any, error) {
		var data resolveData
		if len(item.Data) > 0 && json.Unmarshal(item.Data, &data) == nil && data.Builtin != "" {
			if doc, ok := core.BuiltinDoc(data.Builtin); ok {
				item.Documentation = &protocol.MarkupContent{Kind: protocol.MarkupKindPlainText, Value: doc}
			}
		}
		return &item, nil
	}, nil
}

// signatureHelp gives each parameter as its offsets in the signature's
// label to a client that takes them: a client given the parameter's text
// must search the label for it, and may find it elsewhere or not at all
// (Neovim 0.7 searches from the first trigger character, a space, and so
// highlighted nothing in `substring(text as Text, …)`).
func signatureHelp(_ context.Context, s *server, d doc, p *protocol.SignatureHelpParams) (any, error) {
	a, m, off := d.at(p.Position)
	info := a.SignatureHelp(off)
	if info == nil {
		return nil, nil
	}
	sh := &protocol.SignatureHelp{}
	active := uint32(info.ActiveSig)
	sh.ActiveSignature = &active
	sh.ActiveParameter = protocol.NewNullable(uint32(info.ActiveParam))
	for _, sig := range info.Signatures {
		si := protocol.SignatureInformation{Label: sig.Label}
		if sig.Doc != "" {
			si.Documentation = protocol.String(sig.Doc)
		}
		offsets := s.session.Load().caps.labelOffsets && len(sig.Spans) == len(sig.Params)
		for i, param := range sig.Params {
			var label protocol.ParameterInformationLabel = protocol.String(param)
			if offsets {
				sp := sig.Spans[i]
				start := m.units(sig.Label[:sp[0]])
				label = protocol.ParameterInformationLabelTuple{uint32(start), uint32(start + m.units(sig.Label[sp[0]:sp[1]]))}
			}
			si.Parameters = append(si.Parameters, protocol.ParameterInformation{Label: label})
		}
		sh.Signatures = append(sh.Signatures, si)
	}
	return sh, nil
}
