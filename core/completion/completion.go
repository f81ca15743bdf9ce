package completion

// This file answers completion. It knows where the cursor is: after a `.`
// it offers the members of the container the value before the dot is an
// instance of; at the start of a statement, the statement keywords (and
// block snippets); elsewhere, the names in scope at the cursor (declared
// before it, as WFL requires), the builtins, and the keywords that continue
// an expression. The typed prefix may be several words ("first na" for
// `first name`); items are filtered by it and replace it.

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

// Kind says what a completion item is.
type Kind int

const (
	Keyword Kind = iota + 1
	Snippet
	Variable
	Constant
	Parameter
	Action
	Builtin
	Container
	Property
	Method
	Interface
	Type
	File
	Folder
)

// completionKindNames are the kinds' names, as MCP's get_completions and
// the logs spell them.
var completionKindNames = [...]string{
	Keyword: "keyword", Snippet: "snippet", Variable: "variable",
	Constant: "constant", Parameter: "parameter", Action: "action",
	Builtin: "builtin", Container: "container", Property: "property",
	Method: "method", Interface: "interface", Type: "type",
	File: "file", Folder: "folder",
}

// String returns the kind's name ("variable", "interface", …), or "" for
// the zero kind.
func (k Kind) String() string {
	if k > 0 && int(k) < len(completionKindNames) {
		return completionKindNames[k]
	}
	return ""
}

// An Item is one proposal.
type Item struct {
	Label   string
	Kind    Kind
	Detail  string // a type or a signature
	Doc     string // empty for builtins: see BuiltinDoc
	Insert  string // the text to insert
	Snippet string // when not "": the text to insert with LSP snippet placeholders (only when the client takes snippets)
}

// Options say what the client can take.
type Options struct {
	Snippets bool   // the client expands LSP snippets: block snippets, and call snippets with a placeholder per parameter
	Path     string // the document's file path, for the paths after `include from "`; "" when it has none
	// Files lists the folders of those paths: the editor's access
	// (core.AnyFile) when nil, an MCP session's confined one otherwise.
	Files *core.FileAccess
	// Text is the document's text as typed (Snapshot.Text), when the
	// analysis reads another of the same length: while a quote is left
	// open, the analysis reads it closed on its line, and an include's
	// path being typed is read from the text as typed. "": the analysis's.
	Text string
	// Max, when above 0, is the most items returned: the first in order
	// (a client that shows a few asks for one more, to know whether the
	// list was cut).
	Max int
}

// List returns the proposals at offset and the span of the typed
// prefix they replace, for what the grammar expects there (see placeAt):
// statement words at the start of a line (those of the block the line is
// in first), values where a value goes, operators and phrases after one,
// containers after `create new`, types after a parameter's `as`, …;
// ranked by kind, then by how near their declaration is, then by whether
// their type is the one the place wants.
func List(a *core.Analysis, offset int, opts Options) (token.Span, []Item) {
	l := newCandidateList()
	defer l.release()
	span, prefix, listed, items := propose(a, l, offset, opts)
	if !listed {
		return span, firstItems(items, opts.Max)
	}
	return filter(a, l, span, prefix, opts.Max)
}

