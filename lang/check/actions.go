package check

// This file is actions: registering their signatures (overloads), analysing
// their bodies, and checking calls against them as the reference's analyzer
// does: arity, named arguments, the choice among overloads and the analyzer's
// shallow argument types.

import (
	"slices"
	"strconv"
	"strings"
	"wfl-lsp/lang/diag"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

func paramType(p *ast.Param) *types.Type {
	if p == nil || p.Type == nil {
		return nil
	}
	return typeFromExpr(p.Type)
}

func typeFromExpr(t *ast.TypeExpr) *types.Type {
	if t == nil {
		return types.Unknown
	}
	switch strings.ToLower(t.Name) {
	case "list":
		if len(t.Args) > 0 {
			return types.NewList(typeFromExpr(t.Args[0]))
		}
		return types.NewList(types.Any)
	case "map":
		if len(t.Args) > 1 {
			return types.NewMap(typeFromExpr(t.Args[0]), typeFromExpr(t.Args[1]))
		}
		return types.NewMap(types.Any, types.Any)
	case "optional":
		if len(t.Args) > 0 {
			return types.NewOptional(typeFromExpr(t.Args[0]))
		}
		return types.NewOptional(types.Any)
	}
	return types.FromAnnotation(t.Name)
}

// overloadParamType is the declared type of p as versions of an action are
// told apart by it. The reference's parser reads only the keywords `date`
// and `time` as the temporal types there; another spelling (`Date`) is a
// type of that name, so `value as Date` and `value as date` are two
// versions.
func overloadParamType(p *ast.Param) *types.Type {
	t := paramType(p)
	if t != nil && (t.Kind == types.KDate || t.Kind == types.KTime) && p.Type.Name != strings.ToLower(t.String()) {
		return types.NewCustom(p.Type.Name)
	}
	return t
}

// sameParamTypes compares two declared parameter types, nil meaning untyped.
func sameParamTypes(x, y *types.Type) bool {
	if x == nil || y == nil {
		return x == nil && y == nil
	}
	return types.Identical(x, y)
}

func (a *analyzer) registerAction(d *ast.ActionDecl) {
	if d.Name == nil {
		return
	}
	name := d.Name.Name
	endSpan := token.Span{Start: d.End(), End: d.End()}
	if a.cur != a.global && a.cur.Symbols.Get(name) == nil {
		// A version of an action visible from an outer scope, defined in a
		// nested block: it extends that action at run time. The reference
		// neither reports it nor checks calls against it.
		if outer := a.cur.Parent.Lookup(name); outer != nil && outer.Kind == SymAction {
			// A new slice each time: a copy of the symbol (a branch's
			// merged one) must not see versions added to another.
			outer.own().nested = append(slices.Clip(outer.Nested()), d)
			a.info.Defs[d.Name] = outer
			return
		}
	}
	if ex := a.cur.Symbols.Get(name); ex != nil && ex.Kind == SymAction {
		for _, o := range ex.Actions() {
			if len(o.Params) != len(d.Params) {
				continue
			}
			same := true
			distinct := false
			for i := range o.Params {
				pt, qt := overloadParamType(o.Params[i]), overloadParamType(d.Params[i])
				if !sameParamTypes(pt, qt) {
					same = false
				}
				concrete := func(t *types.Type) bool { return t != nil && t.Kind != types.KAny && t.Kind != types.KUnknown }
				if concrete(pt) && concrete(qt) && !types.Identical(pt, qt) {
					distinct = true
				}
			}
			if same {
				a.errorOf(endSpan, diag.DuplicateAction, "Action '"+name+"' was already defined with the same parameters at line "+strconv.Itoa(a.line(ex.Decl.Start))+". Overloads must differ in parameter count or in their declared parameter types (e.g. 'value as number' vs 'value as text').", name)
				a.info.Defs[d.Name] = ex
				return
			}
			if !distinct {
				a.errorAt(endSpan, "These two versions of '"+name+"' cannot be told apart when called with "+strconv.Itoa(len(d.Params))+" argument(s). Give every same-parameter-count overload distinct parameter types ('as number', 'as text', ...), or use different parameter counts.", name)
				a.info.Defs[d.Name] = ex
				return
			}
		}
		ex.addAction(d)
		a.info.Defs[d.Name] = ex
		return
	}
	sym := a.newSym(d.Name, SymAction, d, nil, false)
	sym.addAction(d)
	if d.Doc != nil {
		sym.setDoc(d.Doc.Text())
	}
	a.define(sym, endSpan)
}

func (a *analyzer) actionBody(d *ast.ActionDecl) {
	a.push(d)
	var added []string
	for _, p := range d.Params {
		if p == nil || p.Name == nil {
			continue
		}
		a.expr(p.Default)
		for w := range strings.FieldsSeq(p.Name.Name) {
			if !a.actionParams[w] {
				a.actionParams[w] = true
				added = append(added, w)
			}
		}
		a.typeRef(p.Type)
		a.declareReplace(p.Name, SymParameter, p, paramType(p), false)
	}
	a.body(d.ReturnType, d.Body)
	for _, w := range added {
		delete(a.actionParams, w)
	}
	a.pop()
}

// body checks the return type and the body of an action or a method, in
// its scope (pushed, its parameters declared): the body sees the aliases
// around it, and what it makes of them stays in it.
func (a *analyzer) body(ret *ast.TypeExpr, b *ast.Block) {
	a.typeRef(ret)
	saved, top := a.aliases, a.top
	a.aliases, a.top = copyAliases(saved), nil
	a.block(b)
	a.aliases, a.top = saved, top
}

// copyAliases returns a copy of the aliases m for a body, nil when there
// are none (setAlias makes the map on the first alias).
func copyAliases(m map[*Symbol]bool) map[*Symbol]bool {
	if len(m) == 0 {
		return nil
	}
	out := make(map[*Symbol]bool, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// checkOverloaded checks a call of action sym, and applies to the stored
// actions what its bodies change (calledAction).
func (a *analyzer) checkOverloaded(name string, sym *Symbol, args []*ast.Arg, ofForm bool, sp token.Span) {
	a.checkVersions(name, sym.Actions(), args, ofForm, sp)
	a.calledAction(sym)
}

// checkVersions checks a call of name with args against the versions
// of an action (those a stored action holds, for a call through it).
func (a *analyzer) checkVersions(name string, versions []*ast.ActionDecl, args []*ast.Arg, ofForm bool, sp token.Span) {
	var match []*ast.ActionDecl
	arities := map[int]bool{}
	for _, d := range versions {
		arities[len(d.Params)] = true
		if len(d.Params) == len(args) {
			match = append(match, d)
		}
	}
	if len(match) == 0 {
		var ns []int
		for n := range arities {
			ns = append(ns, n)
		}
		sortInts(ns)
		var parts []string
		for _, n := range ns {
			parts = append(parts, strconv.Itoa(n))
		}
		if ofForm {
			a.errorAt(sp, arityMessage("Function '"+name+"'", strings.Join(parts, " or "), len(args)), name)
		} else {
			a.errorAt(sp, arityMessage("Action '"+name+"'", strings.Join(parts, " or "), len(args)), name)
		}
		return
	}
	if len(match) == 1 {
		a.checkSignature(name, match[0], args, sp)
		return
	}
	var ok []*ast.ActionDecl
	for _, d := range match {
		if a.accepts(d, args) {
			ok = append(ok, d)
		}
	}
	switch len(ok) {
	case 1:
		a.checkSignature(name, ok[0], args, sp)
	case 0:
		var provided []string
		for _, x := range args {
			provided = append(provided, displayType(a.shallowType(x.Value)))
		}
		msg := "No version of '" + name + "' matches this call.\nYou provided (" + strings.Join(provided, ", ") + "), but '" + name + "' accepts:"
		for _, d := range match {
			msg += "\n  " + formatSignature(name, d)
		}
		a.errorAt(sp, msg, name)
	}
}

func sortInts(x []int) {
	for i := 1; i < len(x); i++ {
		for j := i; j > 0 && x[j] < x[j-1]; j-- {
			x[j], x[j-1] = x[j-1], x[j]
		}
	}
}

func formatSignature(name string, d *ast.ActionDecl) string {
	if len(d.Params) == 0 {
		return name + " (no parameters)"
	}
	var ps []string
	for _, p := range d.Params {
		s := nameOf(p.Name)
		if p.Type != nil {
			s += " as " + annotationText(p.Type)
		}
		ps = append(ps, s)
	}
	return name + " with " + strings.Join(ps, " and ")
}

// annotationText is a parameter's type as a list of versions shows it, as
// the reference does: the primitive types in lower case, any other name as
// written, so that `value as DateTime` (a container of the file) and `value
// as datetime` (the built-in type), or `Date` and `date`, read apart.
func annotationText(t *ast.TypeExpr) string {
	switch strings.ToLower(t.Name) {
	case "text", "number", "boolean", "nothing", "pattern", "any":
		return strings.ToLower(t.Name)
	case "list", "map", "optional":
		return strings.ToLower(typeFromExpr(t).String())
	}
	return t.Name
}

func displayType(t *types.Type) string {
	if t == nil {
		return "Unknown"
	}
	return t.String()
}

// bindArgs maps call arguments to parameter positions: positional ones by
// place, named ones by name. Each unknown name and each second argument for
// one parameter is passed to bad (which may be nil) and makes ok false;
// extra is true when positional arguments outnumber the parameters (those
// are left out of vals).
func bindArgs(d *ast.ActionDecl, args []*ast.Arg, bad func(unknown bool, name string)) (vals []ast.Expr, ok, extra bool) {
	vals = make([]ast.Expr, len(d.Params))
	ok = true
	for i, x := range args {
		idx := i
		if x.Name != nil {
			idx = -1
			for j, p := range d.Params {
				if p.Name != nil && p.Name.Name == x.Name.Name {
					idx = j
				}
			}
			if idx < 0 {
				if bad != nil {
					bad(true, x.Name.Name)
				}
				ok = false
				continue
			}
		}
		if idx >= len(vals) {
			extra = true
			continue
		}
		if vals[idx] != nil {
			if bad != nil {
				bad(false, nameOf(d.Params[idx].Name))
			}
			ok = false
			continue
		}
		vals[idx] = x.Value
	}
	return vals, ok, extra
}

// argMismatches calls yield for each parameter with a declared type whose
// bound argument has a shallow type that does not fit it, until yield
// returns false.
func (a *analyzer) argMismatches(d *ast.ActionDecl, vals []ast.Expr, yield func(p *ast.Param, want, got *types.Type) bool) {
	for i, p := range d.Params {
		want := paramType(p)
		if want == nil || vals[i] == nil || want.Kind == types.KAny || want.Kind == types.KUnknown {
			continue
		}
		got := a.shallowType(vals[i])
		if got.Kind != types.KUnknown && !analyzerCompatible(got, want, a.extends) && !yield(p, want, got) {
			return
		}
	}
}

// accepts reports whether an overload takes these arguments: every argument
// binds to a parameter of its own and every typed parameter fits.
func (a *analyzer) accepts(d *ast.ActionDecl, args []*ast.Arg) bool {
	vals, ok, extra := bindArgs(d, args, nil)
	if !ok || extra {
		return false
	}
	fits := true
	a.argMismatches(d, vals, func(*ast.Param, *types.Type, *types.Type) bool {
		fits = false
		return false
	})
	return fits
}

// checkSignature reports every unknown or duplicate argument name of a call
// to the action name and, when there is none, every argument whose type does
// not fit its parameter.
func (a *analyzer) checkSignature(name string, d *ast.ActionDecl, args []*ast.Arg, sp token.Span) {
	vals, ok, _ := bindArgs(d, args, func(unknown bool, param string) {
		if unknown {
			a.errorAt(sp, "Unknown parameter '"+param+"' for action '"+name+"'", param, name)
		} else {
			a.errorAt(sp, "Duplicate argument for parameter '"+param+"' in action '"+name+"'", param, name)
		}
	})
	if !ok {
		return
	}
	a.argMismatches(d, vals, func(p *ast.Param, want, got *types.Type) bool {
		a.errorAt(sp, "Argument '"+nameOf(p.Name)+"' of action '"+name+"' expects "+want.String()+", but got "+got.String(), nameOf(p.Name), name)
		return true
	})
}

// extends reports whether container child is parent or extends it, by
// the containers declared so far.
func (a *analyzer) extends(child, parent string) bool {
	if child == parent {
		return true
	}
	for c := range a.info.lineage(a.info.Containers[child]) {
		if c.Name == parent {
			return true
		}
	}
	return false
}

// analyzerCompatible is the analyzer's loose compatibility for call
// arguments. A parameter of a type named by the program (a container, an
// interface, a name of no type) takes an instance, or a value of a named
// type, only of that name or of a container that extends it (extends): an
// interface the container implements is not enough, as the reference has it.
func analyzerCompatible(actual, expected *types.Type, extends func(child, parent string) bool) bool {
	if types.Identical(actual, expected) {
		return true
	}
	if actual.IsGradual() || expected.IsGradual() || actual.Kind == types.KNothing {
		return true
	}
	if actual.Kind == types.KInstance && strings.EqualFold(actual.Name, expected.String()) {
		// `value as Date` where the file declares a container Date: the
		// annotation names it.
		switch expected.Kind {
		case types.KDate, types.KTime, types.KDateTime, types.KCustom:
			return true
		}
	}
	if expected.Kind == types.KCustom {
		switch strings.ToLower(expected.Name) {
		case "text":
			return actual.Kind == types.KText
		case "number":
			return actual.Kind == types.KNumber
		case "boolean":
			return actual.Kind == types.KBoolean
		case "date", "time", "datetime":
			return actual.Kind == types.KDate || actual.Kind == types.KTime || actual.Kind == types.KDateTime
		case "list":
			return actual.Kind == types.KList
		}
		return (actual.Kind == types.KInstance || actual.Kind == types.KCustom) && extends(actual.Name, expected.Name)
	}
	if expected.Kind == types.KOptional {
		return analyzerCompatible(actual, expected.Elem, extends)
	}
	if expected.Kind == types.KList && actual.Kind == types.KList {
		return analyzerCompatible(actual.Elem, expected.Elem, extends)
	}
	if expected.Kind == types.KMap && actual.Kind == types.KMap {
		return true
	}
	return false
}

// shallowType is the analyzer's argument type inference, the one the
// reference's analyzer uses to pick an overload and to list what a call
// provided when none matches: literals, names whose type is known, the result
// types of operators and of actions that declare one; no flow.
func (a *analyzer) shallowType(e ast.Expr) *types.Type {
	switch e := ast.Unparen(e).(type) {
	case *ast.BasicLit:
		if t := litType(e.Kind); t != nil {
			return t
		}
	case *ast.PatternLit:
		return types.Pattern
	case *ast.ListLit:
		return types.NewList(types.Unknown)
	case *ast.Ident:
		if sym := a.cur.Lookup(e.Name); sym != nil && sym.Kind != SymAction && sym.Type != nil {
			if sym.Kind == SymContainer || sym.Kind == SymInterface {
				return sym.Type
			}
			if sym.Node != nil || sym.Kind == SymPredeclared || sym.Kind == SymImplicit {
				return sym.Type
			}
		}
	case *ast.BinaryExpr:
		if e.Op.IsArithmetic() {
			return types.Number
		}
		return types.Boolean
	case *ast.BetweenExpr:
		return types.Boolean
	case *ast.UnaryExpr:
		if e.Op == ast.OpNot {
			return types.Boolean
		}
		return types.Number
	case *ast.ConcatExpr:
		return types.Text
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok {
			if sym := a.cur.Lookup(id.Name); sym != nil && sym.Kind == SymAction && len(sym.Actions()) > 0 && sym.Actions()[0].ReturnType != nil {
				return typeFromExpr(sym.Actions()[0].ReturnType)
			}
		}
	case *ast.ActionCallExpr:
		if e.Name != nil {
			if sym := a.cur.Lookup(e.Name.Name); sym != nil && sym.Kind == SymAction && len(sym.Actions()) > 0 && sym.Actions()[0].ReturnType != nil {
				return typeFromExpr(sym.Actions()[0].ReturnType)
			}
		}
	}
	return types.Unknown
}
