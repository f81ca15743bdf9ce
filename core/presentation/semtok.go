package presentation

// This file answers semantic tokens: every keyword (WFL's keywords are
// multi-word phrases such as `divided by`, each word a keyword token),
// literal and comment from the lexer, and every name classified by what the
// checker says it denotes, a multi-word name being one token.

import (
	"sort"

	"wfl-lsp/core"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
)

// SemType is a semantic token type; its names are LSP's standard ones.
type SemType int

const (
	SemKeyword SemType = iota
	SemComment
	SemString
	SemNumber
	SemOperator
	SemVariable
	SemParameter
	SemFunction
	SemMethod
	SemProperty
	SemClass
	SemInterface
	SemEvent
	SemRegexp
	SemType_ // a written type: `Number`, `list of text`
	semTypeCount
)

// SemTypeNames are the LSP names of the token types, indexed by SemType.
var SemTypeNames = [semTypeCount]string{
	SemKeyword: "keyword", SemComment: "comment", SemString: "string", SemNumber: "number",
	SemOperator: "operator", SemVariable: "variable", SemParameter: "parameter",
	SemFunction: "function", SemMethod: "method", SemProperty: "property", SemClass: "class",
	SemInterface: "interface", SemEvent: "event", SemRegexp: "regexp", SemType_: "type",
}

// SemMods is a set of semantic token modifiers, one bit each.
type SemMods uint32

const (
	ModDeclaration SemMods = 1 << iota
	ModReadonly
	ModDefaultLibrary
)

// SemModNames are the LSP names of the modifiers, indexed by bit.
var SemModNames = []string{"declaration", "readonly", "defaultLibrary"}

// A SemanticToken is one classified span of the text. A string literal may
// span several lines.
type SemanticToken struct {
	Span token.Span
	Type SemType
	Mods SemMods
}

// SemanticTokens returns the classified tokens that overlap span, in order.
func SemanticTokens(a *core.Analysis, span token.Span) []SemanticToken {
	if a.Lines == nil {
		return nil
	}
	lex := a.Lexed()
	ids, ref := a.Names()
	types, bads := a.TypeSpans(), a.BadSpans()
	// The lexer's tokens in span: the list is sized by them, not by the
	// whole text's (a visible range's list would hold the document's).
	first := sort.Search(len(lex.Tokens), func(i int) bool { return lex.Tokens[i].End > span.Start })
	end := first + sort.Search(len(lex.Tokens)-first, func(i int) bool { return lex.Tokens[first+i].Start >= span.End })
	out := make([]SemanticToken, 0, (end-first)/2+8)
	inSpan := func(s token.Span) bool { return s.End > span.Start && s.Start < span.End }

	// Names come from the tree (the parser splits some merged identifier
	// tokens, and keywords can be used as names); everything else from the
	// lexer. Walk both in order.
	j := sort.Search(len(ids), func(i int) bool { return ids[i].End() > span.Start })
	k := sort.Search(len(lex.Comments), func(i int) bool { return lex.Comments[i].End > span.Start })
	// emitBefore emits, in order, the comments and names that start before upTo.
	emitBefore := func(upTo int) {
		for {
			c := k < len(lex.Comments) && lex.Comments[k].Start < upTo
			n := j < len(ids) && ids[j].Pos() < upTo
			switch {
			case c && (!n || lex.Comments[k].Start < ids[j].Pos()):
				if inSpan(lex.Comments[k]) {
					out = append(out, SemanticToken{Span: lex.Comments[k], Type: SemComment})
				}
				k++
			case n:
				r := ref(j)
				s := token.Span{Start: r.Ident.Pos(), End: r.Ident.End()}
				if inSpan(s) {
					typ, mods := classify(r)
					out = append(out, SemanticToken{Span: s, Type: typ, Mods: mods})
				}
				j++
			default:
				return
			}
		}
	}
	ty := 0 // next written type
	inType := func(t token.Token) bool {
		for ty < len(types) && types[ty].End <= t.Start {
			ty++
		}
		return ty < len(types) && types[ty].Start <= t.Start && t.End <= types[ty].End
	}
	bad := 0 // next broken stretch of text
	inBad := func(s token.Span) bool {
		for bad < len(bads) && bads[bad].End <= s.Start {
			bad++
		}
		return bad < len(bads) && bads[bad].Start <= s.Start
	}
	text := a.Lines.Text()
	for i := first; i < end; i++ {
		t := lex.Tokens[i]
		if t.Kind == token.Identifier && !inType(t) {
			// An identifier token is one or more words (the lexer merges
			// them); the words no name of the tree holds are words of the
			// statement (`reading`, `main`, `secured`, `length`, …), or,
			// in text that does not parse, a name being typed.
			for w := range words(text, t.Span()) {
				emitBefore(w.Start)
				if j > 0 && w.Start < ids[j-1].End() || j < len(ids) && ids[j].Pos() < w.End {
					continue // a name's
				}
				if inSpan(w) {
					typ := SemKeyword
					if inBad(w) {
						typ = SemVariable
					}
					out = append(out, SemanticToken{Span: w, Type: typ})
				}
			}
			continue
		}
		emitBefore(t.Start)
		if j > 0 && t.Start < ids[j-1].End() {
			continue // covered by a name already emitted
		}
		if j < len(ids) && ids[j].Pos() < t.End {
			continue // a name starts inside this token: the name wins
		}
		var typ SemType
		switch {
		case (t.Kind == token.Identifier || t.Kind.IsKeyword()) && inType(t):
			typ = SemType_
		case t.Kind == token.StringLiteral:
			typ = SemString
		case t.Kind == token.IntLiteral || t.Kind == token.FloatLiteral:
			typ = SemNumber
		case t.Kind == token.BooleanLiteral || t.Kind == token.NothingLiteral || t.Kind.IsKeyword():
			typ = SemKeyword
		case t.Kind == token.Plus || t.Kind == token.Minus || t.Kind == token.Percent ||
			t.Kind == token.Slash || t.Kind == token.Equals:
			typ = SemOperator
		default:
			continue
		}
		out = append(out, SemanticToken{Span: t.Span(), Type: typ})
	}
	emitBefore(span.End)
	return out
}

