package check

// This file is the type checker's list aliases: which variables may hold
// the same list at run time, so that a change through one of them (a push
// of another type of value) changes the element type every one of them sees.
// A variable stored from another (`store b as a`), an element taken out of
// a list of lists (`store row as grid[0]`), a list put into a list literal,
// the item of a for-each over a list of lists, all share a list with what
// they came from, at a depth: `row` is `grid` one level down. A change
// through an action's parameter or a list an action's body changes reaches
// the lists its calls pass or name; one the checker cannot follow (a call
// through a variable) makes their elements dynamic.
//
// The relation only grows: what may alias on one path may on every path
// after it, as the reference's may-alias relation says after a branch.

import (
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/types"
)

// An aliasPath is a variable's list at a depth: 0 the list it holds, 1 the
// lists that list holds, and so on.
type aliasPath struct {
	sym   *Symbol
	depth int
}

// maxAliasDepth bounds the depths followed: a variable that holds itself
// at another depth would otherwise make paths without end.
const maxAliasDepth = 16

// aliases is the relation: groups of paths that may share a list.
type aliases struct {
	groups [][]aliasPath
}

// group returns the index of the group holding p, or -1.
func (al *aliases) group(p aliasPath) int {
	for i, g := range al.groups {
		for _, q := range g {
			if q == p {
				return i
			}
		}
	}
	return -1
}

// union puts p and q in one group.
func (al *aliases) union(p, q aliasPath) {
	if p.sym == nil || q.sym == nil || p == q || p.depth > maxAliasDepth || q.depth > maxAliasDepth {
		return
	}
	i, j := al.group(p), al.group(q)
	switch {
	case i < 0 && j < 0:
		al.groups = append(al.groups, []aliasPath{p, q})
	case i < 0:
		al.groups[j] = append(al.groups[j], p)
	case j < 0:
		al.groups[i] = append(al.groups[i], q)
	case i != j:
		al.groups[i] = append(al.groups[i], al.groups[j]...)
		al.groups = append(al.groups[:j], al.groups[j+1:]...)
	}
}

// members calls f with every path that may share the list at p (p itself
// included), and the same at the depths below them: a change of the lists
// of `grid` one level down is a change of `row`.
func (al *aliases) members(p aliasPath, f func(aliasPath)) {
	f(p)
	if len(al.groups) == 0 {
		return
	}
	seen := map[aliasPath]bool{p: true}
	var visit func(p aliasPath)
	visit = func(p aliasPath) {
		for _, g := range al.groups {
			// A group holding p at or above its depth relates the others
			// at the same offset.
			for _, q := range g {
				if q.sym != p.sym || q.depth > p.depth {
					continue
				}
				off := p.depth - q.depth
				for _, r := range g {
					x := aliasPath{r.sym, r.depth + off}
					if x.depth <= maxAliasDepth && !seen[x] {
						seen[x] = true
						f(x)
						visit(x)
					}
				}
			}
		}
	}
	visit(p)
}

// holds reports whether a group holds a path of sym.
func (al *aliases) holds(sym *Symbol) bool {
	for _, g := range al.groups {
		for _, q := range g {
			if q.sym == sym {
				return true
			}
		}
	}
	return false
}

// detach takes sym's paths at depth from and below out of every group:
// the variable holds another list now (from 0), or its list holds other
// lists (from 1).
func (al *aliases) detach(sym *Symbol, from int) {
	for i := 0; i < len(al.groups); i++ {
		g := al.groups[i][:0:0]
		for _, q := range al.groups[i] {
			if q.sym != sym || q.depth < from {
				g = append(g, q)
			}
		}
		if len(g) < 2 {
			al.groups = append(al.groups[:i], al.groups[i+1:]...)
			i--
			continue
		}
		al.groups[i] = g
	}
}

func (al *aliases) clone() aliases {
	out := aliases{groups: make([][]aliasPath, len(al.groups))}
	for i, g := range al.groups {
		out.groups[i] = append([]aliasPath(nil), g...)
	}
	return out
}

// A listEffect is what a change does to the element type of a list: joins a
// type in, replaces it, or makes it dynamic (escape).
type listEffect struct {
	t       *types.Type
	replace bool
}

var escapeEffect = listEffect{t: types.Any}

