package check

// This file is the type checker (research/wfl-language.md §5): a
// flow-sensitive walk that gives every expression a type (Info.Types) and
// reports the reference's type errors. Where our inference knows less than
// the reference's (list aliasing, loop fixed points, inferred action returns)
// it answers Unknown, which is compatible with everything, so that it stays
// silent rather than invent errors.

import (
	"strconv"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

// An env maps variables to their current types. Branches get a child env
// that records only what they change; joining merges those changes back.
type env struct {
	parent *env
	m      map[*Symbol]*types.Type
}

func (e *env) get(sym *Symbol) (*types.Type, bool) {
	for ; e != nil; e = e.parent {
		if t, ok := e.m[sym]; ok {
			return t, true
		}
	}
	return nil, false
}

func (e *env) set(sym *Symbol, t *types.Type) {
	if e.m == nil {
		e.m = map[*Symbol]*types.Type{}
	}
	e.m[sym] = t
}

func (e *env) child() *env { return &env{parent: e} }

type typeChecker struct {
	a     *analyzer
	info  *Info
	env   *env
	diags []diag.Diagnostic

	container    *Symbol     // container of the method being checked
	staticMethod bool        // the method being checked is static
	retType      *types.Type // declared return type of the action being checked, or nil
	inAction     bool
	returns      *[]*types.Type                  // types of the return values of the action being checked
	types        map[ast.Expr]*types.Type        // the type of every checked expression (then Info)
	inferred     map[*ast.ActionDecl]*types.Type // return types inferred for actions without a declared one
}

func newTypeChecker(a *analyzer) *typeChecker {
	// Sizes measured on the corpus: one typed expression per ~30 bytes.
	return &typeChecker{a: a, info: a.info, env: &env{}, types: make(map[ast.Expr]*types.Type, len(a.src)/30+8)}
}

func (tc *typeChecker) run() {
	tc.stmts(tc.a.file.Stmts)
}

// ---- diagnostics ----

func (tc *typeChecker) errorf(n ast.Node, code, msg string, expected, found *types.Type) {
	sp := token.Span{}
	if n != nil {
		sp = token.Span{Start: n.Pos(), End: n.End()}
	}
	if expected != nil && found != nil {
		msg += " - Expected " + expected.String() + " but found " + found.String()
	}
	tc.diags = append(tc.diags, diag.Diagnostic{Span: sp, Severity: diag.Error, Category: diag.Type, Code: code, Message: msg})
}

// errorAfter reports at the end of loop statement s, where the reference puts
// its loop diagnostics, with operand as related information.
func (tc *typeChecker) errorAfter(s ast.Node, operand ast.Node, code, msg string, expected, found *types.Type) {
	tc.errorf(nil, code, msg, expected, found)
	d := &tc.diags[len(tc.diags)-1]
	d.Span = token.Span{Start: s.End(), End: s.End()}
	d.Related = []diag.Related{{Span: token.Span{Start: operand.Pos(), End: operand.End()}, Message: "this operand"}}
}

const (
	codeOperand   = "TYPE-OPERAND"   // operator applied to the wrong types
	codeCall      = "TYPE-CALL"      // calling something that cannot be called, unknown builtins
	codeArity     = "TYPE-ARITY"     // wrong number of arguments
	codeArgument  = "TYPE-ARGUMENT"  // argument of the wrong type
	codeIndex     = "TYPE-INDEX"     // indexing errors
	codeMember    = "TYPE-MEMBER"    // property and method access
	codeCondition = "TYPE-CONDITION" // non-boolean conditions
	codeAssign    = "TYPE-ASSIGN"    // incompatible assignment
	codeReturn    = "TYPE-RETURN"    // return type errors
	codeStatement = "TYPE-STATEMENT" // operand types of statements (ports, paths, durations, …)
	codeContainer = "TYPE-CONTAINER" // unknown containers, interfaces, events, properties
	codeExport    = "TYPE-EXPORT"    // export errors
	codeSignal    = "TYPE-SIGNAL"    // signal handlers
)

// ---- helpers ----

func gradual(t *types.Type) bool {
	return t == nil || t.Kind == types.KUnknown || t.Kind == types.KAny || t.Kind == types.KInvalid
}

// loose reports types our inference may hold where the reference would hold
// something more precise; the checker never reports errors about them.
func loose(t *types.Type) bool {
	return gradual(t) || t.Kind == types.KOptional || t.Kind == types.KNothing || t.Kind == types.KAsync
}

func (tc *typeChecker) symType(sym *Symbol) *types.Type {
	if t, ok := tc.env.get(sym); ok {
		return t
	}
	if sym.Type == nil {
		return types.Unknown
	}
	return sym.Type
}

func (tc *typeChecker) set(sym *Symbol, t *types.Type) {
	if sym == nil {
		return
	}
	tc.env.set(sym, t)
	if sym.Type == nil || sym.Type.Kind == types.KUnknown {
		if t != nil && !gradual(t) && sym.Kind != SymProperty {
			sym.Type = t
		}
	}
}

func (tc *typeChecker) extends(child, parent string) bool {
	seen := map[string]bool{}
	for c := tc.info.Containers[child]; c != nil && !seen[c.Name]; c = tc.info.Containers[c.Extends] {
		if c.Name == parent {
			return true
		}
		seen[c.Name] = true
	}
	return false
}

func (tc *typeChecker) compatible(target, source *types.Type) bool {
	return types.Compatible(target, source, tc.extends)
}

// join merges into tc.env (the entry of a branching statement) the
// environments of its paths, each a child of the entry. A path that is not
// given (nil) stands for the entry itself.
func (tc *typeChecker) join(paths ...*env) {
	seen := map[*Symbol]bool{}
	for _, p := range paths {
		if p == nil {
			continue
		}
		for sym := range p.m {
			if seen[sym] {
				continue
			}
			seen[sym] = true
			var t *types.Type
			for i, q := range paths {
				if q == nil {
					q = tc.env
				}
				u, _ := q.get(sym)
				if i == 0 {
					t = u
				} else {
					t = types.Join(t, u)
				}
			}
			if t != nil {
				tc.env.set(sym, t)
			}
		}
	}
}

// branch runs f in a child of the environment and returns the child.
func (tc *typeChecker) branch(f func()) *env {
	saved := tc.env
	tc.env = saved.child()
	f()
	out := tc.env
	tc.env = saved
	return out
}

// ---- statements ----

func (tc *typeChecker) stmts(list []ast.Stmt) {
	for _, s := range list {
		tc.stmt(s)
	}
}

func (tc *typeChecker) block(b *ast.Block) {
	if b != nil {
		tc.stmts(b.Stmts)
	}
}

func (tc *typeChecker) cond(e ast.Expr, msg func(t *types.Type) string) {
	t := tc.expr(e)
	if !loose(t) && t.Kind != types.KBoolean {
		tc.errorf(e, codeCondition, msg(t), types.Boolean, t)
	}
}

func (tc *typeChecker) mustBe(e ast.Expr, want *types.Type, code, msg string) *types.Type {
	if e == nil {
		return nil
	}
	t := tc.expr(e)
	if !loose(t) && !types.Identical(t, want) {
		tc.errorf(e, code, msg, want, t)
	}
	return t
}

func (tc *typeChecker) loop(body func()) {
	tc.join(nil, tc.branch(body))
}

func (tc *typeChecker) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.VarDecl:
		t := tc.expr(s.Value)
		if s.Name == nil {
			return
		}
		if sym := tc.info.Uses[s.Name]; sym != nil && sym.Kind == SymProperty {
			if !gradual(sym.Type) && !loose(t) && !tc.compatible(sym.Type, t) {
				tc.errorf(s.Name, codeAssign, "Cannot initialize property '"+sym.Name+"' with "+t.String()+" because its declared type is "+sym.Type.String(), nil, nil)
			}
			return
		}
		tc.set(tc.info.Defs[s.Name], t)
		tc.types[s.Name] = t
	case *ast.AssignStmt:
		if s.Name == nil {
			tc.expr(s.Value)
			return
		}
		sym := tc.info.Uses[s.Name]
		var t *types.Type
		if s.Kind == ast.AssignChange {
			t = tc.expr(s.Value)
		} else {
			var old *types.Type = types.Unknown
			if sym != nil {
				old = tc.symType(sym)
			}
			op := map[ast.AssignKind]ast.BinaryOp{ast.AssignSubtract: ast.OpMinus, ast.AssignMultiply: ast.OpMultiply, ast.AssignDivide: ast.OpDivide}[s.Kind]
			t = tc.binary(s, op, old, tc.expr(s.Value))
		}
		if sym == nil {
			return
		}
		if sym.Kind == SymProperty {
			if !gradual(sym.Type) && !loose(t) && !tc.compatible(sym.Type, t) {
				tc.errorf(s.Name, codeAssign, "Cannot assign "+t.String()+" to property '"+sym.Name+"' declared as "+sym.Type.String(), nil, nil)
			}
			return
		}
		old := tc.symType(sym)
		if old.Kind != types.KNothing && !loose(old) && !loose(t) && !tc.compatible(old, t) {
			tc.errorf(s, codeAssign, "Cannot assign value of incompatible type to variable '"+sym.Name+"'", old, t)
			return
		}
		tc.env.set(sym, t)
		tc.types[s.Name] = t
	case *ast.AddStmt:
		vt := tc.expr(s.Value)
		if s.List == nil {
			return
		}
		sym := tc.info.Uses[s.List]
		if sym == nil {
			return
		}
		lt := tc.symType(sym)
		switch {
		case lt.Kind == types.KList:
			if sym.Kind != SymProperty {
				tc.env.set(sym, types.NewList(types.Join(lt.Elem, vt)))
			}
		case lt.Kind == types.KNumber:
			if !loose(vt) && vt.Kind != types.KNumber {
				tc.errorf(s, codeStatement, "Cannot add non-numeric value to number", types.Number, vt)
			}
		case loose(lt):
		default:
			tc.errorf(s, codeStatement, "Cannot add to non-list variable '"+sym.Name+"'", types.NewList(types.Unknown), lt)
		}
	case *ast.RemoveStmt, *ast.ClearStmt:
		var id *ast.Ident
		verb := "remove from"
		if r, ok := s.(*ast.RemoveStmt); ok {
			tc.expr(r.Value)
			id = r.List
		} else {
			id = s.(*ast.ClearStmt).List
			verb = "clear"
		}
		if id == nil {
			return
		}
		if sym := tc.info.Uses[id]; sym != nil {
			if lt := tc.symType(sym); !loose(lt) && lt.Kind != types.KList {
				tc.errorf(s, codeStatement, "Cannot "+verb+" non-list variable '"+sym.Name+"'", types.NewList(types.Unknown), lt)
			}
		}
	case *ast.PushStmt:
		lt := tc.expr(s.List)
		vt := tc.expr(s.Value)
		if !loose(lt) && lt.Kind != types.KList {
			tc.errorf(s, codeStatement, "Expected list type for push operation, got "+lt.String(), types.NewList(types.Unknown), lt)
		} else if lt.Kind == types.KList {
			if id, ok := unparen(s.List).(*ast.Ident); ok {
				if sym := tc.info.Uses[id]; sym != nil && sym.Kind != SymProperty {
					tc.env.set(sym, types.NewList(types.Join(lt.Elem, vt)))
				}
			}
		}
	case *ast.DisplayStmt:
		for _, v := range s.Values {
			tc.expr(v)
		}
	case *ast.IfStmt:
		tc.ifStmt(s)
	case *ast.SingleIfStmt:
		tc.cond(s.Cond, func(*types.Type) string { return "Condition must be a boolean expression" })
		tc.join(nil, tc.branch(func() { tc.stmt(s.Then) }))
	case *ast.RouteStmt:
		subj := tc.expr(s.Subject)
		_ = subj
		var ends []*env
		for _, arm := range s.Arms {
			for _, v := range arm.Values {
				tc.expr(v)
			}
			ends = append(ends, tc.branch(func() { tc.block(arm.Body) }))
		}
		if s.Otherwise != nil {
			ends = append(ends, tc.branch(func() { tc.block(s.Otherwise) }))
		} else {
			ends = append(ends, nil)
		}
		tc.join(ends...)
	case *ast.CountStmt:
		// The reference places count-loop errors after the loop's `end count`.
		for _, x := range []struct {
			e    ast.Expr
			what string
		}{{s.From, "Start"}, {s.To, "End"}, {s.Step, "Step"}} {
			if x.e == nil {
				continue
			}
			if t := tc.expr(x.e); !loose(t) && t.Kind != types.KNumber {
				tc.errorAfter(s, x.e, codeStatement, x.what+" value in count loop must be a number", types.Number, t)
			}
		}
		tc.loop(func() { tc.block(s.Body) })
	case *ast.ForEachStmt:
		ct := tc.expr(s.Coll)
		item := types.Unknown
		switch {
		case ct.Kind == types.KList:
			item = ct.Elem
		case ct.Kind == types.KMap:
			item = ct.Elem
		case loose(ct):
		default:
			tc.errorAfter(s, s.Coll, codeStatement, "Collection in for-each loop must be a list or map", types.NewList(types.Unknown), ct)
		}
		tc.loop(func() {
			if s.Var != nil {
				if sym := tc.info.Defs[s.Var]; sym != nil {
					tc.set(sym, item)
					tc.types[s.Var] = item
				}
			}
			tc.block(s.Body)
		})
	case *ast.RepeatStmt:
		switch s.Kind {
		case ast.RepeatWhile:
			tc.cond(s.Cond, func(t *types.Type) string {
				return "Expected boolean condition in repeat-while loop, got " + t.String()
			})
			tc.loop(func() { tc.block(s.Body) })
		case ast.RepeatUntil:
			tc.cond(s.Cond, func(*types.Type) string { return "Condition in repeat-until loop must be a boolean expression" })
			tc.loop(func() { tc.block(s.Body) })
		case ast.RepeatDoUntil:
			tc.block(s.Body)
			tc.cond(s.Cond, func(*types.Type) string { return "Condition in repeat-until loop must be a boolean expression" })
		default:
			tc.loop(func() { tc.block(s.Body) })
		}
	case *ast.MainLoopStmt:
		tc.loop(func() { tc.block(s.Body) })
	case *ast.ActionDecl:
		tc.action(s)
	case *ast.ReturnStmt:
		t := tc.expr(s.Value)
		if tc.returns != nil {
			rt := t
			if s.Value == nil {
				rt = types.Nothing
			}
			*tc.returns = append(*tc.returns, rt)
		}
		if tc.inAction && tc.retType != nil && !gradual(tc.retType) && tc.retType.Kind != types.KNothing {
			valueless := s.Value == nil
			if bl, ok := s.Value.(*ast.BasicLit); ok && bl.Kind == ast.LitNothing {
				valueless = true
			}
			if valueless {
				if tc.retType.Kind != types.KOptional {
					tc.errorf(s, codeReturn, "Function must return a value", tc.retType, types.Nothing)
				}
			} else if !loose(t) && !tc.compatible(tc.retType, t) {
				tc.errorf(s, codeReturn, "Return statement has incorrect type", tc.retType, t)
			}
		}
	case *ast.TryStmt:
		ends := []*env{nil, tc.branch(func() { tc.block(s.Body) })}
		for _, c := range s.Clauses {
			ends = append(ends, tc.branch(func() { tc.block(c.Body) }))
		}
		if s.Otherwise != nil {
			ends = append(ends, tc.branch(func() { tc.block(s.Otherwise) }))
		}
		tc.join(ends...)
		tc.block(s.Finally)
	case *ast.CreateListStmt:
		var el *types.Type
		for _, v := range s.Values {
			el = types.Join(el, tc.expr(v))
		}
		if el == nil {
			el = types.Unknown
		}
		if s.Name != nil {
			tc.set(tc.info.Defs[s.Name], types.NewList(el))
		}
	case *ast.CreateMapStmt:
		var vt *types.Type
		for _, e := range s.Entries {
			vt = types.Join(vt, tc.expr(e.Value))
		}
		if s.Name != nil {
			tc.set(tc.info.Defs[s.Name], types.NewMap(types.Text, types.Unknown))
		}
	case *ast.CreateDateStmt:
		t := tc.expr(s.Value)
		if s.Name != nil && s.Value != nil {
			tc.set(tc.info.Defs[s.Name], t)
		}
	case *ast.ContainerDecl:
		tc.containerDecl(s)
	case *ast.InterfaceDecl:
		for _, e := range s.Extends {
			if x := tc.a.global.Lookup(e.Name); x == nil {
				tc.errorf(e, codeContainer, "Interface '"+e.Name+"' not found", nil, nil)
			}
		}
	case *ast.NewStmt:
		tc.newStmt(s)
	case *ast.TriggerStmt:
		if s.Name != nil && tc.a.events[s.Name.Name] == nil && !tc.containerEvent(s.Name.Name) {
			tc.errorf(s, codeContainer, "Event '"+s.Name.Name+"' not found", nil, nil)
		}
	case *ast.OnEventStmt:
		tc.expr(s.Source)
	case *ast.ParentCallStmt:
		tc.parentCall(s)
	case *ast.OpenFileStmt:
		tc.mustBe(s.Path, types.Text, codeStatement, "File path must be a text string")
	case *ast.CloseStmt:
		tc.expr(s.X)
	case *ast.WriteStmt:
		ct := tc.expr(s.Content)
		tc.expr(s.Target)
		if (s.Kind == ast.WriteContent || s.Kind == ast.WriteFileContent || s.Kind == ast.AppendFileContent) && !loose(ct) && ct.Kind != types.KText {
			tc.errorf(s.Content, codeStatement, "File content must be a text string", types.Text, ct)
		}
	case *ast.CreateDirStmt:
		tc.mustBe(s.Path, types.Text, codeStatement, "Expected string for directory path")
	case *ast.CreateFileStmt:
		tc.mustBe(s.Path, types.Text, codeStatement, "Expected string for file path")
		tc.expr(s.Content)
	case *ast.DeleteStmt:
		if s.Dir {
			tc.mustBe(s.Path, types.Text, codeStatement, "Expected string for directory path")
		} else {
			tc.mustBe(s.Path, types.Text, codeStatement, "Expected string for file path")
		}
	case *ast.WaitForStmt:
		tc.stmt(s.Inner)
	case *ast.WaitDurationStmt:
		tc.mustBe(s.Duration, types.Number, codeStatement, "Expected a number for wait duration")
	case *ast.WaitProcessStmt:
		tc.expr(s.Process)
	case *ast.WaitRequestStmt:
		tc.mustBe(s.Server, types.Text, codeStatement, "Server must be a text string")
		tc.mustBe(s.Timeout, types.Number, codeStatement, "Timeout must be a number")
	case *ast.WaitNextStmt:
		tc.expr(s.Source)
	case *ast.ExecCommandStmt:
		tc.mustBe(s.Command, types.Text, codeStatement, "Expected string for command")
		if s.Args != nil {
			at := tc.expr(s.Args)
			if !loose(at) && at.Kind != types.KText && at.Kind != types.KList {
				tc.errorf(s.Args, codeStatement, "Command arguments must be text or a list", types.NewList(types.Text), at)
			}
		}
	case *ast.ExecFileStmt:
		tc.mustBe(s.Path, types.Text, codeStatement, "Expected string for execute file path")
		tc.expr(s.Request)
	case *ast.ReadOutputStmt:
		tc.expr(s.Process)
	case *ast.KillStmt:
		tc.expr(s.Process)
	case *ast.ListenStmt:
		tc.mustBe(s.Port, types.Number, codeStatement, "Port must be a number")
		tc.expr(s.Cert)
		tc.expr(s.Key)
		tc.expr(s.Redirect)
	case *ast.RespondStmt:
		rt := tc.expr(s.Request)
		if !loose(rt) && !(rt.Kind == types.KCustom && rt.Name == "Request") && rt.Kind != types.KMap {
			tc.errorf(s.Request, codeStatement, "Response target must be a request object", types.NewCustom("Request"), rt)
		}
		ct := tc.expr(s.Content)
		switch ct.Kind {
		case types.KList, types.KMap, types.KFunction, types.KInstance, types.KContainer, types.KInterface, types.KPattern, types.KDate, types.KTime, types.KDateTime:
			tc.errorf(s.Content, codeStatement, "Response content must be text, binary, a number, a boolean, or nothing", nil, nil)
		}
		tc.mustBe(s.Status, types.Number, codeStatement, "HTTP status must be a number")
		tc.mustBe(s.ContentType, types.Text, codeStatement, "Content type must be text")
		if s.Headers != nil {
			if ht := tc.expr(s.Headers); !loose(ht) && ht.Kind != types.KMap {
				tc.errorf(s.Headers, codeStatement, "Response headers must be a map of header names to values", types.NewMap(types.Text, types.Any), ht)
			}
		}
	case *ast.HTTPStmt:
		tc.mustBe(s.URL, types.Text, codeStatement, "URL must be a text string")
		tc.mustBe(s.Method, types.Text, codeStatement, "HTTP method must be a text string")
		tc.expr(s.Headers)
		tc.expr(s.Body)
	case *ast.StartStreamStmt:
		tc.expr(s.Request)
		tc.expr(s.Status)
		tc.expr(s.ContentType)
		tc.expr(s.Headers)
	case *ast.FlushStmt:
		tc.expr(s.Target)
	case *ast.WebSocketHandlerStmt:
		tc.expr(s.Server)
		tc.loop(func() { tc.block(s.Body) })
	case *ast.WebSocketSendStmt:
		tc.expr(s.Message)
		tc.expr(s.Target)
	case *ast.SignalStmt:
		tc.signal(s)
	case *ast.StopAcceptingStmt:
		tc.expr(s.Server)
	case *ast.OpenDatabaseStmt:
		tc.mustBe(s.URL, types.Text, codeStatement, "Database URL must be a text string")
	case *ast.TransactionStmt:
		tc.expr(s.DB)
		tc.block(s.Body)
	case *ast.LoadStmt:
		if s.Include {
			tc.mustBe(s.Path, types.Text, codeStatement, "Expected string for include path")
		} else {
			tc.mustBe(s.Path, types.Text, codeStatement, "Expected string for module path")
		}
	case *ast.ExportStmt:
		tc.export(s)
	case *ast.DescribeStmt:
		tc.branch(func() { tc.block(s.Body) })
	case *ast.HookStmt:
		tc.block(s.Body)
	case *ast.TestStmt:
		tc.branch(func() { tc.block(s.Body) })
	case *ast.ExpectStmt:
		tc.expect(s)
	case *ast.ExprStmt:
		if id, ok := s.X.(*ast.Ident); ok {
			if sym := tc.info.Uses[id]; sym != nil && sym.Kind == SymAction && !tc.a.aliases[sym] {
				zero := false
				for _, d := range sym.Actions {
					if len(d.Params) == 0 {
						zero = true
					}
				}
				if len(sym.Actions) == 1 || zero {
					// A bare action name as a statement calls it with no arguments.
					tc.types[id] = tc.actionCall(s, sym, nil, false)
					return
				}
			}
		}
		tc.expr(s.X)
	case *ast.Block:
		tc.block(s)
	}
}

