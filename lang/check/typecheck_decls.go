package check

// This file is the type checker's declarations and the statements that
// involve them: branches, actions and their return types, containers and
// interface conformance, instances, events, signals, exports and tests.

import (
	"strconv"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/types"
)

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
	b, ok := ast.Unparen(cond).(*ast.BinaryExpr)
	if !ok || (b.Op != ast.OpEquals && b.Op != ast.OpNotEquals) {
		return nil, false
	}
	x, y := ast.Unparen(b.X), ast.Unparen(b.Y)
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
			tc.record(p.Name, t)
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
		d := m.Actions()[0]
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
	if n := len(m.Actions()[0].Params); n != 0 {
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
	// The values' types, as recorded (nil for a missing value).
	vts := make([]*types.Type, len(s.Inits))
	for i, in := range s.Inits {
		if t := tc.expr(in.Value); in.Value != nil {
			vts[i] = t
		}
	}
	if s.Container == nil {
		return
	}
	c := tc.info.Containers[s.Container.Name]
	if c == nil {
		tc.errorf(s, codeContainer, "Container type '"+s.Container.Name+"' not found", nil, nil)
		tc.noteImport(s.Container.Name)
		return
	}
	for i, in := range s.Inits {
		if in.Name == nil {
			continue
		}
		p := tc.a.memberOf(c, in.Name.Name)
		if p == nil || p.Kind != SymProperty {
			tc.errorf(in, codeContainer, "Property '"+in.Name.Name+"' not found in container '"+c.Name+"'", nil, nil)
			continue
		}
		vt := vts[i]
		if !gradual(p.Type) && !loose(vt) && !tc.compatible(p.Type, vt) && !(vt.Kind == types.KList && p.Type.Kind == types.KList) {
			tc.errorf(in, codeContainer, "Property '"+in.Name.Name+"' of container '"+c.Name+"' expects "+p.Type.String()+", but found "+vt.String(), nil, nil)
		}
	}
}

func (tc *typeChecker) signal(s *ast.SignalStmt) {
	if s.Signal != nil && signals[strings.ToUpper(s.Signal.Name)] == nil {
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