// words yields the spans of the words of the text in sp.
func words(text string, sp token.Span) func(func(token.Span) bool) {
	return func(yield func(token.Span) bool) {
		start := -1
		for i := sp.Start; i <= sp.End; i++ {
			space := i == sp.End || text[i] == ' ' || text[i] == '\t'
			switch {
			case space && start >= 0:
				if !yield(token.Span{Start: start, End: i}) {
					return
				}
				start = -1
			case !space && start < 0:
				start = i
			}
		}
	}
}

// classify gives a name's token type from the symbol it names.
func classify(r core.IdentRef) (SemType, SemMods) {
	var mods SemMods
	if r.Def {
		mods |= ModDeclaration
	}
	s := r.Sym
	if s == nil {
		if builtins.IsBuiltin(r.Ident.Name) {
			return SemFunction, mods | ModDefaultLibrary
		}
		return SemVariable, mods
	}
	switch s.Kind {
	case check.SymConstant:
		return SemVariable, mods | ModReadonly
	case check.SymParameter:
		return SemParameter, mods
	case check.SymAction:
		return SemFunction, mods
	case check.SymMethod:
		return SemMethod, mods
	case check.SymContainer:
		return SemClass, mods
	case check.SymInterface:
		return SemInterface, mods
	case check.SymProperty:
		return SemProperty, mods
	case check.SymEvent:
		return SemEvent, mods
	case check.SymPattern:
		return SemRegexp, mods
	case check.SymBuiltin:
		return SemFunction, mods | ModDefaultLibrary
	case check.SymPredeclared, check.SymSignal:
		return SemVariable, mods | ModReadonly | ModDefaultLibrary
	case check.SymType:
		return SemType_, mods | ModDefaultLibrary
	case check.SymField:
		return SemProperty, mods
	}
	if !s.Mutable && s.Kind == check.SymImplicit {
		mods |= ModReadonly
	}
	return SemVariable, mods
}