func (tc *typeChecker) ifStmt(s *ast.IfStmt) {
	tc.cond(s.Cond, func(*types.Type) string { return "Condition must be a boolean expression" })
	sym, isNothing := tc.nothingTest(s.Cond)
	refine := func(inThen bool) {
		if sym == nil {
			return
		}
		t := tc.symType(sym)
		if t.Kind != types.KOptional {
			return
		}
		if inThen == isNothing {
			tc.env.set(sym, types.Nothing)
		} else {
			tc.env.set(sym, t.Elem)
		}
	}
	then := tc.branch(func() { refine(true); tc.block(s.Then) })
	if s.Else == nil {
		tc.join(nil, then)
		return
	}
	els := tc.branch(func() { refine(false); tc.stmt(s.Else) })
	tc.join(then, els)
}

// nothingTest recognizes `x is nothing` (isNothing) and `x is not nothing`
// conditions on a variable, which refine an optional x in the branches.
func (tc *typeChecker) nothingTest(cond ast.Expr) (sym *Symbol, isNothing bool) {
	b, ok := unparen(cond).(*ast.BinaryExpr)
	if !ok || (b.Op != ast.OpEquals && b.Op != ast.OpNotEquals) {
		return nil, false
	}
	x, y := unparen(b.X), unparen(b.Y)
	if lit, ok := x.(*ast.BasicLit); ok && lit.Kind == ast.LitNothing {
		x, y = y, x
	}
	id, ok := x.(*ast.Ident)
	lit, ok2 := y.(*ast.BasicLit)
	if !ok || !ok2 || lit.Kind != ast.LitNothing {
		return nil, false
	}
	return tc.info.Uses[id], b.Op == ast.OpEquals
}