// propose gathers in l the proposals at offset, and returns the span of
// the typed prefix they replace and the prefix, which filter selects them
// by; or, where nothing is to be selected (an include's path, the members
// after a bare dot, nothing in a string or a comment), the answer and
// listed false.
func propose(a *core.Analysis, l *candidateList, offset int, opts Options) (span token.Span, prefix string, listed bool, items []Item) {
	if a.Lines == nil {
		return token.Span{Start: offset, End: offset}, "", false, nil
	}
	text := a.Lines.Text()
	if offset > len(text) {
		offset = len(text)
	}
	lineStart := a.Lines.LineStart(a.Lines.Line(offset))
	before := text[lineStart:offset]
	typedText := text
	if len(opts.Text) == len(text) {
		typedText = opts.Text
	}
	if dir, typed, ok := includePathAt(typedText[lineStart:offset]); ok {
		// The path of an include, its closing quote typed or not (an
		// editor that does not pair quotes leaves it open while the path
		// is typed).
		// (max: an offset between a line's "\r" and its "\n" is past
		// the line's end.)
		after := typedText[offset:max(offset, a.Lines.LineEnd(a.Lines.Line(offset)))]
		span, items = pathCompletion(a, offset, dir, typed, after, opts.Path, opts.Files)
		return span, "", false, items
	}
	if at := a.OpenQuote(); at >= 0 && offset > at && offset <= a.Lines.LineEnd(a.Lines.Line(at)) {
		// In a string being typed (its quote left open, closed on its
		// line for the analysis): nothing.
		return token.Span{Start: offset, End: offset}, "", false, nil
	}
	if inStringOrComment(before) {
		return token.Span{Start: offset, End: offset}, "", false, nil
	}

	// The prefix: the identifier words just before the cursor that are not
	// keywords (a multi-word name being typed).
	words, wordsStart := core.TrailingWords(before)
	if len(words) > 0 {
		last := words[len(words)-1]
		if strings.HasSuffix(strings.TrimRight(before[:len(before)-len(last)], " \t"), ".") {
			// Member access: x.pre|
			dot := strings.LastIndex(before[:len(before)-len(last)], ".")
			value := valuePlace(before[:dot])
			for _, it := range members(a, lineStart+dot) {
				w := 0
				if value {
					w = methodRank(it)
				}
				l.items(w, []Item{it})
			}
			return token.Span{Start: offset - len(last), End: offset}, last, true, nil
		}
	} else if strings.HasSuffix(before, ".") {
		return token.Span{Start: offset, End: offset}, "", false, inValue(members(a, offset-1), before[:len(before)-1])
	}
	if n := len(words); n > 1 && token.Lookup(words[n-1]) != token.Identifier {
		// `total is|`: a keyword being typed after a name continues it.
		words, wordsStart = words[n-1:], len(before)-len(words[n-1])
	}
	prefix = strings.Join(words, " ")
	prefixStart := offset
	if len(words) > 0 {
		prefixStart = lineStart + wordsStart
	}
	p := placeAt(a, lineStart, prefixStart)

	// Gather what may match the prefix or, failing that, its last word
	// (see filter).
	lastWord := strings.ToLower(prefix[strings.LastIndex(prefix, " ")+1:])
	l.keep = prefixFilter(strings.ToLower(prefix), lastWord)
	values := func() {
		if !p.noNames {
			valueNames(a, l, prefixStart, p, opts.Snippets)
		}
		if p.beforeName || p.callee {
			// Before a name or `with`, a word that takes a value after it
			// would take that.
			fitting(l, groupKeyword, wholeValueWords(), p, valueWordTypes)
			if p.beforeName {
				return
			}
		} else {
			fitting(l, groupKeyword, valueWords(), p, valueWordTypes)
		}
		fitting(l, groupBuiltin, builtinItems(opts.Snippets), p, builtinResult)
	}
	switch p.slot {
	case slotStatement:
		words := blockWords(a, p.block, prefixStart)
		if closed(a, p.block) {
			// Its closer is written: not offered first at every line of
			// its body.
			words = slices.DeleteFunc(slices.Clone(words), func(it Item) bool {
				return it.Label == "end" || strings.HasPrefix(it.Label, "end ")
			})
		}
		l.items(groupBlock, words)
		if _, ok := p.block.(*ast.PatternDecl); ok {
			for i, it := range PatternWords() {
				l.items(groupKeyword+i, []Item{it})
			}
			break
		}
		if !isMemberBlock(p.block) {
			l.items(groupStatement, statementKeywords())
			if opts.Snippets {
				l.items(groupSnippet, blockSnippets())
			}
			namesInScope(a, l, prefixStart, groupNameAtStart, "")
		}
	case slotValue:
		values()
	case slotAfterValue:
		for i, it := range operatorWords() {
			w := groupKeyword + i // in the order of operatorWords: the commonest first
			if it.Label == "with" && strings.HasPrefix(strings.TrimSpace(before), "display ") {
				w = groupKeyword - 1 // `display a with b`: what joins values to show
			}
			l.items(w, []Item{it})
		}
	case slotIsPhrase:
		if p.orderOnly {
			// What is compared is no number: `greater than`, `above`,
			// `between` would be a TYPE error, so they come last.
			for _, it := range isPhrases() {
				w := groupBlock
				if it.Label != "not" && it.Label != "equal to" && it.Label != "not equal to" {
					w = groupBuiltin + 1<<16
				}
				l.items(w, []Item{it})
			}
		} else {
			l.items(groupBlock, isPhrases())
		}
		values()
	case slotThan:
		l.items(groupKeyword, []Item{keywordItem("than"), keywordItem("than or equal to")})
	case slotContainer:
		if p.base {
			// `extends ‸`: first the containers whose actions, with the
			// body's own, are what the interfaces the header names after
			// it require, then those declared above.
			ifaces, have := implemented(a, lineStart), bodyActions(a, lineStart)
			kindNames(a, l, check.SymContainer, groupName, "", func(sym *check.Symbol) int {
				w := 0
				if len(ifaces) > 0 && have != nil && !provides(sym, have, ifaces) {
					w += 2 << 12
				}
				if sym.From() == "" && sym.Decl.Start > prefixStart {
					w += 1 << 12
				}
				return w
			})
			break
		}
		kindNames(a, l, check.SymContainer, groupName, "")
	case slotInterface:
		if have := bodyActions(a, lineStart); have != nil {
			// A container's header: the interfaces whose required
			// actions its body defines first (the others would be a
			// missing-action error).
			kindNames(a, l, check.SymInterface, groupName, "", func(sym *check.Symbol) int {
				if satisfied(sym, have) {
					return 0
				}
				return 1 << 12
			})
		} else {
			kindNames(a, l, check.SymInterface, groupName, "")
		}
	case slotType:
		kindNames(a, l, check.SymContainer, groupName, "")
		kindNames(a, l, check.SymInterface, groupName, "")
		l.items(groupKeyword, typeWords(p))
	case slotAction:
		call := ""
		if opts.Snippets {
			call = "with"
		}
		if p.args > 0 {
			kindNames(a, l, check.SymAction, 0, call, func(sym *check.Symbol) int {
				for _, d := range sym.Versions() {
					if len(d.Params) == p.args {
						return 0
					}
				}
				return 1 << 12 // takes another number of arguments: after those that take as many
			})
		} else {
			kindNames(a, l, check.SymAction, 0, call)
		}
		l.items(groupBuiltin, builtinItems(false))
	case slotTarget:
		targetNames(a, l, prefixStart, p)
	case slotCloser:
		for i, it := range closers(a, lineStart) {
			l.items(groupBlock+i, []Item{it}) // innermost first
		}
	case slotEvent:
		eventNames(a, l, prefixStart)
	case slotHandler:
		kindNames(a, l, check.SymAction, 0, "")
	case slotSignal:
		l.items(groupKeyword, signalWords())
	case slotPattern:
		if strings.TrimSpace(before[:len(before)-len(prefix)]) == "" && (p.block == nil || !closed(a, p.block)) {
			l.items(groupSnippet, keywordItems("end pattern")) // when it is missing
		}
		for i, it := range PatternWords() {
			l.items(groupKeyword+i, []Item{it}) // the commonest first
		}
		namesInScope(a, l, prefixStart, groupBuiltin, "", func(s core.Scoped) int {
			if t := s.Sym.Type; s.Sym.Kind == check.SymVariable && t != nil && t.Kind == types.KList && t.Elem != nil && t.Elem.Kind == types.KText {
				return 0 // a list of texts: any of them
			}
			return -1
		})
	case slotWords:
		for i, it := range p.words {
			l.items(groupKeyword+i, []Item{it}) // in the order of the grammar's words: the commonest first
		}
	case slotPatternNext:
		for i, it := range patternJoiners() {
			l.items(groupKeyword+i, []Item{it})
		}
	}
	return token.Span{Start: prefixStart, End: offset}, prefix, true, nil
}

