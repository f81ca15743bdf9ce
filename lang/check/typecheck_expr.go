package check

// This file is the type checker's expressions: the reference's typing rules
// of literals, names and operators, calls of actions and builtins, operators,
// indexing and member access.

import (
	"slices"
	"strconv"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/types"
)

func (tc *typeChecker) expr(e ast.Expr) *types.Type {
	if e == nil {
		return types.Unknown
	}
	t := tc.exprType(e)
	if t == nil {
		t = types.Unknown
	}
	tc.record(e, t)
	return t
}

// listOf is the type of a list of the values xs: of their join, Unknown
// when there are none.
func (tc *typeChecker) listOf(xs []ast.Expr) *types.Type {
	var el *types.Type
	for _, x := range xs {
		el = types.Join(el, tc.expr(x))
	}
	if el == nil {
		el = types.Unknown
	}
	return types.NewList(el)
}

func (tc *typeChecker) exprType(e ast.Expr) *types.Type {
	switch e := e.(type) {
	case *ast.BasicLit:
		if t := litType(e.Kind); t != nil {
			return t
		}
	case *ast.PatternLit:
		return types.Pattern
	case *ast.ListLit:
		return tc.listOf(e.Elems)
	case *ast.ParenExpr:
		return tc.expr(e.X)
	case *ast.Ident:
		return tc.ident(e)
	case *ast.BinaryExpr:
		return tc.binary(e, e.Op, tc.expr(e.X), tc.expr(e.Y))
	case *ast.BetweenExpr:
		x, lo, hi := tc.expr(e.X), tc.expr(e.Lo), tc.expr(e.Hi)
		tc.binary(e, ast.OpGreaterThanOrEqual, x, lo)
		tc.binary(e, ast.OpLessThanOrEqual, x, hi)
		return types.Boolean
	case *ast.UnaryExpr:
		t := tc.expr(e.X)
		if t.Kind == types.KInvalid {
			return types.Invalid
		}
		if e.Op == ast.OpNot {
			if !loose(t) && t.Kind != types.KBoolean {
				tc.errorf(e, codeOperand, "Cannot apply 'not' to "+t.String(), types.Boolean, t)
				return types.Invalid
			}
			return types.Boolean
		}
		if t.Kind == types.KNumber {
			return types.Number
		}
		if loose(t) {
			return t
		}
		tc.errorf(e, codeOperand, "Cannot negate "+t.String(), types.Number, t)
		return types.Invalid
	case *ast.ConcatExpr:
		tc.expr(e.X)
		tc.expr(e.Y)
		return types.Text
	case *ast.CallExpr:
		return tc.call(e)
	case *ast.ActionCallExpr:
		args := tc.argTypes(e.Args)
		if e.Name == nil {
			return types.Unknown
		}
		sym := tc.info.Uses[e.Name]
		if sym != nil && sym.Kind == SymBuiltin {
			return tc.builtinCall(e, sym.Builtin(), e.Args, args)
		}
		if sym != nil && sym.Kind == SymAction && sym.From() == "" {
			t := tc.actionCall(e, sym, args, false)
			tc.callEffects(sym, e.Args)
			return t
		}
		if tc.dynamicCall(e, e.Args) {
			return types.Unknown
		}
		if a := tc.holds[sym]; sym != nil && a != nil && a.Kind == SymBuiltin {
			return tc.builtinCall(e, a.Builtin(), e.Args, args)
		} else if sym != nil && a != nil {
			tc.callEffects(a, e.Args)
		} else {
			tc.escapeArgs(e.Args)
			if sym != nil && opaqueCall(sym, tc.symType(sym)) {
				tc.escapeAll()
			}
		}
		if sym != nil && sym.From() == "" && sym.Kind != SymAction {
			// `call h with …` of a variable holding an action.
			if ft := tc.heldValue(e, tc.symType(sym)); ft.Kind == types.KFunction {
				return tc.callHeld(e, e.Name.Name, ft, args)
			}
		}
		return types.Unknown
	case *ast.IndexExpr:
		return tc.index(e)
	case *ast.PropertyExpr:
		return tc.property(e)
	case *ast.StaticMemberExpr:
		return types.Unknown
	case *ast.MethodCallExpr:
		return tc.methodCall(e)
	case *ast.MatchesExpr:
		tc.textOperand(e.X, "Pattern matching requires a text value")
		tc.patternOperand(e.Pattern)
		return types.Boolean
	case *ast.FindExpr:
		tc.expr(e.Discarded)
		tc.textOperand(e.Text, "Pattern find requires a text value")
		tc.patternOperand(e.Pattern)
		return types.NewOptional(types.NewMap(types.Text, types.Any))
	case *ast.ReplaceExpr:
		tc.expr(e.Discarded)
		tc.expr(e.Pattern)
		tc.expr(e.Replacement)
		tc.textOperand(e.Text, "Pattern replace requires a text value")
		return types.Text
	case *ast.SplitExpr:
		tc.expr(e.Discarded)
		tc.textOperand(e.Text, "Split requires a text value")
		if e.OnPattern {
			tc.patternOperand(e.Delim)
		} else {
			tc.expr(e.Delim)
		}
		return types.NewList(types.Text)
	case *ast.HeaderExpr:
		rt := tc.expr(e.Request)
		if !tc.headersInScope(e) && !(rt.Kind == types.KCustom && rt.Name == "Request") && rt.Kind != types.KMap && !gradual(rt) {
			tc.errorf(e, codeMember, "Header access requires a request object or request headers in scope", types.NewCustom("Request"), rt)
		}
		return types.NewOptional(types.Text)
	case *ast.CurrentTimeExpr:
		if e.Format == nil {
			return types.Number
		}
		return types.Text
	case *ast.FileExistsExpr:
		tc.mustBe(e.Path, types.Text, codeStatement, "Expected string for file path")
		return types.Boolean
	case *ast.FileSizeExpr:
		tc.expr(e.File)
		return types.Number
	case *ast.ListFilesExpr:
		tc.expr(e.Path)
		for _, x := range e.Extensions {
			tc.expr(x)
		}
		return types.NewList(types.Text)
	case *ast.ReadContentExpr:
		tc.expr(e.File)
		tc.expr(e.Count)
		if e.Kind == ast.ReadText {
			return types.Text
		}
		return types.Binary
	case *ast.ProcessRunningExpr:
		tc.expr(e.Process)
		return types.Boolean
	case *ast.DatabaseQueryExpr:
		tc.expr(e.DB)
		tc.mustBe(e.SQL, types.Text, codeStatement, "SQL statement must be a text string")
		tc.expr(e.Params)
		if e.Kind == ast.QueryQuery {
			return types.NewList(types.NewMap(types.Text, types.Any))
		}
		return types.NewMap(types.Text, types.Any)
	}
	return types.Unknown
}