func (tc *typeChecker) action(d *ast.ActionDecl) {
	saved, savedRet, savedIn, savedReturns := tc.env, tc.retType, tc.inAction, tc.returns
	var returns []*types.Type
	tc.returns = &returns
	tc.env = saved.child()
	tc.retType = nil
	if d.ReturnType != nil {
		tc.retType = typeFromExpr(d.ReturnType)
	}
	tc.inAction = true
	for _, p := range d.Params {
		if p.Name == nil {
			continue
		}
		if p.Default != nil {
			tc.expr(p.Default)
		}
		if sym := tc.info.Defs[p.Name]; sym != nil {
			t := paramType(p)
			if t == nil {
				t = types.Unknown
			}
			tc.env.set(sym, t)
			tc.types[p.Name] = t
		}
	}
	tc.block(d.Body)
	if d.ReturnType == nil && d.Body != nil && mustReturn(d.Body.Stmts) {
		// Only an action that returns on every path gets an inferred
		// type; otherwise its fall-through value is unknown to us.
		var rt *types.Type
		for _, t := range returns {
			rt = types.Join(rt, t)
		}
		if rt != nil && !loose(rt) {
			if tc.inferred == nil {
				tc.inferred = map[*ast.ActionDecl]*types.Type{}
			}
			tc.inferred[d] = rt
		}
	}
	tc.env, tc.retType, tc.inAction, tc.returns = saved, savedRet, savedIn, savedReturns
}

