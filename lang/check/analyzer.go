package check

// This file is the analyzer: scopes, declarations and the reference
// analyzer's rules (research/wfl-language.md §4.1–4.4). It also records every
// definition and use in Info.

import (
	"sort"
	"strconv"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

const codeSemantic = "ANALYZE-SEMANTIC"

type analyzer struct {
	file  *ast.File
	src   string
	lines *token.Lines
	info  *Info

	universe *Scope
	global   *Scope
	cur      *Scope

	errs  []diag.Diagnostic // analyzer errors, in emission order
	warns []diag.Diagnostic // analyzer warnings
	diags []diag.Diagnostic // the reported result (set by run)

	ctx          *Context
	hasIncludes  bool
	hasLoad      bool
	tryDepth     int
	actionParams map[string]bool // names exempt from "not defined" while analyzing (the reference's action_parameters)
	fileParams   map[string]bool // words of every top-level action parameter (the CLI's final filter)
	loopVars     []string        // active count-loop variables
	container    *Symbol         // container whose method is being analyzed
	staticMethod int             // 0 none, 1 instance, 2 static
	constants    map[*Symbol]bool
	events       map[string]*Symbol
	aliases      map[*Symbol]bool // variables stored from an action value (stored action aliases)
}

// universe holds the predeclared names. It is shared by every Check and
// never modified after init.
var universe = func() *Scope {
	u := &Scope{}
	pre := func(name string, t *types.Type) {
		u.put(&Symbol{Name: name, Kind: SymPredeclared, Type: t})
	}
	for _, n := range []string{"yes", "no"} {
		pre(n, types.Boolean)
	}
	for _, n := range []string{"nothing", "missing", "undefined"} {
		pre(n, types.Nothing)
	}
	for _, n := range []string{"newline", "tab", "wfl_version", "program_name", "current_directory", "script_path", "script_directory"} {
		pre(n, types.Text)
	}
	pre("arg_count", types.Number)
	pre("args", types.NewList(types.Text))
	pre("positional_args", types.NewList(types.Text))
	pre("loop", types.Unknown)
	return u
}()

func newAnalyzer(f *ast.File, src string, info *Info, ctx *Context) *analyzer {
	a := &analyzer{file: f, src: src, info: info, ctx: ctx,
		actionParams: map[string]bool{},
		constants:    map[*Symbol]bool{}, events: map[string]*Symbol{}, aliases: map[*Symbol]bool{}}
	a.universe = universe
	a.global = &Scope{Parent: a.universe, Node: f, Span: token.Span{Start: f.Pos(), End: f.End()},
		Symbols: SymbolTable{large: map[string]*Symbol{}}} // the file scope is rarely small
	info.Global = a.global
	info.Scopes[f] = a.global
	a.cur = a.global
	return a
}

// ---- diagnostics ----

func (a *analyzer) span(n ast.Node) token.Span {
	if n == nil {
		return token.Span{}
	}
	return token.Span{Start: n.Pos(), End: n.End()}
}

func (a *analyzer) errorAt(sp token.Span, msg string) {
	a.errs = append(a.errs, diag.Diagnostic{Span: sp, Severity: diag.Error, Category: diag.Semantic, Code: codeSemantic, Message: msg})
}

func (a *analyzer) warnAt(sp token.Span, msg string) {
	a.warns = append(a.warns, diag.Diagnostic{Span: sp, Severity: diag.Warning, Category: diag.Semantic, Code: codeSemantic, Message: msg})
}

// undefinedName reports an undefined name: a warning inside a try body.
func (a *analyzer) undefinedName(sp token.Span, msg string) {
	if a.tryDepth > 0 {
		a.warnAt(sp, msg)
	} else {
		a.errorAt(sp, msg)
	}
}

// undefinedCallee reports an unresolved callee as a warning when the file
// includes other files and returns true; else it returns false.
func (a *analyzer) undefinedCallee(sp token.Span, name string) bool {
	if a.hasIncludes {
		a.warnAt(sp, "Undefined action '"+name+"'")
		return true
	}
	return false
}

// line returns the 1-based line of off for a message; the line table is
// built on first use.
func (a *analyzer) line(off int) int {
	if a.ctx.Line != nil {
		return a.ctx.Line(off)
	}
	if a.lines == nil {
		a.lines = token.NewLines(a.src)
	}
	return a.lines.Line(off) + 1
}

// ---- scopes ----

func (a *analyzer) push(n ast.Node) *Scope {
	s := &Scope{Parent: a.cur, Node: n}
	if n != nil {
		s.Span = token.Span{Start: n.Pos(), End: n.End()}
		if _, ok := a.info.Scopes[n]; !ok {
			a.info.Scopes[n] = s
		}
	} else {
		s.Span = token.Span{Start: -1, End: -1} // callers set it
	}
	a.cur.Children = append(a.cur.Children, s)
	a.cur = s
	return s
}

func (a *analyzer) pop() { a.cur = a.cur.Parent }

// define adds sym to the current scope with the reference's no-shadowing rule.
func (a *analyzer) define(sym *Symbol, at token.Span) bool {
	if old := a.cur.Symbols.Get(sym.Name); old != nil {
		a.errorAt(at, "Variable '"+sym.Name+"' has already been defined at line "+strconv.Itoa(a.line(old.Decl.Start))+". Use 'change "+sym.Name+" to <value>' to modify it.")
		return false
	}
	if a.cur.Parent != nil && a.cur.Parent.Lookup(sym.Name) != nil && a.cur.Parent != a.universe {
		a.errorAt(at, "Variable '"+sym.Name+"' has already been defined in an outer scope. Use 'change "+sym.Name+" to <value>' to modify it.")
		return false
	}
	if a.cur.Parent == a.universe && a.universe.Symbols.Get(sym.Name) != nil {
		a.errorAt(at, "Variable '"+sym.Name+"' has already been defined in an outer scope. Use 'change "+sym.Name+" to <value>' to modify it.")
		return false
	}
	a.cur.put(sym)
	return true
}

// newSym makes a symbol declared by id and records the definition.
func (a *analyzer) newSym(id *ast.Ident, kind SymbolKind, node ast.Node, t *types.Type, mutable bool) *Symbol {
	sym := &Symbol{Name: id.Name, Kind: kind, Node: node, Type: t, Mutable: mutable,
		Decl: a.span(id)}
	if t == nil {
		sym.Type = types.Unknown
	}
	a.info.Defs[id] = sym
	a.info.Symbols = append(a.info.Symbols, sym)
	return sym
}

// declare defines a variable-like binding named by id; it reports redeclaration.
func (a *analyzer) declare(id *ast.Ident, kind SymbolKind, node ast.Node, t *types.Type, mutable bool) *Symbol {
	if id == nil || id.Name == "" {
		return nil
	}
	sym := a.newSym(id, kind, node, t, mutable)
	a.define(sym, a.span(id))
	return sym
}

// declareZero is declare for the bindings the reference records at 0:0; the
// diagnostic goes on the name.
func (a *analyzer) declareReplace(id *ast.Ident, kind SymbolKind, node ast.Node, t *types.Type, mutable bool) *Symbol {
	if id == nil || id.Name == "" {
		return nil
	}
	sym := a.newSym(id, kind, node, t, mutable)
	a.cur.put(sym)
	return sym
}

func (a *analyzer) implicit(name string, t *types.Type, mutable bool) *Symbol {
	sym := &Symbol{Name: name, Kind: SymImplicit, Type: t, Mutable: mutable}
	a.cur.put(sym)
	return sym
}

func (a *analyzer) use(id *ast.Ident, sym *Symbol) {
	if id != nil && sym != nil {
		a.info.Uses[id] = sym
	}
}

// isDefined is the reference's name_is_defined_for_write.
func (a *analyzer) isDefined(name string) bool {
	if a.actionParams[name] || name == "count" || name == "loopcounter" || builtins.IsBuiltin(name) || a.cur.Lookup(name) != nil {
		return true
	}
	return a.containerProperty(name) != nil
}

// containerProperty finds name among the properties of the container whose
// method is being analyzed, following extends.
func (a *analyzer) containerProperty(name string) *Symbol {
	if a.container == nil {
		return nil
	}
	seen := map[string]bool{}
	for c := a.container; c != nil && !seen[c.Name]; c = a.info.Containers[c.Extends] {
		seen[c.Name] = true
		if m := c.Members[name]; m != nil && m.Kind == SymProperty {
			static := m.Node != nil && m.Node.(*ast.PropertyDecl).Static
			if a.staticMethod == 0 || (a.staticMethod == 2) == static {
				return m
			}
		}
		if c.Extends == "" {
			break
		}
	}
	return nil
}

// ---- the run ----

func (a *analyzer) run() {
	f := a.file
	a.hasIncludes, a.hasLoad, a.fileParams = a.ctx.Includes, a.ctx.Loads, a.ctx.ParamWords
	// Pass 1: top-level action signatures.
	for _, s := range f.Stmts {
		if d, ok := s.(*ast.ActionDecl); ok {
			a.registerAction(d)
		}
	}
	// Pass 2.
	a.stmts(f.Stmts)
	a.checkInheritance()

	// The CLI's filter and ordering: warnings first, then errors; undefined
	// names that are words of top-level parameters are dropped.
	var errs []diag.Diagnostic
	for _, d := range a.errs {
		if n, ok := undefinedVariable(d.Message); ok && a.fileParams[n] {
			continue
		}
		if a.hasLoad && (strings.HasPrefix(d.Message, "Undefined action '") || strings.HasSuffix(d.Message, "' is not defined")) {
			d.Related = []diag.Related{{Span: d.Span, Message: "`load module` runs a file in an isolated scope; use `include from` to share its definitions"}}
		}
		errs = append(errs, d)
	}
	a.diags = append(append(a.diags, a.warns...), errs...)
}

func undefinedVariable(msg string) (string, bool) {
	const pre, suf = "Variable '", "' is not defined"
	if strings.HasPrefix(msg, pre) && strings.HasSuffix(msg, suf) && len(msg) > len(pre)+len(suf) {
		return msg[len(pre) : len(msg)-len(suf)], true
	}
	return "", false
}

func (a *analyzer) stmts(list []ast.Stmt) {
	for _, s := range list {
		a.stmt(s)
	}
}

func (a *analyzer) block(b *ast.Block) {
	if b != nil {
		a.stmts(b.Stmts)
	}
}

// demoted runs f and turns the analyzer errors it produced into warnings (the
// reference does this for repeat, forever and main-loop bodies).
func (a *analyzer) demoted(f func()) {
	n := len(a.errs)
	f()
	if len(a.errs) > n {
		for _, d := range a.errs[n:] {
			d.Severity = diag.Warning
			a.warns = append(a.warns, d)
		}
		a.errs = a.errs[:n]
	}
}

func (a *analyzer) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.VarDecl:
		a.expr(s.Value)
		if s.Name == nil {
			return
		}
		if a.containerProperty(s.Name.Name) != nil {
			a.use(s.Name, a.containerProperty(s.Name.Name))
			return
		}
		kind := SymVariable
		if s.Constant {
			kind = SymConstant
		}
		sym := a.newSym(s.Name, kind, s, nil, !s.Constant)
		sym.Constant = s.Constant
		if s.Doc != nil {
			sym.Doc = s.Doc.Text()
		}
		if a.define(sym, a.span(s.Name)) {
			if s.Constant {
				a.constants[sym] = true
			}
			a.noteAlias(sym, s.Value)
		}
	case *ast.AssignStmt:
		if s.Name == nil {
			a.expr(s.Value)
			return
		}
		name := s.Name.Name
		sp := a.span(s)
		if sym := a.cur.Lookup(name); sym != nil {
			a.use(s.Name, sym)
			switch sym.Kind {
			case SymAction, SymPattern, SymMethod:
				a.errorAt(a.span(s.Name), "'"+name+"' is not a variable")
			default:
				if !sym.Mutable {
					a.errorAt(sp, "Cannot modify constant '"+name+"' - constants are immutable once defined")
					return
				}
				a.expr(s.Value)
				a.noteAlias(sym, s.Value)
				return
			}
		} else if p := a.containerProperty(name); p != nil {
			a.use(s.Name, p)
		} else {
			a.undefinedName(a.span(s.Name), "Variable '"+name+"' is not defined")
		}
		a.expr(s.Value)
	case *ast.AddStmt:
		a.expr(s.Value)
		a.listTarget(s.List, s)
	case *ast.RemoveStmt:
		a.expr(s.Value)
		a.listTarget(s.List, s)
	case *ast.ClearStmt:
		a.listTarget(s.List, s)
	case *ast.PushStmt:
		a.expr(s.List)
		a.expr(s.Value)
		if id := rootIdent(s.List); id != nil {
			if sym := a.cur.Lookup(id.Name); sym != nil && a.constants[sym] {
				a.errorAt(a.span(s), "Cannot modify constant '"+id.Name+"' - constants are immutable once defined")
			}
		}
	case *ast.DisplayStmt:
		for _, v := range s.Values {
			a.expr(v)
		}
	case *ast.IfStmt:
		a.ifStmt(s.Cond, s.Then, s.Else, s)
	case *ast.SingleIfStmt:
		a.expr(s.Cond)
		a.push(s.Then)
		a.stmt(s.Then)
		a.pop()
	case *ast.RouteStmt:
		a.route(s, 0)
	case *ast.CountStmt:
		a.expr(s.From)
		a.expr(s.To)
		a.expr(s.Step)
		a.push(s.Body)
		name := "count"
		if s.Var != nil {
			name = s.Var.Name
		}
		for _, v := range a.loopVars {
			if v == name {
				a.errorAt(token.Span{Start: s.End(), End: s.End()}, "Nested count loops both use the loop variable '"+name+"'. Give the loops distinct names with 'count from X to Y as <name>:'.")
				break
			}
		}
		if s.Var != nil {
			a.declareReplace(s.Var, SymImplicit, s, types.Number, false)
		} else {
			a.implicit("count", types.Number, false)
		}
		had := a.actionParams[name]
		a.actionParams[name] = true
		a.loopVars = append(a.loopVars, name)
		a.block(s.Body)
		a.loopVars = a.loopVars[:len(a.loopVars)-1]
		if !had {
			delete(a.actionParams, name)
		}
		a.pop()
	case *ast.ForEachStmt:
		a.expr(s.Coll)
		a.push(s.Body)
		if s.Var != nil {
			a.declare(s.Var, SymImplicit, s, nil, false)
			had := a.actionParams[s.Var.Name]
			a.actionParams[s.Var.Name] = true
			a.block(s.Body)
			if !had {
				delete(a.actionParams, s.Var.Name)
			}
		} else {
			a.block(s.Body)
		}
		a.pop()
	case *ast.RepeatStmt:
		switch s.Kind {
		case ast.RepeatWhile:
			a.expr(s.Cond)
			a.push(s.Body)
			a.demoted(func() { a.block(s.Body) })
			a.pop()
		case ast.RepeatUntil, ast.RepeatDoUntil:
			a.push(s.Body)
			a.demoted(func() { a.block(s.Body) })
			a.expr(s.Cond)
			a.pop()
		default:
			a.push(s.Body)
			a.demoted(func() { a.block(s.Body) })
			a.pop()
		}
	case *ast.MainLoopStmt:
		if s.Concurrent {
			first := ast.Stmt(nil)
			if s.Body != nil && len(s.Body.Stmts) > 0 {
				first = s.Body.Stmts[0]
			}
			if _, ok := first.(*ast.WaitRequestStmt); !ok {
				a.errorAt(a.span(s), "A `main loop concurrently:` body must begin with `wait for request ...`. Concurrent handlers start before any request arrives, so statements before the first `wait for request` run once per handler slot. Move that setup above the loop, or make `wait for request` the first statement in the loop.")
			}
		}
		a.push(s.Body)
		a.demoted(func() { a.block(s.Body) })
		a.pop()
	case *ast.ActionDecl:
		if a.cur != a.global {
			a.registerAction(s)
		}
		a.actionBody(s)
	case *ast.ReturnStmt:
		a.expr(s.Value)
	case *ast.TryStmt:
		a.tryStmt(s)
	case *ast.CreateListStmt:
		for _, v := range s.Values {
			a.expr(v)
		}
		a.declare(s.Name, SymVariable, s, types.NewList(types.Unknown), true)
	case *ast.CreateMapStmt:
		for _, e := range s.Entries {
			a.expr(e.Value)
		}
		a.declare(s.Name, SymVariable, s, types.NewMap(types.Text, types.Unknown), true)
	case *ast.CreateDateStmt:
		a.expr(s.Value)
		var t *types.Type
		if s.Value == nil {
			t = types.Date
			if s.Time {
				t = types.Time
			}
		}
		a.declare(s.Name, SymVariable, s, t, true)
	case *ast.ContainerDecl:
		a.containerDecl(s)
	case *ast.InterfaceDecl:
		sym := a.declare(s.Name, SymInterface, s, nil, false)
		if sym != nil {
			sym.Type = types.NewInterface(sym.Name)
			if s.Doc != nil {
				sym.Doc = s.Doc.Text()
			}
		}
		for _, e := range s.Extends {
			if c := a.cur.Lookup(e.Name); c != nil {
				a.use(e, c)
			}
		}
	case *ast.NewStmt:
		for _, in := range s.Inits {
			a.expr(in.Value)
		}
		if s.Container != nil {
			if c := a.info.Containers[s.Container.Name]; c != nil {
				a.use(s.Container, c)
				for _, in := range s.Inits {
					if in.Name != nil {
						if p := a.memberOf(c, in.Name.Name); p != nil {
							a.use(in.Name, p)
						}
					}
				}
			}
		}
		var t *types.Type
		if s.Container != nil {
			t = types.NewInstance(s.Container.Name)
		}
		a.declare(s.Name, SymVariable, s, t, true)
	case *ast.EventDecl:
		for _, p := range s.Params {
			a.expr(p.Default)
		}
		if s.Name != nil {
			sym := a.newSym(s.Name, SymEvent, s, nil, false)
			a.events[sym.Name] = sym
		}
	case *ast.TriggerStmt:
		if s.Name != nil {
			a.use(s.Name, a.events[s.Name.Name])
		}
	case *ast.OnEventStmt:
		a.expr(s.Source)
		if s.Event != nil {
			a.use(s.Event, a.events[s.Event.Name])
		}
	case *ast.ParentCallStmt:
	case *ast.PatternDecl:
		sym := a.declare(s.Name, SymPattern, s, types.Pattern, false)
		if sym != nil && s.Doc != nil {
			sym.Doc = s.Doc.Text()
		}
		a.pattern(s.Body, s)
	case *ast.OpenFileStmt:
		var t *types.Type
		if s.ReadContent {
			t = types.Text
		} else {
			t = types.NewCustom("File")
		}
		a.declare(s.Name, SymVariable, s, t, true)
	case *ast.CloseStmt:
		if s.Kind != ast.CloseServer {
			a.expr(s.X)
		}
	case *ast.WriteStmt:
		a.expr(s.Content)
		a.expr(s.Target)
	case *ast.CreateDirStmt:
		a.expr(s.Path)
	case *ast.CreateFileStmt:
		a.expr(s.Path)
		a.expr(s.Content)
	case *ast.DeleteStmt:
		a.expr(s.Path)
	case *ast.WaitForStmt:
		sc := a.push(nil)
		sc.Node = s
		sc.Span = a.span(s)
		a.stmt(s.Inner)
		a.pop()
		for _, name := range tableNames(&sc.Symbols) {
			if a.cur.Lookup(name) == nil {
				a.cur.put(sc.Symbols.Get(name))
			}
		}
	case *ast.WaitDurationStmt:
		a.expr(s.Duration)
	case *ast.WaitProcessStmt:
		a.expr(s.Process)
		if s.Name != nil {
			a.declare(s.Name, SymVariable, s, types.Number, true)
		}
	case *ast.WaitRequestStmt:
		a.expr(s.Server)
		a.expr(s.Timeout)
		a.declareReplace(s.Name, SymImplicit, s, types.NewCustom("Request"), false)
		for _, f := range requestFields {
			a.implicit(f.name, f.t, false).Node = s // the statement that binds them
		}
	case *ast.WaitNextStmt:
		a.expr(s.Source)
		a.declareReplace(s.Name, SymVariable, s, nil, true)
	case *ast.ExecCommandStmt:
		a.expr(s.Command)
		a.expr(s.Args)
		if s.Name != nil {
			t := types.NewMap(types.Text, types.Any)
			if s.Spawn {
				t = types.Text
			}
			a.declare(s.Name, SymVariable, s, t, true)
		}
	case *ast.ExecFileStmt:
		a.expr(s.Path)
		a.expr(s.Request)
		if s.Name != nil {
			a.declare(s.Name, SymVariable, s, types.Text, true)
		}
	case *ast.ReadOutputStmt:
		a.expr(s.Process)
		a.declare(s.Name, SymVariable, s, types.Text, true)
	case *ast.KillStmt:
		a.expr(s.Process)
	case *ast.ListenStmt:
		a.expr(s.Port)
		a.expr(s.Cert)
		a.expr(s.Key)
		a.expr(s.Redirect)
		a.declare(s.Name, SymVariable, s, types.Text, false)
	case *ast.RespondStmt:
		a.expr(s.Request)
		a.expr(s.Content)
		a.expr(s.Status)
		a.expr(s.ContentType)
		a.expr(s.Headers)
	case *ast.HTTPStmt:
		if s.Kind != ast.HTTPGet {
			a.expr(s.URL)
			a.expr(s.Method)
			a.expr(s.Headers)
			a.expr(s.Body)
		}
		if s.Kind == ast.HTTPStream {
			a.declareReplace(s.Name, SymVariable, s, types.NewCustom("HttpStream"), true)
		} else {
			a.declare(s.Name, SymVariable, s, nil, true)
		}
	case *ast.StartStreamStmt:
		a.expr(s.Request)
		a.expr(s.Status)
		a.expr(s.ContentType)
		a.expr(s.Headers)
		a.declareReplace(s.Name, SymVariable, s, types.NewCustom("ResponseStream"), true)
	case *ast.FlushStmt:
		a.expr(s.Target)
	case *ast.WebSocketHandlerStmt:
		a.expr(s.Server)
		a.push(s.Body)
		a.declareReplace(s.Name, SymImplicit, s, nil, false)
		var added []string
		for _, n := range append([]string{nameOf(s.Name)}, "id", "ip", "body", "sender") {
			if n != "" && !a.actionParams[n] {
				a.actionParams[n] = true
				added = append(added, n)
			}
		}
		a.block(s.Body)
		for _, n := range added {
			delete(a.actionParams, n)
		}
		a.pop()
	case *ast.WebSocketSendStmt:
		a.expr(s.Message)
		a.expr(s.Target)
	case *ast.SignalStmt:
		if s.Handler != nil {
			if sym := a.cur.Lookup(s.Handler.Name); sym != nil {
				a.use(s.Handler, sym)
			} else {
				a.warnAt(a.span(s), "Undefined signal handler '"+s.Handler.Name+"'")
			}
		}
	case *ast.StopAcceptingStmt:
	case *ast.OpenDatabaseStmt:
		a.expr(s.URL)
		a.declare(s.Name, SymVariable, s, types.NewCustom("Database"), true)
	case *ast.TransactionStmt:
		a.expr(s.DB)
		a.block(s.Body)
	case *ast.LoadStmt:
		if !s.Include {
			a.expr(s.Path)
		}
	case *ast.ExportStmt:
		if s.Name != nil {
			if sym := a.cur.Lookup(s.Name.Name); sym != nil {
				a.use(s.Name, sym)
			}
		}
	case *ast.DescribeStmt:
		a.push(s.Body)
		if s.Body != nil {
			for _, x := range s.Body.Stmts {
				if h, ok := x.(*ast.HookStmt); ok && !h.Teardown {
					a.block(h.Body)
				}
			}
			for _, x := range s.Body.Stmts {
				if _, ok := x.(*ast.HookStmt); !ok {
					a.stmt(x)
				}
			}
			for _, x := range s.Body.Stmts {
				if h, ok := x.(*ast.HookStmt); ok && h.Teardown {
					a.block(h.Body)
				}
			}
		}
		a.pop()
	case *ast.HookStmt:
		a.block(s.Body)
	case *ast.TestStmt:
		a.push(s.Body)
		a.block(s.Body)
		a.pop()
	case *ast.ExpectStmt:
		a.expr(s.Subject)
		a.expr(s.Value)
	case *ast.ExprStmt:
		if c, ok := s.X.(*ast.CallExpr); ok && len(c.Args) >= 2 {
			if f, ok := c.Fun.(*ast.Ident); ok && f.Name == "push" {
				if id, ok := c.Args[0].Value.(*ast.Ident); ok && a.cur.Lookup(id.Name) == nil {
					a.declare(id, SymVariable, s, types.NewList(types.Unknown), true)
				}
			}
		}
		a.expr(s.X)
	case *ast.Block:
		a.block(s)
	}
}

