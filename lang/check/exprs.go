package check

// This file is the analyzer's walk over expressions: every name is resolved
// (Info.Uses) and calls are checked against what they call. It also holds
// the resolver's entry points that the statements use: resolveUse for a
// name, unchecked for an expression in a position the reference does not
// check.

import (
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/types"
)

// expr resolves the names of e and checks its calls. The walker
// (ast.Inspect) knows every node's children; the analyzer's visitor,
// visitExpr, names only the nodes it treats apart.
func (a *analyzer) expr(e ast.Expr) {
	if e != nil {
		ast.Inspect(e, a.visitExpr)
	}
}

// visitExpr is the analyzer's visitor of an expression's nodes: it resolves
// each identifier that refers to something, and takes over the nodes whose
// children are not all such references (a call's callee, a property's or a
// method's name, a named argument's name, the discarded operand of the
// text operations) or whose operands the reference reads in another order
// than the text's; the walker descends into the rest, each child once (a
// between's X, which the reference reads twice, x >= lo and x <= hi, is
// resolved once: that is enough to report what is wrong with it).
func (a *analyzer) visitExpr(n ast.Node) bool {
	switch e := n.(type) {
	case *ast.Ident:
		a.ident(e)
	case *ast.StaticMemberExpr:
		// `error.message`: the reference does not check the name.
		if e.Container != nil && a.resolveUse(e.Container) == nil {
			a.warnOf(a.span(e.Container), diag.Undefined, "Variable '"+e.Container.Name+"' is not defined", e.Container.Name)
		}
		if e.Member != nil {
			a.use(e.Member, a.field(nil, e.Member.Name))
		}
		return false
	case *ast.Arg:
		a.expr(e.Value) // the name is the callee's parameter (resolveNamedArgs)
		return false
	case *ast.CallExpr:
		a.call(e)
		return false
	case *ast.ActionCallExpr:
		a.actionCall(e)
		return false
	case *ast.PropertyExpr:
		a.expr(e.X) // the property is the type checker's
		return false
	case *ast.MethodCallExpr:
		a.expr(e.X)
		a.args(e.Args)
		return false
	case *ast.FindExpr:
		a.operands(e.Discarded, e.Text, e.Pattern)
		return false
	case *ast.ReplaceExpr:
		a.operands(e.Discarded, e.Text, e.Pattern, e.Replacement)
		return false
	case *ast.SplitExpr:
		a.operands(e.Discarded, e.Text, e.Delim)
		return false
	case *ast.ReadContentExpr:
		a.operands(nil, e.File, e.Count)
		return false
	}
	return true
}

// operands resolves the operands of an expression in the order the
// reference reads them, after its discarded operand (or nil), which is
// never evaluated but is a name all the same.
func (a *analyzer) operands(discarded ast.Expr, xs ...ast.Expr) {
	a.unchecked(discarded)
	for _, x := range xs {
		a.expr(x)
	}
}

func (a *analyzer) args(args []*ast.Arg) {
	for _, x := range args {
		if x != nil {
			a.expr(x.Value)
		}
	}
}

// params declares the parameters of a declaration without a body (an
// event, a required action of an interface): they name nothing a
// statement can refer to, but they are declarations all the same.
func (a *analyzer) params(ps []*ast.Param) {
	for _, p := range ps {
		if p == nil {
			continue
		}
		a.expr(p.Default)
		a.typeRef(p.Type)
		if p.Name != nil {
			a.newSym(p.Name, SymParameter, p, paramType(p), false)
		}
	}
}

// resolveUse records and returns the symbol the name id refers to at this
// point of the walk (Scope.Resolve, then the builtins), without reporting
// anything; nil when the name is not bound. Every referring identifier of
// the tree goes through it or, for names that are not resolved lexically
// (members, container names of `create new`), through use.
func (a *analyzer) resolveUse(id *ast.Ident) *Symbol {
	sym := a.cur.Resolve(id.Name)
	if sym == nil {
		if b := builtins.Lookup(id.Name); b != nil {
			sym = builtinSymbol(b)
		}
	}
	a.use(id, sym)
	return sym
}

// unchecked resolves the names of an expression in a position the
// reference's analyzer does not look at (the path of `open file at`, the
// server of `close server`, …): what it would report there is reported as
// a warning, so that the verdict stays the reference's and the user still
// learns of a misspelt name.
func (a *analyzer) unchecked(e ast.Expr) {
	if e != nil {
		a.demoted(func() { a.expr(e) })
	}
}