// aliasPathOf returns the list path expression e names: a variable, in
// parentheses, indexed (one level down each time).
func (tc *typeChecker) aliasPathOf(e ast.Expr) (aliasPath, bool) {
	depth := 0
	for {
		switch x := e.(type) {
		case *ast.ParenExpr:
			e = x.X
			continue
		case *ast.IndexExpr:
			e = x.X
			depth++
			continue
		case *ast.Ident:
			sym := tc.info.Uses[x]
			if sym == nil || (sym.Kind != SymVariable && sym.Kind != SymParameter && sym.Kind != SymImplicit) {
				return aliasPath{}, false
			}
			return aliasPath{sym, depth}, true
		}
		return aliasPath{}, false
	}
}

// aliasValue relates sym, just stored from value, with the lists value
// shares: a variable's (at its depth), or those a list literal holds (one
// level down per literal).
func (tc *typeChecker) aliasValue(sym *Symbol, value ast.Expr) {
	if sym == nil || sym.Kind == SymProperty || !mayBeList(tc.symType(sym)) {
		return
	}
	if tc.paths == 0 && tc.aliases.holds(sym) && !tc.names(value, sym) {
		// On the one path, the list it held before is held no more.
		tc.aliases.detach(sym, 0)
	}
	tc.aliasAt(aliasPath{sym, 0}, value)
}

// mayBeList reports whether a value of type t may be a list.
func mayBeList(t *types.Type) bool {
	return t.Kind == types.KList || t.Kind == types.KUnknown || t.Kind == types.KAny || t.Kind == types.KOptional && mayBeList(t.Elem)
}

// cleared notes that the list of sym holds no lists any more.
func (tc *typeChecker) cleared(sym *Symbol) {
	if sym != nil && tc.paths == 0 && tc.aliases.holds(sym) {
		tc.aliases.detach(sym, 1)
	}
}

func (tc *typeChecker) aliasAt(p aliasPath, value ast.Expr) {
	if p.depth > maxAliasDepth {
		return
	}
	var callee *ast.Ident
	var args []*ast.Arg
	switch v := ast.Unparen(value).(type) {
	case *ast.ListLit:
		for _, x := range v.Elems {
			tc.aliasAt(aliasPath{p.sym, p.depth + 1}, x)
		}
		return
	case *ast.ActionCallExpr:
		callee, args = v.Name, v.Args
	case *ast.CallExpr:
		callee, _ = v.Fun.(*ast.Ident)
		args = v.Args
	}
	if callee != nil {
		// An action's result: the lists it returns.
		if sym := tc.heldAction(callee); sym != nil {
			for _, d := range sym.Versions() {
				e := tc.effectsOf(d)
				if e == nil {
					continue
				}
				for _, s := range e.retCaptured {
					tc.aliases.union(p, aliasPath{s, 0})
				}
				for _, i := range e.retParams {
					if i < len(args) && args[i] != nil {
						tc.aliasAt(p, args[i].Value)
					}
				}
			}
		}
		return
	}
	if q, ok := tc.aliasPathOf(value); ok {
		tc.aliases.union(p, q)
	}
}

// mutate applies a change of the list at the path target names to every
// list that may share it.
func (tc *typeChecker) mutate(target ast.Expr, eff listEffect) {
	p, ok := tc.aliasPathOf(target)
	if !ok {
		return
	}
	tc.mutatePath(p, eff)
}

func (tc *typeChecker) mutatePath(p aliasPath, eff listEffect) {
	tc.aliases.members(p, func(q aliasPath) {
		if eff.t == nil {
			// A change that may remove elements.
			delete(tc.filled, q.sym)
			return
		}
		if q.sym.Kind == SymProperty {
			return
		}
		old := tc.symType(q.sym)
		if t := applyEffect(old, q.depth, eff); t != old {
			tc.put(q.sym, t)
		}
	})
}

// applyEffect returns t with the element type of its list at depth changed
// as eff says; t itself when there is no list there.
func applyEffect(t *types.Type, depth int, eff listEffect) *types.Type {
	if t == nil || t.Kind != types.KList {
		return t
	}
	if depth > 0 {
		e := applyEffect(t.Elem, depth-1, eff)
		if e == t.Elem {
			return t
		}
		return types.NewList(e)
	}
	var e *types.Type
	switch {
	case eff.replace:
		e = eff.t
	case gradual(t.Elem) && t.Elem.Kind != types.KAny:
		return t // an element type not known stays so
	default:
		e = types.Join(t.Elem, eff.t)
	}
	if types.Identical(e, t.Elem) {
		return t
	}
	return types.NewList(e)
}