// returnType is the declared or inferred return type of d, or Unknown.
func (tc *typeChecker) returnType(d *ast.ActionDecl) *types.Type {
	if d.ReturnType != nil {
		return typeFromExpr(d.ReturnType)
	}
	if t := tc.inferred[d]; t != nil {
		return t
	}
	return types.Unknown
}

// mustReturn reports whether a statement list returns on every path.
func mustReturn(list []ast.Stmt) bool {
	if len(list) == 0 {
		return false
	}
	switch s := list[len(list)-1].(type) {
	case *ast.ReturnStmt:
		return true
	case *ast.IfStmt:
		if s.Then == nil || s.Else == nil || !mustReturn(s.Then.Stmts) {
			return false
		}
		switch e := s.Else.(type) {
		case *ast.Block:
			return mustReturn(e.Stmts)
		case *ast.IfStmt:
			return mustReturn([]ast.Stmt{e})
		}
	}
	return false
}

func (tc *typeChecker) containerDecl(s *ast.ContainerDecl) {
	if s.Name == nil {
		return
	}
	sym := tc.info.Containers[s.Name.Name]
	if s.Extends != nil {
		if p := tc.a.global.Lookup(s.Extends.Name); p == nil || p.Kind != SymContainer {
			if p == nil {
				tc.errorf(s.Extends, codeContainer, "Parent container '"+s.Extends.Name+"' not found", nil, nil)
			} else {
				tc.errorf(s.Extends, codeContainer, "'"+s.Extends.Name+"' is not a container type", nil, nil)
			}
		}
	}
	for _, i := range s.Implements {
		x := tc.a.global.Lookup(i.Name)
		switch {
		case x == nil:
			tc.errorf(i, codeContainer, "Interface '"+i.Name+"' not found", nil, nil)
		case x.Kind != SymInterface:
			tc.errorf(i, codeContainer, "'"+i.Name+"' is not an interface type", nil, nil)
		default:
			tc.conformance(s, sym, x)
		}
	}
	prev := tc.container
	tc.container = sym
	for _, m := range s.Members {
		switch m := m.(type) {
		case *ast.PropertyDecl:
			if m.Default != nil {
				dt := tc.expr(m.Default)
				if m.Type != nil {
					want := typeFromExpr(m.Type)
					if !gradual(want) && !loose(dt) && !tc.compatible(want, dt) && !(dt.Kind == types.KList && want.Kind == types.KList) {
						tc.errorf(m.Default, codeContainer, "Default value type "+dt.String()+" incompatible with declared type "+want.String(), nil, nil)
					}
				}
			}
		case *ast.ActionDecl:
			prevStatic := tc.staticMethod
			tc.staticMethod = m.Static
			tc.action(m)
			tc.staticMethod = prevStatic
		}
	}
	tc.container = prev
}

