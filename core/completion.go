package core

// This file answers completion. It knows where the cursor is: after a `.`
// it offers the members of the container the value before the dot is an
// instance of; at the start of a statement, the statement keywords (and
// block snippets); elsewhere, the names in scope at the cursor (declared
// before it, as WFL requires), the builtins, and the keywords that continue
// an expression. The typed prefix may be several words ("first na" for
// `first name`); items are filtered by it and replace it.

import (
	"sort"
	"strings"
	"sync"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

// CompletionKind says what a completion item is.
type CompletionKind int

const (
	CompleteKeyword CompletionKind = iota + 1
	CompleteSnippet
	CompleteVariable
	CompleteConstant
	CompleteParameter
	CompleteAction
	CompleteBuiltin
	CompleteContainer
	CompleteProperty
	CompleteMethod
)

// A CompletionItem is one proposal.
type CompletionItem struct {
	Label   string
	Kind    CompletionKind
	Detail  string // a type or a signature
	Doc     string // empty for builtins: see BuiltinDoc
	Insert  string // the text to insert
	Snippet string // for CompleteSnippet: the text with LSP snippet placeholders
}

// Completion returns the proposals at offset and the span of the typed
// prefix they replace. Snippets are included only if snippets is set.
func (a *Analysis) Completion(offset int, snippets bool) (token.Span, []CompletionItem) {
	if a.Lines == nil {
		return token.Span{Start: offset, End: offset}, nil
	}
	text := a.Lines.Text()
	if offset > len(text) {
		offset = len(text)
	}
	lineStart := a.Lines.LineStart(a.Lines.Line(offset))
	before := text[lineStart:offset]
	if inStringOrComment(before) {
		return token.Span{Start: offset, End: offset}, nil
	}

	// The prefix: the identifier words just before the cursor that are not
	// keywords (a multi-word name being typed).
	words, wordsStart := trailingWords(before)
	var items []CompletionItem
	if len(words) > 0 {
		last := words[len(words)-1]
		if strings.HasSuffix(strings.TrimRight(before[:len(before)-len(last)], " \t"), ".") {
			// Member access: x.pre|
			dot := strings.LastIndex(before[:len(before)-len(last)], ".")
			return a.filter(token.Span{Start: offset - len(last), End: offset}, last, a.members(lineStart+dot))
		}
	} else if strings.HasSuffix(before, ".") {
		return token.Span{Start: offset, End: offset}, a.members(offset - 1)
	}
	prefix := strings.Join(words, " ")
	prefixStart := offset
	if len(words) > 0 {
		prefixStart = lineStart + wordsStart
	}
	statementStart := strings.TrimSpace(text[lineStart:prefixStart]) == ""

	// Keep what may match the prefix or, failing that, its last word (see
	// filter) before building items: a large scope has thousands of names.
	lastWord := strings.ToLower(prefix[strings.LastIndex(prefix, " ")+1:])
	lower := strings.ToLower(prefix)
	maybe := func(label string) bool {
		l := strings.ToLower(label)
		return strings.HasPrefix(l, lower) || strings.HasPrefix(l, lastWord)
	}
	add := func(its []CompletionItem) {
		for _, it := range its {
			if maybe(it.Label) {
				items = append(items, it)
			}
		}
	}
	if statementStart {
		add(statementKeywords())
		if snippets {
			add(blockSnippets())
		}
	} else {
		add(expressionKeywords())
	}
	items = append(items, a.namesInScope(offset, maybe)...)
	if !statementStart {
		add(builtinItems())
	}
	return a.filter(token.Span{Start: prefixStart, End: offset}, prefix, items)
}

// filter keeps the items whose label starts with the prefix (ignoring case),
// ordered by kind (names first) and label;
// with a multi-word prefix that matches nothing, the last word alone is
// tried, replacing only that word.
func (a *Analysis) filter(span token.Span, prefix string, items []CompletionItem) (token.Span, []CompletionItem) {
	match := func(p string) []CompletionItem {
		p = strings.ToLower(p)
		var out []CompletionItem
		seen := map[string]bool{}
		for _, it := range items {
			if strings.HasPrefix(strings.ToLower(it.Label), p) && !seen[it.Label] {
				seen[it.Label] = true
				out = append(out, it)
			}
		}
		return out
	}
	out := match(prefix)
	if len(out) == 0 && strings.Contains(prefix, " ") {
		last := prefix[strings.LastIndex(prefix, " ")+1:]
		span.Start = span.End - len(last)
		out = match(last)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if ri, rj := rank(out[i].Kind), rank(out[j].Kind); ri != rj {
			return ri < rj
		}
		return out[i].Label < out[j].Label
	})
	return span, out
}