// headersInScope reports whether request fields are visible at e (a `wait
// for request` binds `headers`).
func (tc *typeChecker) headersInScope(e ast.Node) bool {
	s := tc.info.ScopeAt(e.Pos())
	return s.Lookup("headers") != nil
}

func (tc *typeChecker) textOperand(e ast.Expr, msg string) {
	if e == nil {
		return
	}
	t := tc.expr(e)
	if !loose(t) && t.Kind != types.KText {
		tc.errorf(e, codeOperand, msg, types.Text, t)
	}
}

func (tc *typeChecker) patternOperand(e ast.Expr) {
	if e == nil {
		return
	}
	t := tc.expr(e)
	if !loose(t) && t.Kind != types.KPattern && t.Kind != types.KText {
		tc.errorf(e, codeOperand, "Expected a pattern", types.Pattern, t)
	}
}

func (tc *typeChecker) ident(id *ast.Ident) *types.Type {
	if id == tc.swapLead {
		// The other reading of a statement read two ways: the merged name.
		if sym := tc.info.Uses[tc.swapAlt]; sym != nil {
			return tc.ident(tc.swapAlt)
		}
		return types.Unknown
	}
	sym := tc.info.Uses[id]
	if (sym == nil || sym.Kind == SymBuiltin) && (id.Name == "count" || id.Name == "loopcounter") {
		return types.Number
	}
	if sym == nil || sym.From() != "" {
		return types.Unknown
	}
	switch sym.Kind {
	case SymBuiltin:
		b := sym.Builtin()
		if !b.Implemented {
			if tc.a.hasIncludes || tc.declaredAtTop(b.Name) {
				return types.Unknown
			}
			tc.errorOf(id, diag.Unimplemented, codeCall, "Builtin '"+b.Name+"' is recognized but not implemented by the runtime", b.Name)
			return types.Invalid
		}
		if b.ZeroArg() {
			return b.Result()
		}
		return sym.Type
	case SymAction:
		for _, d := range sym.Actions() {
			if len(d.Params) == 0 {
				return tc.returnType(d)
			}
		}
		if tc.nestedVersionAround(sym, id.Pos()) {
			// A version defined in a block around: which one a call
			// through the value reaches is known at run time only.
			return types.Unknown
		}
		// The value is the version defined last above the name, in a
		// block or not, as the reference's flow of types has it (each
		// definition replaces the action's type); above every version, it
		// is not known yet.
		var d *ast.ActionDecl
		for _, v := range sym.Versions() {
			if v.Pos() <= id.Pos() && (d == nil || v.Pos() > d.Pos()) {
				d = v
			}
		}
		if d == nil || !tc.versionReaches(d, id.Pos()) {
			return types.Unknown
		}
		return tc.actionValue(d)
	case SymContainer:
		return types.NewContainer(sym.Name)
	case SymInterface:
		return types.NewInterface(sym.Name)
	case SymPattern:
		return types.Pattern
	case SymProperty, SymMethod, SymEvent:
		return sym.Type
	}
	return tc.symType(sym)
}

