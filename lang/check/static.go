package check

// This file is the static pass the reference runs only when its analysis
// found no error: unused variables, unreachable top-level
// code, shadowing, inconsistent returns and insecure RNG seeding. The rules
// are deliberately as crude as the reference's (name-based, whole-file) so
// that warnings agree with it.

import (
	"iter"
	"maps"
	"slices"
	"sort"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

func staticDiagnostics(f *ast.File, src string, info *Info) []diag.Diagnostic {
	var out []diag.Diagnostic
	out = append(out, unusedVariables(f, src, info)...)
	out = append(out, unreachable(f, src)...)
	out = append(out, shadowing(f)...)
	out = append(out, inconsistentReturns(f)...)
	if strings.Contains(src, "random_seed") {
		out = append(out, insecureSeeding(f)...)
	}
	return out
}

// named returns d about names (the names its message quotes).
func named(d diag.Diagnostic, names ...string) diag.Diagnostic {
	d.Names = names
	return d
}

func warning(sp token.Span, code, msg string, tags ...diag.Tag) diag.Diagnostic {
	d := diag.Diagnostic{Span: sp, Severity: diag.Warning, Category: diag.Semantic, Code: code, Message: msg}
	for _, t := range tags {
		d.Tags |= t
	}
	return d
}

// ---- unused variables ----

// The reference's rule (ANALYZE-UNUSED, "Unused variable 'x'"): a variable declared
// by `store` or `create pattern`, in the blocks it looks into, that no
// statement reads, by name across the whole file. The reads are those the
// resolver recorded (Info.Uses), a write counting as a read as in the
// reference, except in the places its walk does not look into (blindSpans:
// the statements and expressions it has no case for, such as `create file`,
// `expect`, a property read `x.name` or `file exists at`), and the reads of
// the names `count` and `loopcounter` but as an operand of `with` or an
// argument of an action call. A read there does not count, so that the
// warnings stay the reference's; the warning points at it instead.

// usage is one name the rule checks: its last declaration.
type usage struct {
	name string
	span token.Span
	used bool // declared by something that counts as a use (a parameter)
	read bool // read where the rule counts reads
}

// A declSet holds the names the rule checks, in a list indexed by name (a
// read marks its entry without writing to the map).
type declSet struct {
	index map[string]int
	list  []usage
}

// set makes u the usage of name.
func (d *declSet) set(name string, u usage) {
	u.name = name
	if i, ok := d.index[name]; ok {
		d.list[i] = u
		return
	}
	if d.index == nil {
		d.index = map[string]int{}
	}
	d.index[name] = len(d.list)
	d.list = append(d.list, u)
}

func isDBQuery(e ast.Expr) bool {
	_, ok := e.(*ast.DatabaseQueryExpr)
	return ok
}

func unusedVariables(f *ast.File, src string, info *Info) []diag.Diagnostic {
	var declared declSet
	for _, s := range f.Stmts {
		collectDecls(s, &declared)
	}
	if len(declared.list) == 0 {
		return nil
	}
	// The places the reference does not look into, and the reads of
	// `count` it counts, found when a read asks.
	var blind []blindSpan
	var direct map[int]bool
	walked := false
	// The reads in the places the reference does not look at, of the
	// names not read elsewhere (so far: a name read elsewhere is not
	// reported, and its list is never looked at), with what each place is.
	var uncounted map[string][]blindSpan
	// The reads: the names resolved, then, while a name is not read,
	// those that resolve to nothing (the reference's rule goes by name:
	// `display x` above `store x`, where only a warning says x is not
	// defined there, reads it).
	for id := range allReads(f, info, func() bool {
		return slices.ContainsFunc(declared.list, func(u usage) bool { return !u.used && !u.read })
	}) {
		i, ok := declared.index[id.Name]
		if !ok {
			continue
		}
		u := &declared.list[i]
		if u.used || u.read || info.Defs[id] != nil {
			continue
		}
		if !walked {
			_, counted := declared.index["count"]
			_, looped := declared.index["loopcounter"]
			blind, direct = blindSpans(f, counted || looped)
			walked = true
		}
		what := blindAt(blind, id.Pos())
		if what == "" && (id.Name == "count" || id.Name == "loopcounter") && !direct[id.Pos()] {
			what = "of a variable named " + id.Name + " but as an operand of `with` or an argument of `call`"
		}
		if what != "" {
			if uncounted == nil {
				uncounted = map[string][]blindSpan{}
			}
			uncounted[id.Name] = append(uncounted[id.Name], blindSpan{token.Span{Start: id.Pos(), End: id.End()}, what})
			continue
		}
		u.read = true
	}
	var names []usage
	for _, u := range declared.list {
		if !u.used && !u.read && u.name != "y" {
			names = append(names, u)
		}
	}
	// Distinct names are declared at distinct places.
	slices.SortFunc(names, func(a, b usage) int { return a.span.Start - b.span.Start })
	var out []diag.Diagnostic
	for _, nu := range names {
		n := nu.name
		d := warning(nu.span, diag.AnalyzeUnused, "Unused variable '"+n+"'", diag.Unnecessary)
		d.Kind, d.Names = diag.Unused, []string{n}
		if reads := uncounted[n]; len(reads) > 0 {
			sort.Slice(reads, func(i, j int) bool { return reads[i].Start < reads[j].Start })
			d.Tags = 0 // it is read: not greyed out
			// The reference's warning, told for what it is: the
			// variable is read where its rule does not look.
			var where []string
			for _, r := range reads {
				if !slices.Contains(where, r.what) {
					where = append(where, r.what)
				}
				d.Related = append(d.Related, diag.Related{Span: r.Span, Message: "read here, where WFL's unused-variable check does not count reads"})
			}
			d.Message += " as WFL reports it, though it is read: WFL's check does not count reads " + strings.Join(where, ", nor ")
		}
		out = append(out, d)
	}
	return out
}

// allReads yields the identifiers info.Uses resolves, then, when more
// says more are wanted, those of f that neither it nor info.Defs resolves.
func allReads(f *ast.File, info *Info, more func() bool) iter.Seq[*ast.Ident] {
	return func(yield func(*ast.Ident) bool) {
		for id := range info.Uses {
			if !yield(id) {
				return
			}
		}
		if !more() {
			return
		}
		on := true
		ast.Inspect(f, func(x ast.Node) bool {
			if id, ok := x.(*ast.Ident); ok && on && info.Uses[id] == nil && info.Defs[id] == nil {
				on = yield(id)
			}
			return on
		})
	}
}

// collectDecls records into the names the rule checks what s declares:
// `store` (not a database query) and `create pattern`, in the blocks the
// reference looks into. An action's parameters count as used names of its
// body, and the body's names replace outer ones of the same name.
func collectDecls(s ast.Stmt, into *declSet) {
	ast.Inspect(s, declCollector{into}.visit)
}

// declCollector is collectDecls' visitor (of ast.Inspect, whose function
// does not escape: the sets stay on the stack): it names the statements
// whose blocks the rule looks into, and the walker finds their blocks.
type declCollector struct{ into *declSet }

func (c declCollector) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.Block, *ast.IfStmt, *ast.SingleIfStmt, *ast.RouteStmt, *ast.RouteArm,
		*ast.ForEachStmt, *ast.CountStmt, *ast.MainLoopStmt, *ast.TransactionStmt,
		*ast.DescribeStmt, *ast.HookStmt, *ast.TestStmt:
		return true
	case *ast.RepeatStmt:
		return n.Kind == ast.RepeatForever
	case *ast.TryStmt:
		// The body, the handlers, then otherwise and finally, in that
		// order whatever the text's: the last declaration of a name is
		// the one reported.
		c.blocks(n.Body)
		for _, cl := range n.Clauses {
			c.blocks(cl.Body)
		}
		c.blocks(n.Otherwise, n.Finally)
	case *ast.VarDecl:
		if !isDBQuery(n.Value) {
			c.declare(n.Name)
		}
	case *ast.PatternDecl:
		c.declare(n.Name)
	case *ast.ActionDecl:
		// The parameters, then the body's names, each replacing the one
		// of its name before: set straight into the names around, in the
		// order a set of the action's own merged into them would set
		// them (merging made actions nested thousands deep copy the
		// names of all those inside each, the square of the depth).
		for _, prm := range n.Params {
			if prm.Name != nil {
				for w := range strings.FieldsSeq(prm.Name.Name) {
					c.into.set(w, usage{used: true})
				}
			}
		}
		c.blocks(n.Body)
	}
	return false
}