// builtinEffects applies what a builtin that changes its list argument does
// to the lists it may share.
func (tc *typeChecker) builtinEffects(b *builtins.Builtin, argNodes []*ast.Arg, args []*types.Type) {
	if len(argNodes) == 0 || argNodes[0] == nil {
		return
	}
	var eff listEffect
	switch b.Name {
	case "push", "unshift":
		if len(args) < 2 {
			return
		}
		eff = listEffect{t: args[1]}
	case "insert_at", "insertat":
		if len(args) < 3 {
			return
		}
		eff = listEffect{t: args[2]}
	case "fill":
		if len(args) < 2 {
			return
		}
		eff = listEffect{t: args[1], replace: true}
	}
	if eff.t != nil && tc.propertyElement(argNodes[0], argNodes[0].Value, eff.t, "Builtin '"+b.Name+"' cannot put") {
		return
	}
	if eff.t != nil {
		if v := argNodes[len(args)-1]; v != nil {
			tc.aliasElement(argNodes[0].Value, v.Value, eff.t)
		}
	}
	switch b.Name {
	case "push", "unshift", "insert_at", "insertat", "fill":
	case "pop", "shift", "remove_at", "removeat", "clear":
		eff = listEffect{} // removes elements
	default:
		return
	}
	tc.mutate(argNodes[0].Value, eff)
}

// An actionEffect is what an action's body may do to what it does not
// make: change the lists its parameters hold (by index) and those of the
// variables around it it names, and change those variables.
type actionEffect struct {
	params   []int
	captured []*Symbol
	assigns  []capturedAssign // the variables around it its body changes

	// The lists it may return: a parameter's (by index), a variable's
	// around it.
	retParams   []int
	retCaptured []*Symbol
}

// A capturedAssign is a variable around an action that its body changes,
// and the type of the value when a literal says it (else Unknown).
type capturedAssign struct {
	sym *Symbol
	t   *types.Type
}

// effectsOf returns what d's body may change, found once from its
// statements: the targets of push, add and the builtins that change their
// list, and lists passed on to actions that change them.
func (tc *typeChecker) effectsOf(d *ast.ActionDecl) *actionEffect {
	if e, ok := tc.effects[d]; ok {
		return e
	}
	if tc.effects == nil {
		tc.effects = map[*ast.ActionDecl]*actionEffect{}
	}
	tc.effects[d] = nil // a recursive call changes nothing more
	var eff actionEffect
	params := map[*Symbol]int{}
	for i, p := range d.Params {
		if p.Name != nil {
			if s := tc.info.Defs[p.Name]; s != nil {
				params[s] = i
			}
		}
	}
	outside := func(s *Symbol) bool {
		return s.Node != nil && !(d.Pos() <= s.Decl.Start && s.Decl.Start < d.End())
	}
	// note records a change of the list e names (params: of a parameter;
	// captured: of a variable around the action), or returns it.
	note := func(e ast.Expr, params_ *[]int, captured *[]*Symbol) {
		p, ok := tc.aliasPathOf(e)
		if !ok {
			return
		}
		if i, ok := params[p.sym]; ok {
			*params_ = append(*params_, i)
		} else if outside(p.sym) {
			*captured = append(*captured, p.sym)
		}
	}
	// called merges what a call of action sym with args does.
	called := func(sym *Symbol, args []*ast.Arg) {
		for _, v := range sym.Versions() {
			e := tc.effectsOf(v)
			if e == nil {
				continue
			}
			eff.captured = append(eff.captured, e.captured...)
			eff.assigns = append(eff.assigns, e.assigns...)
			for _, i := range e.params {
				if i < len(args) && args[i] != nil {
					note(args[i].Value, &eff.params, &eff.captured)
				}
			}
		}
	}
	if d.Body != nil {
		ast.Inspect(d.Body, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ActionDecl:
				return false // checked, and called, apart
			case *ast.AssignStmt:
				if n.Name == nil {
					break
				}
				if s := tc.info.Uses[n.Name]; s != nil && s.Kind == SymVariable && outside(s) {
					t := types.Unknown
					if lit, ok := ast.Unparen(n.Value).(*ast.BasicLit); ok && n.Kind == ast.AssignChange {
						if lt := litType(lit.Kind); lt != nil {
							t = lt
						}
					}
					eff.assigns = append(eff.assigns, capturedAssign{s, t})
				}
			case *ast.PushStmt:
				note(n.List, &eff.params, &eff.captured)
			case *ast.AddStmt:
				if n.List != nil {
					note(n.List, &eff.params, &eff.captured)
				}
			case *ast.ReturnStmt:
				if n.Value != nil {
					note(n.Value, &eff.retParams, &eff.retCaptured)
				}
			case *ast.CallExpr:
				if fn, ok := n.Fun.(*ast.Ident); ok {
					if s := tc.info.Uses[fn]; s != nil && s.Kind == SymBuiltin && changesList(s.Builtin.Name) && len(n.Args) > 0 && n.Args[0] != nil {
						note(n.Args[0].Value, &eff.params, &eff.captured)
					} else if s != nil && s.Kind == SymAction {
						called(s, n.Args)
					}
				}
			case *ast.ActionCallExpr:
				if n.Name != nil {
					if s := tc.info.Uses[n.Name]; s != nil && s.Kind == SymAction {
						called(s, n.Args)
					}
				}
			case *ast.ExprStmt:
				if id, ok := n.X.(*ast.Ident); ok {
					if s := tc.info.Uses[id]; s != nil && s.Kind == SymAction {
						called(s, nil)
					}
				}
			}
			return true
		})
	}
	out := &eff
	if len(eff.params) == 0 && len(eff.captured) == 0 && len(eff.assigns) == 0 && len(eff.retParams) == 0 && len(eff.retCaptured) == 0 {
		out = nil
	}
	tc.effects[d] = out
	return out
}