// actionValue is the type of version d of an action as a value.
func (tc *typeChecker) actionValue(d *ast.ActionDecl) *types.Type {
	var ps []*types.Type
	for _, p := range d.Params {
		if t := tc.paramType(p); t != nil {
			ps = append(ps, t)
		} else {
			ps = append(ps, types.Unknown)
		}
	}
	return types.NewFunction(ps, tc.returnType(d))
}

// heldValue is the type of what a call n through an alias calls: the one
// version the analyzer found it holds (boundCalls); not known when it
// holds several (the analyzer matched the call, the version is chosen at
// run time); else ft, the alias's type.
func (tc *typeChecker) heldValue(n ast.Node, ft *types.Type) *types.Type {
	b, ok := tc.a.boundCalls[n]
	switch {
	case !ok || b.dynamic:
		return ft
	case b.visible > 1:
		return types.Unknown
	}
	return tc.actionValue(b.action.Actions()[0])
}

func (tc *typeChecker) argTypes(args []*ast.Arg) []*types.Type {
	out := make([]*types.Type, len(args))
	for i, a := range args {
		if a != nil {
			out[i] = tc.expr(a.Value)
		} else {
			out[i] = types.Unknown
		}
	}
	return out
}

func (tc *typeChecker) call(c *ast.CallExpr) *types.Type {
	fn, ok := c.Fun.(*ast.Ident)
	if !ok {
		ft := tc.expr(c.Fun)
		tc.argTypes(c.Args)
		if ft.Kind == types.KFunction {
			return ft.Result
		}
		return types.Unknown
	}
	sym := tc.info.Uses[fn]
	if fn == tc.swapLead && tc.swapLead != nil {
		// The other reading's merged name is what is called.
		sym = tc.info.Uses[tc.swapAlt]
		if sym == nil || sym.Kind != SymAction {
			tc.argTypes(c.Args)
			return types.Unknown
		}
		return tc.actionCall(c, sym, tc.argTypes(c.Args), true)
	}
	if sym != nil && sym.Kind == SymBuiltin {
		args := tc.argTypes(c.Args)
		tc.record(fn, sym.Type)
		return tc.builtinCall(c, sym.Builtin(), c.Args, args)
	}
	if sym == nil || sym.From() != "" {
		tc.argTypes(c.Args) // included symbols have no type: the reference does not see them
		return types.Unknown
	}
	if sym.Kind == SymAction {
		args := tc.argTypes(c.Args)
		t := tc.actionCall(c, sym, args, true)
		tc.callEffects(sym, c.Args)
		return t
	}
	ft := tc.expr(fn)
	args := tc.argTypes(c.Args)
	if tc.dynamicCall(c, c.Args) {
		return types.Unknown
	}
	if a := tc.holds[sym]; a != nil && a.Kind == SymBuiltin {
		return tc.builtinCall(c, a.Builtin(), c.Args, args) // `store magnitude as abs`
	} else if a != nil {
		tc.callEffects(a, c.Args) // the action it was stored from
	} else {
		tc.escapeArgs(c.Args) // a call through a value: what it changes is not known
		if opaqueCall(sym, ft) {
			tc.escapeAll()
		}
	}
	switch ft := tc.heldValue(c, ft); {
	case ft.Kind == types.KFunction:
		return tc.callHeld(c, fn.Name, ft, args)
	case gradual(ft) || tc.a.aliases[sym]:
		return types.Unknown
	case loose(ft):
		return types.Unknown
	}
	tc.errorf(c, codeCall, "Cannot call "+ft.String()+", not a function", types.NewFunction(nil, types.Unknown), ft)
	return types.Invalid
}