// conformance checks that container c provides every action interface i
// requires (through interface extends and container inheritance).
func (tc *typeChecker) conformance(s *ast.ContainerDecl, c, i *Symbol) {
	if c == nil {
		return
	}
	var reqs []*ast.ActionSig
	seen := map[string]bool{}
	var collect func(sym *Symbol)
	collect = func(sym *Symbol) {
		if sym == nil || seen[sym.Name] {
			return
		}
		seen[sym.Name] = true
		d, ok := sym.Node.(*ast.InterfaceDecl)
		if !ok {
			return
		}
		reqs = append(reqs, d.Actions...)
		for _, e := range d.Extends {
			collect(tc.a.global.Lookup(e.Name))
		}
	}
	collect(i)
	for _, r := range reqs {
		if r.Name == nil {
			continue
		}
		m := tc.a.memberOf(c, r.Name.Name)
		if m == nil || m.Kind != SymMethod {
			tc.errorf(s.Name, codeContainer, "Container '"+c.Name+"' does not satisfy interface '"+i.Name+"': missing required action '"+r.Name.Name+"'", nil, nil)
			continue
		}
		d := m.Actions[0]
		if len(d.Params) != len(r.Params) {
			tc.errorf(s.Name, codeContainer, "Container '"+c.Name+"' does not satisfy interface '"+i.Name+"': action '"+r.Name.Name+"' takes "+strconv.Itoa(len(d.Params))+" parameter(s) but the interface requires "+strconv.Itoa(len(r.Params)), nil, nil)
			continue
		}
		if r.ReturnType != nil && d.ReturnType != nil {
			want, got := typeFromExpr(r.ReturnType), typeFromExpr(d.ReturnType)
			if !gradual(want) && !gradual(got) && !tc.compatible(want, got) {
				tc.errorf(s.Name, codeContainer, "Container '"+c.Name+"' does not satisfy interface '"+i.Name+"': action '"+r.Name.Name+"' returns "+got.String()+" but the interface requires "+want.String(), nil, nil)
			}
		}
	}
}