// field returns the symbol of the member name of a value without declared
// members: a key of a map made by `create map` (owner is the map), or a
// member of a value whose type is only known at run time (owner nil, one
// symbol a name). Fields are not declarations: they are never in
// Info.Symbols and cannot be renamed.
func (a *analyzer) field(owner *Symbol, name string) *Symbol {
	if owner != nil {
		if m := owner.Members()[name]; m != nil {
			return m
		}
	}
	return a.info.field(owner, name)
}

// mapKey declares the key k of an entry of `create map`, a member of the
// map m (nil when the map has no name); a key written twice is one member.
func (a *analyzer) mapKey(m *Symbol, k *ast.Ident, entry *ast.MapEntry) {
	if m == nil {
		a.use(k, a.field(nil, k.Name))
		return
	}
	if f := m.Members()[k.Name]; f != nil {
		a.use(k, f)
		return
	}
	if m.Members() == nil {
		m.SetMembers(map[string]*Symbol{})
	}
	f := &Symbol{Name: k.Name, Kind: SymField, Parent: m, Type: types.Unknown, Node: entry, Decl: a.span(k)}
	m.Members()[k.Name] = f
	a.info.Defs[k] = f
}

// namedArgs are the arguments of a call and what it calls, whose names
// (`call f with name: v`) finish resolves once every parameter is declared.
type namedArgs struct {
	callee *Symbol
	args   []*ast.Arg
}

// resolveNamedArgs resolves each named argument to the parameter of that
// name of the action called (its first version that has one), or of the
// builtin; an argument of a call of nothing known, or naming no parameter
// (the checkers report it), is a field.
func (a *analyzer) resolveNamedArgs(n namedArgs) {
	for _, arg := range n.args {
		if arg == nil || arg.Name == nil {
			continue
		}
		var p *Symbol
		if n.callee != nil && (n.callee.Kind == SymAction || n.callee.Kind == SymMethod) {
			for _, d := range n.callee.Versions() {
				for _, q := range d.Params {
					if p == nil && q.Name != nil && q.Name.Name == arg.Name.Name {
						p = a.info.Defs[q.Name]
					}
				}
			}
		}
		if p == nil {
			p = a.field(n.callee, arg.Name.Name)
		}
		a.use(arg.Name, p)
	}
}

// event resolves the event a `trigger` or `on` statement names: a top-level
// event, or one of the container whose method is being analyzed.
func (a *analyzer) event(id *ast.Ident) {
	if id == nil {
		return
	}
	sym := a.events[id.Name]
	if sym == nil && a.container != nil {
		if m := a.memberOf(a.container, id.Name); m != nil && m.Kind == SymEvent {
			sym = m
		}
	}
	a.use(id, sym) // the type checker reports an event that is not found
}

var builtinSyms = map[string]*Symbol{}

func builtinSymbol(b *builtins.Builtin) *Symbol {
	return builtinSymCache(b)
}