// blocks walks the blocks bs (nil where absent).
func (c declCollector) blocks(bs ...*ast.Block) {
	for _, b := range bs {
		if b != nil {
			ast.Inspect(b, c.visit)
		}
	}
}

func (c declCollector) declare(id *ast.Ident) {
	if id != nil {
		c.into.set(id.Name, usage{span: token.Span{Start: id.Pos(), End: id.End()}})
	}
}

// A blindSpan is a place whose reads the reference's rule does not count,
// and what it is, for the warning ("in `create file` statements").
type blindSpan struct {
	token.Span
	what string
}

// blindAt returns what the place of blind that holds off is, or "" when
// none does. The places do not overlap: the walk stops at each.
func blindAt(blind []blindSpan, off int) string {
	i := sort.Search(len(blind), func(i int) bool { return blind[i].End > off })
	if i < len(blind) && blind[i].Start <= off {
		return blind[i].what
	}
	return ""
}

// blindSpans returns the places whose reads the reference's rule does not
// count, in the order of the text: the statements and
// expressions its walk has no case for (it stops there), and the
// certificate, key and redirect port of `listen`. With reads, direct holds
// the offsets of the names the walk reads as they stand, whatever their
// name: an operand of `with` and an argument of an action call (`count` is
// read there).
func blindSpans(f *ast.File, reads bool) (blind []blindSpan, direct map[int]bool) {
	add := func(n ast.Node, what string) {
		if n != nil {
			blind = append(blind, blindSpan{token.Span{Start: n.Pos(), End: n.End()}, what})
		}
	}
	ident := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if direct == nil {
				direct = map[int]bool{}
			}
			direct[id.Pos()] = true
		}
	}
	var query ast.Expr // the query of a `store … as` one: the reference's statement, which it reads
	ast.Inspect(f, func(n ast.Node) bool {
		if what := blindWhat(n); what != "" && n != query {
			add(n, what)
			return false
		}
		switch n := n.(type) {
		case *ast.VarDecl:
			if isDBQuery(n.Value) {
				query = n.Value
			}
		case *ast.ListenStmt:
			for _, e := range []ast.Expr{n.Cert, n.Key, n.Redirect} {
				if e != nil {
					add(e, "in a `listen` statement's certificate, key and redirect port")
				}
			}
		case *ast.ConcatExpr:
			if reads {
				ident(n.X)
				ident(n.Y)
			}
		case *ast.ActionCallExpr:
			if reads {
				for _, a := range n.Args {
					if a != nil {
						ident(a.Value)
					}
				}
			}
		}
		return true
	})
	return blind, direct
}

