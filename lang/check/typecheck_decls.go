package check

// This file is the type checker's declarations and the statements that
// involve them: branches, actions and their return types, containers and
// interface conformance, instances, events, signals, exports and tests.

import (
	"strconv"
	"strings"
	"unicode"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"

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
			tc.put(sym, types.Nothing)
		} else {
			tc.put(sym, t.Elem)
		}
	}
	// The completion value (see completed): the branch that runs, of those
	// that do not leave; nothing when no branch runs.
	var thenC, elsC *types.Type
	defer func() {
		tc.completion = types.Join(thenC, elsC)
		if tc.completion == nil {
			tc.completion = types.Nothing
		}
	}()
	if lit, ok := ast.Unparen(s.Cond).(*ast.BasicLit); ok && lit.Kind == ast.LitBool {
		// `check if yes:`: the other branch never runs.
		if v := strings.ToLower(lit.Value); v == "yes" || v == "true" {
			tc.join(tc.branch(func() { tc.block(s.Then) }))
			thenC = tc.completion
			if s.Else != nil {
				tc.unreached(func() { tc.stmt(s.Else) })
			}
		} else {
			tc.unreached(func() { tc.block(s.Then) })
			elsC = types.Nothing
			if s.Else != nil {
				tc.join(tc.branch(func() { tc.stmt(s.Else) }))
				elsC = tc.completed(s.Else)
			}
		}
		return
	}
	then := tc.branch(func() { refine(true); tc.block(s.Then) })
	thenLeaves := s.Then != nil && blockLeaves(s.Then.Stmts, true)
	if !thenLeaves {
		thenC = tc.completion
	}
	if s.Else == nil {
		elsC = types.Nothing
		if thenLeaves {
			// A guard that leaves: what follows is the other case.
			refine(false)
			return
		}
		tc.join(nil, then)
		return
	}
	els := tc.branch(func() { refine(false); tc.stmt(s.Else) })
	elsLeaves := leaves(s.Else, true)
	if !elsLeaves {
		elsC = tc.completed(s.Else)
	}
	switch {
	case thenLeaves && elsLeaves:
	case thenLeaves:
		tc.join(els)
	case elsLeaves:
		tc.join(then)
	default:
		tc.join(then, els)
	}
}

// nothingTest recognizes `x is nothing` (isNothing) and `x is not nothing`
// conditions on a variable, which refine an optional x in the branches.
func (tc *typeChecker) nothingTest(cond ast.Expr) (sym *Symbol, isNothing bool) {
	if c, ok := ast.Unparen(cond).(*ast.CallExpr); ok && len(c.Args) == 1 && c.Args[0] != nil {
		// isnothing of x
		if fn, ok := c.Fun.(*ast.Ident); ok && (fn.Name == "isnothing" || fn.Name == "is_nothing") {
			if id, ok := ast.Unparen(c.Args[0].Value).(*ast.Ident); ok {
				return tc.info.Uses[id], true
			}
		}
		return nil, false
	}
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
	savedInLoop, savedEntry := tc.inLoop, tc.loopEntry
	tc.inLoop, tc.loopEntry = false, nil // a loop around the definition is not the body's
	defer func() { tc.inLoop, tc.loopEntry = savedInLoop, savedEntry }()
	if !tc.aliases.empty() {
		// What the body shares it shares when it runs, not where it is
		// defined.
		savedAliases := tc.aliases.clone()
		defer func() { tc.aliases = savedAliases }()
	}
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
			t := tc.paramType(p)
			if t == nil {
				t = types.Unknown
			}
			tc.put(sym, t)
			tc.record(p.Name, t)
		}
	}
	tc.lastValue = nil
	tc.block(d.Body)
	completion := tc.completion
	if d.Body != nil && tc.retType != nil && !gradual(tc.retType) && tc.retType.Kind != types.KNothing && !mustReturn(d.Body.Stmts) {
		// The body may end without returning: the completion value of
		// its last statement is the result then (Nothing for most
		// statements). The reference reports it on the action's line,
		// which is its closer's.
		got := completion
		if got == nil {
			got = types.Nothing
		}
		if got.Kind == types.KNothing || !loose(got) && !tc.compatible(tc.retType, got) {
			msg := "The value the action ends with, its result when it does not return, has incorrect type"
			if got.Kind == types.KNothing {
				msg = "The action can end without returning a value: its result is then nothing"
			}
			tc.errorf(nil, codeReturn, msg, tc.retType, got)
			e := &tc.diags[len(tc.diags)-1]
			e.Span = reportedAt(tc.a.src, d)
			if n := len(d.Body.Stmts); n > 0 {
				e.Related = []diag.Related{{Span: token.Span{Start: d.Body.Stmts[n-1].Pos(), End: d.Body.Stmts[n-1].End()}, Message: "the last statement it runs when it does not return"}}
			}
		}
	}
	if d.ReturnType == nil && d.Body != nil {
		// The values returned, joined; an action that may also reach the
		// end of its body without returning yields there the completion
		// value of its last statement (Nothing for most statements, so
		// the result is optional).
		var rt *types.Type
		for _, t := range returns {
			rt = types.Join(rt, t)
		}
		if !mustReturn(d.Body.Stmts) {
			rt = types.Join(rt, completion)
		}
		if tc.broken(d.Body) && !tc.givesNothing(d.Body) {
			// A statement of the body did not parse: it may be a return
			// or the last value, so the result is not known.
			rt = nil
		}
		if rt != nil && !gradual(rt) {
			if tc.inferred == nil {
				tc.inferred = map[*ast.ActionDecl]*types.Type{}
			}
			tc.inferred[d] = rt
		}
	}
	tc.env, tc.retType, tc.inAction, tc.returns = saved, savedRet, savedIn, savedReturns
}