// parentCall checks `parent M`: it must be in an instance method of a
// container whose direct parent has a method M without parameters.
func (tc *typeChecker) parentCall(s *ast.ParentCallStmt) {
	c := tc.container
	switch {
	case c == nil:
		tc.errorf(s, codeContainer, "A parent method call is only valid inside a container instance method", nil, nil)
		return
	case tc.staticMethod:
		tc.errorf(s, codeContainer, "A parent method call cannot be used inside a static method", nil, nil)
		return
	case c.Extends == "":
		tc.errorf(s, codeContainer, "Container '"+c.Name+"' has no parent container", nil, nil)
		return
	}
	if s.Method == nil {
		return
	}
	parent := tc.info.Containers[c.Extends]
	var m *Symbol
	if parent != nil {
		m = parent.Members[s.Method.Name]
	}
	if m == nil || m.Kind != SymMethod {
		tc.errorf(s, codeContainer, "Method '"+s.Method.Name+"' not found in direct parent container '"+c.Extends+"'", nil, nil)
		return
	}
	tc.info.Uses[s.Method] = m
	if n := len(m.Actions[0].Params); n != 0 {
		tc.errorf(s, codeArity, "Parent method '"+s.Method.Name+"' expects "+strconv.Itoa(n)+" arguments, but 0 were provided", nil, nil)
	}
}

// containerEvent reports whether name is an event of the container whose
// method is being checked (or of its ancestors).
func (tc *typeChecker) containerEvent(name string) bool {
	if tc.container == nil {
		return false
	}
	m := tc.a.memberOf(tc.container, name)
	return m != nil && m.Kind == SymEvent
}

func (tc *typeChecker) newStmt(s *ast.NewStmt) {
	for _, in := range s.Inits {
		tc.expr(in.Value)
	}
	if s.Container == nil {
		return
	}
	c := tc.info.Containers[s.Container.Name]
	if c == nil {
		tc.errorf(s, codeContainer, "Container type '"+s.Container.Name+"' not found", nil, nil)
		return
	}
	for _, in := range s.Inits {
		if in.Name == nil {
			continue
		}
		p := tc.a.memberOf(c, in.Name.Name)
		if p == nil || p.Kind != SymProperty {
			tc.errorf(in, codeContainer, "Property '"+in.Name.Name+"' not found in container '"+c.Name+"'", nil, nil)
			continue
		}
		vt := tc.types[in.Value]
		if !gradual(p.Type) && !loose(vt) && !tc.compatible(p.Type, vt) && !(vt.Kind == types.KList && p.Type.Kind == types.KList) {
			tc.errorf(in, codeContainer, "Property '"+in.Name.Name+"' of container '"+c.Name+"' expects "+p.Type.String()+", but found "+vt.String(), nil, nil)
		}
	}
}

var signalNames = map[string]bool{}

func init() {
	for _, s := range []string{"INT", "TERM", "HUP", "QUIT", "USR1", "USR2", "PIPE", "ALRM", "CHLD", "CONT", "ABRT"} {
		signalNames[s] = true
		signalNames["SIG"+s] = true
	}
}

func (tc *typeChecker) signal(s *ast.SignalStmt) {
	if s.Signal != nil && !signalNames[strings.ToUpper(s.Signal.Name)] {
		tc.errorf(s.Signal, codeSignal, "Invalid signal type: '"+s.Signal.Name+"'. Supported signals include: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGCHLD, SIGCONT, SIGABRT", nil, nil)
		return
	}
	if s.Handler == nil {
		return
	}
	sym := tc.info.Uses[s.Handler]
	if sym == nil {
		tc.errorf(s, codeSignal, "Undefined signal handler '"+s.Handler.Name+"'", nil, nil)
		return
	}
	if sym.Kind != SymAction {
		tc.errorf(s, codeSignal, "'"+s.Handler.Name+"' is not a function", nil, nil)
	}
}

func (tc *typeChecker) export(s *ast.ExportStmt) {
	if s.Name == nil {
		return
	}
	n := s.Name.Name
	sym := tc.a.global.Lookup(n)
	switch s.Kind {
	case "constant":
		switch {
		case sym == nil:
			tc.errorf(s, codeExport, "Constant '"+n+"' not found for export", nil, nil)
		case sym.Kind == SymAction || sym.Kind == SymContainer || sym.Kind == SymPattern || sym.Kind == SymInterface:
			tc.errorf(s, codeExport, "'"+n+"' is not a variable and cannot be exported as constant", nil, nil)
		case sym.Mutable:
			tc.errorf(s, codeExport, "'"+n+"' is mutable and cannot be exported as constant", nil, nil)
		}
	case "action":
		switch {
		case sym == nil:
			tc.errorf(s, codeExport, "Action '"+n+"' not found for export", nil, nil)
		case sym.Kind != SymAction:
			tc.errorf(s, codeExport, "'"+n+"' is not an action and cannot be exported as one", nil, nil)
		}
	case "container":
		if sym == nil || sym.Kind != SymContainer {
			tc.errorf(s, codeExport, "Container '"+n+"' not found for export", nil, nil)
		}
	}
}

