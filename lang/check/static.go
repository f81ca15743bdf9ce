package check

// This file is the static pass the reference runs after a clean analysis
// (research/wfl-language.md §4.5): unused variables, unreachable top-level
// code, shadowing, inconsistent returns and insecure RNG seeding. The rules
// are deliberately as crude as the reference's (name-based, whole-file) so
// that warnings agree with it.

import (
	"sort"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

func staticDiagnostics(f *ast.File, src string) []diag.Diagnostic {
	var out []diag.Diagnostic
	out = append(out, unusedVariables(f)...)
	out = append(out, unreachable(f)...)
	out = append(out, shadowing(f)...)
	out = append(out, inconsistentReturns(f)...)
	if strings.Contains(src, "random_seed") {
		out = append(out, insecureSeeding(f)...)
	}
	return out
}

func warning(sp token.Span, code, msg string, tags ...diag.Tag) diag.Diagnostic {
	d := diag.Diagnostic{Span: sp, Severity: diag.Warning, Category: diag.Semantic, Code: code, Message: msg}
	for _, t := range tags {
		d.Tags |= t
	}
	return d
}

// ---- unused variables ----

type usage struct {
	span token.Span
	used bool
	seq  int
}

type unusedPass struct {
	u   map[string]*usage
	seq int
}

func (p *unusedPass) declare(id *ast.Ident, used bool) {
	if id == nil {
		return
	}
	p.seq++
	p.u[id.Name] = &usage{span: token.Span{Start: id.Pos(), End: id.End()}, used: used, seq: p.seq}
}

func (p *unusedPass) mark(name string) {
	if u := p.u[name]; u != nil {
		u.used = true
	}
}

func isDBQuery(e ast.Expr) bool {
	_, ok := e.(*ast.DatabaseQueryExpr)
	return ok
}

func unusedVariables(f *ast.File) []diag.Diagnostic {
	p := &unusedPass{u: map[string]*usage{}}
	actionParams := map[string][]string{}
	for _, s := range f.Stmts {
		if d, ok := s.(*ast.ActionDecl); ok && d.Name != nil {
			for _, prm := range d.Params {
				actionParams[d.Name.Name] = append(actionParams[d.Name.Name], nameOf(prm.Name))
			}
		}
	}
	for _, s := range f.Stmts {
		p.collect(s, p.u)
	}
	for _, s := range f.Stmts {
		if d, ok := s.(*ast.VarDecl); ok && !isDBQuery(d.Value) {
			p.expr(d.Value)
		}
	}
	for _, s := range f.Stmts {
		p.stmt(s)
	}
	for _, s := range f.Stmts {
		es, ok := s.(*ast.ExprStmt)
		if !ok {
			continue
		}
		ac, ok := unparen(es.X).(*ast.ActionCallExpr)
		if !ok || ac.Name == nil {
			continue
		}
		for _, n := range actionParams[ac.Name.Name] {
			p.mark(n)
		}
		for _, a := range ac.Args {
			if id, ok := unparen(a.Value).(*ast.Ident); ok {
				p.mark(id.Name)
			}
		}
	}
	var names []string
	for n, u := range p.u {
		if !u.used && n != "y" {
			names = append(names, n)
		}
	}
	sort.Slice(names, func(i, j int) bool { return p.u[names[i]].span.Start < p.u[names[j]].span.Start })
	var out []diag.Diagnostic
	for _, n := range names {
		out = append(out, warning(p.u[n].span, "ANALYZE-UNUSED", "Unused variable '"+n+"'", diag.Unnecessary))
	}
	return out
}

func (p *unusedPass) collect(s ast.Stmt, into map[string]*usage) {
	saved := p.u
	p.u = into
	defer func() { p.u = saved }()
	switch s := s.(type) {
	case *ast.VarDecl:
		if !isDBQuery(s.Value) {
			p.declare(s.Name, false)
		}
	case *ast.PatternDecl:
		p.declare(s.Name, false)
	case *ast.ActionDecl:
		scope := map[string]*usage{}
		for _, prm := range s.Params {
			if prm.Name != nil {
				for _, w := range splitWords(prm.Name.Name) {
					scope[w] = &usage{used: true}
				}
			}
		}
		if s.Body != nil {
			for _, x := range s.Body.Stmts {
				p.collect(x, scope)
			}
		}
		for n, u := range scope {
			into[n] = u
		}
	case *ast.IfStmt:
		p.collectBlock(s.Then, into)
		switch e := s.Else.(type) {
		case *ast.Block:
			p.collectBlock(e, into)
		case ast.Stmt:
			p.collect(e, into)
		}
	case *ast.RouteStmt:
		for _, a := range s.Arms {
			p.collectBlock(a.Body, into)
		}
		p.collectBlock(s.Otherwise, into)
	case *ast.ForEachStmt:
		p.collectBlock(s.Body, into)
	case *ast.CountStmt:
		p.collectBlock(s.Body, into)
	case *ast.MainLoopStmt:
		p.collectBlock(s.Body, into)
	case *ast.RepeatStmt:
		if s.Kind == ast.RepeatForever {
			p.collectBlock(s.Body, into)
		}
	case *ast.TransactionStmt:
		p.collectBlock(s.Body, into)
	case *ast.SingleIfStmt:
		p.collect(s.Then, into)
	case *ast.TryStmt:
		p.collectBlock(s.Body, into)
		for _, c := range s.Clauses {
			p.collectBlock(c.Body, into)
		}
		p.collectBlock(s.Otherwise, into)
		p.collectBlock(s.Finally, into)
	case *ast.DescribeStmt:
		p.collectBlock(s.Body, into)
	case *ast.HookStmt:
		p.collectBlock(s.Body, into)
	case *ast.TestStmt:
		p.collectBlock(s.Body, into)
	}
}

func (p *unusedPass) collectBlock(b *ast.Block, into map[string]*usage) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		p.collect(s, into)
	}
}