func (a *analyzer) ident(id *ast.Ident) {
	if id == a.swap.lead {
		a.swappedLead(id)
		return
	}
	name := id.Name
	sym := a.resolveUse(id)
	if sym == nil && (name == "faulty log_message" || a.actionParams[name]) {
		// The reference exempts these names; they are not bound all the same.
		a.warnOf(a.span(id), diag.Undefined, "Variable '"+name+"' is not defined", name)
		return
	}
	if name == "count" || builtins.IsBuiltin(name) {
		return
	}
	if sym == nil {
		if !a.undefinedCallee(a.span(id), name) {
			a.undefinedName(a.span(id), name)
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
	if fn == a.swap.lead {
		// `flush cache of 7`, the action `flush cache` called (or the
		// write's other reading's name), checked as a call of it where
		// that is the one reading, as the reference checks it.
		a.swappedLead(fn)
		a.args(c.Args)
		if alt := a.swap.alt; !a.swap.both {
			if sym := a.cur.Lookup(alt.Name); sym != nil && sym.Kind == SymAction {
				a.checkOverloaded(alt.Name, sym, c.Args, true, a.span(c))
			}
		}
		return
	}
	name := fn.Name
	sp := a.span(c)
	resolved := a.resolveUse(fn)
	if sym := a.cur.Lookup(name); sym != nil {
		if sym.Kind == SymAction {
			a.args(c.Args)
			a.checkOverloaded(name, sym, c.Args, true, sp)
			return
		}
		if b, ok := a.bound[sym]; ok {
			a.args(c.Args)
			a.checkBound(name, b, c, c.Args, true, sp)
			return
		}
		if a.aliases[sym] || a.actionParams[name] {
			a.args(c.Args)
			return
		}
		a.typeFact(sp) // "Cannot call T, not a function"
		a.errorOf(sp, diag.NotCallable, "'"+name+"' is not a function", name)
		a.demoted(func() { a.args(c.Args) }) // the reference stops here
		return
	}
	if resolved != nil && resolved.From() != "" {
		a.args(c.Args) // declared by an included file: the reference warns, we know
		return
	}
	if builtins.IsBuiltin(name) || a.actionParams[name] || name == "count" {
		if resolved == nil && !builtins.IsBuiltin(name) && name != "count" {
			a.warnOf(a.span(fn), diag.Undefined, "Variable '"+name+"' is not defined", name) // exempt, but not bound
		}
		a.args(c.Args)
		return
	}
	if !a.undefinedCallee(a.span(fn), name) {
		a.undefinedName(a.span(fn), name)
	}
	a.args(c.Args)
}

func (a *analyzer) actionCall(c *ast.ActionCallExpr) {
	a.args(c.Args)
	if c.Name == nil {
		return
	}
	name := c.Name.Name
	resolved := a.resolveUse(c.Name)
	a.named = append(a.named, namedArgs{resolved, c.Args})
	sym := a.cur.Lookup(name)
	if b := builtins.Lookup(name); b != nil && (b.Implemented || sym == nil) {
		return
	}
	sp := a.span(c)
	if sym != nil {
		if sym.Kind == SymAction {
			a.checkOverloaded(name, sym, c.Args, false, sp)
			return
		}
		if b, ok := a.bound[sym]; ok {
			a.checkBound(name, b, c, c.Args, false, sp)
			return
		}
		if a.aliases[sym] {
			return
		}
		a.errorAt(sp, "'"+name+"' is not an action", name)
		return
	}
	if resolved != nil && resolved.From() != "" {
		return // declared by an included file
	}
	if !a.undefinedCallee(sp, name) {
		a.errorOf(sp, diag.UndefinedAction, "Undefined action '"+name+"'", name)
	}
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
	return &Symbol{Name: b.Name, Kind: SymBuiltin, Type: t, ext: &symbolExt{builtin: b, doc: b.Doc}}
}

func init() {
	for _, b := range builtins.All() {
		builtinSyms[b.Name] = builtinSymCache(b)
	}
}

// LeadOf returns the leftmost name of e that alt, a merged name spelling a
// command word and that name (`line path`, `flush cache`), replaces in the
// statement's other reading: the identifier of e ending where alt ends; nil
// when there is none (or alt is nil).
func LeadOf(e ast.Expr, alt *ast.Ident) *ast.Ident {
	if alt == nil || e == nil {
		return nil
	}
	var lead *ast.Ident
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.End() == alt.End() && id.Pos() > alt.Pos() {
			lead = id
		}
		return lead == nil && n != nil && n.Pos() <= alt.End()
	})
	return lead
}

// swapped analyses e, a statement's value read two ways as sw says.
func (a *analyzer) swapped(e ast.Expr, sw leadSwap) {
	if sw.lead == nil {
		a.expr(e)
		return
	}
	saved := a.swap
	a.swap = sw
	a.expr(e)
	a.swap = saved
}

// swappedLead resolves the lead of a statement of two readings: each name
// that is bound, the merged one recorded on its own identifier (which no
// walk of the tree visits); undefined only when neither is, as the
// reference's analyzer reports it (the type checker reports a one-sided
// lead on the reading the target's type selects).
func (a *analyzer) swappedLead(id *ast.Ident) {
	alt := a.swap.alt
	if !a.swap.both {
		a.resolveUse(alt)
		return
	}
	stream, classic := a.isDefined(id.Name), a.isDefined(alt.Name)
	if stream {
		a.resolveUse(id)
	}
	if classic {
		a.resolveUse(alt)
	}
	if !stream && !classic {
		a.undefinedName(a.span(alt), alt.Name)
	}
}
