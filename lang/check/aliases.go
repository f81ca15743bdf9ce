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
// The relation is kept as points-to sets (the lists a variable may hold,
// the lists a list may hold), not as classes of paths: two lists put into
// one literal, or two a variable may hold after a branch, stay apart from
// each other. On the one path a store replaces what a variable held; on a
// path of several (a branch, a loop's body) it adds to it, so what may
// alias on one path may on every path after it.

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

// maxAliasDepth bounds the depths followed: a list that holds itself
// would otherwise make paths without end.
const maxAliasDepth = 16

// A listLoc names one list (or a summary of several) the program may make
// at run time: a list literal that holds others, a variable's list when
// another comes to share it, the lists a list holds when nothing says
// which.
type listLoc int32

// aliases is the relation as points-to sets: the lists each variable may
// hold, and the lists each list may hold. Two paths may share a list when
// their sets meet; a list literal holding two lists relates each with the
// literal's elements, not the two with each other, and a variable that
// may hold one of two lists (after a branch) shares with both without
// making them share.
//
// A variable not in vars holds a list only it holds (or none).
type aliases struct {
	vars  map[*Symbol][]listLoc
	order []*Symbol // vars' keys in the order they came, for a stable walk
	heap  map[listLoc][]listLoc
	next  listLoc
}

func (al *aliases) empty() bool { return len(al.vars) == 0 }

func (al *aliases) fresh() listLoc {
	al.next++
	return al.next
}

// locsOf returns the lists sym may hold, giving it one of its own first
// when it had none: another is about to share it.
func (al *aliases) locsOf(sym *Symbol) []listLoc {
	if ls := al.vars[sym]; len(ls) > 0 {
		return ls
	}
	l := al.fresh()
	al.set(sym, []listLoc{l})
	return al.vars[sym]
}

func (al *aliases) set(sym *Symbol, ls []listLoc) {
	if al.vars == nil {
		al.vars = map[*Symbol][]listLoc{}
	}
	if _, ok := al.vars[sym]; !ok {
		al.order = append(al.order, sym)
	}
	al.vars[sym] = ls
}

// assign notes that sym now holds one of ls: in place of what it held
// (strong), or besides it (on one path of several).
func (al *aliases) assign(sym *Symbol, ls []listLoc, strong bool) {
	if strong {
		if len(ls) == 0 {
			if _, ok := al.vars[sym]; ok {
				al.vars[sym] = nil
			}
			return
		}
		al.set(sym, append([]listLoc(nil), ls...))
		return
	}
	if len(ls) == 0 {
		return
	}
	al.set(sym, addLocs(append([]listLoc(nil), al.locsOf(sym)...), ls))
}

// elems returns the lists the lists ls hold, one level down; with grow,
// a list holding nothing known is given a summary of what it holds.
func (al *aliases) elems(ls []listLoc, grow bool) []listLoc {
	var out []listLoc
	for _, l := range ls {
		hs := al.heap[l]
		if len(hs) == 0 && grow {
			if al.heap == nil {
				al.heap = map[listLoc][]listLoc{}
			}
			hs = []listLoc{al.fresh()}
			al.heap[l] = hs
		}
		out = addLocs(out, hs)
	}
	return out
}

// at returns the lists at path p, making them when grow says so.
func (al *aliases) at(p aliasPath, grow bool) []listLoc {
	var ls []listLoc
	if grow {
		ls = al.locsOf(p.sym)
	} else {
		ls = al.vars[p.sym]
	}
	for d := 0; d < p.depth && len(ls) > 0; d++ {
		ls = al.elems(ls, grow)
	}
	return ls
}

// hold notes that the lists ls may hold the lists vs.
func (al *aliases) hold(ls, vs []listLoc) {
	if len(vs) == 0 {
		return
	}
	if al.heap == nil {
		al.heap = map[listLoc][]listLoc{}
	}
	for _, l := range ls {
		al.heap[l] = addLocs(al.heap[l], vs)
	}
}

// members calls f with every path that may share the list at p (p itself
// first).
func (al *aliases) members(p aliasPath, f func(aliasPath)) {
	f(p)
	if !al.holds(p.sym) {
		return // a list only it holds
	}
	targets := al.at(p, true)
	for _, sym := range al.order {
		ls := al.vars[sym]
		for d := 0; d <= maxAliasDepth && len(ls) > 0; d++ {
			if (sym != p.sym || d != p.depth) && meets(ls, targets) {
				f(aliasPath{sym, d})
			}
			ls = al.elems(ls, false)
		}
	}
}

// holds reports whether sym may share its list with another.
func (al *aliases) holds(sym *Symbol) bool { return len(al.vars[sym]) > 0 }

func (al *aliases) clone() aliases {
	out := aliases{order: append([]*Symbol(nil), al.order...), next: al.next}
	if al.vars != nil {
		out.vars = make(map[*Symbol][]listLoc, len(al.vars))
		for k, v := range al.vars {
			out.vars[k] = append([]listLoc(nil), v...)
		}
	}
	if al.heap != nil {
		out.heap = make(map[listLoc][]listLoc, len(al.heap))
		for k, v := range al.heap {
			out.heap[k] = append([]listLoc(nil), v...)
		}
	}
	return out
}