// blindWhat says what n is when the reference's unused-variable rule does
// not look into it, or returns "": the statements and expressions its
// walk has no case for.
func blindWhat(n ast.Node) string {
	switch n := n.(type) {
	case *ast.ExpectStmt:
		return "in `expect` statements"
	case *ast.ExportStmt:
		return "in `export` statements"
	case *ast.HeaderExpr:
		return "in `header … of` expressions"
	case *ast.PropertyExpr:
		return "in property reads (`x.name`)"
	case *ast.MethodCallExpr:
		return "in method calls (`x.name()`)"
	case *ast.StaticMemberExpr:
		return "in member reads after a keyword (`error.message`)"
	case *ast.FileExistsExpr, *ast.FileSizeExpr, *ast.ListFilesExpr, *ast.ReadContentExpr:
		return "in the file expressions (`file exists at`, `size of file at`, `list files in`, `read content from`)"
	case *ast.ProcessRunningExpr:
		return "in `process … is running` expressions"
	case *ast.DatabaseQueryExpr:
		return "in database queries"
	case *ast.CreateDirStmt, *ast.CreateFileStmt, *ast.DeleteStmt:
		return "in the statements that create and delete files and directories"
	case *ast.LoadStmt:
		return "in `load module` and `include` statements"
	case *ast.ExecCommandStmt, *ast.ReadOutputStmt, *ast.KillStmt, *ast.WaitProcessStmt:
		return "in the statements that run commands and processes"
	case *ast.WaitDurationStmt:
		return "in `wait for … seconds` statements"
	case *ast.HTTPStmt:
		if n.Kind != ast.HTTPStream {
			return "in `open url` statements"
		}
	case *ast.CreateListStmt, *ast.CreateMapStmt, *ast.CreateDateStmt:
		return "in `create list`, `create map`, `create date` and `create time` statements"
	case *ast.ContainerDecl, *ast.InterfaceDecl, *ast.EventDecl:
		return "in container and interface definitions"
	case *ast.NewStmt:
		return "in `create new` statements"
	case *ast.TriggerStmt, *ast.OnEventStmt:
		return "in `trigger` and `on` statements"
	case *ast.ParentCallStmt:
		return "in `parent` calls"
	case *ast.PatternDecl:
		return "in pattern definitions"
	case *ast.SignalStmt:
		return "in signal handler registrations"
	}
	return ""
}

