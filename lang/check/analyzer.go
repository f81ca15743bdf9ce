package check

// This file is the analyzer: scopes, declarations and the reference
// analyzer's rules. As in the reference, a first pass registers every
// top-level action's signature (so top-level actions may call one another
// before their definition), a second walks the statements in order with a
// chain of scopes, then container inheritance is checked; errors are
// collected, never stopping the walk. It also records every definition and
// use in Info.

import (
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

// The analyzer's names of lang/diag's codes.
const (
	codeSemantic = diag.AnalyzeSemantic
	codeInclude  = diag.AnalyzeInclude
)

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
	// bound are the aliases whose calls the reference checks against the
	// versions of the action visible where it was stored (see noteAlias).
	bound map[*Symbol]boundAlias
	// mutated are the aliases stored or changed in the loops' and tries'
	// bodies being analysed, innermost last (see loop).
	mutated []map[*Symbol]bool
	// writes are the variables around each action that its bodies, and
	// those of the actions they call, change (calledAction), once known
	// for good.
	writes map[*Symbol]map[*Symbol]bool
	// boundCalls are the calls through them, with what each alias held
	// there, for the type checker.
	boundCalls map[ast.Node]boundAlias
	top        ast.Stmt            // the top-level statement being analysed; nil inside bodies with aliases of their own
	named      []namedArgs         // calls with named arguments, resolved by finish
	merged     map[*Symbol]*Symbol // branch declarations and the one symbol they became (see merge)
	typeRefs   []*ast.TypeExpr     // written types, resolved by finish
	swap       leadSwap            // while a statement of two readings is analysed (see leadSwap)
	// typeFacts are the spans of the findings the type checker also
	// makes, when it runs, as an error on the same span (an undefined
	// signal handler, a call of a value that is not an action): kept as
	// a warning, such a finding gives way to the type checker's (see
	// oneFindingPerFact).
	typeFacts map[token.Span]bool
}