// broken reports whether b, an action's body, holds a statement or an
// expression that did not parse. The answer for each body is kept, and the
// walk of a body takes the answers of the actions' bodies inside it: the
// actions nested inside it are checked first, and walking each again made
// actions nested a few thousand deep cost the square of their depth.
func (tc *typeChecker) broken(b *ast.Block) bool {
	if bad, ok := tc.brokenBodies[b]; ok {
		return bad
	}
	bad := false
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BadStmt, *ast.BadExpr:
			bad = true
		case *ast.Block:
			if known, ok := tc.brokenBodies[n]; ok && n != b {
				bad = known
				return false
			}
		}
		return !bad
	})
	if tc.brokenBodies == nil {
		tc.brokenBodies = map[*ast.Block]bool{}
	}
	tc.brokenBodies[b] = bad
	return bad
}

// givesNothing reports whether b, which holds statements that did not
// parse, yields Nothing whatever they were meant to be: no statement of it
// is a return, none that did not parse may be one (mayReturn), no
// expression failed to parse, and its last statement's completion value is
// Nothing by its kind whatever the types (a display, a store, …, or a
// display that did not parse).
func (tc *typeChecker) givesNothing(b *ast.Block) bool {
	n := len(b.Stmts)
	if n == 0 {
		return false
	}
	switch last := b.Stmts[n-1].(type) {
	case *ast.BadStmt:
		if tc.firstWord(last) != "display" {
			return false // a value with a stray word, or a store typed before it
		}
	case *ast.ExprStmt, *ast.IfStmt, *ast.SingleIfStmt, *ast.TryStmt, *ast.TransactionStmt, *ast.Block, *ast.WaitForStmt:
		return false
	default:
		if !types.Identical(tc.completed(last), types.Nothing) {
			return false
		}
	}
	ok := true
	ast.Inspect(b, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ReturnStmt, *ast.BadExpr:
			ok = false
		case *ast.BadStmt:
			ok = !tc.mayReturn(n)
		}
		return ok
	})
	return ok
}

// mayReturn reports whether s, a statement that did not parse, may be a
// return being typed or broken. The parser starts a statement at `give` and
// `return` wherever they are, so a broken return starts with one of them,
// or what is left of it when a word is deleted (`back x`) or the line cut
// short (`gi`); a statement that spans lines may hold anything.
func (tc *typeChecker) mayReturn(s *ast.BadStmt) bool {
	w := tc.firstWord(s)
	return w == "\n" || w == "back" || w != "" && (strings.HasPrefix("give", w) || strings.HasPrefix("return", w))
}