// The groups of items, in the order they are offered.
const (
	groupBlock       = 0 << 20 // a block's own words (its members, its closer)
	groupName        = 1 << 20 // names of the program
	groupStatement   = 2 << 20 // statement words
	groupKeyword     = 3 << 20 // phrases, literal words
	groupSnippet     = 4 << 20
	groupNameAtStart = 5 << 20 // names at the start of a statement (`obj.method()`)
	groupBuiltin     = 6 << 20
)

// firstItems returns the first max items, or all of them when max is 0.
func firstItems(items []Item, max int) []Item {
	if max > 0 && len(items) > max {
		return items[:max]
	}
	return items
}

// A nameFilter keeps the names that start, ignoring case, with one of its
// prefixes (in lower case); without prefixes, every name.
type nameFilter struct{ prefixes []string }

// prefixFilter returns the filter of the names that start with one of
// prefixes: the shortest of those that start with another are enough.
func prefixFilter(prefixes ...string) nameFilter {
	slices.SortFunc(prefixes, func(x, y string) int { return cmp.Compare(len(x), len(y)) })
	var f nameFilter
	for _, p := range prefixes {
		if p == "" {
			return nameFilter{} // every name
		}
		if !slices.ContainsFunc(f.prefixes, func(q string) bool { return strings.HasPrefix(p, q) }) {
			f.prefixes = append(f.prefixes, p)
		}
	}
	return f
}