// callHeld checks a call of the action a variable name holds, of type ft,
// with arguments of types args.
func (tc *typeChecker) callHeld(n ast.Node, name string, ft *types.Type, args []*types.Type) *types.Type {
	if len(args) != len(ft.Params) {
		tc.errorf(n, codeArity, arityMessage("Function", strconv.Itoa(len(ft.Params)), len(args)), nil, nil)
		return types.Invalid
	}
	for i, want := range ft.Params {
		if !gradual(want) && !loose(args[i]) && !tc.compatible(want, args[i]) {
			tc.errorf(n, codeArgument, "Argument "+strconv.Itoa(i+1)+" of '"+name+"' (the action it holds) expects "+want.String()+", but found "+args[i].String(), want, args[i], name)
			return types.Invalid
		}
	}
	return ft.Result
}

func (tc *typeChecker) actionCall(n ast.Node, sym *Symbol, args []*types.Type, ofForm bool) *types.Type {
	var match []*ast.ActionDecl
	var arities []int
	for _, d := range sym.Actions() {
		arities = append(arities, len(d.Params))
		if len(d.Params) == len(args) {
			match = append(match, d)
		}
	}
	if len(match) == 0 {
		sortInts(arities)
		var parts []string
		last := -1
		for _, a := range arities {
			if a != last {
				parts = append(parts, strconv.Itoa(a))
			}
			last = a
		}
		tc.errorf(n, codeArity, arityMessage("Action '"+sym.Name+"'", strings.Join(parts, " or "), len(args)), nil, nil, sym.Name)
		return types.Invalid
	}
	if len(match) > 1 {
		// The versions whose typed parameters take these arguments: when
		// one does, the call is known to reach it.
		var fit []*ast.ActionDecl
		for _, d := range match {
			ok := true
			for i, p := range d.Params {
				want := tc.paramType(p)
				if want != nil && !gradual(want) && (gradual(args[i]) || !tc.compatible(want, args[i])) {
					ok = false
					break
				}
			}
			if ok {
				fit = append(fit, d)
			}
		}
		if len(fit) == 1 {
			return tc.returnType(fit[0])
		}
	}
	var result *types.Type
	for _, d := range match {
		result = types.Join(result, tc.returnType(d))
	}
	if len(match) == 1 {
		d := match[0]
		for i, p := range d.Params {
			want := tc.paramType(p)
			if want == nil || i >= len(args) || gradual(want) || loose(args[i]) {
				continue
			}
			if !tc.compatible(want, args[i]) {
				tc.errorf(n, codeArgument, "Argument "+strconv.Itoa(i+1)+" of action '"+sym.Name+"' expects "+want.String()+", but found "+args[i].String(), want, args[i], sym.Name)
				return types.Invalid
			}
		}
	}
	return result
}

// dynamicCall reports whether n is a call through an alias whose value the
// analyzer found depends on the way the program took to it (see
// aliasflow.go): the reference checks nothing of it, and the code it runs
// may change any variable.
func (tc *typeChecker) dynamicCall(n ast.Node, args []*ast.Arg) bool {
	if b, ok := tc.a.boundCalls[n]; !ok || !b.dynamic {
		return false
	}
	tc.userCode(args)
	return true
}

// declaredAtTop reports whether the program declares name at its top
// level, above or below: the reference resolves a builtin's name against
// the symbols the analysis leaves there, so a builtin the runtime lacks,
// read before a variable of its name is stored, is that variable, of a
// type not known yet.
func (tc *typeChecker) declaredAtTop(name string) bool {
	sym := tc.a.global.declared(name)
	return sym != nil && sym.Kind != SymBuiltin
}

