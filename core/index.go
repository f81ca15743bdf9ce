package core

// This file keeps, per analysis, the tables that position queries share:
// every identifier of the tree in source order with the symbol it declares or
// refers to, and the lexer's tokens. They are built once, on first use, and
// dropped with the analysis.

import (
	"iter"
	"slices"
	"sort"
	"sync"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/token"
)

// An IdentRef is one identifier of the tree and what it names.
type IdentRef struct {
	Ident *ast.Ident
	Sym   *check.Symbol // nil when the name is not resolved
	Def   bool          // the identifier declares Sym
}

// index is the lookup table of one analysis.
type index struct {
	idents   identList    // by position
	types    []token.Span // written types (TypeExpr), outermost only, by position
	bad      []token.Span // text that does not parse (BadStmt, BadExpr), outermost only, by position
	badStmts []token.Span // the BadStmts among them

	lexOnce sync.Once
	lex     *lexer.Result

	writesOnce sync.Once
	writes     map[*ast.Ident]bool // see Analysis.assigned

	membersOnce sync.Once
	members     map[*ast.Ident]bool // see Analysis.memberNames
}

// identList is a list of IdentRefs, kept as two lists and a bit set (16
// bytes and a bit each, rather than 24: an open document keeps one entry a
// name).
type identList struct {
	ids  []*ast.Ident
	syms []*check.Symbol
	defs []uint64 // bit i is ids[i]'s Def
}

func newIdentList(refs []IdentRef) identList {
	l := identList{
		ids:  make([]*ast.Ident, len(refs)),
		syms: make([]*check.Symbol, len(refs)),
		defs: make([]uint64, (len(refs)+63)/64),
	}
	for i, r := range refs {
		l.ids[i], l.syms[i] = r.Ident, r.Sym
		if r.Def {
			l.defs[i/64] |= 1 << (i % 64)
		}
	}
	return l
}

func (l *identList) len() int { return len(l.ids) }

func (l *identList) at(i int) IdentRef {
	return IdentRef{Ident: l.ids[i], Sym: l.syms[i], Def: l.defs[i/64]&(1<<(i%64)) != 0}
}

// indexOf returns the analysis' index, built on first use. It lives on
// the analysis: a cache beside it (a map weakly keyed by the analysis)
// kept each index until a collection after the analysis' own, and with
// it, through the tokens it holds, the text of every version analysed
// since the collection before: while typing into a large document, most
// of the heap a collection found live.
func indexOf(a *Analysis) *index {
	a.ixOnce.Do(func() { a.ix = buildIndex(a) })
	return a.ix
}

func buildIndex(a *Analysis) *index {
	ix := &index{}
	if a.File == nil {
		return ix
	}
	var idents []IdentRef
	// The names of a statement read two ways (check.LeadOf): the merged
	// name of the other reading, which no walk visits, when it is bound,
	// in place of the first reading's name when that one is not.
	var unread map[*ast.Ident]bool
	other := func(alt *ast.Ident, e ast.Expr) {
		if alt == nil || a.Info == nil || a.Info.Uses[alt] == nil {
			return
		}
		idents = append(idents, IdentRef{Ident: alt, Sym: a.Info.Uses[alt]})
		if lead := check.LeadOf(e, alt); lead != nil && a.Info.Uses[lead] == nil {
			if unread == nil {
				unread = map[*ast.Ident]bool{}
			}
			unread[lead] = true
		}
	}
	ast.Inspect(a.File, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.WriteStmt:
			other(n.Classic, n.Content)
		case *ast.FlushStmt:
			other(n.Legacy, n.Target)
		case *ast.TypeExpr:
			if len(ix.types) == 0 || ix.types[len(ix.types)-1].End <= n.Pos() {
				ix.types = append(ix.types, token.Span{Start: n.Pos(), End: n.End()}) // outermost only
			}
			return true // its names are names
		case *ast.BadStmt, *ast.BadExpr:
			ix.bad = append(ix.bad, token.Span{Start: n.Pos(), End: n.End()})
			if _, ok := n.(*ast.BadStmt); ok {
				ix.badStmts = append(ix.badStmts, ix.bad[len(ix.bad)-1])
			}
			return false
		}
		id, ok := n.(*ast.Ident)
		if !ok || id == nil || id.End() <= id.Pos() || unread[id] {
			return true
		}
		r := IdentRef{Ident: id}
		if a.Info != nil {
			if s := a.Info.Defs[id]; s != nil {
				r.Sym, r.Def = s, true
			} else {
				r.Sym = a.Info.Uses[id]
			}
		}
		idents = append(idents, r)
		return true
	})
	sort.SliceStable(idents, func(i, j int) bool { return idents[i].Ident.Pos() < idents[j].Ident.Pos() })
	sort.Slice(ix.types, func(i, j int) bool { return ix.types[i].Start < ix.types[j].Start })
	// The index lives as long as the analysis: keep no spare capacity.
	ix.idents = newIdentList(idents)
	ix.types = slices.Clip(append([]token.Span(nil), ix.types...))
	ix.bad = slices.Clip(ix.bad)
	ix.badStmts = slices.Clip(ix.badStmts)
	return ix
}

// tokens returns the lexer's view of the text (for a partial analysis, of
// the stretches it parsed), computed once.
func (ix *index) tokens(text string, part *coverage) *lexer.Result {
	ix.lexOnce.Do(func() {
		if part != nil {
			ix.lex = part.tokens(text)
			return
		}
		ix.lex = lexer.Lex(text)
	})
	return ix.lex
}