// rank orders the kinds: names first, then keywords, then builtins.
func rank(k CompletionKind) int {
	switch k {
	case CompleteVariable, CompleteConstant, CompleteParameter, CompleteProperty, CompleteMethod:
		return 0
	case CompleteAction, CompleteContainer:
		return 1
	case CompleteKeyword, CompleteSnippet:
		return 2
	}
	return 3
}

// trailingWords returns the identifier words at the end of s after the last
// keyword, punctuation or literal (the name being typed), and the index in s
// where the first of them starts.
func trailingWords(s string) ([]string, int) {
	if len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		return nil, len(s) // a cursor after a space starts a new word
	}
	var words []string
	start, end := len(s), len(s)
	for {
		i := end
		for i > 0 && isWordByte(s[i-1]) {
			i--
		}
		if i == end {
			break
		}
		w := s[i:end]
		// The word at the cursor may be the start of a name that begins
		// like a keyword ("to" of "total"); earlier words must be names.
		if !isLetter(w[0]) || end != len(s) && token.Lookup(w) != token.Identifier {
			break
		}
		words = append([]string{w}, words...)
		start = i
		j := i
		for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
			j--
		}
		if j == i || j == 0 {
			break
		}
		end = j
	}
	return words, start
}

func isWordByte(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' || c == '_' }
func isLetter(c byte) bool   { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// inStringOrComment reports whether the end of a line prefix lies in a
// string literal or a comment.
func inStringOrComment(s string) bool {
	in := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == '#' || c == '/' && i+1 < len(s) && s[i+1] == '/'):
			return true
		}
	}
	return in
}

// namesInScope lists the symbols visible at offset whose names keep accepts.
func (a *Analysis) namesInScope(offset int, keep func(string) bool) []CompletionItem {
	if a.Info == nil || a.Info.Global == nil {
		return nil
	}
	var out []CompletionItem
	seen := map[string]bool{}
	// Inside a container, its properties and methods (and its parents').
	if a.File != nil {
		for _, st := range a.File.Stmts {
			c, ok := st.(*ast.ContainerDecl)
			if !ok || c.Name == nil || offset < c.Pos() || offset > c.End() {
				continue
			}
			for k := a.Info.Containers[c.Name.Name]; k != nil && !seen["container "+k.Name]; k = a.Info.Containers[k.Extends] {
				seen["container "+k.Name] = true
				for n, m := range k.Members {
					if !seen[n] && keep(n) {
						if it, ok := symbolItem(m); ok {
							seen[n] = true
							out = append(out, it)
						}
					}
				}
			}
		}
	}
	for sc := a.Info.ScopeAt(offset); sc != nil; sc = sc.Parent {
		for _, table := range []*check.SymbolTable{&sc.Symbols, &sc.Injected} {
			for n, sym := range table.All() {
				if seen[n] || sym == nil || !keep(n) {
					continue
				}
				declared := sym.Decl.End == 0 || sym.Decl.Start < offset || sym.From != ""
				if !declared && sym.Kind != check.SymAction && sym.Kind != check.SymContainer {
					continue // WFL names must be declared before use
				}
				seen[n] = true
				if it, ok := symbolItem(sym); ok {
					out = append(out, it)
				}
			}
		}
	}
	return out
}

func symbolItem(sym *check.Symbol) (CompletionItem, bool) {
	it := CompletionItem{Label: sym.Name, Insert: sym.Name, Doc: sym.Doc}
	if sym.Type != nil && known(sym.Type) {
		it.Detail = sym.Type.String()
	}
	switch sym.Kind {
	case check.SymVariable, check.SymImplicit, check.SymPredeclared:
		it.Kind = CompleteVariable
	case check.SymConstant:
		it.Kind = CompleteConstant
	case check.SymParameter:
		it.Kind = CompleteParameter
	case check.SymAction:
		it.Kind = CompleteAction
		if len(sym.Actions) > 0 {
			it.Detail = actionSignature(sym, sym.Actions[0])
			if it.Doc == "" {
				it.Doc = sym.Actions[0].Doc.Text()
			}
		}
	case check.SymContainer, check.SymInterface:
		it.Kind = CompleteContainer
	case check.SymProperty:
		it.Kind = CompleteProperty
	case check.SymMethod:
		it.Kind = CompleteMethod
	default:
		return it, false
	}
	return it, true
}