// ---- unreachable code ----

// unreachable flags top-level statements after a top-level return, as the
// reference's crude top-level control-flow graph does: a check as a dead
// branch, with each statement of its branches as unreachable code, and
// each statement where the reference places it (reportedAt).
func unreachable(f *ast.File, src string) []diag.Diagnostic {
	var out []diag.Diagnostic
	code := func(s ast.Stmt) {
		d := warning(reportedAt(src, s), diag.AnalyzeUnreachable, "Unreachable code", diag.Unnecessary)
		if d.Span.Start != s.Pos() {
			d.Related = []diag.Related{{Span: token.Span{Start: s.Pos(), End: s.End()}, Message: "the statement never run, which ends here"}}
		}
		out = append(out, d)
	}
	dead := false
	for _, s := range f.Stmts {
		if dead {
			if is, ok := s.(*ast.IfStmt); ok {
				out = append(out, warning(token.Span{Start: s.Pos(), End: s.End()}, diag.AnalyzeDeadBranch, "Unreachable branch", diag.Unnecessary))
				var branches []ast.Stmt
				if is.Then != nil {
					branches = is.Then.Stmts
				}
				switch e := is.Else.(type) {
				case *ast.Block:
					if e != nil {
						branches = append(slices.Clip(branches), e.Stmts...)
					}
				case ast.Stmt:
					branches = append(slices.Clip(branches), e) // `otherwise check if`, the otherwise branch's statement
				}
				for _, x := range branches {
					code(x)
				}
			} else {
				code(s)
			}
		}
		if _, ok := s.(*ast.ReturnStmt); ok {
			dead = true
		}
	}
	return out
}

// reportedAt returns where the reference reports a finding about statement
// s: a count or for-each loop and an action on their closer's line (which
// the reference takes for the statement's), any other statement where it
// starts.
func reportedAt(src string, s ast.Stmt) token.Span {
	sp := token.Span{Start: s.Pos(), End: s.End()}
	switch s.(type) {
	case *ast.CountStmt, *ast.ForEachStmt, *ast.ActionDecl:
		if from := closerAt(src, sp.End, sp.Start); from >= 0 {
			sp.Start = from
		}
	}
	return sp
}

// ---- shadowing ----

func shadowing(f *ast.File) []diag.Diagnostic {
	var sh shadower
	sh.walk(f.Stmts, nil)
	return sh.out
}

// shadower walks the blocks the shadowing rule looks into. parents holds
// the names declared in the enclosing blocks (a nil map for a block that
// had declared none when the walk went deeper); a child walk never writes
// to them.
type shadower struct {
	out     []diag.Diagnostic
	parents []map[string]bool
}