func splitWords(s string) []string {
	var out []string
	start := -1
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ' ' || s[i] == '\t' {
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
	}
	return out
}

func (p *unusedPass) block(b *ast.Block) {
	if b == nil {
		return
	}
	for _, s := range b.Stmts {
		p.stmt(s)
	}
}

func (p *unusedPass) markIdent(id *ast.Ident) {
	if id != nil {
		p.mark(id.Name)
	}
}

func (p *unusedPass) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.AssignStmt:
		p.markIdent(s.Name)
		p.expr(s.Value)
	case *ast.VarDecl:
		if q, ok := s.Value.(*ast.DatabaseQueryExpr); ok {
			p.expr(q.DB)
			p.expr(q.SQL)
			p.expr(q.Params)
		} else {
			p.expr(s.Value)
		}
	case *ast.ActionDecl:
		p.block(s.Body)
	case *ast.IfStmt:
		p.expr(s.Cond)
		p.block(s.Then)
		if s.Else != nil {
			p.stmt(s.Else)
		}
	case *ast.Block:
		p.block(s)
	case *ast.RouteStmt:
		for _, a := range s.Arms {
			for range a.Values {
				p.expr(s.Subject)
			}
			for _, v := range a.Values {
				p.expr(v)
			}
			p.block(a.Body)
		}
		p.block(s.Otherwise)
	case *ast.RepeatStmt:
		p.expr(s.Cond)
		p.block(s.Body)
	case *ast.ForEachStmt:
		p.markIdent(s.Var)
		p.expr(s.Coll)
		p.block(s.Body)
	case *ast.CountStmt:
		p.expr(s.From)
		p.expr(s.To)
		p.expr(s.Step)
		p.block(s.Body)
	case *ast.DisplayStmt:
		for _, v := range s.Values {
			p.expr(v)
			if id, ok := unparen(v).(*ast.Ident); ok && len(s.Values) > 1 {
				p.mark(id.Name)
			}
		}
	case *ast.ReturnStmt:
		if q, ok := s.Value.(*ast.DatabaseQueryExpr); ok {
			_ = q
		} else {
			p.expr(s.Value)
		}
	case *ast.ExprStmt:
		p.expr(s.X)
	case *ast.WriteStmt:
		if s.Kind != ast.WriteBinaryContent || true {
			p.expr(s.Content)
			p.expr(s.Target)
		}
	case *ast.OpenFileStmt:
		p.expr(s.Path)
		p.markIdent(s.Name)
	case *ast.CloseStmt:
		p.expr(s.X)
	case *ast.OpenDatabaseStmt:
		p.expr(s.URL)
		p.markIdent(s.Name)
	case *ast.TransactionStmt:
		p.expr(s.DB)
		p.block(s.Body)
	case *ast.ExecFileStmt:
		p.expr(s.Path)
		p.expr(s.Request)
		p.markIdent(s.Name)
	case *ast.WaitForStmt:
		p.stmt(s.Inner)
	case *ast.MainLoopStmt:
		p.block(s.Body)
	case *ast.SingleIfStmt:
		p.expr(s.Cond)
		p.stmt(s.Then)
	case *ast.TryStmt:
		p.block(s.Body)
		for _, c := range s.Clauses {
			p.block(c.Body)
		}
		p.block(s.Otherwise)
		p.block(s.Finally)
	case *ast.DescribeStmt:
		p.block(s.Body)
	case *ast.HookStmt:
		p.block(s.Body)
	case *ast.TestStmt:
		p.block(s.Body)
	case *ast.AddStmt:
		p.expr(s.Value)
		p.markIdent(s.List)
	case *ast.RemoveStmt:
		p.expr(s.Value)
		p.markIdent(s.List)
	case *ast.ClearStmt:
		p.markIdent(s.List)
	case *ast.PushStmt:
		p.expr(s.List)
		p.expr(s.Value)
	case *ast.RespondStmt:
		p.expr(s.Request)
		p.expr(s.Content)
		p.expr(s.Status)
		p.expr(s.ContentType)
		p.expr(s.Headers)
	case *ast.ListenStmt:
		p.expr(s.Port)
	case *ast.WaitRequestStmt:
		p.expr(s.Server)
		p.markIdent(s.Name)
		p.expr(s.Timeout)
	case *ast.StopAcceptingStmt:
		p.expr(s.Server)
	case *ast.WebSocketHandlerStmt:
		p.expr(s.Server)
		p.block(s.Body)
	case *ast.WebSocketSendStmt:
		p.expr(s.Message)
		p.expr(s.Target)
	case *ast.FlushStmt:
		p.expr(s.Target)
	case *ast.HTTPStmt:
		if s.Kind == ast.HTTPStream {
			p.expr(s.URL)
			p.expr(s.Method)
			p.expr(s.Headers)
			p.expr(s.Body)
		}
	case *ast.WaitNextStmt:
		p.expr(s.Source)
	case *ast.StartStreamStmt:
		p.expr(s.Request)
		p.expr(s.Status)
		p.expr(s.ContentType)
		p.expr(s.Headers)
	}
}

