package check

// This file is how names flow out of branching statements (check if, route,
// try): a name declared on every path becomes visible after the statement,
// as in the reference, whose scope chain gives each branch a child scope.

import (
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

// ifStmt analyzes a two-way branch; a name declared in both branches becomes
// visible after it.
func (a *analyzer) ifStmt(cond ast.Expr, then *ast.Block, els ast.Stmt, n ast.Node) {
	a.expr(cond)
	outer := a.cur
	var ts, es *Scope
	thenPath := func() {
		ts = a.push(then)
		a.block(then)
		a.pop()
	}
	if els == nil {
		a.branches(true, thenPath)
		return
	}
	a.branches(false, thenPath, func() {
		switch e := els.(type) {
		case *ast.Block:
			es = a.push(e)
			a.block(e)
		default:
			es = a.push(e)
			a.stmt(e)
		}
		a.pop()
	})
	a.join(outer, ts, es, true)
}

// join declares after a branching statement each name that both branches
// declared, in their scopes ts and es, and the scope around, outer, did
// not: one variable, mutable when both were, that the identifiers of both
// declarations name (merge). With carry (a check if), it is a constant,
// or holds an action, when either declaration was or did; a route's arms
// do not carry that.
func (a *analyzer) join(outer, ts, es *Scope, carry bool) {
	for _, name := range tableNames(&ts.Symbols) {
		sym := ts.Symbols.Get(name)
		other := es.Symbols.Get(name)
		if other == nil || outer.Lookup(name) != nil {
			continue
		}
		merged := *sym
		merged.Mutable = sym.Mutable && other.Mutable
		m := &merged
		if !a.define(m, sym.Decl) {
			continue
		}
		if carry {
			if a.constants[sym] || a.constants[other] {
				a.constants[m] = true
			}
			a.aliasMerge(m, sym, other)
		}
		a.merge(m, sym, other)
	}
}

// merge records that m, declared after a branching statement, is the one
// variable that the branches' declarations x and y declare: finish makes
// every identifier of x and y name m.
func (a *analyzer) merge(m, x, y *Symbol) {
	if a.merged == nil {
		a.merged = map[*Symbol]*Symbol{}
	}
	a.merged[x], a.merged[y] = m, m
}

// unmerge makes every identifier, scope table and Info.Symbols entry of a
// symbol that a merge replaced name the symbol that replaced it.
func (a *analyzer) unmerge() {
	if len(a.merged) == 0 {
		return
	}
	canon := func(s *Symbol) *Symbol {
		for n := 0; n < 64; n++ {
			m := a.merged[s]
			if m == nil {
				return s
			}
			s = m
		}
		return s
	}
	for id, s := range a.info.Defs {
		a.info.Defs[id] = canon(s)
	}
	for id, s := range a.info.Uses {
		a.info.Uses[id] = canon(s)
	}
	syms := a.info.Symbols[:0]
	placed := map[*Symbol]bool{}
	for _, s := range a.info.Symbols {
		c := canon(s)
		if !placed[c] {
			placed[c] = true
			syms = append(syms, c)
		}
	}
	a.info.Symbols = syms
	var tables func(sc *Scope)
	tables = func(sc *Scope) {
		for name, s := range sc.Symbols.All() {
			if c := canon(s); c != s {
				sc.Symbols.set(name, c)
			}
		}
		for _, c := range sc.Children {
			tables(c)
		}
	}
	tables(a.global)
}

func (a *analyzer) aliasMerge(m, x, y *Symbol) {
	if a.aliases[x] || a.aliases[y] {
		a.setAlias(m)
	}
}

// route analyzes a route as the if-chain the reference desugars it into.
func (a *analyzer) route(r *ast.RouteStmt, i int) {
	if i >= len(r.Arms) {
		if i == 0 && r.Otherwise != nil {
			a.push(r.Otherwise)
			a.block(r.Otherwise)
			a.pop()
		}
		return
	}
	arm := r.Arms[i]
	for range arm.Values {
		a.expr(r.Subject)
	}
	if len(arm.Values) == 0 {
		a.expr(r.Subject)
	}
	for _, v := range arm.Values {
		a.expr(v)
	}
	outer := a.cur
	var ts, es *Scope
	armPath := func() {
		ts = a.push(arm.Body)
		a.block(arm.Body)
		a.pop()
	}
	switch {
	case i+1 < len(r.Arms):
		a.branches(false, armPath, func() {
			es = a.push(nil)
			es.Span = token.Span{Start: r.Arms[i+1].Pos(), End: r.End()}
			a.route(r, i+1)
			a.pop()
		})
	case r.Otherwise != nil:
		a.branches(false, armPath, func() {
			es = a.push(r.Otherwise)
			a.block(r.Otherwise)
			a.pop()
		})
	default:
		a.branches(true, armPath)
	}
	if es != nil {
		a.join(outer, ts, es, false)
	}
}

func (a *analyzer) tryStmt(s *ast.TryStmt) {
	outer := a.cur
	// The aliases' flow (see aliasflow.go): a clause may start anywhere
	// in the body, from the body's end joined with its entry and every
	// alias the body changed dynamic; after the statement, the paths
	// through the body and through each clause (and, with no clause that
	// takes any error, past them all) join.
	flow := a.inFlow()
	var entry, handler map[*Symbol]boundAlias
	var ends []map[*Symbol]boundAlias
	if flow {
		entry = a.flowEntry()
		a.pushMutated()
	}
	body := a.push(s.Body)
	a.tryDepth++
	a.block(s.Body)
	a.tryDepth--
	a.pop()
	if flow {
		end := a.takeBranch(entry)
		m := a.popMutated()
		a.joinFlow(end, entry)
		a.makeDynamic(m)
		handler = a.flowEntry()
		ends = append(ends, end)
	}
	endpoints := []map[string]*Symbol{body.Symbols.toMap()}
	catchAll := false
	for _, c := range s.Clauses {
		if c.Kind == ast.ErrGeneral {
			catchAll = true
		}
		if flow {
			a.bound = cloneBound(handler)
		}
		cs := a.push(c.Body)
		errName := "error"
		if c.Name != nil {
			errName = c.Name.Name
			a.declareReplace(c.Name, SymImplicit, c, types.Text, false)
		} else {
			a.implicit("error", types.Text, false)
		}
		if errName != "error_message" {
			a.implicit("error_message", types.Text, false)
		}
		a.block(c.Body)
		a.pop()
		if flow {
			ends = append(ends, a.bound)
		}
		decl := map[string]*Symbol{}
		for n, sym := range cs.Symbols.All() {
			if n != errName && n != "error_message" {
				decl[n] = sym
			}
		}
		endpoints = append(endpoints, decl)
	}
	if s.Otherwise != nil {
		if flow {
			a.bound = cloneBound(handler)
		}
		os := a.push(s.Otherwise)
		a.block(s.Otherwise)
		a.pop()
		if flow {
			ends = append(ends, a.bound)
		}
		endpoints = append(endpoints, os.Symbols.toMap())
	} else if !catchAll {
		if flow {
			ends = append(ends, handler)
		}
		endpoints = append(endpoints, map[string]*Symbol{})
	}
	if flow {
		a.joinFlow(ends...)
	}
	if s.Finally != nil {
		fs := a.push(s.Finally)
		for n, sym := range endpoints[0] {
			all := true
			for _, e := range endpoints[1:] {
				if e[n] == nil {
					all = false
					break
				}
			}
			if all && outer.Lookup(n) == nil {
				fs.putAs(n, sym)
			}
		}
		a.block(s.Finally)
		a.pop()
	}
}