// addLocs adds to the set ls the members of vs it lacks.
func addLocs(ls, vs []listLoc) []listLoc {
	for _, v := range vs {
		if !hasLoc(ls, v) {
			ls = append(ls, v)
		}
	}
	return ls
}

func hasLoc(ls []listLoc, v listLoc) bool {
	for _, l := range ls {
		if l == v {
			return true
		}
	}
	return false
}

func meets(ls, vs []listLoc) bool {
	for _, v := range vs {
		if hasLoc(ls, v) {
			return true
		}
	}
	return false
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

// aliasValue notes the lists sym, just stored from value, may share: a
// variable's (at its depth), those a list literal holds (one level down),
// those an action returns.
func (tc *typeChecker) aliasValue(sym *Symbol, value ast.Expr) {
	if sym == nil || sym.Kind == SymProperty || !mayBeList(tc.symType(sym)) {
		return
	}
	// On the one path, the list it held before is held no more.
	tc.aliases.assign(sym, tc.listsOf(value), tc.paths == 0)
}

// mayBeList reports whether a value of type t may be a list.
func mayBeList(t *types.Type) bool {
	return t.Kind == types.KList || t.Kind == types.KUnknown || t.Kind == types.KAny || t.Kind == types.KOptional && mayBeList(t.Elem)
}

// cleared notes that the list of sym holds no lists any more.
func (tc *typeChecker) cleared(sym *Symbol) {
	if sym == nil || tc.paths > 0 {
		return
	}
	if ls := tc.aliases.vars[sym]; len(ls) == 1 {
		delete(tc.aliases.heap, ls[0])
	}
}

// listsOf returns the lists value may be that another path may share;
// none for a value only it holds.
func (tc *typeChecker) listsOf(value ast.Expr) []listLoc {
	var callee *ast.Ident
	var args []*ast.Arg
	switch v := ast.Unparen(value).(type) {
	case *ast.ListLit:
		var held []listLoc
		for _, x := range v.Elems {
			held = addLocs(held, tc.listsOf(x))
		}
		if len(held) == 0 {
			return nil
		}
		l := tc.aliases.fresh()
		tc.aliases.hold([]listLoc{l}, held)
		return []listLoc{l}
	case *ast.ActionCallExpr:
		callee, args = v.Name, v.Args
	case *ast.CallExpr:
		callee, _ = v.Fun.(*ast.Ident)
		args = v.Args
	case *ast.Ident:
		// A bare action without parameters is a call of it.
		if sym := tc.info.Uses[v]; sym != nil && sym.Kind == SymAction && takesNothing(sym) {
			callee = v
		}
	}
	if callee == nil {
		if p, ok := tc.aliasPathOf(value); ok {
			return tc.aliases.at(p, true)
		}
		return nil
	}
	// A call's result: the lists it returns.
	sym := tc.heldAction(callee)
	if sym == nil {
		return nil
	}
	if sym.Kind == SymBuiltin {
		// pop, shift and remove_at return an element of their list.
		if sym.Builtin() != nil && returnsElement(sym.Builtin().Name) && len(args) > 0 && args[0] != nil {
			return tc.aliases.elems(tc.listsOf(args[0].Value), true)
		}
		return nil
	}
	var out []listLoc
	for _, d := range sym.Versions() {
		e := tc.effectsOf(d)
		if e == nil {
			continue
		}
		for _, s := range e.retCaptured {
			out = addLocs(out, tc.aliases.locsOf(s))
		}
		for _, i := range e.retParams {
			if i < len(args) && args[i] != nil {
				out = addLocs(out, tc.listsOf(args[i].Value))
			}
		}
	}
	return out
}

// takesNothing reports whether a version of action sym has no parameters.
func takesNothing(sym *Symbol) bool {
	for _, d := range sym.Versions() {
		if len(d.Params) == 0 {
			return true
		}
	}
	return false
}

// returnsElement reports whether builtin name returns an element of its
// list argument.
func returnsElement(name string) bool {
	switch name {
	case "pop", "shift", "remove_at", "removeat":
		return true
	}
	return false
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
					if s := tc.info.Uses[fn]; s != nil && s.Kind == SymBuiltin && changesList(s.Builtin().Name) && len(n.Args) > 0 && n.Args[0] != nil {
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
	// The value the body yields when it falls off its end: its last
	// statement's, through the blocks that end it.
	var tail func(s ast.Stmt)
	tail = func(s ast.Stmt) {
		switch s := s.(type) {
		case *ast.ExprStmt:
			note(s.X, &eff.retParams, &eff.retCaptured)
		case *ast.Block:
			if s != nil && len(s.Stmts) > 0 {
				tail(s.Stmts[len(s.Stmts)-1])
			}
		case *ast.IfStmt:
			if s.Then != nil {
				tail(s.Then)
			}
			if s.Else != nil {
				tail(s.Else)
			}
		case *ast.RepeatStmt:
			// As completed says: the loops left by their condition
			// yield nothing.
			if s.Body != nil && s.Kind != ast.RepeatWhile && s.Kind != ast.RepeatDoUntil {
				tail(s.Body)
			}
		case *ast.TryStmt:
			if s.Body != nil {
				tail(s.Body)
			}
			for _, c := range s.Clauses {
				if c != nil && c.Body != nil {
					tail(c.Body)
				}
			}
			if s.Otherwise != nil {
				tail(s.Otherwise)
			}
		}
	}
	if d.Body != nil {
		tail(d.Body)
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
			// A variable the body rebinds holds no known action after
			// the call: a call through it is one the checker cannot
			// follow.
			delete(tc.holds, as.sym)
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

// escapeAll is a call the checker cannot follow (through a value that
// holds no known action): it may rebind any variable that can change and
// change any list, so each such variable may hold anything after it, and
// the lists the others hold any elements, as the reference's opaque call
// says. Once the variables of an env have escaped, a later escape in the
// same env visits only those set since (env.since): a file of many method
// calls costs a visit of each change, not of every variable at each call.
func (tc *typeChecker) escapeAll() {
	clear(tc.filled)
	for sym := range tc.holds {
		if sym.Kind == SymVariable && sym.Mutable && !sym.Constant {
			delete(tc.holds, sym)
		}
	}
	visit := func(sym *Symbol, t *types.Type) {
		switch {
		case sym.Kind == SymVariable && sym.Mutable && !sym.Constant:
			if t.Kind != types.KAny {
				tc.put(sym, escaped(sym, t))
			}
		case sym.Kind != SymProperty:
			if et := escapeLists(t); et != t {
				tc.put(sym, et)
			}
		}
	}
	if cur := tc.env; cur.escaped {
		since := cur.since
		cur.since = nil
		for _, sym := range since {
			if t, ok := cur.get(sym); ok {
				visit(sym, t)
			}
		}
		cur.since = nil
		return
	}
	seen := map[*Symbol]bool{}
	for e := tc.env; e != nil; e = e.parent {
		for i := range e.n {
			if sym := e.inline[i].sym; !seen[sym] {
				seen[sym] = true
				visit(sym, e.inline[i].t)
			}
		}
		for sym, t := range e.m {
			if !seen[sym] {
				seen[sym] = true
				visit(sym, t)
			}
		}
	}
	tc.env.escaped, tc.env.since = true, nil
}

// userCode is the reference's boundary of code it does not follow: a
// method's call, a new instance (its initializer may run), a triggered
// event, a parent method's call. The lists passed to it may hold anything
// after it, and so may every variable that can change (escapeAll), the
// variables of the statement's own making aside: those are bound after it.
func (tc *typeChecker) userCode(args []*ast.Arg) {
	tc.escapeArgs(args)
	tc.escapeAll()
}

// escaped is the type of variable sym, of type t, after a call that may
// rebind it: Any, or, while a check narrows a variable that may be nothing
// (t is the narrowed type), the type it had before the narrowing, which
// bounds what the call can put there, as the reference keeps it.
func escaped(sym *Symbol, t *types.Type) *types.Type {
	if o := sym.Type; o != nil && o.Kind == types.KOptional && t.Kind != types.KOptional {
		return o
	}
	return types.Escaped(t)
}

// opaqueCall reports whether a call through sym, of type ft, is one
// escapeAll is for: sym a variable or a parameter holding an action (none
// the checker knows, or it would follow it), maybe nothing, or a value of
// a type not known. A request's or a socket's field (`method of r`, `id of
// connection`) is no call of code.
func opaqueCall(sym *Symbol, ft *types.Type) bool {
	if sym == nil {
		return false
	}
	switch sym.Kind {
	case SymVariable, SymParameter, SymConstant:
		return opaqueCallee(ft)
	}
	return false
}

func opaqueCallee(ft *types.Type) bool {
	return ft.Kind == types.KFunction || ft.Kind == types.KUnknown || ft.Kind == types.KAny ||
		ft.Kind == types.KOptional && opaqueCallee(ft.Elem)
}

// escapeLists returns t with the elements of the lists it holds dynamic.
func escapeLists(t *types.Type) *types.Type {
	switch t.Kind {
	case types.KList:
		if t.Elem.Kind == types.KAny {
			return t
		}
		return types.NewList(types.Any)
	case types.KOptional:
		if e := escapeLists(t.Elem); e != t.Elem {
			return types.NewOptional(e)
		}
	}
	return t
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

// aliasElement notes that the list target names may hold the lists value
// may be (`push with rows and row`).
func (tc *typeChecker) aliasElement(target, value ast.Expr, vt *types.Type) {
	if value == nil || !mayBeList(vt) {
		return
	}
	p, ok := tc.aliasPathOf(target)
	if !ok {
		return
	}
	if ls := tc.listsOf(value); len(ls) > 0 {
		tc.aliases.hold(tc.aliases.at(p, true), ls)
	}
}