func (p *unusedPass) expr(e ast.Expr) {
	switch e := e.(type) {
	case *ast.Ident:
		if e.Name != "count" && e.Name != "loopcounter" {
			p.mark(e.Name)
		}
	case *ast.ListLit:
		for _, x := range e.Elems {
			p.expr(x)
		}
	case *ast.ParenExpr:
		p.expr(e.X)
	case *ast.BinaryExpr:
		p.expr(e.X)
		p.expr(e.Y)
	case *ast.BetweenExpr:
		p.expr(e.X)
		p.expr(e.Lo)
		p.expr(e.Hi)
	case *ast.UnaryExpr:
		p.expr(e.X)
	case *ast.CallExpr:
		p.expr(e.Fun)
		for _, a := range e.Args {
			p.expr(a.Value)
		}
	case *ast.ActionCallExpr:
		p.markIdent(e.Name)
		for _, a := range e.Args {
			p.markIdent(a.Name)
			p.expr(a.Value)
		}
	case *ast.IndexExpr:
		p.expr(e.X)
		p.expr(e.Index)
	case *ast.ConcatExpr:
		p.expr(e.X)
		p.expr(e.Y)
	case *ast.MatchesExpr:
		p.expr(e.X)
		p.expr(e.Pattern)
	case *ast.FindExpr:
		p.expr(e.Text)
		p.expr(e.Pattern)
	case *ast.SplitExpr:
		p.expr(e.Text)
		p.expr(e.Delim)
	case *ast.ReplaceExpr:
		p.expr(e.Text)
		p.expr(e.Pattern)
		p.expr(e.Replacement)
	}
}

// ---- unreachable code ----

// unreachable flags top-level statements after a top-level return, as the
// reference's crude top-level control-flow graph does.
func unreachable(f *ast.File) []diag.Diagnostic {
	var out []diag.Diagnostic
	dead := false
	for _, s := range f.Stmts {
		if dead {
			sp := token.Span{Start: s.Pos(), End: s.End()}
			if _, ok := s.(*ast.IfStmt); ok {
				out = append(out, warning(sp, "ANALYZE-DEADBRANCH", "Unreachable branch", diag.Unnecessary))
			} else {
				out = append(out, warning(sp, "ANALYZE-UNREACHABLE", "Unreachable code", diag.Unnecessary))
			}
		}
		if _, ok := s.(*ast.ReturnStmt); ok {
			dead = true
		}
	}
	return out
}

// ---- shadowing ----