func (f nameFilter) keep(name string) bool {
	if len(f.prefixes) == 0 {
		return true
	}
	for _, p := range f.prefixes {
		if core.HasPrefixFold(name, p) {
			return true
		}
	}
	return false
}

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

// namesInScope offers the symbols visible at offset whose names l keeps,
// nearest first: weighted, from base, by how many scopes out they are
// declared (in a container's method, its properties come right after the
// method's own names), plus what score says of each (-1 leaves it out); an
// action's item gets the call snippet joined by call, when not "".
func namesInScope(a *core.Analysis, l *candidateList, offset, base int, call string, score ...func(core.Scoped) int) {
	if a.Info == nil || a.Info.Global == nil {
		return
	}
	keep := l.keep.keep
	l.startNames()
	offer := func(n string, s core.Scoped, depth int) {
		sym := s.Sym
		if sym == nil {
			return
		}
		if sym.Kind == check.SymPattern && len(score) == 0 {
			return // a pattern is a value only where a place takes one (see valueNames)
		}
		declared := sym.Decl.End == 0 && s.Bound() < offset || sym.Decl.End > 0 && s.Decl().Start < offset ||
			sym.From() != "" || sym.Kind == check.SymProperty || sym.Kind == check.SymMethod
		if !declared && sym.Kind != check.SymAction && sym.Kind != check.SymContainer {
			return // WFL names must be declared before use
		}
		extra := 0
		for _, f := range score {
			if extra = f(s); extra < 0 {
				return
			}
		}
		if l.offered(n) {
			return
		}
		kind, ok := nameKind(sym)
		if !ok {
			return
		}
		c := candidate{label: sym.Name, weight: base + groupName + depth<<8 + extra, sym: sym, kind: kind}
		if kind == Action || kind == Container {
			c.weight += 1 << 16 // after the variables
		}
		if kind == Action {
			c.call = call
		}
		l.add(c)
	}
	// Every name starts with "": a table's index lists them all faster
	// than its map.
	prefixes := l.keep.prefixes
	if len(prefixes) == 0 {
		prefixes = []string{""}
	}
	depth := 0
	for sc := a.Info.ScopeAt(offset); sc != nil; sc = sc.Parent {
		for n, s := range a.ScopeNames(sc, func(n string, _ *check.Symbol) bool { return keep(n) }, prefixes...) {
			offer(n, s, depth)
		}
		if sc.Container() != nil {
			depth++
			for c, k := sc.Container(), 0; c != nil && k < 64; c, k = c.Base(), k+1 {
				for n, m := range c.Members() {
					if keep(n) {
						offer(n, core.Scoped{Sym: m}, depth)
					}
				}
			}
		}
		depth++
	}
}

