package navigation

// This file answers call hierarchy for actions: which actions (or the top
// level of the document) call an action, and which actions it calls.

import (
	"sort"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
)

// A CallItem is an action (or the document's top level) in a call hierarchy.
type CallItem struct {
	Name     string
	Detail   string
	Method   bool
	TopLevel bool       // the statements outside any action
	Span     token.Span // the whole definition (or document)
	NameSpan token.Span // its name
	File     string     // the file it is declared in when it is not the document's (an included action)
}

// A Call is a caller or callee with the places of the calls.
type Call struct {
	Item  CallItem
	Spans []token.Span // the callee's name at each call, in source order: in the caller's file
}

// PrepareCallHierarchy returns the action named at offset, or false.
func PrepareCallHierarchy(a *core.Analysis, offset int) (CallItem, bool) {
	_, sym := a.SymbolAt(offset)
	if sym == nil || (sym.Kind != check.SymAction && sym.Kind != check.SymMethod) || len(sym.Actions()) == 0 {
		return CallItem{}, false
	}
	return actionItem(sym, sym.Actions()[0]), true
}

func actionItem(sym *check.Symbol, d *ast.ActionDecl) CallItem {
	return CallItem{Name: sym.Name, Detail: core.ActionSignature(sym, d), Method: sym.Kind == check.SymMethod,
		Span: core.NodeSpan(d), NameSpan: core.NodeSpan(d.Name), File: sym.From()}
}

// callSite is one call: the action it is written in (nil at top level) and
// the callee's name.
type callSite struct {
	caller *ast.ActionDecl
	callee *ast.Ident
}

func callSites(a *core.Analysis) []callSite {
	var out []callSite
	var visit func(n ast.Node, in *ast.ActionDecl)
	visit = func(n ast.Node, in *ast.ActionDecl) {
		if n == nil {
			return
		}
		switch n := n.(type) {
		case *ast.ActionDecl:
			in = n
		case *ast.ActionCallExpr:
			out = append(out, callSite{in, n.Name})
		case *ast.MethodCallExpr:
			out = append(out, callSite{in, n.Method})
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok {
				out = append(out, callSite{in, id})
			}
		}
		ast.Children(n, func(c ast.Node) { visit(c, in) })
	}
	if a.File != nil {
		visit(a.File, nil)
	}
	return out
}

// IncomingCalls returns the callers of the action named at offset, each with
// the places it calls it; calls from outside any action come from the top level.
func IncomingCalls(a *core.Analysis, offset int) []Call {
	_, target := a.SymbolAt(offset)
	if target == nil || a.Info == nil {
		return nil
	}
	return incomingCalls(a, func(s *check.Symbol) bool { return s == target })
}

// incomingCalls returns the calls of the actions that is accepts, by caller.
func incomingCalls(a *core.Analysis, is func(*check.Symbol) bool) []Call {
	byCaller := map[*ast.ActionDecl]*Call{}
	var order []*ast.ActionDecl
	for _, c := range callSites(a) {
		if c.callee == nil {
			continue
		}
		if s := a.Info.ObjectOf(c.callee); s == nil || !is(s) {
			continue
		}
		call := byCaller[c.caller]
		if call == nil {
			call = &Call{Item: callerItem(a, c.caller)}
			byCaller[c.caller] = call
			order = append(order, c.caller)
		}
		call.Spans = append(call.Spans, core.NodeSpan(c.callee))
	}
	out := make([]Call, 0, len(order))
	for _, d := range order {
		out = append(out, *byCaller[d])
	}
	return out
}

// IncomingCallsAcross is IncomingCalls for an action declared at the top
// level of the document, with the calls from the files that include it
// (directly or through other files): candidates are the files to consider,
// includesOf and load as for ReferencesAcross. The callers in other files
// have File set.
func IncomingCallsAcross(a *core.Analysis, offset int, base string, candidates []string, includesOf func(string) []string, load func(string) (*core.Analysis, bool)) []Call {
	out := IncomingCalls(a, offset)
	_, target := a.SymbolAt(offset)
	files := Files{Base: base, Candidates: candidates, IncludesOf: includesOf, Load: load}
	if isMember(target) && target.From() == "" {
		// An action of a container or interface the document declares:
		// called from any file of its family.
		return append(out, memberCalls(a, memberKeyOf(target, base), files)...)
	}
	if target == nil || target.From() != "" || a.Info.Global.Symbols.Get(target.Name) != target {
		return out
	}
	includes := files.includer()
	seen := map[string]bool{base: true}
	for _, p := range candidates {
		if seen[p] || !includesTransitively(p, base, includes) {
			continue
		}
		seen[p] = true
		g, ok := load(p)
		if !ok {
			continue
		}
		if g.Info == nil {
			continue
		}
		for _, c := range incomingCalls(g, func(s *check.Symbol) bool {
			return s.From() == base && s.Name == target.Name && s.Parent == nil
		}) {
			c.Item.File = p
			out = append(out, c)
		}
	}
	return out
}

func callerItem(a *core.Analysis, d *ast.ActionDecl) CallItem {
	if d == nil {
		return CallItem{Name: "(top level)", TopLevel: true, Span: core.NodeSpan(a.File), NameSpan: token.Span{}}
	}
	if sym := a.Info.ObjectOf(d.Name); sym != nil {
		return actionItem(sym, d)
	}
	return CallItem{Name: d.Name.Name, Span: core.NodeSpan(d), NameSpan: core.NodeSpan(d.Name)}
}

// OutgoingCalls returns the actions that the action named at offset calls,
// each with the places of the calls in its definitions.
func OutgoingCalls(a *core.Analysis, offset int) []Call {
	_, source := a.SymbolAt(offset)
	if source == nil || a.Info == nil || len(source.Actions()) == 0 {
		return nil
	}
	mine := map[*ast.ActionDecl]bool{}
	for _, d := range source.Actions() {
		mine[d] = true
	}
	byCallee := map[*check.Symbol]*Call{}
	var order []*check.Symbol
	for _, c := range callSites(a) {
		if !mine[c.caller] || c.callee == nil {
			continue
		}
		sym := a.Info.ObjectOf(c.callee)
		if sym == nil || (sym.Kind != check.SymAction && sym.Kind != check.SymMethod) || len(sym.Actions()) == 0 {
			continue
		}
		call := byCallee[sym]
		if call == nil {
			call = &Call{Item: actionItem(sym, sym.Actions()[0])}
			byCallee[sym] = call
			order = append(order, sym)
		}
		call.Spans = append(call.Spans, core.NodeSpan(c.callee))
	}
	out := make([]Call, 0, len(order))
	for _, s := range order {
		out = append(out, *byCallee[s])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Spans[0].Start < out[j].Spans[0].Start })
	return out
}