func (tc *typeChecker) builtinCall(n ast.Node, b *builtins.Builtin, argNodes []*ast.Arg, args []*types.Type) *types.Type {
	if !b.Implemented {
		if tc.a.hasIncludes || tc.declaredAtTop(b.Name) {
			return types.Unknown
		}
		tc.errorOf(n, diag.Unimplemented, codeCall, "Builtin '"+b.Name+"' is recognized but not implemented by the runtime", b.Name)
		return types.Invalid
	}
	na := len(args)
	if na < b.MinArgs || (b.MaxArgs >= 0 && na > b.MaxArgs) {
		tc.errorf(n, codeArity, arityMessage("Builtin '"+b.Name+"'", b.ArityText(), na), nil, nil, b.Name)
		return types.Invalid
	}
	for _, t := range args {
		if t.Kind == types.KInvalid {
			return types.Invalid
		}
	}
	if b.Variadic != nil {
		for i, t := range args {
			if !types.BuiltinCompatible(b.Variadic, t) && !loose(t) {
				tc.errorf(n, codeArgument, "Argument "+strconv.Itoa(i+1)+" of builtin '"+b.Name+"' expected "+b.Variadic.String()+", but found "+t.String(), b.Variadic, t, b.Name)
				return types.Invalid
			}
		}
		return b.Result()
	}
	var arity []builtins.Signature
	for _, s := range b.Signatures {
		if len(s.Params) == na {
			arity = append(arity, s)
		}
	}
	for _, s := range arity {
		ok := true
		for i, p := range s.Params {
			if !types.BuiltinCompatible(p.Type, args[i]) && !looseArg(args[i]) {
				ok = false
				break
			}
		}
		if ok {
			tc.builtinEffects(b, argNodes, args)
			return specialize(b.Name, args, s.Result)
		}
	}
	if len(arity) > 0 {
		s := arity[0]
		for i, p := range s.Params {
			if !types.BuiltinCompatible(p.Type, args[i]) && !looseArg(args[i]) {
				msg := "Argument " + strconv.Itoa(i+1) + " of builtin '" + b.Name + "' expected " + p.Type.String() + ", but found " + args[i].String()
				if args[i].Kind == types.KInstance && strings.EqualFold(args[i].Name, p.Type.String()) {
					// `value as Date` with a container Date in the file.
					msg += ": the annotation names the container " + args[i].Name + "; write lowercase '" + strings.ToLower(p.Type.String()) + "' for the " + strings.ToLower(p.Type.String()) + " type"
				}
				tc.errorf(n, codeArgument, msg, p.Type, args[i], b.Name)
				return types.Invalid
			}
		}
		tc.errorf(n, codeArgument, "No signature of builtin '"+b.Name+"' matches this call", nil, nil, b.Name)
		return types.Invalid
	}
	return types.Unknown
}

// looseArg is loose for builtin arguments: Optional and Nothing values are
// left to the runtime because our inference of them is approximate.
func looseArg(t *types.Type) bool { return gradual(t) || t.Kind == types.KAsync }

func specialize(name string, args []*types.Type, result *types.Type) *types.Type {
	elem := func() *types.Type {
		if len(args) > 0 && args[0].Kind == types.KList {
			return args[0].Elem
		}
		return result
	}
	switch name {
	case "pop", "shift", "remove_at", "removeat", "random_from":
		return elem()
	case "find":
		return types.NewOptional(elem())
	case "slice", "unique":
		if len(args) > 0 && args[0].Kind == types.KList {
			return args[0]
		}
	case "concat":
		if len(args) == 2 && args[0].Kind == types.KList && args[1].Kind == types.KList {
			return types.NewList(types.Join(args[0].Elem, args[1].Elem))
		}
	}
	return result
}

// badOperands reports msg on n, an operator whose operands l and r must both
// be of the type want: the type found is the first operand's that is not.
func (tc *typeChecker) badOperands(n ast.Node, msg string, want, l, r *types.Type) *types.Type {
	found := l
	if l.Kind == want.Kind {
		found = r
	}
	tc.errorf(n, codeOperand, msg, want, found)
	return types.Invalid
}