// IdentAt returns the identifier at offset: the one whose extent contains
// it, or else the one that ends exactly there (a cursor just after a word).
func (a *Analysis) IdentAt(offset int) (IdentRef, bool) {
	l := &indexOf(a).idents
	ids := l.ids
	i := sort.Search(len(ids), func(i int) bool { return ids[i].End() >= offset })
	for ; i < len(ids) && ids[i].Pos() <= offset; i++ {
		if offset < ids[i].End() {
			return l.at(i), true
		}
	}
	// None strictly contains offset: take one ending at offset.
	i = sort.Search(len(ids), func(i int) bool { return ids[i].End() >= offset })
	if i < len(ids) && ids[i].End() == offset {
		return l.at(i), true
	}
	return IdentRef{}, false
}

// Idents yields every identifier of the tree in source order, with its
// index.
func (a *Analysis) Idents() iter.Seq2[int, IdentRef] {
	l := &indexOf(a).idents
	return func(yield func(int, IdentRef) bool) {
		for i := range l.len() {
			if !yield(i, l.at(i)) {
				return
			}
		}
	}
}

// SymbolAt returns the identifier at offset and the symbol it names; the
// symbol is nil when the identifier is not resolved.
func (a *Analysis) SymbolAt(offset int) (*ast.Ident, *check.Symbol) {
	r, ok := a.IdentAt(offset)
	if !ok {
		return nil, nil
	}
	return r.Ident, r.Sym
}

// LineTokens returns the tokens of the analysed text that lie between
// from and to.
func (a *Analysis) LineTokens(from, to int) []token.Token {
	toks := a.Tokens()
	i := searchTokens(toks, from)
	j := i
	for j < len(toks) && toks[j].End <= to && toks[j].Kind != token.Eol {
		j++
	}
	return toks[i:j]
}

func searchTokens(toks []token.Token, from int) int {
	lo, hi := 0, len(toks)
	for lo < hi {
		m := (lo + hi) / 2
		if toks[m].Start < from {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// InBadStatement reports whether offset lies in a statement the parser could
// not read.
func (a *Analysis) InBadStatement(offset int) bool {
	bad := indexOf(a).badStmts
	i := sort.Search(len(bad), func(i int) bool { return bad[i].End >= offset })
	return i < len(bad) && bad[i].Start <= offset
}

// Writes returns the identifiers that statements write to without
// declaring them: `change x to`, `add … to x`, `remove … from x`, `clear x`,
// and the arithmetic assignments. It is computed once per analysis.
func (a *Analysis) Writes() map[*ast.Ident]bool {
	ix := indexOf(a)
	ix.writesOnce.Do(func() { ix.writes = a.findAssigned() })
	return ix.writes
}

func (a *Analysis) findAssigned() map[*ast.Ident]bool {
	w := map[*ast.Ident]bool{}
	if a.File == nil {
		return w
	}
	ast.Inspect(a.File, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			w[s.Name] = true
		case *ast.AddStmt:
			w[s.List] = true
		case *ast.RemoveStmt:
			w[s.List] = true
		case *ast.ClearStmt:
			w[s.List] = true
		case ast.Expr:
			return false // statements hold no assignments inside expressions
		}
		return true
	})
	return w
}

// MemberNames returns the identifiers that name a member after a dot
// (`x.name`, `x.name()`), which never refer to top-level names. It is
// computed once per analysis.
func (a *Analysis) MemberNames() map[*ast.Ident]bool {
	ix := indexOf(a)
	ix.membersOnce.Do(func() { ix.members = a.findMemberNames() })
	return ix.members
}

func (a *Analysis) findMemberNames() map[*ast.Ident]bool {
	m := map[*ast.Ident]bool{}
	if a.File == nil {
		return m
	}
	ast.Inspect(a.File, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.PropertyExpr:
			m[n.Prop] = true
		case *ast.MethodCallExpr:
			m[n.Method] = true
		case *ast.StaticMemberExpr:
			m[n.Member] = true
		}
		return true
	})
	return m
}

// Tokens returns the tokens of the analysed text (of the stretches a
// partial analysis parsed), lexed once per analysis.
func (a *Analysis) Tokens() []token.Token {
	return indexOf(a).tokens(a.Lines.Text(), a.part).Tokens
}

// IdentsOf yields the identifiers of the analysed text that name one of
// syms, their declarations included, in the text's order.
func (a *Analysis) IdentsOf(syms ...*check.Symbol) iter.Seq[IdentRef] {
	return func(yield func(IdentRef) bool) {
		l := &indexOf(a).idents
		for i, sym := range l.syms {
			if sym != nil && slices.Contains(syms, sym) && !yield(l.at(i)) {
				return
			}
		}
	}
}

// Lexed returns the tokens and comments of the analysed text (of the
// stretches a partial analysis parsed), lexed once per analysis.
func (a *Analysis) Lexed() *lexer.Result { return indexOf(a).tokens(a.Lines.Text(), a.part) }

// Names returns the identifiers of the tree in the text's order, and ref,
// which says what the ith of them names and whether it declares it.
func (a *Analysis) Names() (ids []*ast.Ident, ref func(i int) IdentRef) {
	l := &indexOf(a).idents
	return l.ids, l.at
}

// TypeSpans returns the spans of the type expressions written in the
// text (`as list of text`), in order.
func (a *Analysis) TypeSpans() []token.Span { return indexOf(a).types }

// BadSpans returns the spans of the statements and expressions the parser
// could not read, in order.
func (a *Analysis) BadSpans() []token.Span { return indexOf(a).bad }