// members lists the properties and methods of the container whose instance
// the expression ending just before the dot at offset denotes.
func (a *Analysis) members(dot int) []CompletionItem {
	if a.Info == nil {
		return nil
	}
	var t *types.Type
	if r, ok := a.IdentAt(dot); ok && r.Ident.End() == dot && r.Sym != nil {
		t = r.Sym.Type
		if u := a.Info.TypeOf(r.Ident); known(u) {
			t = u
		}
	} else {
		// `x.` at the end of a line does not parse: find x by its words.
		text := a.Lines.Text()
		words, _ := trailingWords(text[a.Lines.LineStart(a.Lines.Line(dot)):dot])
		if len(words) == 0 {
			return nil
		}
		sym := a.Info.ScopeAt(dot).Lookup(strings.Join(words, " "))
		if sym == nil {
			return nil
		}
		t = sym.Type
	}
	if t == nil || (t.Kind != types.KInstance && t.Kind != types.KContainer) {
		return nil
	}
	var out []CompletionItem
	seen := map[string]bool{}
	first := a.Info.Containers[t.Name]
	if first == nil {
		// A container an included file declares.
		if s := a.Info.Global.Resolve(t.Name); s != nil && s.Kind == check.SymContainer {
			first = s
		}
	}
	for c := first; c != nil && !seen[c.Name]; c = c.Base {
		seen[c.Name] = true
		names := make([]string, 0, len(c.Members))
		for n := range c.Members {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if it, ok := symbolItem(c.Members[n]); ok && !seen["member "+n] {
				seen["member "+n] = true
				out = append(out, it)
			}
		}
	}
	return out
}

func statementKeywords() []CompletionItem {
	words := []string{
		"store", "create", "display", "change", "check if", "count from", "for each", "repeat while",
		"repeat until", "repeat forever", "define action called", "call", "add", "remove", "push with",
		"clear", "try", "return", "give back", "break", "continue", "exit", "open file at",
		"wait for", "include from", "load module from", "create container", "create list",
		"create map", "create new", "describe", "test", "expect",
	}
	out := make([]CompletionItem, len(words))
	for i, w := range words {
		out[i] = CompletionItem{Label: w, Kind: CompleteKeyword, Insert: w + " "}
		if d, ok := keywordDocs[strings.Fields(w)[0]]; ok {
			out[i].Detail, out[i].Doc = d[0], d[1]
		}
	}
	return out
}

func expressionKeywords() []CompletionItem {
	words := []string{"with", "and", "or", "not", "is", "is not", "plus", "minus", "times",
		"divided by", "of", "call", "yes", "no", "nothing", "contains", "is greater than", "is less than"}
	out := make([]CompletionItem, len(words))
	for i, w := range words {
		out[i] = CompletionItem{Label: w, Kind: CompleteKeyword, Insert: w}
	}
	return out
}

func blockSnippets() []CompletionItem {
	s := []struct{ label, body string }{
		{"check if … end check", "check if ${1:condition}:\n    $0\nend check"},
		{"check if … otherwise … end check", "check if ${1:condition}:\n    $2\notherwise:\n    $0\nend check"},
		{"count from … end count", "count from ${1:1} to ${2:10}:\n    $0\nend count"},
		{"for each … end for", "for each ${1:item} in ${2:items}:\n    $0\nend for"},
		{"repeat while … end repeat", "repeat while ${1:condition}:\n    $0\nend repeat"},
		{"define action … end action", "define action called ${1:name} with ${2:parameter}:\n    $0\nend action"},
		{"try … when error … end try", "try:\n    $1\nwhen error:\n    display error\nend try"},
		{"create container … end", "create container ${1:Name}:\n    property ${2:name}: ${3:Text}\nend"},
		{"describe … end describe", "describe \"${1:subject}\":\n    test \"${2:case}\":\n        $0\n    end test\nend describe"},
	}
	out := make([]CompletionItem, len(s))
	for i, x := range s {
		out[i] = CompletionItem{Label: x.label, Kind: CompleteSnippet, Insert: strings.Fields(x.label)[0], Snippet: x.body}
	}
	return out
}

// builtinItems lists the implemented builtins; it is built once.
var builtinItems = sync.OnceValue(func() []CompletionItem {
	var out []CompletionItem
	for _, b := range builtins.All() {
		if !b.Implemented {
			continue
		}
		out = append(out, CompletionItem{Label: b.Name, Kind: CompleteBuiltin, Detail: b.Label(0), Insert: b.Name})
	}
	return out
})

// BuiltinDoc returns the description of a builtin, for completion items
// resolved lazily.
func BuiltinDoc(name string) (string, bool) {
	b := builtins.Lookup(name)
	if b == nil {
		return "", false
	}
	h := hoverBuiltin(&HoverInfo{}, b)
	return strings.Join(h.Signature, "\n") + "\n\n" + h.Doc, true
}
