package parser

// This file parses type names: the type after 'as' or ':' of a parameter,
// a property's type (which may be a list of a type), and an action's return
// type (list of, optional, map of … to …).

import (
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// typeWord names the type a token spells, as the reference's
// type_from_token and colon_type_from_token do (they agree): text,
// pattern, any, date, time, nothing or an identifier.
func typeWord(t token.Token) (string, bool) {
	switch t.Kind {
	case token.KeywordText, token.KeywordPattern, token.KeywordAny, token.KeywordDate, token.KeywordTime:
		return t.Kind.Spelling(), true
	case token.NothingLiteral:
		return "nothing", true
	case token.Identifier:
		return t.Text, true
	}
	return "", false
}

// typeExprOf makes the type named name, spelled by the token t.
func (p *parser) typeExprOf(t token.Token, name string) *ast.TypeExpr {
	return &ast.TypeExpr{Range: ast.Range{From: t.Start, To: t.End}, Name: name, Ident: p.typeIdent(t)}
}

// typeIdent returns the name a type's head word t is, or nil for a keyword.
func (p *parser) typeIdent(t token.Token) *ast.Ident {
	if t.Kind != token.Identifier {
		return nil
	}
	return p.identOf(t)
}

// colonType parses the type name after a ':' (a parameter's, a property's,
// a required action's); at the end of the file it reports at at, the name
// or keyword the type belongs to.
func (p *parser) colonType(at token.Token) *ast.TypeExpr {
	t := p.peek()
	if t.Kind == token.EOF {
		p.failExpected(at, CodeEOF, "a type name after ':'", endOfFile)
	}
	name, ok := typeWord(t)
	if !ok {
		p.failExpected(t, CodeExpected, "a type name after ':'", t)
	}
	p.next()
	return p.typeExprOf(t, name)
}

// propertyType parses the type after `property NAME:`, where `list of T`
// is allowed too; at the end of the file it reports at prop.
func (p *parser) propertyType(prop token.Token) *ast.TypeExpr {
	t := p.peek()
	if t.Kind == token.KeywordList || (t.Kind == token.Identifier && t.Text == "List") {
		p.next()
		te := &ast.TypeExpr{Name: "list", Ident: p.typeIdent(t)}
		if p.got(token.KeywordOf) {
			te.Args = []*ast.TypeExpr{p.propertyType(t)}
		}
		te.Range = p.rng(t.Start)
		return te
	}
	return p.colonType(prop)
}

// actionReturnType speculatively parses `T` of the `…: T:` header.
func (p *parser) actionReturnType() *ast.TypeExpr {
	t := p.peek()
	is := func(k token.Kind, spelling string) bool {
		return t.Kind == k || (t.Kind == token.Identifier && strings.EqualFold(t.Text, spelling))
	}
	switch {
	case is(token.KeywordList, "list"), is(token.KeywordOptional, "optional"):
		p.next()
		if !p.got(token.KeywordOf) {
			return nil
		}
		inner := p.actionReturnType()
		if inner == nil {
			return nil
		}
		return &ast.TypeExpr{Range: p.rng(t.Start), Name: strings.ToLower(t.Kind.Spelling() + t.Text), Ident: p.typeIdent(t), Args: []*ast.TypeExpr{inner}}
	case is(token.KeywordMap, "map"):
		p.next()
		if !p.got(token.KeywordOf) {
			return nil
		}
		k := p.actionReturnType()
		if k == nil || !p.got(token.KeywordTo) {
			return nil
		}
		v := p.actionReturnType()
		if v == nil {
			return nil
		}
		return &ast.TypeExpr{Range: p.rng(t.Start), Name: "map", Ident: p.typeIdent(t), Args: []*ast.TypeExpr{k, v}}
	case is(token.KeywordBinary, "binary"):
		p.next()
		return p.typeExprOf(t, "binary")
	}
	if name, ok := typeWord(t); ok {
		p.next()
		return p.typeExprOf(t, name)
	}
	return nil
}