func nameOf(id *ast.Ident) string {
	if id == nil {
		return ""
	}
	return id.Name
}

var requestFields = []struct {
	name string
	t    *types.Type
}{
	{"method", types.Text}, {"path", types.Text}, {"query", types.Text}, {"client_ip", types.Text},
	{"body", types.Text}, {"body_bytes", types.Binary}, {"headers", types.NewMap(types.Text, types.Text)},
}

// listTarget checks the target of add/remove/clear.
func (a *analyzer) listTarget(id *ast.Ident, s ast.Stmt) {
	if id == nil {
		return
	}
	if !a.isDefined(id.Name) {
		a.errorAt(a.span(id), "Variable '"+id.Name+"' is not defined")
		return
	}
	sym := a.cur.Lookup(id.Name)
	if sym == nil {
		sym = a.containerProperty(id.Name)
	}
	a.use(id, sym)
	if sym != nil && a.constants[sym] {
		a.errorAt(a.span(s), "Cannot modify constant '"+id.Name+"' - constants are immutable once defined")
	}
}

func rootIdent(e ast.Expr) *ast.Ident {
	for {
		switch x := e.(type) {
		case *ast.Ident:
			return x
		case *ast.IndexExpr:
			e = x.X
		case *ast.PropertyExpr:
			e = x.X
		case *ast.ParenExpr:
			e = x.X
		default:
			return nil
		}
	}
}