func (tc *typeChecker) expect(s *ast.ExpectStmt) {
	st := tc.expr(s.Subject)
	vt := tc.expr(s.Value)
	switch s.Kind {
	case ast.AssertGreaterThan, ast.AssertLessThan:
		if !loose(st) && st.Kind != types.KNumber {
			tc.errorf(s, codeStatement, "Comparison assertions require numeric types", types.Number, st)
		} else if !loose(vt) && vt.Kind != types.KNumber {
			tc.errorf(s, codeStatement, "Comparison value must be numeric", types.Number, vt)
		}
	case ast.AssertBeEmpty, ast.AssertContain, ast.AssertHaveLength:
		if !loose(st) && st.Kind != types.KList && st.Kind != types.KText && st.Kind != types.KMap {
			name := map[ast.AssertKind]string{ast.AssertBeEmpty: "be empty", ast.AssertContain: "contain", ast.AssertHaveLength: "have length"}[s.Kind]
			tc.errorf(s, codeStatement, name+" assertion requires List or Text type", types.NewList(types.Unknown), st)
		} else if s.Kind == ast.AssertHaveLength && !loose(vt) && vt.Kind != types.KNumber {
			tc.errorf(s.Value, codeStatement, "Length value must be numeric", types.Number, vt)
		}
	}
}

// ---- expressions ----

func (tc *typeChecker) expr(e ast.Expr) *types.Type {
	if e == nil {
		return types.Unknown
	}
	t := tc.exprType(e)
	if t == nil {
		t = types.Unknown
	}
	tc.types[e] = t
	return t
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
		var el *types.Type
		for _, x := range e.Elems {
			el = types.Join(el, tc.expr(x))
		}
		if el == nil {
			el = types.Unknown
		}
		return types.NewList(el)
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
			return tc.builtinCall(e, sym.Builtin, e.Args, args)
		}
		if sym != nil && sym.Kind == SymAction {
			return tc.actionCall(e, sym, args, false)
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
	sym := tc.info.Uses[id]
	if (sym == nil || sym.Kind == SymBuiltin) && (id.Name == "count" || id.Name == "loopcounter") {
		return types.Number
	}
	if sym == nil {
		return types.Unknown
	}
	switch sym.Kind {
	case SymBuiltin:
		b := sym.Builtin
		if !b.Implemented {
			if tc.a.hasIncludes {
				return types.Unknown
			}
			tc.errorf(id, codeCall, "Builtin '"+b.Name+"' is recognized but not implemented by the runtime", nil, nil)
			return types.Invalid
		}
		if b.ZeroArg() {
			return b.Result()
		}
		return sym.Type
	case SymAction:
		for _, d := range sym.Actions {
			if len(d.Params) == 0 {
				return tc.returnType(d)
			}
		}
		d := sym.Actions[0]
		var ps []*types.Type
		for _, p := range d.Params {
			if t := paramType(p); t != nil {
				ps = append(ps, t)
			} else {
				ps = append(ps, types.Unknown)
			}
		}
		return types.NewFunction(ps, tc.returnType(d))
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
	if sym != nil && sym.Kind == SymBuiltin {
		args := tc.argTypes(c.Args)
		tc.types[fn] = sym.Type
		return tc.builtinCall(c, sym.Builtin, c.Args, args)
	}
	if sym == nil {
		tc.argTypes(c.Args)
		return types.Unknown
	}
	if sym.Kind == SymAction {
		args := tc.argTypes(c.Args)
		return tc.actionCall(c, sym, args, true)
	}
	ft := tc.expr(fn)
	args := tc.argTypes(c.Args)
	switch {
	case ft.Kind == types.KFunction:
		if len(args) != len(ft.Params) {
			tc.errorf(c, codeArity, "Function expects "+strconv.Itoa(len(ft.Params))+" arguments, but "+strconv.Itoa(len(args))+" were provided", nil, nil)
			return types.Invalid
		}
		return ft.Result
	case gradual(ft) || tc.a.aliases[sym]:
		return types.Unknown
	case loose(ft):
		return types.Unknown
	}
	tc.errorf(c, codeCall, "Cannot call "+ft.String()+", not a function", types.NewFunction(nil, types.Unknown), ft)
	return types.Invalid
}

func (tc *typeChecker) actionCall(n ast.Node, sym *Symbol, args []*types.Type, ofForm bool) *types.Type {
	var match []*ast.ActionDecl
	var arities []int
	for _, d := range sym.Actions {
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
		tc.errorf(n, codeArity, "Action '"+sym.Name+"' expects "+strings.Join(parts, " or ")+" arguments, but "+strconv.Itoa(len(args))+" were provided", nil, nil)
		return types.Invalid
	}
	var result *types.Type
	for _, d := range match {
		result = types.Join(result, tc.returnType(d))
	}
	if len(match) == 1 {
		d := match[0]
		for i, p := range d.Params {
			want := paramType(p)
			if want == nil || i >= len(args) || gradual(want) || loose(args[i]) {
				continue
			}
			if !tc.compatible(want, args[i]) {
				tc.errorf(n, codeArgument, "Argument "+strconv.Itoa(i+1)+" of action '"+sym.Name+"' expects "+want.String()+", but found "+args[i].String(), want, args[i])
				return types.Invalid
			}
		}
	}
	return result
}

func (tc *typeChecker) builtinCall(n ast.Node, b *builtins.Builtin, argNodes []*ast.Arg, args []*types.Type) *types.Type {
	if !b.Implemented {
		if tc.a.hasIncludes {
			return types.Unknown
		}
		tc.errorf(n, codeCall, "Builtin '"+b.Name+"' is recognized but not implemented by the runtime", nil, nil)
		return types.Invalid
	}
	na := len(args)
	if na < b.MinArgs || (b.MaxArgs >= 0 && na > b.MaxArgs) {
		tc.errorf(n, codeArity, "Builtin '"+b.Name+"' expects "+b.ArityText()+" arguments, but "+strconv.Itoa(na)+" were provided", nil, nil)
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
				tc.errorf(n, codeArgument, "Argument "+strconv.Itoa(i+1)+" of builtin '"+b.Name+"' expected "+b.Variadic.String()+", but found "+t.String(), b.Variadic, t)
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
			return specialize(b.Name, args, s.Result)
		}
	}
	if len(arity) > 0 {
		s := arity[0]
		for i, p := range s.Params {
			if !types.BuiltinCompatible(p.Type, args[i]) && !looseArg(args[i]) {
				tc.errorf(n, codeArgument, "Argument "+strconv.Itoa(i+1)+" of builtin '"+b.Name+"' expected "+p.Type.String()+", but found "+args[i].String(), p.Type, args[i])
				return types.Invalid
			}
		}
		tc.errorf(n, codeArgument, "No signature of builtin '"+b.Name+"' matches this call", nil, nil)
		return types.Invalid
	}
	return types.Unknown
}