func (tc *typeChecker) binary(n ast.Node, op ast.BinaryOp, l, r *types.Type) *types.Type {
	if l.Kind == types.KInvalid || r.Kind == types.KInvalid {
		return types.Invalid
	}
	boolOp := op.IsComparison() || op == ast.OpAnd || op == ast.OpOr || op == ast.OpContains
	if l.Kind == types.KUnknown || r.Kind == types.KUnknown {
		if boolOp {
			return types.Boolean
		}
		return types.Unknown
	}
	// An operand of any type, or an asynchronous one, is not checked: a
	// comparison is a Boolean, text plus it is text, else the result is
	// as loose as the operand. (An operand that may be Nothing is
	// checked as it is: the operators but equality reject Nothing at run
	// time.)
	if anyOp, async := l.Kind == types.KAny || r.Kind == types.KAny, l.Kind == types.KAsync || r.Kind == types.KAsync; anyOp || async {
		switch {
		case boolOp:
			return types.Boolean
		case op == ast.OpPlus && (l.Kind == types.KText || r.Kind == types.KText):
			return types.Text
		case anyOp:
			return types.Any
		}
		return types.Unknown
	}
	opName := op.String()
	switch {
	case op == ast.OpPlus:
		if l.Kind == types.KNumber && r.Kind == types.KNumber {
			return types.Number
		}
		if l.Kind == types.KText || r.Kind == types.KText {
			return types.Text
		}
		return tc.badOperands(n, "Cannot perform "+opName+" operation on "+l.String()+" and "+r.String(), types.Text, l, r)
	case op.IsArithmetic():
		if l.Kind == types.KNumber && r.Kind == types.KNumber {
			return types.Number
		}
		return tc.badOperands(n, "Cannot perform "+opName+" operation on "+l.String()+" and "+r.String(), types.Number, l, r)
	case op == ast.OpEquals || op == ast.OpNotEquals:
		return types.Boolean
	case op.IsComparison():
		if (l.Kind == types.KNumber && r.Kind == types.KNumber) || (l.Kind == types.KText && r.Kind == types.KText) || (temporal(l) && l.Kind == r.Kind) {
			return types.Boolean
		}
		// The operand that cannot be compared, against what it needed.
		want, found := types.Number, l
		if l.Kind == types.KNumber || l.Kind == types.KText || temporal(l) {
			want, found = l, r
		}
		tc.errorf(n, codeOperand, "Cannot compare "+l.String()+" and "+r.String()+" with "+opName, want, found)
		return types.Invalid
	case op == ast.OpAnd || op == ast.OpOr:
		if l.Kind == types.KBoolean && r.Kind == types.KBoolean {
			return types.Boolean
		}
		return tc.badOperands(n, "Cannot perform logical "+opName+" on "+l.String()+" and "+r.String(), types.Boolean, l, r)
	case op == ast.OpContains:
		switch l.Kind {
		case types.KList:
			return types.Boolean
		case types.KMap:
			if !tc.compatible(l.Key, r) {
				tc.errorf(n, codeOperand, "Cannot check if "+l.String()+" contains "+r.String()+", map keys are "+l.Key.String(), l.Key, r)
				return types.Invalid
			}
			return types.Boolean
		case types.KText:
			if r.Kind != types.KText {
				tc.errorf(n, codeOperand, "Cannot check if "+l.String()+" contains "+r.String(), types.Text, r)
				return types.Invalid
			}
			return types.Boolean
		}
		tc.errorf(n, codeOperand, "Cannot check if "+l.String()+" contains "+r.String(), types.NewList(types.Unknown), l)
		return types.Invalid
	}
	return types.Unknown
}

func temporal(t *types.Type) bool {
	return t.Kind == types.KDate || t.Kind == types.KTime || t.Kind == types.KDateTime
}

func (tc *typeChecker) index(e *ast.IndexExpr) *types.Type {
	ct := tc.expr(e.X)
	it := tc.expr(e.Index)
	if ct.Kind == types.KInvalid || it.Kind == types.KInvalid {
		return types.Invalid
	}
	switch {
	case ct.Kind == types.KList:
		if !loose(it) && it.Kind != types.KNumber {
			tc.errorf(e, codeIndex, "List index must be a number, got "+it.String(), types.Number, it)
			return types.Invalid
		}
		return ct.Elem
	case ct.Kind == types.KMap:
		if !loose(it) && !tc.compatible(ct.Key, it) {
			tc.errorf(e, codeIndex, "Map key must be "+ct.Key.String()+", got "+it.String(), ct.Key, it)
			return types.Invalid
		}
		return ct.Elem
	case ct.Kind == types.KText:
		if !loose(it) && it.Kind != types.KNumber {
			tc.errorf(e, codeIndex, "Text index must be a number, got "+it.String(), types.Number, it)
			return types.Invalid
		}
		return types.Text
	case loose(ct) && ct.Kind != types.KOptional && ct.Kind != types.KNothing:
		return types.Unknown
	case ct.Kind == types.KCustom && (ct.Name == "HttpStream" || ct.Name == "ResponseStream"):
		if !loose(it) && it.Kind != types.KText {
			tc.errorf(e, codeIndex, "Stream handle field name must be text, got "+it.String(), types.Text, it)
			return types.Invalid
		}
		return types.Any
	case ct.Kind == types.KCustom && ct.Name != "Request":
		return types.Unknown
	}
	tc.errorf(e, codeIndex, "Cannot index into "+ct.String(), types.NewList(types.Unknown), ct)
	return types.Invalid
}

func (tc *typeChecker) property(e *ast.PropertyExpr) *types.Type {
	ot := tc.expr(e.X)
	if e.Prop == nil {
		return types.Unknown
	}
	defer tc.dynamicMember(e.Prop, e.X, ot, SymProperty)
	name := e.Prop.Name
	switch {
	case ot.Kind == types.KInstance:
		m, t := tc.member(e, ot, e.Prop, "Property", SymProperty)
		if m == nil {
			return t
		}
		return m.Type
	case ot.Kind == types.KContainer:
		m, t := tc.member(e, ot, e.Prop, "Static property")
		if m == nil || m.Kind != SymProperty {
			return t
		}
		return m.Type
	case ot.Kind == types.KMap:
		return ot.Elem
	case loose(ot):
		return types.Unknown
	case ot.Kind == types.KCustom && ot.Name == "HttpStream":
		switch name {
		case "status":
			return types.Number
		case "ok":
			return types.Boolean
		case "headers":
			return types.NewMap(types.Text, types.Text)
		}
		return types.Unknown
	case ot.Kind == types.KCustom && ot.Name == "ResponseStream":
		if name == "status" {
			return types.Number
		}
		return types.Unknown
	case ot.Kind == types.KCustom && ot.Name != "Request":
		return types.Unknown
	}
	tc.errorf(e, codeMember, "Cannot access property '"+name+"' on non-container type "+ot.String(), types.NewInstance("Unknown"), ot, name)
	return types.Invalid
}