// firstWord returns the first word of s, a statement that did not parse, in
// lower case: "" when it has none (`(`), and "\n" when it spans lines.
func (tc *typeChecker) firstWord(s *ast.BadStmt) string {
	src := tc.a.src
	if s.From < 0 || s.To > len(src) || s.From > s.To || strings.Contains(src[s.From:s.To], "\n") {
		return "\n"
	}
	ws := strings.FieldsFunc(src[s.From:s.To], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' })
	if len(ws) == 0 {
		return ""
	}
	return strings.ToLower(ws[0])
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

// mustReturn reports whether a statement list never reaches its end: every
// path returns, or leaves by `exit` (an action's result is then what its
// returns give).
func mustReturn(list []ast.Stmt) bool {
	for _, st := range list {
		if leaves(st, true) {
			return true
		}
	}
	return false
}

// mayLeave reports whether s is a statement leaves may say yes of: most
// statements are not, and stmts asks about every one.
func mayLeave(s ast.Stmt) bool {
	switch s.(type) {
	case *ast.ReturnStmt, *ast.ExitStmt, *ast.BranchStmt, *ast.IfStmt, *ast.TryStmt, *ast.Block:
		return true
	}
	return false
}

// leaves reports whether statement s never completes normally: it returns
// or exits on every path, or, when loops is set, also breaks out of or
// continues the loop around it.
func leaves(s ast.Stmt, loops bool) bool {
	switch s := s.(type) {
	case *ast.ReturnStmt, *ast.ExitStmt:
		return true
	case *ast.BranchStmt:
		return loops
	case *ast.Block:
		return s != nil && blockLeaves(s.Stmts, loops)
	case *ast.IfStmt:
		if s.Then == nil || s.Else == nil || !blockLeaves(s.Then.Stmts, loops) {
			return false
		}
		return leaves(s.Else, loops)
	case *ast.TryStmt:
		if s.Finally != nil && blockLeaves(s.Finally.Stmts, loops) {
			return true
		}
		if s.Body == nil || !blockLeaves(s.Body.Stmts, loops) {
			return false
		}
		for _, c := range s.Clauses {
			if c.Body == nil || !blockLeaves(c.Body.Stmts, loops) {
				return false
			}
		}
		return s.Otherwise == nil || blockLeaves(s.Otherwise.Stmts, loops)
	}
	return false
}

// blockLeaves reports whether a block never reaches its end, by its last
// statement (a statement that leaves before it makes the rest unreachable,
// which stmts checks apart; looking at the last alone keeps this constant
// per nesting level, as it runs for every statement).
func blockLeaves(list []ast.Stmt, loops bool) bool {
	return len(list) > 0 && leaves(list[len(list)-1], loops)
}

func (tc *typeChecker) containerDecl(s *ast.ContainerDecl) {
	if s.Name == nil {
		return
	}
	sym := tc.info.Containers[s.Name.Name]
	if s.Extends != nil {
		if p := tc.a.global.Lookup(s.Extends.Name); p == nil || p.Kind != SymContainer {
			if p == nil {
				tc.errorOf(s.Extends, diag.NotFound, codeContainer, "Parent container '"+s.Extends.Name+"' not found", s.Extends.Name)
			} else {
				tc.errorf(s.Extends, codeContainer, "'"+s.Extends.Name+"' is not a container type", nil, nil, s.Extends.Name)
			}
		}
	}
	for _, i := range s.Implements {
		x := tc.a.global.Lookup(i.Name)
		switch {
		case x == nil:
			tc.errorOf(i, diag.NotFound, codeContainer, "Interface '"+i.Name+"' not found", i.Name)
		case x.Kind != SymInterface:
			tc.errorf(i, codeContainer, "'"+i.Name+"' is not an interface type", nil, nil, i.Name)
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
			x := tc.a.global.Lookup(e.Name)
			if x != nil && x.Kind != SymInterface && !seen[x.Name] {
				seen[x.Name] = true
				tc.errorf(s.Name, codeContainer, "Container '"+c.Name+"' requires '"+x.Name+"' through interface '"+i.Name+"', but '"+x.Name+"' is a "+x.Kind.String()+", not an interface", nil, nil, c.Name, x.Name, i.Name)
				continue
			}
			collect(x)
		}
	}
	collect(i)
	for _, r := range reqs {
		if r.Name == nil {
			continue
		}
		m := tc.a.memberOf(c, r.Name.Name)
		if m == nil || m.Kind != SymMethod {
			tc.errorOf(s.Name, diag.Unsatisfied, codeContainer, "Container '"+c.Name+"' does not satisfy interface '"+i.Name+"': missing required action '"+r.Name.Name+"'", c.Name, i.Name, r.Name.Name)
			continue
		}
		d := m.Actions()[0]
		if len(d.Params) != len(r.Params) {
			tc.errorf(s.Name, codeContainer, "Container '"+c.Name+"' does not satisfy interface '"+i.Name+"': action '"+r.Name.Name+"' takes "+strconv.Itoa(len(d.Params))+" parameter(s) but the interface requires "+strconv.Itoa(len(r.Params)), nil, nil, c.Name, i.Name, r.Name.Name)
			continue
		}
		if r.ReturnType != nil && d.ReturnType != nil {
			want, got := typeFromExpr(r.ReturnType), typeFromExpr(d.ReturnType)
			if !gradual(want) && !gradual(got) && !tc.compatible(want, got) {
				tc.errorf(s.Name, codeContainer, "Container '"+c.Name+"' does not satisfy interface '"+i.Name+"': action '"+r.Name.Name+"' returns "+got.String()+" but the interface requires "+want.String(), nil, nil, c.Name, i.Name, r.Name.Name)
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
	case c.Extends() == "":
		tc.errorf(s, codeContainer, "Container '"+c.Name+"' has no parent container", nil, nil, c.Name)
		return
	}
	if s.Method == nil {
		return
	}
	parent := tc.info.Containers[c.Extends()]
	var m *Symbol
	if parent != nil {
		m = parent.Members()[s.Method.Name]
	}
	if m == nil || m.Kind != SymMethod {
		tc.errorOf(s, diag.NotFound, codeContainer, "Method '"+s.Method.Name+"' not found in direct parent container '"+c.Extends()+"'", s.Method.Name, c.Extends())
		return
	}
	tc.info.Uses[s.Method] = m
	defer tc.userCode(nil)
	if n := len(m.Actions()[0].Params); n != 0 {
		tc.errorf(s, codeArity, arityMessage("Parent method '"+s.Method.Name+"'", strconv.Itoa(n), 0), nil, nil, s.Method.Name)
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
		tc.errorOf(s, diag.NotFound, codeContainer, "Container type '"+s.Container.Name+"' not found", s.Container.Name)
		tc.noteImport(s.Container.Name)
		return
	}
	for i, in := range s.Inits {
		if in.Name == nil {
			continue
		}
		p := tc.a.memberOf(c, in.Name.Name)
		if p == nil || p.Kind != SymProperty {
			tc.errorOf(in, diag.NoMember, codeContainer, "Property '"+in.Name.Name+"' not found in container '"+c.Name+"'", in.Name.Name, c.Name)
			continue
		}
		vt := vts[i]
		if !gradual(p.Type) && !loose(vt) && !tc.compatible(p.Type, vt) && !(vt.Kind == types.KList && p.Type.Kind == types.KList) {
			tc.errorf(in, codeContainer, "Property '"+in.Name.Name+"' of container '"+c.Name+"' expects "+p.Type.String()+", but found "+vt.String(), nil, nil, in.Name.Name, c.Name)
		}
	}
	// The instance is made by code of the container's (userCode); the
	// variable that holds it is bound after that code has run.
	tc.userCode(nil)
	if sym := tc.info.Defs[s.Name]; sym != nil {
		tc.put(sym, types.NewInstance(c.Name))
	}
}

// patternRefs checks what the body of pattern decl names, in order, as
// the reference does: a backreference comes after the capture it names,
// and a list the pattern refers to holds texts. Each finding is reported
// on the definition's header, where the reference puts it, and points at
// what it is about.
func (tc *typeChecker) patternRefs(decl *ast.PatternDecl, n *ast.PatternNode, captured map[string]bool) {
	if n == nil {
		return
	}
	fail := func(msg string, expected, found *types.Type, name string) {
		tc.errorf(decl, codeStatement, msg, expected, found, name)
		d := &tc.diags[len(tc.diags)-1]
		if decl.Name != nil {
			d.Span.End = decl.Name.End()
		}
		d.Related = []diag.Related{{Span: token.Span{Start: n.Pos(), End: n.End()}, Message: "here"}}
	}
	switch {
	case n.Kind == ast.PatBackref:
		if name := n.Text; !captured[name] {
			fail("Backreference to undefined capture group: '"+name+"'", nil, nil, name)
		}
	case n.Name == nil:
	case n.Kind == ast.PatCapture:
		captured[n.Name.Name] = true
	case n.Kind == ast.PatListRef:
		t := tc.expr(n.Name)
		switch {
		case t.Kind == types.KList:
			if e := t.Elem; e.Kind != types.KText && !gradual(e) {
				fail("Pattern list reference '"+n.Name.Name+"' must contain Text, got "+t.String(), types.NewList(types.Text), t, n.Name.Name)
			}
		case unsure(t):
		default:
			fail("Pattern list reference '"+n.Name.Name+"' must be a List of Text, got "+t.String(), types.NewList(types.Text), t, n.Name.Name)
		}
	}
	for _, c := range n.Children {
		tc.patternRefs(decl, c, captured)
	}
}

func (tc *typeChecker) signal(s *ast.SignalStmt) {
	if s.Signal != nil && signals[strings.ToUpper(s.Signal.Name)] == nil {
		tc.errorf(s.Signal, codeSignal, "Invalid signal type: '"+s.Signal.Name+"'. Supported signals include: SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGCHLD, SIGCONT, SIGABRT", nil, nil, s.Signal.Name)
		return
	}
	if s.Handler == nil {
		return
	}
	sym := tc.info.Uses[s.Handler]
	if sym == nil {
		tc.errorOf(s.Handler, diag.UndefinedHandler, codeSignal, "Undefined signal handler '"+s.Handler.Name+"'", s.Handler.Name)
		return
	}
	if sym.Kind != SymAction {
		tc.errorOf(s.Handler, diag.NotCallable, codeSignal, "'"+s.Handler.Name+"' is not a function", s.Handler.Name)
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
			tc.errorOf(s, diag.NotFound, codeExport, "Constant '"+n+"' not found for export", n)
		case sym.Kind == SymAction || sym.Kind == SymContainer || sym.Kind == SymPattern || sym.Kind == SymInterface:
			tc.errorf(s, codeExport, "'"+n+"' is not a variable and cannot be exported as constant", nil, nil, n)
		case sym.Mutable:
			tc.errorf(s, codeExport, "'"+n+"' is mutable and cannot be exported as constant", nil, nil, n)
		}
	case "action":
		switch {
		case sym == nil:
			tc.errorOf(s, diag.NotFound, codeExport, "Action '"+n+"' not found for export", n)
		case sym.Kind != SymAction:
			tc.errorf(s, codeExport, "'"+n+"' is not an action and cannot be exported as one", nil, nil, n)
		}
	case "container":
		if sym == nil || sym.Kind != SymContainer {
			tc.errorOf(s, diag.NotFound, codeExport, "Container '"+n+"' not found for export", n)
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

// streamWrite checks `write line|chunk V to T` on the reading the runtime
// takes by T's type, as the reference does: a response stream sends V, which
// must be text, binary, a number or a boolean; a text path or a file handle
// takes the classic file write of the merged name (`line NAME …`) when there
// is one; a target of unknown type may take either, so both are checked; any
// other target is an error. On the reading taken, a name neither reading
// binds is reported here (the analyzer reports it only when neither does).
func (tc *typeChecker) streamWrite(s *ast.WriteStmt) {
	tt := tc.expr(s.Target)
	lead := LeadOf(s.Content, s.Classic)
	stream := func() {
		if lead != nil && tc.info.Uses[lead] == nil {
			tc.errorOf(lead, diag.Undefined, codeStatement, "Variable '"+lead.Name+"' is not defined", lead.Name)
		}
		vt := tc.expr(s.Content)
		if !loose(vt) {
			switch vt.Kind {
			case types.KText, types.KNumber, types.KBoolean, types.KBinary:
			default:
				tc.errorf(s.Content, codeStatement, "`write line|chunk` can only send text, binary, a number, or a boolean to a response stream", types.Text, vt)
			}
		}
	}
	classic := func() {
		if tc.info.Uses[s.Classic] == nil {
			tc.errorOf(s.Classic, diag.Undefined, codeStatement, "Variable '"+s.Classic.Name+"' is not defined", s.Classic.Name)
		}
		tc.swapLead, tc.swapAlt = lead, s.Classic
		tc.expr(s.Content)
		tc.swapLead, tc.swapAlt = nil, nil
	}
	switch {
	case tt.Kind == types.KCustom && tt.Name == "ResponseStream":
		stream()
	case lead != nil && (tt.Kind == types.KText || tt.Kind == types.KCustom && tt.Name == "File"):
		classic()
	case loose(tt):
		if lead != nil {
			classic()
		}
		stream() // last, so that the types recorded are the stream reading's
	default:
		tc.expr(s.Content)
		tc.errorf(s, codeStatement, "`write line|chunk` requires a response-stream handle (from `start streaming response … as …`)", types.NewCustom("ResponseStream"), tt)
	}
}

// flush checks `flush T`: when its first words name an action or a variable
// (the analyzer resolved them), the expression they begin, as before
// streams; else T must be a response stream.
func (tc *typeChecker) flush(s *ast.FlushStmt) {
	if s.Legacy != nil && tc.info.Uses[s.Legacy] != nil {
		lead := LeadOf(s.Target, s.Legacy)
		if lead == nil {
			tc.expr(s.Target)
			return
		}
		tc.swapLead, tc.swapAlt = lead, s.Legacy
		tc.expr(s.Target)
		tc.swapLead, tc.swapAlt = nil, nil
		return
	}
	if tt := tc.expr(s.Target); !loose(tt) && !(tt.Kind == types.KCustom && tt.Name == "ResponseStream") {
		msg := "`flush` requires a response-stream handle (from `start streaming response … as …`), found " + tt.String()
		if s.Legacy != nil {
			// Say why the statement is not the other one.
			msg += " ('" + s.Legacy.Name + "' is not defined as an action or a variable to run instead)"
			tc.errorOf(s, diag.NotFound, codeStatement, msg, s.Legacy.Name)
			return
		}
		tc.errorf(s, codeStatement, msg, nil, nil)
	}
}

// propertyElement reports, as verb says, a value of type vt put into the
// list target when target is a container property declared a list of
// another element type: the property keeps its declared type, whatever
// the program puts into it. It reports whether it did.
func (tc *typeChecker) propertyElement(at ast.Node, target ast.Expr, vt *types.Type, verb string) bool {
	var id *ast.Ident
	switch x := ast.Unparen(target).(type) {
	case *ast.Ident:
		id = x
	case *ast.PropertyExpr:
		id = x.Prop
	case *ast.StaticMemberExpr:
		id = x.Member
	}
	if id == nil {
		return false
	}
	p := tc.info.Uses[id]
	if p == nil || p.Kind != SymProperty || p.Type == nil || p.Type.Kind != types.KList || gradual(p.Type.Elem) || loose(vt) || tc.compatible(p.Type.Elem, vt) {
		return false
	}
	tc.errorf(at, codeContainer, verb+" "+vt.String()+" into property '"+p.Name+"' because its declared element type is "+p.Type.Elem.String(), nil, nil, p.Name)
	return true
}

// paramType is the declared type of parameter p, or nil: an annotation
// `as Date` (or Time, DateTime) names the file's container of that name
// when there is one, as at run time.
func (tc *typeChecker) paramType(p *ast.Param) *types.Type {
	t := paramType(p)
	if t != nil && (t.Kind == types.KDate || t.Kind == types.KTime || t.Kind == types.KDateTime || t.Kind == types.KCustom) && tc.info.Containers[p.Type.Name] != nil {
		return types.NewInstance(p.Type.Name)
	}
	return t
}

// exitsEarly reports whether statements may leave the loop around them
// before its body's end: a break of this loop (own says the statements are
// its body's, not a nested loop's), or an exit or a return at any depth.
func (tc *typeChecker) exitsEarly(list []ast.Stmt, own bool) bool {
	for _, st := range list {
		if tc.leavesLoop(st, own) {
			return true
		}
	}
	return false
}

// leavesLoop is exitsEarly of one node. The answers are kept by node: the
// loops inside a loop are checked before it, and each round of a loop's
// fixed point asks again, so loops nested a few thousand deep walked each
// other's bodies the square of their depth times.
func (tc *typeChecker) leavesLoop(n ast.Node, own bool) bool {
	key := leaveKey{n, own}
	if found, ok := tc.leaves[key]; ok {
		return found
	}
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		switch m := m.(type) {
		case *ast.ActionDecl:
			return false
		case *ast.ReturnStmt, *ast.ExitStmt:
			found = true
		case *ast.BranchStmt:
			found = found || own && m.Kind == ast.Break
		case *ast.CountStmt, *ast.ForEachStmt, *ast.RepeatStmt, *ast.MainLoopStmt:
			if own {
				// A nested loop takes its own breaks.
				found = found || tc.leavesLoop(m, false)
				return false
			}
			if known, ok := tc.leaves[leaveKey{m, false}]; ok && m != n {
				found = found || known
				return false
			}
		}
		return !found
	})
	if tc.leaves == nil {
		tc.leaves = map[leaveKey]bool{}
	}
	tc.leaves[key] = found
	return found
}

// A leaveKey is a node asked about by leavesLoop, and whether as a loop's
// own body.
type leaveKey struct {
	n   ast.Node
	own bool
}