// looseArg is loose for builtin arguments: Optional and Nothing values are
// left to the runtime because our inference of them is approximate.
func looseArg(t *types.Type) bool { return loose(t) }

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
	if l.Kind == types.KAny || r.Kind == types.KAny {
		if boolOp {
			return types.Boolean
		}
		if op == ast.OpPlus && (l.Kind == types.KText || r.Kind == types.KText) {
			return types.Text
		}
		return types.Any
	}
	// Our inference of optional values is approximate: stay silent.
	if loose(l) || loose(r) {
		if boolOp {
			return types.Boolean
		}
		if op == ast.OpPlus && (l.Kind == types.KText || r.Kind == types.KText) {
			return types.Text
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
		found := l
		if l.Kind == types.KText {
			found = r
		}
		tc.errorf(n, codeOperand, "Cannot perform "+opName+" operation on "+l.String()+" and "+r.String(), types.Text, found)
		return types.Invalid
	case op.IsArithmetic():
		if l.Kind == types.KNumber && r.Kind == types.KNumber {
			return types.Number
		}
		found := l
		if l.Kind == types.KNumber {
			found = r
		}
		tc.errorf(n, codeOperand, "Cannot perform "+opName+" operation on "+l.String()+" and "+r.String(), types.Number, found)
		return types.Invalid
	case op == ast.OpEquals || op == ast.OpNotEquals:
		return types.Boolean
	case op.IsComparison():
		if (l.Kind == types.KNumber && r.Kind == types.KNumber) || (l.Kind == types.KText && r.Kind == types.KText) || (temporal(l) && l.Kind == r.Kind) {
			return types.Boolean
		}
		want := types.Number
		if l.Kind == types.KNumber || l.Kind == types.KText || temporal(l) {
			want = l
		}
		tc.errorf(n, codeOperand, "Cannot compare "+l.String()+" and "+r.String()+" with "+opName, want, r)
		return types.Invalid
	case op == ast.OpAnd || op == ast.OpOr:
		if l.Kind == types.KBoolean && r.Kind == types.KBoolean {
			return types.Boolean
		}
		found := l
		if l.Kind == types.KBoolean {
			found = r
		}
		tc.errorf(n, codeOperand, "Cannot perform logical "+opName+" on "+l.String()+" and "+r.String(), types.Boolean, found)
		return types.Invalid
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
	case loose(ct) && ct.Kind != types.KOptional:
		return types.Unknown
	case ct.Kind == types.KCustom && (ct.Name == "HttpStream" || ct.Name == "ResponseStream"):
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
	name := e.Prop.Name
	switch {
	case ot.Kind == types.KInstance:
		c := tc.info.Containers[ot.Name]
		if c == nil {
			tc.errorf(e, codeContainer, "Container '"+ot.Name+"' not found", nil, nil)
			return types.Invalid
		}
		m := tc.a.memberOf(c, name)
		if m == nil || m.Kind != SymProperty {
			tc.errorf(e.Prop, codeMember, "Property '"+name+"' not found in container '"+ot.Name+"'", nil, nil)
			return types.Invalid
		}
		tc.info.Uses[e.Prop] = m
		return m.Type
	case ot.Kind == types.KContainer:
		c := tc.info.Containers[ot.Name]
		if c == nil {
			return types.Unknown
		}
		m := tc.a.memberOf(c, name)
		if m == nil {
			tc.errorf(e.Prop, codeMember, "Static property '"+name+"' not found in container '"+ot.Name+"'", nil, nil)
			return types.Invalid
		}
		tc.info.Uses[e.Prop] = m
		if m.Kind == SymProperty {
			return m.Type
		}
		return types.Unknown
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
	tc.errorf(e, codeMember, "Cannot access property '"+name+"' on non-container type "+ot.String(), types.NewInstance("Unknown"), ot)
	return types.Invalid
}

func (tc *typeChecker) methodCall(e *ast.MethodCallExpr) *types.Type {
	ot := tc.expr(e.X)
	args := tc.argTypes(e.Args)
	if e.Method == nil {
		return types.Unknown
	}
	name := e.Method.Name
	var c *Symbol
	switch ot.Kind {
	case types.KInstance, types.KContainer:
		c = tc.info.Containers[ot.Name]
		if c == nil {
			if ot.Kind == types.KInstance {
				tc.errorf(e, codeContainer, "Container '"+ot.Name+"' not found", nil, nil)
				return types.Invalid
			}
			return types.Unknown
		}
	default:
		if loose(ot) || ot.Kind == types.KCustom || ot.Kind == types.KMap {
			return types.Unknown
		}
		tc.errorf(e, codeMember, "Cannot call method '"+name+"' on non-container type "+ot.String(), nil, nil)
		return types.Invalid
	}
	m := tc.a.memberOf(c, name)
	if m == nil || m.Kind != SymMethod {
		tc.errorf(e.Method, codeMember, "Method '"+name+"' not found in container '"+c.Name+"'", nil, nil)
		return types.Invalid
	}
	tc.info.Uses[e.Method] = m
	d := m.Actions[0]
	if len(d.Params) != len(args) {
		tc.errorf(e, codeArity, "Method '"+name+"' expects "+strconv.Itoa(len(d.Params))+" arguments but "+strconv.Itoa(len(args))+" were provided", nil, nil)
		return types.Invalid
	}
	for i, p := range d.Params {
		want := paramType(p)
		if want == nil || gradual(want) || loose(args[i]) {
			continue
		}
		if !tc.compatible(want, args[i]) {
			tc.errorf(e, codeArgument, "Argument "+strconv.Itoa(i+1)+" of method '"+name+"' has type "+args[i].String()+" but expected "+want.String(), nil, nil)
			return types.Invalid
		}
	}
	return tc.returnType(d)
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