func (tc *typeChecker) methodCall(e *ast.MethodCallExpr) *types.Type {
	ot := tc.expr(e.X)
	args := tc.argTypes(e.Args)
	if e.Method == nil {
		return types.Unknown
	}
	defer tc.dynamicMember(e.Method, e.X, ot, SymMethod)
	name := e.Method.Name
	if ot.Kind != types.KInstance && ot.Kind != types.KContainer {
		if ot.Kind == types.KUnknown || ot.Kind == types.KAny {
			// A method of a value of no known type runs code the checker
			// cannot follow, as the reference's boundary says (userCode).
			tc.userCode(e.Args)
		}
		if loose(ot) || ot.Kind == types.KCustom || ot.Kind == types.KMap {
			return types.Unknown
		}
		tc.errorf(e, codeMember, "Cannot call method '"+name+"' on non-container type "+ot.String(), nil, nil, name)
		return types.Invalid
	}
	m, t := tc.member(e, ot, e.Method, "Method", SymMethod)
	if m == nil {
		return t
	}
	d := m.Actions()[0]
	// The method found, its body runs whatever the arguments: the
	// reference follows no method's body, so after the call every variable
	// that can change may hold anything (userCode).
	defer tc.userCode(e.Args)
	if len(d.Params) != len(args) {
		tc.errorf(e, codeArity, arityMessage("Method '"+name+"'", strconv.Itoa(len(d.Params)), len(args)), nil, nil, name)
		return types.Invalid
	}
	for i, p := range d.Params {
		want := tc.paramType(p)
		if want == nil || gradual(want) || loose(args[i]) {
			continue
		}
		if !tc.compatible(want, args[i]) {
			tc.errorf(e, codeArgument, "Argument "+strconv.Itoa(i+1)+" of method '"+name+"' has type "+args[i].String()+" but expected "+want.String(), nil, nil, name)
			return types.Invalid
		}
	}
	return tc.returnType(d)
}

// member returns the member that id names, of one of kinds if any are
// given, of the container whose instance or whose static side ot is
// (types.KInstance, types.KContainer), and records the use. With no such
// member it returns nil and the type of e, which uses it: Invalid, with the
// error, for an instance of no container or a container without the member
// ("WHAT 'name' not found in container 'C'"); Unknown for a container's
// name that names none. With a member it returns Unknown as the type too.
func (tc *typeChecker) member(e ast.Node, ot *types.Type, id *ast.Ident, what string, kinds ...SymbolKind) (*Symbol, *types.Type) {
	c := tc.info.Containers[ot.Name]
	switch {
	case c == nil && ot.Kind != types.KInstance:
		return nil, types.Unknown
	case c == nil:
		tc.errorOf(e, diag.NotFound, codeContainer, "Container '"+ot.Name+"' not found", ot.Name)
		tc.noteImport(ot.Name)
		return nil, types.Invalid
	}
	m := tc.a.memberOf(c, id.Name)
	if m == nil || len(kinds) > 0 && !slices.Contains(kinds, m.Kind) {
		tc.errorOf(id, diag.NoMember, codeMember, what+" '"+id.Name+"' not found in container '"+c.Name+"'", id.Name, c.Name)
		return nil, types.Invalid
	}
	tc.info.Uses[id] = m
	return m, types.Unknown
}

// litType is the type of a literal of kind k, or nil for an unknown kind.
func litType(k ast.LitKind) *types.Type {
	switch k {
	case ast.LitString:
		return types.Text
	case ast.LitInt, ast.LitFloat:
		return types.Number
	case ast.LitBool:
		return types.Boolean
	case ast.LitNothing:
		return types.Nothing
	}
	return nil
}

