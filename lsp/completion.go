package lsp

// This file serves completion (with completionItem/resolve, which adds a
// builtin's documentation) and signature help, converted from core. The
// completion list is written as JSON directly (appendCompletionList): it
// answers every keystroke, and building protocol values for its items
// cost more than encoding them.

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strconv"

	"github.com/go-json-experiment/json/jsontext"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"wfl-lsp/core"
	"wfl-lsp/core/completion"
	"wfl-lsp/core/navigation"
)

var completionKinds = map[completion.Kind]protocol.CompletionItemKind{
	completion.Keyword:   protocol.CompletionItemKindKeyword,
	completion.Snippet:   protocol.CompletionItemKindSnippet,
	completion.Variable:  protocol.CompletionItemKindVariable,
	completion.Constant:  protocol.CompletionItemKindConstant,
	completion.Parameter: protocol.CompletionItemKindVariable,
	completion.Action:    protocol.CompletionItemKindFunction,
	completion.Builtin:   protocol.CompletionItemKindFunction,
	completion.Container: protocol.CompletionItemKindClass,
	completion.Property:  protocol.CompletionItemKindProperty,
	completion.Method:    protocol.CompletionItemKindMethod,
	completion.Interface: protocol.CompletionItemKindInterface,
	completion.Type:      protocol.CompletionItemKindTypeParameter,
	completion.File:      protocol.CompletionItemKindFile,
	completion.Folder:    protocol.CompletionItemKindFolder,
}

// maxCompletionItems bounds one completion answer.
const maxCompletionItems = 200

// resolveData is what a builtin's item carries for completionItem/resolve.
type resolveData struct {
	Builtin string `json:"builtin"`
}

func complete(ctx context.Context, s *server, d doc, p *protocol.CompletionParams) (any, error) {
	a, m, off := d.at(p.Position)
	s.lanes.stepAside(ctx) // the list waits for the short answers
	snippets := s.session.Load().caps.snippets
	span, items := completion.List(a, off, completion.Options{Snippets: snippets, Path: core.URI(d.uri).Path(), Text: d.snap.Text, Max: maxCompletionItems + 1})
	// Long lists are cut; the client asks again as the prefix grows.
	incomplete := len(items) > maxCompletionItems
	if incomplete {
		items = items[:maxCompletionItems]
	}
	return appendCompletionList(nil, incomplete, m.rng(span), items), nil
}

// appendCompletionList appends to dst the CompletionList of items, each
// replacing rng, as protocol.Marshal writes the list of protocol values:
// a builtin's item carries its name for completionItem/resolve (data, a
// resolveData), each item its index as its sortText (appendSortKey), and a
// snippet is the text of an item's edit. TestCompletionJSON checks that
// the bytes are the same.
func appendCompletionList(dst []byte, incomplete bool, rng protocol.Range, items []completion.Item) jsonrpc2.RawMessage {
	edit := appendRange(nil, rng)
	n := len(`{"isIncomplete":false,"items":[]}`) // the length written, unless strings are escaped
	for _, it := range items {
		n += len(`{"label":"","kind":00,"sortText":"00000","textEdit":{"range":,"newText":""}},`) + len(edit) + len(it.Label) + max(len(it.Insert), len(it.Snippet))
		if it.Detail != "" {
			n += len(`,"detail":""`) + len(it.Detail)
		}
		if it.Doc != "" {
			n += len(`,"documentation":""`) + len(it.Doc)
		}
		if it.Snippet != "" {
			n += len(`,"insertTextFormat":2`)
		}
		if it.Kind == completion.Builtin {
			n += len(`,"data":{"builtin":""}`) + len(it.Label)
		}
	}
	dst = slices.Grow(dst, n)
	dst = append(dst, `{"isIncomplete":`...)
	dst = strconv.AppendBool(dst, incomplete)
	dst = append(dst, `,"items":[`...)
	for i, it := range items {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"label":`...)
		dst = appendQuote(dst, it.Label)
		if k := completionKinds[it.Kind]; k != 0 {
			dst = append(dst, `,"kind":`...)
			dst = strconv.AppendUint(dst, uint64(k), 10)
		}
		if it.Detail != "" {
			dst = append(dst, `,"detail":`...)
			dst = appendQuote(dst, it.Detail)
		}
		if it.Doc != "" {
			dst = append(dst, `,"documentation":`...)
			dst = appendQuote(dst, it.Doc)
		}
		dst = append(dst, `,"sortText":"`...)
		dst = appendSortKey(dst, i)
		dst = append(dst, '"')
		text := it.Insert
		if it.Snippet != "" {
			dst = append(dst, `,"insertTextFormat":`...)
			dst = strconv.AppendUint(dst, uint64(protocol.InsertTextFormatSnippet), 10)
			text = it.Snippet
		}
		dst = append(dst, `,"textEdit":{"range":`...)
		dst = append(dst, edit...)
		dst = append(dst, `,"newText":`...)
		dst = appendQuote(dst, text)
		dst = append(dst, '}')
		if it.Kind == completion.Builtin {
			dst = append(dst, `,"data":{"builtin":`...)
			dst = appendQuote(dst, it.Label)
			dst = append(dst, '}')
		}
		dst = append(dst, '}')
	}
	return append(dst, "]}"...)
}

// appendQuote appends s as a JSON string, quoted as protocol.Marshal
// quotes it (invalid UTF-8 as U+FFFD).
func appendQuote(dst []byte, s string) []byte {
	dst, _ = jsontext.AppendQuote(dst, s) // the error says only that s was not valid UTF-8
	return dst
}

// appendSortKey appends the sortText of the item at index i, which keeps
// core's order: its last five digits.
func appendSortKey(dst []byte, i int) []byte {
	var b [5]byte
	for k := len(b) - 1; k >= 0; k-- {
		b[k] = byte('0' + i%10)
		i /= 10
	}
	return append(dst, b[:]...)
}

// resolvedItem is what completionItem/resolve's params must be.
var resolvedItem = shape{want: "a completion item, an object with label"}

// resolveCompletion adds a builtin's documentation to its item.
func resolveCompletion(_ *server, params jsonrpc2.RawMessage) (work, error) {
	// The item resolved is one the server gave: it has its label. Null
	// params, or an object without one, are no item (the decoder alone
	// reads them as an item with an empty label).
	var item protocol.CompletionItem
	if err := resolvedItem.decode(params, &item); err != nil {
		return nil, err
	}
	if item.Label == "" {
		var members map[string]json.RawMessage
		if json.Unmarshal(params, &members) != nil || members["label"] == nil || string(bytes.TrimSpace(members["label"])) == "null" {
			return nil, resolvedItem.invalid("an object without label")
		}
	}
	return func(context.Context) (any, error) {
		var data resolveData
		if len(item.Data) > 0 && json.Unmarshal(item.Data, &data) == nil && data.Builtin != "" {
			if doc, ok := navigation.BuiltinDoc(data.Builtin); ok {
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
	info := completion.SignatureHelp(a, off)
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