// valueNames offers the names that can stand where place p wants a value:
// not the name being declared; those of a type p wants first, then those
// whose type is not known, then the others; WFL's own constants (`yes`,
// `nothing`, `args`, …) after the program's names, and only when they fit;
// actions with a call snippet.
func valueNames(a *core.Analysis, l *candidateList, offset int, p place, snippets bool) {
	const unit = 1 << 12
	const afterAll = groupBuiltin - groupName + 1<<19 // a name's weight past the words' and the builtins'
	call := ""
	if snippets {
		call = "of"
	}
	closed := newLayoutEnds(a, offset)
	namesInScope(a, l, offset, 0, call, func(s core.Scoped) int {
		sym, decl := s.Sym, s.Decl()
		if closed != nil && sym.From() == "" && sym.Kind == check.SymVariable && decl.End > 0 && decl.Start < offset && closed.before(decl.Start) {
			// The tree read around the line that does not parse may hold a
			// block's names in a block after it: the layout says that
			// block ended.
			return afterAll
		}
		// An included file's symbol is not the one being declared here,
		// and its Decl is a span of that file: read against this text's
		// lines, the answer would change when only the included file's
		// lines move, which does not refresh this file (exportKey).
		if sym.Name == p.declaring && sym.From() == "" && decl.Start < offset && decl.End > 0 && a.Lines.Line(decl.Start) == a.Lines.Line(offset) {
			return -1 // the name being declared, in its own value
		}
		if sym.Kind == check.SymPattern && !slices.ContainsFunc(p.wants, func(t *types.Type) bool { return t.Kind == types.KPattern }) {
			return -1 // a pattern matches a text; it is no value elsewhere
		}
		if sym.Kind == check.SymMethod {
			return -1 // a method's own name is no value in its container's actions (`obj.m()` calls one)
		}
		later := 0
		if p.madeBy != nil && !p.madeBy(sym.Node) {
			later = unit / 2 // after the names the statements that make what goes here made, at any depth
		}
		f := p.fit(nameType(sym))
		if (sym.Kind == check.SymContainer || sym.Kind == check.SymInterface) && len(p.wants) > 0 {
			f = mismatch // a container is no value of a type a place wants
		}
		if p.callee && sym.Kind != check.SymAction {
			// `display ‸ with x` calls what goes here: a variable there is
			// no action.
			return afterAll + later
		}
		switch {
		case sym.Kind == check.SymPredeclared && len(p.wants) > 0 && f != fits:
			return -1
		case sym.Kind == check.SymPredeclared && p.strict:
			return unit // after the program's names that fit, before the others
		case sym.Kind == check.SymPredeclared:
			return 5 * unit // after the program's names, which may start a comparison
		case p.strict:
			return 2*int(f)*unit + later
		}
		return int(f)*unit + later
	})
}

// nameType returns the type of the value a name gives where a value goes:
// a variable's type, an action's result (it is called), or nil.
func nameType(sym *check.Symbol) *types.Type {
	switch sym.Kind {
	case check.SymAction:
		if sym.Type != nil && sym.Type.Kind == types.KFunction {
			return sym.Type.Result
		}
		return nil
	case check.SymContainer, check.SymInterface:
		return nil
	}
	return sym.Type
}

// A fit says how a value of some type fits a place.
type fit int

const (
	fits     fit = iota // its type is one the place wants, or the place wants any
	unknown             // its type is not known
	mismatch            // the place wants another type: a TYPE error where strict
)

// fit says how a value of type t fits the place.
func (p place) fit(t *types.Type) fit {
	if len(p.wants) == 0 {
		return fits
	}
	if !core.Known(t) || t.Kind == types.KAny {
		return unknown
	}
	for _, w := range p.wants {
		if types.BuiltinCompatible(w, t) {
			return fits
		}
	}
	return mismatch
}

// fitting adds the items of its that fit the place, weighted weight: where
// the place wants a type, those whose type is not known come after the
// others, and those of another type (a value word's, a builtin's result:
// typeOf says) last where they may start a comparison, nowhere where the
// place is strict.
func fitting(l *candidateList, weight int, its []Item, p place, typeOf func(label string) *types.Type) {
	if len(p.wants) == 0 {
		l.items(weight, its)
		return
	}
	for i := range its {
		if !l.keep.keep(its[i].Label) {
			continue
		}
		switch p.fit(typeOf(its[i].Label)) {
		case fits:
			l.add(candidate{label: its[i].Label, weight: weight, item: &its[i]})
		case unknown:
			l.add(candidate{label: its[i].Label, weight: weight + 1<<12, item: &its[i]})
		case mismatch:
			if !p.strict {
				// `check if length of …`: the operand of a comparison.
				l.add(candidate{label: its[i].Label, weight: weight + 2<<12, item: &its[i]})
			}
		}
	}
}