// dynamicMember resolves the member name id of the value x of type t when
// its type did not (x.name on a value whose members are not declared):
// when t is not known, the member of that kind that one container of the
// file declares, if only one does; else a field of x's variable, or of no
// variable (see analyzer.field).
func (tc *typeChecker) dynamicMember(id *ast.Ident, x ast.Expr, t *types.Type, kind SymbolKind) {
	if tc.info.Uses[id] != nil {
		return
	}
	if k := types.Known(t); k != t && (k.Kind == types.KInstance || k.Kind == types.KContainer) {
		// A variable whose value the checker no longer vouches for
		// (types.Escaped): its member is still the one it names to the
		// user, who navigates by it; no rule is checked against it.
		if c := tc.info.Containers[k.Name]; c != nil {
			if m := tc.a.memberOf(c, id.Name); m != nil {
				tc.info.Uses[id] = m
				return
			}
		}
		t = k
	}
	if t != nil && (t.Kind == types.KInstance || t.Kind == types.KContainer) {
		if c := tc.a.imported(t.Name, SymContainer); c != nil {
			if m := c.Member(id.Name); m != nil {
				tc.info.Uses[id] = m
				return
			}
		}
	}
	if t == nil || t.Kind == types.KUnknown || t.Kind == types.KInvalid {
		if m := tc.uniqueMember(id.Name, kind); m != nil {
			tc.info.Uses[id] = m
			return
		}
	}
	var owner *Symbol
	if root, ok := ast.Unparen(x).(*ast.Ident); ok {
		owner = tc.info.Uses[root]
	}
	tc.info.Uses[id] = tc.a.field(owner, id.Name)
}

// uniqueMember returns the member named name of the given kind when
// exactly one container of the file declares one (its own), else nil.
func (tc *typeChecker) uniqueMember(name string, kind SymbolKind) *Symbol {
	var found *Symbol
	for _, c := range tc.info.Containers {
		if m := c.Members()[name]; m != nil && m.Kind == kind {
			if found != nil {
				return nil
			}
			found = m
		}
	}
	return found
}

// noteImport adds to the message of the last diagnostic, reported as the
// reference does, that an included file declares the container it did not
// find.
func (tc *typeChecker) noteImport(name string) {
	if len(tc.diags) > 0 {
		tc.diags[len(tc.diags)-1].Message += tc.a.importNote(name)
	}
}

// nestedVersionAround reports whether a version of action sym is defined in
// a block (not the file) that holds offset.
// versionReaches reports whether version d, defined above offset, is
// certainly the one defined last there: defined at the top level, or in a
// block that holds offset, or in a block that certainly runs (the branch
// of a check of `yes`). After a block that may not run, the reference
// joins the version with the one before: a value of no known type.
func (tc *typeChecker) versionReaches(d *ast.ActionDecl, offset int) bool {
	for sc := tc.info.ScopeAt(d.Pos()); sc != nil && sc != tc.info.Global; sc = sc.Parent {
		if sc.Node == ast.Node(d) {
			continue // the version's own body
		}
		if sc.Span.Start <= offset && offset < sc.Span.End {
			return true
		}
		if !tc.certainBlock(sc.Node) {
			return false
		}
	}
	return true
}

// certainBlock reports whether block b is the first branch of a check
// whose condition is the literal yes.
func (tc *typeChecker) certainBlock(b ast.Node) bool {
	found := false
	ast.Inspect(tc.a.file, func(n ast.Node) bool {
		if s, ok := n.(*ast.IfStmt); ok && ast.Node(s.Then) == b {
			l, isLit := ast.Unparen(s.Cond).(*ast.BasicLit)
			found = isLit && l.Kind == ast.LitBool && l.Value == "true"
		}
		return !found && (n == nil || n.Pos() <= b.Pos() && b.Pos() < n.End())
	})
	return found
}

func (tc *typeChecker) nestedVersionAround(sym *Symbol, offset int) bool {
	for _, d := range sym.Nested() {
		for sc := tc.info.ScopeAt(offset); sc != nil && sc != tc.info.Global; sc = sc.Parent {
			if sc.Span.Start <= d.Pos() && d.Pos() < sc.Span.End {
				return true
			}
		}
	}
	return false
}

// arityMessage says that what (an action, a builtin, ...) expects want
// arguments ("1", "2 or 3", "at least 1") where got were given, in the
// singular where the number is one: "Builtin 'length' expects 1 argument,
// but 2 were provided". The reference writes "1 arguments" and
// "argument(s)".
func arityMessage(what, want string, got int) string {
	noun := "arguments"
	if want == "1" || strings.HasSuffix(want, " 1") && !strings.Contains(want, " or ") && !strings.Contains(want, " to ") {
		noun = "argument" // "1", "at least 1"
	}
	verb := " were provided"
	if got == 1 {
		verb = " was provided"
	}
	return what + " expects " + want + " " + noun + ", but " + strconv.Itoa(got) + verb
}
