package check

// This file is the analyzer's walk over expressions: every name is resolved
// (Info.Uses) and calls are checked against what they call.

import (
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/types"
)

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