// walk walks list, whose block has declared the names of cur so far (nil:
// none).
func (sh *shadower) walk(list []ast.Stmt, cur map[string]bool) {
	for _, s := range list {
		switch s := s.(type) {
		case *ast.VarDecl:
			if s.Name == nil {
				continue
			}
			n := s.Name.Name
			sp := token.Span{Start: s.Name.Pos(), End: s.Name.End()}
			for _, p := range sh.parents {
				if p[n] {
					sh.out = append(sh.out, named(warning(sp, diag.AnalyzeShadow, "Variable '"+n+"' shadows another variable with the same name"), n))
					break
				}
			}
			if cur[n] {
				sh.out = append(sh.out, named(warning(sp, diag.AnalyzeShadow, "Variable '"+n+"' shadows another variable with the same name"), n))
			}
			if cur == nil {
				cur = map[string]bool{}
			}
			cur[n] = true
		case *ast.ActionDecl:
			var scope map[string]bool
			for _, p := range s.Params {
				if scope == nil {
					scope = map[string]bool{}
				}
				scope[nameOf(p.Name)] = true
			}
			if s.Body != nil {
				sh.child(s.Body.Stmts, scope, cur)
			}
		case *ast.IfStmt:
			sh.block(s.Then, cur)
			switch e := s.Else.(type) {
			case *ast.Block:
				sh.block(e, cur)
			case *ast.IfStmt:
				sh.child([]ast.Stmt{e}, nil, cur)
			}
		case *ast.ForEachStmt:
			sh.block(s.Body, cur)
		case *ast.CountStmt:
			sh.block(s.Body, cur)
		}
	}
}

// block walks a nested block, whose enclosing block has declared cur.
func (sh *shadower) block(b *ast.Block, cur map[string]bool) {
	if b != nil {
		sh.child(b.Stmts, nil, cur)
	}
}

// child walks list with own as its block's names so far, inside a block
// that has declared cur.
func (sh *shadower) child(list []ast.Stmt, own, cur map[string]bool) {
	sh.parents = append(sh.parents, cur)
	sh.walk(list, own)
	sh.parents = sh.parents[:len(sh.parents)-1]
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
			out = append(out, named(warning(token.Span{Start: d.End(), End: d.End()}, diag.AnalyzeReturn, "Action '"+name+"' has inconsistent return paths"), name))
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

// SecurityBuiltins lists the builtins whose calls make a file's
// `random_seed` calls errors (ANALYZE-SECURITY).
func SecurityBuiltins() []string {
	return slices.Sorted(maps.Keys(securityBuiltins))
}

// CallsSecurityBuiltin reports whether n calls one of SecurityBuiltins, as
// the rule sees a call: the findings of every `random_seed` call of a file
// depend on whether any of its statements does.
func CallsSecurityBuiltin(n ast.Node) bool {
	found := false
	eachCall(n, func(name string, _ token.Span) bool {
		found = securityBuiltins[name]
		return !found
	})
	return found
}

// eachCall calls f with the name and span of every call of a named action
// or builtin in n, until f returns false.
func eachCall(n ast.Node, f func(name string, sp token.Span) bool) {
	more := true
	ast.Inspect(n, func(n ast.Node) bool {
		if !more {
			return false
		}
		switch n := n.(type) {
		case *ast.CallExpr:
			if id, ok := n.Fun.(*ast.Ident); ok {
				more = f(id.Name, token.Span{Start: n.Pos(), End: n.End()})
			}
		case *ast.ActionCallExpr:
			if n.Name != nil {
				more = f(n.Name.Name, token.Span{Start: n.Pos(), End: n.End()})
			}
		}
		return more
	})
}

func insecureSeeding(f *ast.File) []diag.Diagnostic {
	if !CallsSecurityBuiltin(f) {
		return nil
	}
	var out []diag.Diagnostic
	eachCall(f, func(name string, sp token.Span) bool {
		if name == "random_seed" {
			out = append(out, diag.Diagnostic{Span: sp, Severity: diag.Error, Category: diag.Semantic, Code: diag.AnalyzeSecurity,
				Message: "random_seed must not be used in authentication, session, or cryptographic code"})
		}
		return true
	})
	return out
}