// builtinResult returns the result type of the builtin called name.
func builtinResult(name string) *types.Type {
	if b := builtins.Lookup(name); b != nil {
		return b.Result()
	}
	return nil
}

// targetNames offers the variables that a statement changing one can name
// at place p (`change`, `add … to`, `remove … from`, `clear`, `push
// with`): those that may be changed, only lists where a list is changed
// (and numbers after `add … to`), nearest first.
func targetNames(a *core.Analysis, l *candidateList, offset int, p place) {
	namesInScope(a, l, offset, 0, "", func(s core.Scoped) int {
		sym := s.Sym
		if !sym.Mutable || sym.Kind != check.SymVariable && sym.Kind != check.SymProperty {
			return -1
		}
		if len(p.wants) > 0 && !p.list {
			// `change ‸ to V`: those of V's type first.
			return int(p.fit(sym.Type)) << 12
		}
		if p.list {
			t := sym.Type
			switch {
			case t != nil && t.Kind == types.KList:
				return 0
			case p.number && t != nil && t.Kind == types.KNumber:
				return 1 << 12
			case !core.Known(t):
				return 2 << 12
			}
			return -1
		}
		return 0
	})
}

// eventNames offers the events a `trigger` at offset can raise: those of
// the container whose action it is in (and of the containers it extends),
// and those declared at the top level.
func eventNames(a *core.Analysis, l *candidateList, offset int) {
	if a.Info == nil || a.Info.Global == nil {
		return
	}
	for sc := a.Info.ScopeAt(offset); sc != nil; sc = sc.Parent {
		for c, k := sc.Container(), 0; c != nil && k < 64; c, k = c.Base(), k+1 {
			for n, m := range c.Members() {
				if m.Kind == check.SymEvent && l.keep.keep(n) {
					l.add(candidate{label: n, weight: groupName, sym: m, kind: Variable})
				}
			}
		}
	}
	for n, s := range a.ScopeNames(a.Info.Global, func(_ string, sym *check.Symbol) bool { return sym.Kind == check.SymEvent }) {
		if l.keep.keep(n) {
			l.add(candidate{label: n, weight: groupName + 1, sym: s.Sym, kind: Variable})
		}
	}
}

// kindNames offers the symbols of a kind the document knows (its own and
// its included files'), whatever their scope, weighted weight; an
// action's item gets the call snippet joined by call, when not "".
func kindNames(a *core.Analysis, l *candidateList, kind check.SymbolKind, weight int, call string, score ...func(*check.Symbol) int) {
	if a.Info == nil || a.Info.Global == nil {
		return
	}
	l.startNames()
	for n, s := range a.ScopeNames(a.Info.Global, func(_ string, sym *check.Symbol) bool { return sym.Kind == kind }) {
		k, ok := nameKind(s.Sym)
		if !ok || l.offered(n) || !l.keep.keep(s.Sym.Name) {
			continue
		}
		if s.Sym.Kind == check.SymInterface {
			k = Interface
		}
		w := weight
		for _, f := range score {
			w += f(s.Sym)
		}
		l.add(candidate{label: s.Sym.Name, weight: w, sym: s.Sym, kind: k, call: call})
	}
}

// callSnippet gives an action's item the snippet of a call, `NAME of
// ${1:a} and ${2:b}` (joiner "of") or `NAME with …` (after `call`), when
// the client takes snippets and the action has parameters.
func callSnippet(a *core.Analysis, it Item, joiner string, snippets bool) Item {
	if !snippets {
		return it
	}
	sym := a.Info.Global.Resolve(it.Label)
	if sym == nil || len(sym.Actions()) == 0 || len(sym.Actions()[0].Params) == 0 {
		return it
	}
	var b strings.Builder
	b.WriteString(snippetEscape(it.Label) + " " + joiner + " ")
	for i, p := range sym.Actions()[0].Params {
		if i > 0 {
			b.WriteString(" and ")
		}
		name := "value"
		if p.Name != nil {
			name = p.Name.Name
		}
		fmt.Fprintf(&b, "${%d:%s}", i+1, snippetEscape(name))
	}
	it.Snippet = b.String()
	return it
}

// snippetEscape escapes the characters LSP snippets give a meaning to.
func snippetEscape(s string) string {
	if !strings.ContainsAny(s, `\$}`) {
		return s // names, mostly: nothing to escape
	}
	return snippetEscaper.Replace(s)
}