func shadowing(f *ast.File) []diag.Diagnostic {
	var out []diag.Diagnostic
	var walk func(list []ast.Stmt, cur map[string]bool, parents []map[string]bool)
	child := func(b *ast.Block, cur map[string]bool, parents []map[string]bool) {
		if b == nil {
			return
		}
		// The child walk never writes to cur, so no snapshot is needed.
		np := append(parents[:len(parents):len(parents)], cur)
		walk(b.Stmts, map[string]bool{}, np)
	}
	walk = func(list []ast.Stmt, cur map[string]bool, parents []map[string]bool) {
		for _, s := range list {
			switch s := s.(type) {
			case *ast.VarDecl:
				if s.Name == nil {
					continue
				}
				n := s.Name.Name
				sp := token.Span{Start: s.Name.Pos(), End: s.Name.End()}
				for _, p := range parents {
					if p[n] {
						out = append(out, warning(sp, "ANALYZE-SHADOW", "Variable '"+n+"' shadows another variable with the same name"))
						break
					}
				}
				if cur[n] {
					out = append(out, warning(sp, "ANALYZE-SHADOW", "Variable '"+n+"' shadows another variable with the same name"))
				}
				cur[n] = true
			case *ast.ActionDecl:
				scope := map[string]bool{}
				for _, p := range s.Params {
					scope[nameOf(p.Name)] = true
				}
				np := append(parents[:len(parents):len(parents)], cur)
				if s.Body != nil {
					walk(s.Body.Stmts, scope, np)
				}
			case *ast.IfStmt:
				child(s.Then, cur, parents)
				switch e := s.Else.(type) {
				case *ast.Block:
					child(e, cur, parents)
				case *ast.IfStmt:
					child(&ast.Block{Range: e.Range, Stmts: []ast.Stmt{e}}, cur, parents)
				}
			case *ast.ForEachStmt:
				child(s.Body, cur, parents)
			case *ast.CountStmt:
				child(s.Body, cur, parents)
			}
		}
	}
	walk(f.Stmts, map[string]bool{}, nil)
	return out
}

// ---- inconsistent returns ----

func inconsistentReturns(f *ast.File) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, s := range f.Stmts {
		d, ok := s.(*ast.ActionDecl)
		if !ok || d.ReturnType == nil || d.Body == nil || typeFromExpr(d.ReturnType).String() == "Nothing" {
			continue
		}
		has := false
		if all := allPathsReturn(d.Body.Stmts, &has); has && !all {
			name := nameOf(d.Name)
			out = append(out, warning(token.Span{Start: d.End(), End: d.End()}, "ANALYZE-RETURN", "Action '"+name+"' has inconsistent return paths"))
		}
	}
	return out
}

func allPathsReturn(list []ast.Stmt, has *bool) bool {
	if len(list) == 0 {
		return false
	}
	for i, s := range list {
		switch s := s.(type) {
		case *ast.ReturnStmt:
			*has = true
			return i == len(list)-1
		case *ast.IfStmt:
			t := allPathsReturn(blockStmts(s.Then), has)
			e := false
			switch x := s.Else.(type) {
			case *ast.Block:
				e = allPathsReturn(x.Stmts, has)
			case *ast.IfStmt:
				e = allPathsReturn([]ast.Stmt{x}, has)
			}
			if t && e && i == len(list)-1 {
				return true
			}
		}
	}
	return false
}

func blockStmts(b *ast.Block) []ast.Stmt {
	if b == nil {
		return nil
	}
	return b.Stmts
}

// ---- insecure seeding ----

var securityBuiltins = map[string]bool{
	"hash_password": true, "verify_password": true, "argon2_hash": true, "argon2_verify": true,
	"bcrypt_hash": true, "bcrypt_verify": true, "scrypt_hash": true, "scrypt_verify": true,
	"pbkdf2_hash": true, "pbkdf2_verify": true, "pbkdf2_hmac_sha256": true, "constant_time_equals": true,
	"secure_random_bytes": true, "generate_csrf_token": true, "hmac_sha256": true, "wflmac256": true,
	"seal": true, "unseal": true,
}

func insecureSeeding(f *ast.File) []diag.Diagnostic {
	type call struct {
		name string
		sp   token.Span
	}
	var calls []call
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok {
				calls = append(calls, call{id.Name, token.Span{Start: n.Pos(), End: n.End()}})
			}
		case *ast.ActionCallExpr:
			if n.Name != nil {
				calls = append(calls, call{n.Name.Name, token.Span{Start: n.Pos(), End: n.End()}})
			}
		}
		return true
	})
	sec := false
	for _, c := range calls {
		if securityBuiltins[c.name] {
			sec = true
		}
	}
	if !sec {
		return nil
	}
	var out []diag.Diagnostic
	for _, c := range calls {
		if c.name == "random_seed" {
			out = append(out, diag.Diagnostic{Span: c.sp, Severity: diag.Error, Category: diag.Semantic, Code: "ANALYZE-SECURITY",
				Message: "random_seed must not be used in authentication, session, or cryptographic code"})
		}
	}
	return out
}