// A leadSwap is, while the value of a statement of two readings is analysed
// (`write line NAME … to T`, `flush NAME …`), its leftmost name and the
// merged name the other reading reads there.
type leadSwap struct {
	lead, alt *ast.Ident
	both      bool // either reading may be live: report the lead only when neither is bound; else read alt alone
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

// signals are the names `register signal handler for NAME` accepts, with and
// without the SIG prefix, by their upper-case spelling.
var signals = func() map[string]*Symbol {
	m := map[string]*Symbol{}
	for _, n := range []string{"INT", "TERM", "HUP", "QUIT", "USR1", "USR2", "PIPE", "ALRM", "CHLD", "CONT", "ABRT"} {
		sym := &Symbol{Name: "SIG" + n, Kind: SymSignal, Type: types.Text}
		m[n], m["SIG"+n] = sym, sym
	}
	return m
}()

func newAnalyzer(f *ast.File, src string, info *Info, ctx *Context) *analyzer {
	a := &analyzer{file: f, src: src, info: info, ctx: ctx,
		actionParams: map[string]bool{},
		constants:    map[*Symbol]bool{}, events: map[string]*Symbol{}}
	a.universe = universe
	a.global = &Scope{Parent: a.universe, Node: f, Span: token.Span{Start: f.Pos(), End: f.End()},
		Symbols: SymbolTable{large: map[string]*Symbol{}}} // the file scope is rarely small
	info.Global = a.global
	for _, sym := range ctx.Imports {
		if a.global.Injected().Get(sym.Name) == nil {
			a.global.inject(sym.Name, sym)
		}
	}
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

// errorAt reports an error about the names the message quotes.
func (a *analyzer) errorAt(sp token.Span, msg string, names ...string) {
	a.errorOf(sp, 0, msg, names...)
}

// warnAt reports a warning about the names the message quotes.
func (a *analyzer) warnAt(sp token.Span, msg string, names ...string) { a.warnOf(sp, 0, msg, names...) }

// errorOf reports an error of kind k about names (as k documents).
func (a *analyzer) errorOf(sp token.Span, k diag.Kind, msg string, names ...string) {
	a.errs = append(a.errs, diag.Diagnostic{Span: sp, Severity: diag.Error, Category: diag.Semantic, Code: codeSemantic, Kind: k, Names: names, Message: msg})
}

// warnOf reports a warning of kind k about names (as k documents).
func (a *analyzer) warnOf(sp token.Span, k diag.Kind, msg string, names ...string) {
	a.warns = append(a.warns, diag.Diagnostic{Span: sp, Severity: diag.Warning, Category: diag.Semantic, Code: codeSemantic, Kind: k, Names: names, Message: msg})
}

// undefinedName reports that the variable name is not defined: a warning
// inside a try body.
func (a *analyzer) undefinedName(sp token.Span, name string) {
	msg := "Variable '" + name + "' is not defined"
	if a.tryDepth > 0 {
		a.warnOf(sp, diag.Undefined, msg, name)
	} else {
		a.errorOf(sp, diag.Undefined, msg, name)
	}
}

// undefinedCallee reports an unresolved callee as a warning when the file
// includes other files and returns true; else it returns false.
func (a *analyzer) undefinedCallee(sp token.Span, name string) bool {
	if a.hasIncludes {
		a.warnOf(sp, diag.UndefinedAction, "Undefined action '"+name+"'", name)
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
		a.errorOf(at, diag.Redefined, "Variable '"+sym.Name+"' has already been defined at line "+strconv.Itoa(a.line(old.Decl.Start))+". Use 'change "+sym.Name+" to <value>' to modify it.", sym.Name)
		return false
	}
	if a.cur.Parent != nil && a.cur.Parent.Lookup(sym.Name) != nil && a.cur.Parent != a.universe {
		a.errorOf(at, diag.Redefined, "Variable '"+sym.Name+"' has already been defined in an outer scope. Use 'change "+sym.Name+" to <value>' to modify it.", sym.Name)
		return false
	}
	if a.cur.Parent == a.universe && a.universe.Symbols.Get(sym.Name) != nil {
		a.errorOf(at, diag.Redefined, "Variable '"+sym.Name+"' has already been defined in an outer scope. Use 'change "+sym.Name+" to <value>' to modify it.", sym.Name)
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
	if !a.define(sym, a.span(id)) {
		a.redeclared(id, sym)
	}
	return sym
}

// redeclared makes id, whose declaration of sym was refused because the
// name is visible already, a use of the visible symbol: it is the same
// variable when the program runs (and a rename renames both).
func (a *analyzer) redeclared(id *ast.Ident, sym *Symbol) {
	old := a.cur.Lookup(sym.Name)
	if old == nil || old.Kind == SymAction || old.Kind == SymContainer || old.Kind == SymInterface || old.Kind == SymPattern {
		return
	}
	delete(a.info.Defs, id)
	if n := len(a.info.Symbols); n > 0 && a.info.Symbols[n-1] == sym {
		a.info.Symbols = a.info.Symbols[:n-1]
	}
	a.use(id, old)
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
	for c := range a.info.lineage(a.container) {
		if m := c.Members()[name]; m != nil && m.Kind == SymProperty {
			static := m.Node != nil && m.Node.(*ast.PropertyDecl).Static
			if a.staticMethod == 0 || (a.staticMethod == 2) == static {
				return m
			}
		}
		if c.Extends() == "" {
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
	for _, s := range f.Stmts {
		if a.ctx.stopped() {
			break
		}
		a.top = s
		before := cloneBound(a.bound)
		a.stmt(s)
		a.boundChanged(before)
	}
	a.top = nil
	a.checkInheritance()

	a.finish()

	// The CLI's filter and ordering: warnings first, then errors. The
	// reference drops undefined names that are words of top-level
	// parameters; they are still undefined, so they are kept as warnings.
	var errs []diag.Diagnostic
	for _, d := range a.errs {
		if n, ok := undefinedVariable(d.Message); ok && a.fileParams[n] {
			d.Severity, d.Kind, d.Names = diag.Warning, diag.UndefinedParamWord, []string{n}
			a.warns = append(a.warns, d)
			continue
		}
		if a.hasLoad && (strings.HasPrefix(d.Message, "Undefined action '") || strings.HasSuffix(d.Message, "' is not defined")) {
			d.Related = []diag.Related{{Span: d.Span, Message: "`load module` runs a file in an isolated scope; use `include from` to share its definitions"}}
		}
		if n, ok := undefinedVariable(d.Message); ok {
			if note := a.importNote(n); note != "" {
				d.Message += note
				d.Names = []string{n, a.global.Injected().Get(n).From()}
			}
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
		if a.ctx.stopped() {
			return
		}
		a.stmt(s)
	}
}

func (a *analyzer) block(b *ast.Block) {
	if b != nil {
		a.stmts(b.Stmts)
	}
}

// typeFact records that the type checker reports, as an error on sp, what
// the finding about to be made on sp says (see typeFacts).
func (a *analyzer) typeFact(sp token.Span) {
	if a.typeFacts == nil {
		a.typeFacts = map[token.Span]bool{}
	}
	a.typeFacts[sp] = true
}

// demoted runs f and turns the analyzer errors it produced into warnings (the
// reference does this for repeat, forever and main-loop bodies; we do it for
// the names in positions the reference does not check, see unchecked).
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
		if p := a.containerProperty(s.Name.Name); p != nil {
			a.use(s.Name, p) // a property write, not a declaration
			return
		}
		kind := SymVariable
		if s.Constant {
			kind = SymConstant
		}
		sym := a.newSym(s.Name, kind, s, nil, !s.Constant)
		sym.Constant = s.Constant
		if s.Doc != nil {
			sym.setDoc(s.Doc.Text())
		}
		if a.define(sym, a.span(s.Name)) {
			if s.Constant {
				a.constants[sym] = true
			}
			a.noteAlias(sym, s.Value)
		} else {
			a.redeclared(s.Name, sym)
		}
	case *ast.AssignStmt:
		if s.Name == nil {
			a.expr(s.Value)
			return
		}
		name := s.Name.Name
		sp := a.span(s)
		a.resolveUse(s.Name)
		if sym := a.cur.Lookup(name); sym != nil {
			switch sym.Kind {
			case SymAction, SymPattern, SymMethod:
				a.errorAt(a.span(s.Name), "'"+name+"' is not a variable", name)
			default:
				if !sym.Mutable {
					a.errorAt(sp, "Cannot modify constant '"+name+"' - constants are immutable once defined", name)
					a.unchecked(s.Value) // the reference stops here
					return
				}
				a.expr(s.Value)
				a.noteAlias(sym, s.Value)
				return
			}
		} else if a.containerProperty(name) == nil {
			a.undefinedName(a.span(s.Name), name)
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
				a.errorAt(a.span(s), "Cannot modify constant '"+id.Name+"' - constants are immutable once defined", id.Name)
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
		a.branches(true, func() {
			a.push(s.Then)
			a.stmt(s.Then)
			a.pop()
		})
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
				a.errorAt(token.Span{Start: s.End(), End: s.End()}, "Nested count loops both use the loop variable '"+name+"'. Give the loops distinct names with 'count from X to Y as <name>:'.", name)
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
		a.loop(func() { a.block(s.Body) })
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
			a.loop(func() { a.block(s.Body) })
			if !had {
				delete(a.actionParams, s.Var.Name)
			}
		} else {
			a.loop(func() { a.block(s.Body) })
		}
		a.pop()
	case *ast.RepeatStmt:
		switch s.Kind {
		case ast.RepeatWhile:
			a.expr(s.Cond)
			a.push(s.Body)
			a.loop(func() { a.demoted(func() { a.block(s.Body) }) })
			a.pop()
		case ast.RepeatUntil, ast.RepeatDoUntil:
			a.push(s.Body)
			a.loop(func() { a.demoted(func() { a.block(s.Body) }) })
			a.expr(s.Cond)
			a.pop()
		default:
			a.push(s.Body)
			a.loop(func() { a.demoted(func() { a.block(s.Body) }) })
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
		a.loop(func() { a.demoted(func() { a.block(s.Body) }) })
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
		m := a.declare(s.Name, SymVariable, s, types.NewMap(types.Text, types.Unknown), true)
		for _, e := range s.Entries {
			if k, ok := e.Key.(*ast.Ident); ok {
				a.mapKey(m, k, e)
			}
		}
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
				sym.setDoc(s.Doc.Text())
			}
		}
		for _, e := range s.Extends {
			if a.resolveUse(e) == nil {
				a.warnOf(a.span(e), diag.UndefinedInterface, "Interface '"+e.Name+"' is not defined", e.Name)
			}
		}
		a.interfaceActions(s, sym)
	case *ast.NewStmt:
		for _, in := range s.Inits {
			a.expr(in.Value)
		}
		if s.Container != nil {
			c := a.info.Containers[s.Container.Name]
			if c == nil {
				c = a.imported(s.Container.Name, SymContainer)
			}
			a.use(s.Container, c)
			for _, in := range s.Inits {
				if in.Name == nil {
					continue
				}
				if p := a.memberOf(c, in.Name.Name); p != nil {
					a.use(in.Name, p)
				} else {
					a.use(in.Name, a.field(c, in.Name.Name)) // the type checker reports an unknown property
				}
			}
		}
		var t *types.Type
		if s.Container != nil {
			t = types.NewInstance(s.Container.Name)
		}
		a.declare(s.Name, SymVariable, s, t, true)
	case *ast.EventDecl:
		a.params(s.Params)
		if s.Name != nil {
			sym := a.newSym(s.Name, SymEvent, s, nil, false)
			a.events[sym.Name] = sym
		}
	case *ast.TriggerStmt:
		a.event(s.Name)
	case *ast.OnEventStmt:
		a.expr(s.Source)
		a.event(s.Event)
	case *ast.ParentCallStmt:
	case *ast.PatternDecl:
		sym := a.declare(s.Name, SymPattern, s, types.Pattern, false)
		if sym != nil && s.Doc != nil {
			sym.setDoc(s.Doc.Text())
		}
		a.pattern(s.Body, s, sym)
	case *ast.OpenFileStmt:
		a.unchecked(s.Path)
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
		} else {
			a.unchecked(s.X)
		}
	case *ast.WriteStmt:
		a.swapped(s.Content, leadSwap{lead: LeadOf(s.Content, s.Classic), alt: s.Classic, both: true})
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
		} else {
			a.unchecked(s.URL)
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
		if s.Legacy == nil || !a.isDefined(s.Legacy.Name) {
			a.expr(s.Target)
			break
		}
		// The statement the name began before streams: `flush cache[0]`
		// reads the action or variable `flush cache`; a `flush` alone is
		// followed by an expression statement of its own.
		a.resolveUse(s.Legacy)
		if lead := LeadOf(s.Target, s.Legacy); lead != nil {
			a.swapped(s.Target, leadSwap{lead: lead, alt: s.Legacy})
		} else {
			a.expr(s.Target)
		}
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
		for _, f := range socketFields {
			a.cur.inject(f.name, &Symbol{Name: f.name, Kind: SymImplicit, Type: f.t, Node: s})
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
		if s.Signal != nil {
			a.use(s.Signal, signals[strings.ToUpper(s.Signal.Name)]) // the type checker reports an unknown one
		}
		if s.Handler != nil {
			if sym := a.cur.Lookup(s.Handler.Name); sym != nil {
				a.use(s.Handler, sym)
			} else {
				a.typeFact(a.span(s.Handler))
				a.warnOf(a.span(s.Handler), diag.UndefinedHandler, "Undefined signal handler '"+s.Handler.Name+"'", s.Handler.Name)
			}
		}
	case *ast.StopAcceptingStmt:
		a.unchecked(s.Server)
	case *ast.OpenDatabaseStmt:
		a.expr(s.URL)
		a.declare(s.Name, SymVariable, s, types.NewCustom("Database"), true)
	case *ast.TransactionStmt:
		a.expr(s.DB)
		a.block(s.Body)
	case *ast.LoadStmt:
		if !s.Include {
			a.expr(s.Path)
			break
		}
		a.unchecked(s.Path)
		if lit, ok := s.Path.(*ast.BasicLit); ok && lit.Kind == ast.LitString {
			if u, ok := a.ctx.Unfollowed[lit.Value]; ok {
				// Why names files, whose names need not be UTF-8.
				why := strings.ToValidUTF8(u.Why, "\uFFFD")
				d := diag.Diagnostic{Span: a.span(lit), Severity: diag.Information, Category: diag.Semantic, Code: codeInclude,
					Message: "The included file cannot be followed: " + why}
				switch {
				case u.Cycle:
					d.Severity, d.Message = diag.Warning, "Includes go round in a cycle: "+why
				case u.Broken:
					d.Severity, d.Message = diag.Warning, why
				case u.Missing:
					d.Kind, d.Names = diag.MissingInclude, []string{lit.Value}
				}
				a.warns = append(a.warns, d)
			}
		}
	case *ast.ExportStmt:
		if s.Name != nil {
			a.use(s.Name, a.cur.Lookup(s.Name.Name)) // the type checker reports what is not found
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

type implicitName struct {
	name string
	t    *types.Type
}

// BoundNames returns the names a statement binds in its scope without
// writing them (the fields of a request `wait for request … as R` binds
// besides R), or nil.
func BoundNames(s ast.Stmt) []string {
	if _, ok := s.(*ast.WaitRequestStmt); !ok {
		return nil
	}
	out := make([]string, len(requestFields))
	for i, f := range requestFields {
		out[i] = f.name
	}
	return out
}

// requestFields are the names `wait for request … as R` binds besides R.
var requestFields = []implicitName{
	{"method", types.Text}, {"path", types.Text}, {"query", types.Text}, {"client_ip", types.Text},
	{"body", types.Text}, {"body_bytes", types.Binary}, {"headers", types.NewMap(types.Text, types.Text)},
}

// socketFields are the names a websocket handler binds besides its own
// (programs use them as `id of connection`: their types are not known).
var socketFields = []implicitName{
	{"id", types.Unknown}, {"ip", types.Unknown}, {"body", types.Unknown}, {"sender", types.Unknown},
}

// listTarget checks the target of add/remove/clear.
func (a *analyzer) listTarget(id *ast.Ident, s ast.Stmt) {
	if id == nil {
		return
	}
	a.resolveUse(id)
	if !a.isDefined(id.Name) {
		a.errorOf(a.span(id), diag.Undefined, "Variable '"+id.Name+"' is not defined", id.Name)
		return
	}
	sym := a.cur.Lookup(id.Name)
	if sym == nil {
		sym = a.containerProperty(id.Name)
	}
	if sym != nil && a.constants[sym] {
		a.errorAt(a.span(s), "Cannot modify constant '"+id.Name+"' - constants are immutable once defined", id.Name)
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
	if _, had := a.bound[sym]; had && a.inFlow() {
		// Stored again: what it holds is what the value says, if anything.
		delete(a.bound, sym)
		a.mutatedAlias(sym)
	}
	if id, ok := ast.Unparen(v).(*ast.Ident); ok {
		t := a.cur.Lookup(id.Name)
		if t != nil && (t.Kind == SymAction || a.aliases[t]) {
			a.setAlias(sym)
			a.bind(sym, t, v.Pos())
			return
		}
		if b := builtins.Lookup(id.Name); t == nil && b != nil && b.Implemented {
			// `store magnitude as abs`: the builtin, callable through it.
			a.setAlias(sym)
			return
		}
	}
	if a.aliases[sym] {
		a.retyped(sym)
		delete(a.aliases, sym)
	}
}

// A boundAlias is an alias the reference knows the value of: the action
// stored, as the versions of it defined before the store (a stored action
// is a snapshot of them).
type boundAlias struct {
	action  *Symbol
	visible int
	dynamic bool // what it holds depends on the way the program took to it (see aliasflow.go)
}

// bind records what alias sym holds after it is stored, at offset at,
// from t (an action, or another alias), in the top-level flow (see
// aliasflow.go): the versions of the action defined above the store, or
// what alias t holds; dynamic when a version is defined in a block above
// it. Calls through a dynamic alias are left to run time.
func (a *analyzer) bind(sym, t *Symbol, at int) {
	if !a.inFlow() {
		return
	}
	st, ok := a.bound[t]
	if !ok {
		if t.Kind != SymAction {
			return
		}
		stmts := a.file.Stmts
		for _, d := range t.Versions() {
			if d.Pos() >= at {
				continue
			}
			i := sort.Search(len(stmts), func(i int) bool { return stmts[i].Pos() >= d.Pos() })
			if i == len(stmts) || stmts[i] != ast.Stmt(d) {
				// A version defined in a block before the store: how
				// many the value holds depends on the way taken.
				st = boundAlias{dynamic: true}
				break
			}
			st.visible++
		}
		if st.visible == 0 && !st.dynamic {
			return // stored before any version is defined: no value yet
		}
		if !st.dynamic {
			st.action = t
		}
	}
	if a.bound == nil {
		a.bound = map[*Symbol]boundAlias{}
	}
	a.bound[sym] = st
	a.mutatedAlias(sym)
}

// checkBound checks call n of the alias name, which holds b, with args,
// as the reference does: against the versions the alias holds, or not at
// all when it is dynamic. Its
// findings are about the action too (a broken declaration of it excuses
// them while it is typed), and the type checker learns what n calls.
func (a *analyzer) checkBound(name string, b boundAlias, n ast.Node, args []*ast.Arg, ofForm bool, sp token.Span) {
	if a.boundCalls == nil {
		a.boundCalls = map[ast.Node]boundAlias{}
	}
	a.boundCalls[n] = b
	if b.dynamic {
		return // left to run time
	}
	defer a.calledAction(b.action)
	from := len(a.errs)
	a.checkVersions(name, b.action.Actions()[:b.visible], args, ofForm, sp)
	for i := from; i < len(a.errs); i++ {
		a.errs[i].Names = append(slices.Clip(a.errs[i].Names), b.action.Name)
	}
}

// setAlias records that sym holds an action value.
func (a *analyzer) setAlias(sym *Symbol) {
	if !a.aliases[sym] {
		a.retyped(sym)
	}
	if a.aliases == nil {
		a.aliases = map[*Symbol]bool{}
	}
	a.aliases[sym] = true
}

// retyped notes that the top-level statement being analysed changes
// whether sym holds an action value for the statements after it (see
// Info.Retyped).
func (a *analyzer) retyped(sym *Symbol) {
	if a.top != nil && !declaredIn(sym, a.top) {
		a.info.retyped = append(a.info.retyped, retype{int32(a.top.Pos()), sym})
	}
}

// declaredIn reports whether sym is declared by statement s: then s does
// not retype it, it gives it its first type.
func declaredIn(sym *Symbol, s ast.Stmt) bool {
	d := sym.Decl
	return d.End > d.Start && d.Start >= s.Pos() && d.End <= s.End()
}

// ---- actions ----

// ---- containers ----

// ---- patterns ----

// ---- expressions ----

// imported returns the symbol of kind k named name that an included file
// declares, or nil.
func (a *analyzer) imported(name string, k SymbolKind) *Symbol {
	if s := a.global.Injected().Get(name); s != nil && s.From() != "" && s.Kind == k {
		return s
	}
	return nil
}

// importNote explains an error about name, reported as the reference does,
// when an included file declares name: WFL's checker does not read the
// files a file includes, so `wfl` reports it all the same. It returns ""
// when no included file declares name.
func (a *analyzer) importNote(name string) string {
	s := a.global.Injected().Get(name)
	if s == nil || s.From() == "" {
		return ""
	}
	return " (it is declared in the included file " + filepath.Base(s.From()) + ", which WFL's checker does not read)"
}