var snippetEscaper = strings.NewReplacer(`\`, `\\`, `$`, `\$`, `}`, `\}`)

// symbolItem returns the item of a symbol, and whether its kind is one
// completion offers.
func symbolItem(sym *check.Symbol) (Item, bool) {
	kind, ok := nameKind(sym)
	it := Item{Label: sym.Name, Kind: kind, Insert: sym.Name}
	describe(&it, sym)
	return it, ok
}

// nameKind returns the kind of a symbol's item, and whether its kind is
// one completion offers.
func nameKind(sym *check.Symbol) (Kind, bool) {
	switch sym.Kind {
	case check.SymVariable, check.SymImplicit, check.SymPredeclared:
		return Variable, true
	case check.SymConstant, check.SymPattern:
		return Constant, true
	case check.SymParameter:
		return Parameter, true
	case check.SymAction:
		return Action, true
	case check.SymContainer, check.SymInterface:
		return Container, true
	case check.SymProperty:
		return Property, true
	case check.SymMethod:
		return Method, true
	}
	return 0, false
}

// describe sets the detail and doc of a symbol's item: its type, or an
// action's signature; its doc comment.
func describe(it *Item, sym *check.Symbol) {
	it.Doc = sym.Doc()
	if sym.Type != nil && core.Known(sym.Type) {
		it.Detail = sym.Type.String()
	}
	if sym.Kind == check.SymAction && len(sym.Actions()) > 0 {
		it.Detail = core.ActionSignature(sym, sym.Actions()[0])
		if it.Doc == "" {
			it.Doc = sym.Actions()[0].Doc.Text()
		}
	}
}

// members lists the properties and methods of the container whose instance
// the expression ending just before the dot at offset denotes.
func members(a *core.Analysis, dot int) []Item {
	if a.Info == nil {
		return nil
	}
	var t *types.Type
	if r, ok := a.IdentAt(dot); ok && r.Ident.End() == dot && r.Sym != nil {
		t = r.Sym.Type
		if u := a.Info.TypeOf(r.Ident); core.Known(u) {
			t = u
		}
	} else {
		// `x.` at the end of a line does not parse: find x by its words.
		text := a.Lines.Text()
		words, _ := core.TrailingWords(text[a.Lines.LineStart(a.Lines.Line(dot)):dot])
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
	var out []Item
	seen := map[string]bool{}
	first := a.Info.Containers[t.Name]
	if first == nil {
		// A container an included file declares.
		if s := a.Info.Global.Resolve(t.Name); s != nil && s.Kind == check.SymContainer {
			first = s
		}
	}
	for c := first; c != nil && !seen[c.Name]; c = c.Base() {
		seen[c.Name] = true
		names := make([]string, 0, len(c.Members()))
		for n := range c.Members() {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if it, ok := symbolItem(c.Members()[n]); ok && !seen["member "+n] {
				seen["member "+n] = true
				out = append(out, it)
			}
		}
	}
	return out
}

// inValue returns the members offered after the value that ends the
// line's text before, properties first where that value is itself in a
// value (`display "n: " with obj.‸`: a method's name there is no value
// without its call), as members lists them at the start of a statement.
func inValue(items []Item, before string) []Item {
	if !valuePlace(before) {
		return items
	}
	slices.SortStableFunc(items, func(x, y Item) int { return cmp.Compare(methodRank(x), methodRank(y)) })
	return items
}

// valuePlace reports whether the value that ends the line's text before
// is not the start of a statement.
func valuePlace(before string) bool {
	_, start := core.TrailingWords(before)
	return strings.TrimSpace(before[:start]) != ""
}

func methodRank(it Item) int {
	if it.Kind == Method {
		return 1
	}
	return 0
}

func blockSnippets() []Item {
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
	out := make([]Item, len(s))
	for i, x := range s {
		out[i] = Item{Label: x.label, Kind: Snippet, Insert: strings.Fields(x.label)[0], Snippet: x.body}
	}
	return out
}

// builtinItems lists the implemented builtins, with a call snippet when
// snippets is set; both lists are built once.
func builtinItems(snippets bool) []Item {
	if snippets {
		return builtinSnippets()
	}
	return builtinPlain()
}

var builtinPlain = sync.OnceValue(func() []Item { return makeBuiltinItems(false) })
var builtinSnippets = sync.OnceValue(func() []Item { return makeBuiltinItems(true) })

func makeBuiltinItems(snippets bool) []Item {
	var out []Item
	for _, b := range builtins.All() {
		if !b.Implemented {
			continue
		}
		it := Item{Label: b.Name, Kind: Builtin, Detail: b.Label(0), Insert: b.Name}
		if snippets && len(b.Signatures) > 0 && len(b.Signatures[0].Params) > 0 {
			var parts []string
			for i, p := range b.Signatures[0].Params {
				parts = append(parts, fmt.Sprintf("${%d:%s}", i+1, snippetEscape(p.Name)))
			}
			it.Snippet = snippetEscape(b.Name) + " of " + strings.Join(parts, " and ")
		}
		out = append(out, it)
	}
	return out
}

// bodyActions returns, for a `create container` header on the line at
// lineStart, the names of the actions its body (the lines below, more
// indented) defines, or nil for another line.
func bodyActions(a *core.Analysis, lineStart int) map[string]bool {
	text := a.Lines.Text()
	l := a.Lines.Line(lineStart)
	header := text[lineStart:a.Lines.LineEnd(l)]
	if !strings.HasPrefix(strings.TrimSpace(header), "create container ") {
		return nil
	}
	in := len(header) - len(strings.TrimLeft(header, " \t"))
	have := map[string]bool{}
	if _, base, ok := strings.Cut(header, " extends "); ok && a.Info != nil {
		// What it inherits satisfies requirements too.
		base, _, _ = strings.Cut(strings.TrimSpace(base), " implements")
		for c, k := a.Info.Containers[strings.TrimSpace(base)], 0; c != nil && k < 64; c, k = c.Base(), k+1 {
			for n, m := range c.Members() {
				if m.Kind == check.SymMethod {
					have[n] = true
				}
			}
		}
	}
	for l++; l < a.Lines.Count(); l++ {
		line := text[a.Lines.LineStart(l):a.Lines.LineEnd(l)]
		code := strings.TrimSpace(line)
		if code == "" {
			continue
		}
		if len(line)-len(strings.TrimLeft(line, " \t")) <= in {
			break
		}
		if rest, ok := strings.CutPrefix(code, "action "); ok {
			name, _, _ := strings.Cut(rest, ":")
			name, _, _ = strings.Cut(name, " needs ")
			have[strings.TrimSpace(name)] = true
		}
	}
	return have
}

// implemented returns the interfaces named after `implements` on the
// container's header at lineStart.
func implemented(a *core.Analysis, lineStart int) []*check.Symbol {
	if a.Info == nil || a.Info.Global == nil {
		return nil
	}
	header := a.Lines.Text()[lineStart:a.Lines.LineEnd(a.Lines.Line(lineStart))]
	_, names, ok := strings.Cut(header, " implements ")
	if !ok {
		return nil
	}
	var out []*check.Symbol
	for _, n := range strings.Split(strings.TrimRight(strings.TrimSpace(names), ":"), ",") {
		if sym := a.Info.Global.Resolve(strings.TrimSpace(n)); sym != nil && sym.Kind == check.SymInterface {
			out = append(out, sym)
		}
	}
	return out
}

// provides reports whether a container's actions (and those it inherits),
// with the body's own (have), are what each of ifaces requires.
func provides(c *check.Symbol, have map[string]bool, ifaces []*check.Symbol) bool {
	all := maps.Clone(have)
	for k := 0; c != nil && k < 64; c, k = c.Base(), k+1 {
		for n, m := range c.Members() {
			if m.Kind == check.SymMethod {
				all[n] = true
			}
		}
	}
	for _, i := range ifaces {
		if !satisfied(i, all) {
			return false
		}
	}
	return true
}

// satisfied reports whether the actions named in have are all the actions
// the interface iface (and those it extends) requires.
func satisfied(iface *check.Symbol, have map[string]bool) bool {
	for k := 0; iface != nil && k < 64; iface, k = iface.Base(), k+1 {
		for n := range iface.Members() {
			if !have[n] {
				return false
			}
		}
	}
	return true
}