// noteAlias remembers variables that hold an action value (`store h as f`),
// which the reference treats as callable.
func (a *analyzer) noteAlias(sym *Symbol, v ast.Expr) {
	if id, ok := unparen(v).(*ast.Ident); ok {
		if t := a.cur.Lookup(id.Name); t != nil && (t.Kind == SymAction || a.aliases[t]) {
			a.aliases[sym] = true
			return
		}
	}
	delete(a.aliases, sym)
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// ifStmt analyzes a two-way branch; a name declared in both branches becomes
// visible after it.
func (a *analyzer) ifStmt(cond ast.Expr, then *ast.Block, els ast.Stmt, n ast.Node) {
	a.expr(cond)
	outer := a.cur
	ts := a.push(then)
	a.block(then)
	a.pop()
	if els == nil {
		return
	}
	var es *Scope
	switch e := els.(type) {
	case *ast.Block:
		es = a.push(e)
		a.block(e)
	default:
		es = a.push(e)
		a.stmt(e)
	}
	a.pop()
	for _, name := range tableNames(&ts.Symbols) {
		sym := ts.Symbols.Get(name)
		other := es.Symbols.Get(name)
		if other == nil || outer.Lookup(name) != nil {
			continue
		}
		merged := *sym
		merged.Mutable = sym.Mutable && other.Mutable
		m := &merged
		if a.define(m, sym.Decl) {
			if a.constants[sym] || a.constants[other] {
				a.constants[m] = true
			}
			a.aliasMerge(m, sym, other)
		}
	}
}

func (a *analyzer) aliasMerge(m, x, y *Symbol) {
	if a.aliases[x] || a.aliases[y] {
		a.aliases[m] = true
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
	ts := a.push(arm.Body)
	a.block(arm.Body)
	a.pop()
	var es *Scope
	if i+1 < len(r.Arms) {
		es = a.push(nil)
		es.Span = token.Span{Start: r.Arms[i+1].Pos(), End: r.End()}
		a.route(r, i+1)
		a.pop()
	} else if r.Otherwise != nil {
		es = a.push(r.Otherwise)
		a.block(r.Otherwise)
		a.pop()
	}
	if es == nil {
		return
	}
	for _, name := range tableNames(&ts.Symbols) {
		sym := ts.Symbols.Get(name)
		other := es.Symbols.Get(name)
		if other == nil || outer.Lookup(name) != nil {
			continue
		}
		m := *sym
		m.Mutable = sym.Mutable && other.Mutable
		a.define(&m, sym.Decl)
	}
}

func (a *analyzer) tryStmt(s *ast.TryStmt) {
	outer := a.cur
	body := a.push(s.Body)
	a.tryDepth++
	a.block(s.Body)
	a.tryDepth--
	a.pop()
	endpoints := []map[string]*Symbol{body.Symbols.toMap()}
	catchAll := false
	for _, c := range s.Clauses {
		if c.Kind == ast.ErrGeneral {
			catchAll = true
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
		decl := map[string]*Symbol{}
		for n, sym := range cs.Symbols.All() {
			if n != errName && n != "error_message" {
				decl[n] = sym
			}
		}
		endpoints = append(endpoints, decl)
	}
	if s.Otherwise != nil {
		os := a.push(s.Otherwise)
		a.block(s.Otherwise)
		a.pop()
		endpoints = append(endpoints, os.Symbols.toMap())
	} else if !catchAll {
		endpoints = append(endpoints, map[string]*Symbol{})
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

// ---- actions ----

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
	if ex := a.cur.Symbols.Get(name); ex != nil && ex.Kind == SymAction {
		for _, o := range ex.Actions {
			if len(o.Params) != len(d.Params) {
				continue
			}
			same := true
			distinct := false
			for i := range o.Params {
				pt, qt := paramType(o.Params[i]), paramType(d.Params[i])
				if !sameParamTypes(pt, qt) {
					same = false
				}
				concrete := func(t *types.Type) bool { return t != nil && t.Kind != types.KAny && t.Kind != types.KUnknown }
				if concrete(pt) && concrete(qt) && !types.Identical(pt, qt) {
					distinct = true
				}
			}
			if same {
				a.errorAt(endSpan, "Action '"+name+"' was already defined with the same parameters at line "+strconv.Itoa(a.line(ex.Decl.Start))+". Overloads must differ in parameter count or in their declared parameter types (e.g. 'value as number' vs 'value as text').")
				a.info.Defs[d.Name] = ex
				return
			}
			if !distinct {
				a.errorAt(endSpan, "These two versions of '"+name+"' cannot be told apart when called with "+strconv.Itoa(len(d.Params))+" argument(s). Give every same-parameter-count overload distinct parameter types ('as number', 'as text', ...), or use different parameter counts.")
				a.info.Defs[d.Name] = ex
				return
			}
		}
		ex.Actions = append(ex.Actions, d)
		a.info.Defs[d.Name] = ex
		return
	}
	sym := a.newSym(d.Name, SymAction, d, nil, false)
	sym.Actions = []*ast.ActionDecl{d}
	if d.Doc != nil {
		sym.Doc = d.Doc.Text()
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
		for _, w := range strings.Fields(p.Name.Name) {
			if !a.actionParams[w] {
				a.actionParams[w] = true
				added = append(added, w)
			}
		}
		t := paramType(p)
		a.declareReplace(p.Name, SymParameter, p, t, false)
	}
	saved := a.aliases
	a.aliases = copyAliases(saved)
	a.block(d.Body)
	a.aliases = saved
	for _, w := range added {
		delete(a.actionParams, w)
	}
	a.pop()
}

func copyAliases(m map[*Symbol]bool) map[*Symbol]bool {
	out := make(map[*Symbol]bool, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// ---- containers ----

func (a *analyzer) memberOf(c *Symbol, name string) *Symbol {
	seen := map[string]bool{}
	for c != nil && !seen[c.Name] {
		seen[c.Name] = true
		if m := c.Members[name]; m != nil {
			return m
		}
		c = a.info.Containers[c.Extends]
	}
	return nil
}

func (a *analyzer) containerDecl(s *ast.ContainerDecl) {
	if s.Name == nil {
		return
	}
	sym := a.newSym(s.Name, SymContainer, s, types.NewContainer(s.Name.Name), false)
	sym.Members = map[string]*Symbol{}
	if s.Doc != nil {
		sym.Doc = s.Doc.Text()
	}
	if s.Extends != nil {
		sym.Extends = s.Extends.Name
		if p := a.info.Containers[s.Extends.Name]; p != nil {
			a.use(s.Extends, p)
		}
	}
	for _, i := range s.Implements {
		if x := a.cur.Lookup(i.Name); x != nil {
			a.use(i, x)
		}
	}
	for _, m := range s.Members {
		switch m := m.(type) {
		case *ast.PropertyDecl:
			if m.Name == nil {
				continue
			}
			t := types.Unknown
			if m.Type != nil {
				t = typeFromExpr(m.Type)
			}
			p := a.newSym(m.Name, SymProperty, m, t, true)
			p.Parent = sym
			if m.Doc != nil {
				p.Doc = m.Doc.Text()
			}
			sym.Members[p.Name] = p
		case *ast.EventDecl:
			if m.Name == nil {
				continue
			}
			e := a.newSym(m.Name, SymEvent, m, nil, false)
			e.Parent = sym
			sym.Members[e.Name] = e
		}
	}
	a.info.Containers[sym.Name] = sym
	if a.cur.Symbols.Get(sym.Name) == nil {
		a.cur.put(sym)
	}
	for _, m := range s.Members {
		switch m := m.(type) {
		case *ast.PropertyDecl:
			a.expr(m.Default)
		case *ast.ActionDecl:
			if m.Name == nil {
				continue
			}
			ms := a.newSym(m.Name, SymMethod, m, nil, false)
			ms.Parent = sym
			ms.Actions = []*ast.ActionDecl{m}
			if m.Doc != nil {
				ms.Doc = m.Doc.Text()
			}
			sym.Members[ms.Name] = ms
			a.push(m)
			prevC, prevS := a.container, a.staticMethod
			a.container = sym
			a.staticMethod = 1
			if m.Static {
				a.staticMethod = 2
			}
			for _, p := range m.Params {
				if p != nil && p.Name != nil {
					a.declareReplace(p.Name, SymParameter, p, paramType(p), false)
				}
			}
			saved := a.aliases
			a.aliases = copyAliases(saved)
			a.block(m.Body)
			a.aliases = saved
			a.container, a.staticMethod = prevC, prevS
			a.pop()
		}
	}
}

// checkInheritance reports extends cycles, once per container on a cycle.
func (a *analyzer) checkInheritance() {
	for _, sym := range a.info.Symbols {
		if sym.Kind != SymContainer || a.info.Containers[sym.Name] != sym {
			continue
		}
		path := []string{sym.Name}
		seen := map[string]bool{sym.Name: true}
		for c := a.info.Containers[sym.Extends]; c != nil; c = a.info.Containers[c.Extends] {
			path = append(path, c.Name)
			if c.Name == sym.Name {
				a.errorAt(sym.Decl, "Cyclic container inheritance detected: "+strings.Join(path, " -> "))
				break
			}
			if seen[c.Name] {
				break
			}
			seen[c.Name] = true
		}
	}
	// Inherited property overrides with a different declared type.
	for _, sym := range a.info.Symbols {
		if sym.Kind != SymContainer || sym.Extends == "" {
			continue
		}
		parent := a.info.Containers[sym.Extends]
		for _, pn := range sortedNames(sym.Members) {
			p := sym.Members[pn]
			if p.Kind != SymProperty || p.Type.Kind == types.KUnknown || parent == nil {
				continue
			}
			if q := a.memberOf(parent, p.Name); q != nil && q.Kind == SymProperty && q.Type.Kind != types.KUnknown && !types.Identical(p.Type, q.Type) {
				a.warnAt(p.Decl, "Property '"+p.Name+"' in container '"+sym.Name+"' declares type "+p.Type.String()+" but inherited property from '"+sym.Extends+"' declares "+q.Type.String()+"; mutable inherited property overrides should keep the same contract")
			}
		}
	}
}

// ---- patterns ----

func (a *analyzer) pattern(n *ast.PatternNode, decl *ast.PatternDecl) {
	if n == nil {
		return
	}
	if n.Kind == ast.PatListRef && n.Name != nil {
		if sym := a.cur.Lookup(n.Name.Name); sym != nil {
			a.use(n.Name, sym)
		} else if !a.actionParams[n.Name.Name] {
			// The reference reports at the pattern definition.
			sp := token.Span{Start: decl.Pos(), End: decl.Pos()}
			if decl.Name != nil {
				sp.End = decl.Name.End()
			}
			a.errs = append(a.errs, diag.Diagnostic{Span: sp, Severity: diag.Error, Category: diag.Semantic, Code: codeSemantic,
				Message: "Undefined list reference '" + n.Name.Name + "' in pattern",
				Related: []diag.Related{{Span: a.span(n.Name), Message: "the list reference"}}})
		}
	}
	for _, c := range n.Children {
		a.pattern(c, decl)
	}
}

// ---- expressions ----

func (a *analyzer) expr(e ast.Expr) {
	switch e := e.(type) {
	case nil:
	case *ast.Ident:
		a.ident(e)
	case *ast.BasicLit, *ast.PatternLit, *ast.BadExpr, *ast.CurrentTimeExpr, *ast.StaticMemberExpr:
	case *ast.ListLit:
		for _, x := range e.Elems {
			a.expr(x)
		}
	case *ast.ParenExpr:
		a.expr(e.X)
	case *ast.BinaryExpr:
		a.expr(e.X)
		a.expr(e.Y)
	case *ast.BetweenExpr:
		a.expr(e.X)
		a.expr(e.Lo)
		a.expr(e.X)
		a.expr(e.Hi)
	case *ast.UnaryExpr:
		a.expr(e.X)
	case *ast.ConcatExpr:
		a.expr(e.X)
		a.expr(e.Y)
	case *ast.CallExpr:
		a.call(e)
	case *ast.ActionCallExpr:
		a.actionCall(e)
	case *ast.IndexExpr:
		a.expr(e.X)
		a.expr(e.Index)
	case *ast.PropertyExpr:
		a.expr(e.X)
	case *ast.MethodCallExpr:
		a.expr(e.X)
		a.args(e.Args)
	case *ast.MatchesExpr:
		a.expr(e.X)
		a.expr(e.Pattern)
	case *ast.FindExpr:
		a.expr(e.Text)
		a.expr(e.Pattern)
	case *ast.ReplaceExpr:
		a.expr(e.Text)
		a.expr(e.Pattern)
		a.expr(e.Replacement)
	case *ast.SplitExpr:
		a.expr(e.Text)
		a.expr(e.Delim)
	case *ast.HeaderExpr:
		a.expr(e.Request)
	case *ast.FileExistsExpr:
		a.expr(e.Path)
	case *ast.FileSizeExpr:
		a.expr(e.File)
	case *ast.ListFilesExpr:
		a.expr(e.Path)
		for _, x := range e.Extensions {
			a.expr(x)
		}
	case *ast.ReadContentExpr:
		a.expr(e.File)
		a.expr(e.Count)
	case *ast.ProcessRunningExpr:
		a.expr(e.Process)
	case *ast.DatabaseQueryExpr:
		a.expr(e.DB)
		a.expr(e.SQL)
		a.expr(e.Params)
	}
}

func (a *analyzer) args(args []*ast.Arg) {
	for _, x := range args {
		if x != nil {
			a.expr(x.Value)
		}
	}
}

// resolveUse records the symbol an identifier refers to, for editor features,
// without reporting anything.
func (a *analyzer) resolveUse(id *ast.Ident) *Symbol {
	if sym := a.cur.Lookup(id.Name); sym != nil {
		a.use(id, sym)
		return sym
	}
	if p := a.containerProperty(id.Name); p != nil {
		a.use(id, p)
		return p
	}
	if b := builtins.Lookup(id.Name); b != nil {
		sym := builtinSymbol(b)
		a.use(id, sym)
		return sym
	}
	return nil
}

var builtinSyms = map[string]*Symbol{}

func builtinSymbol(b *builtins.Builtin) *Symbol {
	return builtinSymCache(b)
}

func (a *analyzer) ident(id *ast.Ident) {
	name := id.Name
	sym := a.resolveUse(id)
	if name == "faulty log_message" || a.actionParams[name] || name == "count" || builtins.IsBuiltin(name) {
		return
	}
	if sym == nil {
		if !a.undefinedCallee(a.span(id), name) {
			a.undefinedName(a.span(id), "Variable '"+name+"' is not defined")
		}
	}
}

func (a *analyzer) call(c *ast.CallExpr) {
	fn, ok := c.Fun.(*ast.Ident)
	if !ok {
		a.expr(c.Fun)
		a.args(c.Args)
		return
	}
	name := fn.Name
	sp := a.span(c)
	if sym := a.cur.Lookup(name); sym != nil {
		a.use(fn, sym)
		if sym.Kind == SymAction {
			a.args(c.Args)
			a.checkOverloaded(name, sym, c.Args, true, sp)
			return
		}
		if a.aliases[sym] || a.actionParams[name] {
			a.args(c.Args)
			return
		}
		a.errorAt(sp, "'"+name+"' is not a function")
		return
	}
	if p := a.containerProperty(name); p != nil {
		a.use(fn, p)
	}
	if builtins.IsBuiltin(name) || a.actionParams[name] || name == "count" {
		if b := builtins.Lookup(name); b != nil {
			a.use(fn, builtinSymbol(b))
		}
		a.args(c.Args)
		return
	}
	if !a.undefinedCallee(a.span(fn), name) {
		a.undefinedName(a.span(fn), "Variable '"+name+"' is not defined")
	}
	a.args(c.Args)
}

func (a *analyzer) actionCall(c *ast.ActionCallExpr) {
	a.args(c.Args)
	if c.Name == nil {
		return
	}
	name := c.Name.Name
	sym := a.cur.Lookup(name)
	if b := builtins.Lookup(name); b != nil && (b.Implemented || sym == nil) {
		if sym != nil {
			a.use(c.Name, sym)
		} else {
			a.use(c.Name, builtinSymbol(b))
		}
		return
	}
	sp := a.span(c)
	if sym != nil {
		a.use(c.Name, sym)
		if sym.Kind == SymAction {
			a.checkOverloaded(name, sym, c.Args, false, sp)
			return
		}
		if a.aliases[sym] {
			return
		}
		a.errorAt(sp, "'"+name+"' is not an action")
		return
	}
	if !a.undefinedCallee(sp, name) {
		a.errorAt(sp, "Undefined action '"+name+"'")
	}
}

func (a *analyzer) checkOverloaded(name string, sym *Symbol, args []*ast.Arg, ofForm bool, sp token.Span) {
	var match []*ast.ActionDecl
	arities := map[int]bool{}
	for _, d := range sym.Actions {
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
			a.errorAt(sp, "Function '"+name+"' expects "+strings.Join(parts, " or ")+" arguments, but "+strconv.Itoa(len(args))+" were provided")
		} else {
			a.errorAt(sp, "Action '"+name+"' expects "+strings.Join(parts, " or ")+" argument(s), but "+strconv.Itoa(len(args))+" were provided")
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
		a.errorAt(sp, msg)
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
			s += " as " + strings.ToLower(typeFromExpr(p.Type).String())
		}
		ps = append(ps, s)
	}
	return name + " with " + strings.Join(ps, " and ")
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
		if got.Kind != types.KUnknown && !analyzerCompatible(got, want) && !yield(p, want, got) {
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
			a.errorAt(sp, "Unknown parameter '"+param+"' for action '"+name+"'")
		} else {
			a.errorAt(sp, "Duplicate argument for parameter '"+param+"' in action '"+name+"'")
		}
	})
	if !ok {
		return
	}
	a.argMismatches(d, vals, func(p *ast.Param, want, got *types.Type) bool {
		a.errorAt(sp, "Argument '"+nameOf(p.Name)+"' of action '"+name+"' expects "+want.String()+", but got "+got.String())
		return true
	})
}

// analyzerCompatible is the analyzer's loose compatibility for call arguments.
func analyzerCompatible(actual, expected *types.Type) bool {
	if types.Identical(actual, expected) {
		return true
	}
	if actual.IsGradual() || expected.IsGradual() || actual.Kind == types.KNothing {
		return true
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
		return actual.Kind == types.KInstance || actual.Kind == types.KCustom
	}
	if expected.Kind == types.KOptional {
		return analyzerCompatible(actual, expected.Elem)
	}
	if expected.Kind == types.KList && actual.Kind == types.KList {
		return analyzerCompatible(actual.Elem, expected.Elem)
	}
	if expected.Kind == types.KMap && actual.Kind == types.KMap {
		return true
	}
	return false
}

// shallowType is the analyzer's argument type inference (§4.4).
func (a *analyzer) shallowType(e ast.Expr) *types.Type {
	switch e := unparen(e).(type) {
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
			if sym := a.cur.Lookup(id.Name); sym != nil && sym.Kind == SymAction && len(sym.Actions) > 0 && sym.Actions[0].ReturnType != nil {
				return typeFromExpr(sym.Actions[0].ReturnType)
			}
		}
	case *ast.ActionCallExpr:
		if e.Name != nil {
			if sym := a.cur.Lookup(e.Name.Name); sym != nil && sym.Kind == SymAction && len(sym.Actions) > 0 && sym.Actions[0].ReturnType != nil {
				return typeFromExpr(sym.Actions[0].ReturnType)
			}
		}
	}
	return types.Unknown
}

func builtinSymCache(b *builtins.Builtin) *Symbol {
	if s := builtinSyms[b.Name]; s != nil {
		return s
	}
	t := types.Unknown
	if len(b.Signatures) > 0 {
		var ps []*types.Type
		for _, p := range b.Signatures[0].Params {
			ps = append(ps, p.Type)
		}
		t = types.NewFunction(ps, b.Signatures[0].Result)
	}
	return &Symbol{Name: b.Name, Kind: SymBuiltin, Builtin: b, Type: t, Doc: b.Doc}
}

func init() {
	for _, b := range builtins.All() {
		builtinSyms[b.Name] = builtinSymCache(b)
	}
}

// sortedNames returns the keys of m in order, for deterministic output.
func sortedNames(m map[string]*Symbol) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// tableNames returns the names of t, sorted.
func tableNames(t *SymbolTable) []string {
	out := make([]string, 0, t.Len())
	for k := range t.All() {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