// changesList reports whether builtin name adds values to its list
// argument.
func changesList(name string) bool {
	switch name {
	case "push", "unshift", "insert_at", "insertat", "fill":
		return true
	}
	return false
}

// callEffects makes dynamic the element types of the lists a call of
// action sym may change: those passed to a parameter a version of it
// changes, and those its versions change by name.
func (tc *typeChecker) callEffects(sym *Symbol, argNodes []*ast.Arg) {
	for _, d := range sym.Versions() {
		eff := tc.effectsOf(d)
		if eff == nil {
			continue
		}
		for _, i := range eff.params {
			if i < len(argNodes) && argNodes[i] != nil {
				tc.mutate(argNodes[i].Value, escapeEffect)
			}
		}
		clear(tc.filled) // what it removes is not followed
		for _, s := range eff.captured {
			tc.mutatePath(aliasPath{s, 0}, escapeEffect)
		}
		for _, as := range eff.assigns {
			// The variable may hold what the body put into it: a
			// narrowing before the call holds no more.
			if cur := tc.symType(as.sym); !types.Identical(cur, types.Join(cur, as.t)) {
				tc.put(as.sym, types.Join(cur, as.t))
			}
		}
	}
}

// escapeArgs makes dynamic the element types of the lists passed to a call
// the checker cannot follow.
func (tc *typeChecker) escapeArgs(argNodes []*ast.Arg) {
	for _, a := range argNodes {
		if a != nil {
			tc.mutate(a.Value, escapeEffect)
		}
	}
}

// names reports whether e names sym.
func (tc *typeChecker) names(e ast.Expr, sym *Symbol) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && tc.info.Uses[id] == sym {
			found = true
		}
		return !found
	})
	return found
}

// heldAction returns the action (or builtin) name calls: itself, or the
// one a variable was last stored from (`store h as f`); else nil.
func (tc *typeChecker) heldAction(name *ast.Ident) *Symbol {
	sym := tc.info.Uses[name]
	if sym == nil {
		return nil
	}
	if sym.Kind == SymAction || sym.Kind == SymBuiltin {
		return sym
	}
	return tc.holds[sym]
}

// noteHeld notes which action sym, just stored from value, holds.
func (tc *typeChecker) noteHeld(sym *Symbol, value ast.Expr) {
	if sym == nil || (tc.holds == nil && !isIdent(value)) {
		return
	}
	if id, ok := ast.Unparen(value).(*ast.Ident); ok {
		if a := tc.heldAction(id); a != nil {
			if tc.holds == nil {
				tc.holds = map[*Symbol]*Symbol{}
			}
			tc.holds[sym] = a
			return
		}
	}
	delete(tc.holds, sym)
}

func isIdent(e ast.Expr) bool {
	_, ok := ast.Unparen(e).(*ast.Ident)
	return ok
}

// aliasElement relates the lists a list value put into the list target
// shares with target's elements (`push with rows and row`).
func (tc *typeChecker) aliasElement(target, value ast.Expr, vt *types.Type) {
	if value == nil || !mayBeList(vt) {
		return
	}
	if p, ok := tc.aliasPathOf(target); ok {
		tc.aliasAt(aliasPath{p.sym, p.depth + 1}, value)
	}
}
