package check

// The flow of stored actions through the program's top-level statements,
// as the reference follows it (its analyzer's alias states). An alias
// stored from an action holds the versions of it defined so far
// (boundAlias), and calls through it are checked against them; where the
// flow makes what it holds uncertain, it is dynamic, and its calls are left
// to run time:
//
//   - after a branching statement (a check, a route, a try's clauses), an
//     alias keeps what it holds when every path leaves it the same, and is
//     dynamic otherwise;
//   - after a loop or a try's body, an alias stored or changed inside it is
//     dynamic (the loop may have run any number of times, the error may
//     have struck at any point);
//   - after a call of an action whose body changes a variable around it,
//     that variable, if an alias, is dynamic.
//
// The flow is followed outside action bodies only (a.top is set); the
// states live in analyzer.bound.

import (
	"maps"

	"wfl-lsp/lang/ast"
)

// inFlow reports whether the statement being analysed is in the top-level
// flow (not in an action's or a method's body).
func (a *analyzer) inFlow() bool { return a.top != nil }

// flowEntry returns the alias states at the entry of a statement that
// branches or loops.
func (a *analyzer) flowEntry() map[*Symbol]boundAlias { return cloneBound(a.bound) }

// cloneBound copies m, nil when it is empty (most programs store no
// action: their flow costs nothing).
func cloneBound(m map[*Symbol]boundAlias) map[*Symbol]boundAlias {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}

// takeBranch returns the alias states a path ends with and restores entry
// for the next path.
func (a *analyzer) takeBranch(entry map[*Symbol]boundAlias) map[*Symbol]boundAlias {
	out := a.bound
	a.bound = cloneBound(entry)
	return out
}

// joinFlow makes the alias states those every path agrees on; an alias
// the paths leave different (or that some path does not hold) is dynamic.
func (a *analyzer) joinFlow(paths ...map[*Symbol]boundAlias) {
	var joined map[*Symbol]boundAlias
	for _, p := range paths {
		for sym, st := range p {
			if _, done := joined[sym]; done {
				continue
			}
			if joined == nil {
				joined = map[*Symbol]boundAlias{}
			}
			for _, q := range paths {
				if qs, ok := q[sym]; !ok || qs != st {
					st = boundAlias{dynamic: true}
					break
				}
			}
			joined[sym] = st
		}
	}
	a.bound = joined
}

// pushMutated starts the set of aliases a loop's or a try's body stores
// or changes.
func (a *analyzer) pushMutated() { a.mutated = append(a.mutated, nil) }

// popMutated ends it, the statement around it having changed them too.
func (a *analyzer) popMutated() map[*Symbol]bool {
	n := len(a.mutated) - 1
	m := a.mutated[n]
	a.mutated = a.mutated[:n]
	if n > 0 {
		for sym := range m {
			a.mutatedAlias(sym)
		}
	}
	return m
}

// mutatedAlias notes that sym's alias state changed in the bodies being
// analysed.
func (a *analyzer) mutatedAlias(sym *Symbol) {
	if n := len(a.mutated); n > 0 {
		if a.mutated[n-1] == nil {
			a.mutated[n-1] = map[*Symbol]bool{}
		}
		a.mutated[n-1][sym] = true
	}
}

// makeDynamic makes dynamic each alias of syms.
func (a *analyzer) makeDynamic(syms map[*Symbol]bool) {
	if len(syms) > 0 && a.bound == nil {
		a.bound = map[*Symbol]boundAlias{}
	}
	for sym := range syms {
		a.bound[sym] = boundAlias{dynamic: true}
	}
}

// branches analyses the paths of a branching statement, each from the
// same alias states, and joins what they end with; skippable adds the
// path that takes none of them.
func (a *analyzer) branches(skippable bool, paths ...func()) {
	if !a.inFlow() {
		for _, p := range paths {
			p()
		}
		return
	}
	entry := a.flowEntry()
	ends := make([]map[*Symbol]boundAlias, 0, 4)
	for _, p := range paths {
		p()
		ends = append(ends, a.takeBranch(entry))
	}
	if skippable {
		ends = append(ends, entry)
	}
	a.joinFlow(ends...)
}

// loop analyses body, which may run any number of times: an alias it
// stores or changes is dynamic after it.
func (a *analyzer) loop(body func()) {
	if !a.inFlow() {
		body()
		return
	}
	entry := a.flowEntry()
	a.pushMutated()
	body()
	end := a.takeBranch(entry)
	m := a.popMutated()
	a.joinFlow(end, entry)
	a.makeDynamic(m)
}

// calledAction applies to the aliases the effects of a call of action
// sym: those its bodies (analysed so far) change, and the actions they
// call, are dynamic.
func (a *analyzer) calledAction(sym *Symbol) {
	if !a.inFlow() || len(a.bound) == 0 || sym == nil || sym.Kind != SymAction {
		return
	}
	changed := a.writes[sym]
	if changed == nil {
		changed = map[*Symbol]bool{}
		if a.actionWrites(sym, map[*Symbol]bool{}, changed) {
			// Known for good: every body it reaches has been analysed.
			if a.writes == nil {
				a.writes = map[*Symbol]map[*Symbol]bool{}
			}
			a.writes[sym] = changed
		}
	}
	for v := range changed {
		if _, ok := a.bound[v]; ok {
			a.bound[v] = boundAlias{dynamic: true}
			a.mutatedAlias(v)
		}
	}
}

// actionWrites adds to out the variables declared outside the bodies of
// action sym that the bodies change, and those of the actions they call.
// It reports whether every body it reached lies above the top-level
// statement being analysed (their names resolved: what it found holds for
// good).
func (a *analyzer) actionWrites(sym *Symbol, seen, out map[*Symbol]bool) (complete bool) {
	if seen[sym] {
		return true
	}
	seen[sym] = true
	complete = true
	for _, d := range sym.Versions() {
		if d.Body == nil {
			continue
		}
		complete = complete && d.End() <= a.top.Pos()
		ast.Inspect(d.Body, func(n ast.Node) bool {
			var id *ast.Ident
			write := false
			switch n := n.(type) {
			case *ast.AssignStmt:
				id, write = n.Name, true
			case *ast.ActionCallExpr:
				id = n.Name
			case *ast.CallExpr:
				id, _ = n.Fun.(*ast.Ident)
			}
			if id == nil {
				return true
			}
			switch v := a.info.Uses[id]; {
			case v == nil:
			case v.Kind == SymAction:
				complete = a.actionWrites(v, seen, out) && complete
			case write && (v.Decl.Start < d.Pos() || v.Decl.Start >= d.End()):
				out[v] = true
			}
			return true
		})
	}
	return complete
}

// boundChanged notes as retyped (see Info.Retyped) each alias whose state
// the top-level statement just analysed changed from before: what calls
// through it below are checked against depends on that statement.
func (a *analyzer) boundChanged(before map[*Symbol]boundAlias) {
	for sym, st := range a.bound {
		if was, ok := before[sym]; !ok || was != st {
			a.retyped(sym)
		}
	}
	for sym := range before {
		if _, ok := a.bound[sym]; !ok {
			a.retyped(sym)
		}
	}
}
