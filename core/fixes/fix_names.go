package fixes

// This file implements the quick fixes about names: a name spelled like a
// visible one, declaring a variable or creating an action that is used but
// not defined, `change` for a redeclaration, removing an unused variable,
// and renaming to snake_case.

import (
	"slices"
	"sort"
	"strconv"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/core/navigation"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/lint"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

// snakeCase renames a declared name and every reference to it, as
// navigation.Rename does: it refuses a name that would clash with another
// or mean something else somewhere, so the fix is sound as made and not
// checked again (a large file may have thousands of these).
//
// After an edit, the partial analysis that holds every place naming the
// name answers (analysisNaming) when the new name is written nowhere in
// the file (names are told apart by case): then nothing it could clash
// with lies outside that analysis. A member's rename reads every container of the
// file, and an included file's names are read with the whole file: the
// full analysis answers those.
func (fx *fixer) snakeCase(d diag.Diagnostic) []Fix {
	a := fx.analysisNaming(d.Span.Start)
	if a.Partial() {
		id := identAt(a.File, d.Span)
		if id == nil || strings.Contains(fx.src, lint.SnakeCase(id.Name)) || a.PartialIncludes() ||
			a.Info.ObjectOf(id) != nil && a.Info.ObjectOf(id).Parent != nil {
			a = fx.analysis()
		}
	}
	id := identAt(a.File, d.Span)
	if id == nil || a.Info.ObjectOf(id) == nil {
		return nil
	}
	newName := lint.SnakeCase(id.Name)
	if !validName(newName) || declared(a, newName) {
		return nil
	}
	edits, err := navigation.Rename(a, id.From, newName)
	if err != nil || len(edits) == 0 {
		return nil
	}
	slices.Reverse(edits) // last first
	return []Fix{{Title: "Rename '" + id.Name + "' to '" + newName + "' everywhere", Kind: SnakeCase, Diagnostic: d,
		Edits: edits, Preferred: true, sound: true}}
}

// validName reports whether name lexes as one identifier.
func validName(name string) bool {
	toks := lexer.Lex(name).Tokens
	return len(toks) == 1 && toks[0].Kind == token.Identifier && toks[0].Start == 0 && toks[0].End == len(name) && toks[0].Text == name
}

// declared reports whether any symbol of a's file has this name.
func declared(a *core.Analysis, name string) bool {
	for _, s := range a.Info.Symbols {
		if s.Name == name {
			return true
		}
	}
	return a.Info.Global != nil && a.Info.Global.Lookup(name) != nil
}

// identAt returns the identifier whose extent is exactly span, or nil.
func identAt(f *ast.File, span token.Span) *ast.Ident {
	return firstMeeting(f, span, func(id *ast.Ident) bool { return id.From == span.Start && id.To == span.End })
}

// firstMeeting returns the first node of f of type T, in the order
// ast.Inspect visits them, among those that meet span (touching it counts),
// that match accepts; nil when there is none.
func firstMeeting[T ast.Node](f *ast.File, span token.Span, match func(T) bool) T {
	var found T
	if f == nil {
		return found
	}
	done := false
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil || done || n.End() < span.Start || n.Pos() > span.End {
			return false
		}
		if t, ok := n.(T); ok && match(t) {
			found, done = t, true
			return false
		}
		return true
	})
	return found
}

// identNamed returns the first identifier called name inside span, or nil.
func identNamed(f *ast.File, span token.Span, name string) *ast.Ident {
	var found *ast.Ident
	if f == nil {
		return nil
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil || found != nil || n.End() <= span.Start || n.Pos() >= span.End {
			return false
		}
		if id, ok := n.(*ast.Ident); ok && id.Name == name && id.From >= span.Start && id.To <= span.End {
			found = id
			return false
		}
		return true
	})
	return found
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// enclosingStmt returns the innermost statement that holds offset and is
// directly in a statement list (the file or a block).
func enclosingStmt(a *core.Analysis, offset int) ast.Stmt {
	var found ast.Stmt
	var visit func(list []ast.Stmt)
	visit = func(list []ast.Stmt) {
		for _, st := range list {
			if st.Pos() <= offset && offset < st.End() {
				found = st
				ast.Inspect(st, func(n ast.Node) bool {
					if n == nil || n.End() <= offset || n.Pos() > offset {
						return false
					}
					if b, ok := n.(*ast.Block); ok {
						visit(b.Stmts)
						return false
					}
					return true
				})
				return
			}
		}
	}
	if a.File != nil {
		visit(a.File.Stmts)
	}
	return found
}

// undefined offers, for a name that is not defined: the visible names
// spelled alike; when the name's first words are a visible name, the
// operator its last words misspell (`i mod 2` merges into the name
// `i mod`: `i modulo 2`); else declaring it before the statement that uses
// it; and for a call, creating the action it names.
func (fx *fixer) undefined(d diag.Diagnostic) []Fix {
	a := fx.analysisAt(d.Span)
	id := identAt(a.File, d.Span)
	if id == nil {
		// "Undefined action 'x'" spans the whole call: find the name in it.
		if len(d.Names) > 0 {
			id = identNamed(a.File, d.Span, d.Names[0])
		}
	}
	if id == nil {
		return nil
	}
	var out []Fix
	for _, c := range closeNames(a, id) {
		out = append(out, Fix{
			Title:      "Change '" + id.Name + "' to '" + c.name + "'",
			Kind:       DidYouMean,
			Diagnostic: d,
			Edits:      []core.Edit{{Start: id.From, End: id.To, Text: c.name}},
			dist:       c.dist,
		})
	}
	if op := fx.operatorWords(a, d, id); op != nil {
		// A misspelled operator, not a name to declare.
		out = append(out, op...)
		sort.SliceStable(out, func(i, j int) bool { return out[i].dist < out[j].dist })
		return out
	}
	args, call := callOf(a, id)
	if call {
		out = append(out, fx.createAction(a, d, id, args)...)
	} else if d.Kind.UndefinedVariable() && !keywordName(id.Name) {
		if st := enclosingStmt(a, id.From); st != nil {
			ls := fx.lines.LineStart(fx.lines.Line(st.Pos()))
			indent := fx.src[ls:st.Pos()]
			if strings.Trim(indent, " \t") == "" {
				out = append(out, Fix{
					Title:      "Declare '" + id.Name + "' before its use",
					Kind:       Declare,
					Diagnostic: d,
					Edits:      []core.Edit{{Start: ls, End: ls, Text: indent + "store " + id.Name + " as " + initialValue(st, id.Name) + core.LineBreak(fx.src)}},
				})
			}
		}
	}
	return out
}

// initialValue returns the value a variable declared before st, the
// statement that uses it, starts with: the empty value of the type its
// first use in st asks for, where one does (`[]` for the list of `for each
// … in name`, `push with name`, `length of name`; `""`, `0` and `no` for
// a builtin's text, number and truth argument), so that declaring it adds
// no type error there; else `nothing`. It reads st alone, which every
// analysis that answers at the use holds, partial or full.
func initialValue(st ast.Stmt, name string) string {
	named := func(e ast.Expr) bool {
		id, ok := e.(*ast.Ident)
		return ok && id.Name == name
	}
	// The type a builtin's argument at position i has in its first
	// signature, the one the checker tries first.
	argOf := func(fun string, args []*ast.Arg) string {
		b := builtins.Lookup(fun)
		if b == nil || len(b.Signatures) == 0 {
			return ""
		}
		for i, arg := range args {
			if arg.Name != nil || !named(arg.Value) {
				continue
			}
			if ps := b.Signatures[0].Params; i < len(ps) {
				return emptyOf(ps[i].Type)
			}
		}
		return ""
	}
	value := ""
	ast.Inspect(st, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.ForEachStmt:
			if named(n.Coll) {
				value = "[]"
			}
		case *ast.PushStmt:
			if named(n.List) {
				value = "[]"
			}
		case *ast.CallExpr:
			if fun, ok := n.Fun.(*ast.Ident); ok {
				value = argOf(fun.Name, n.Args)
			}
		case *ast.ActionCallExpr:
			if n.Legacy {
				value = argOf(n.Name.Name, n.Args)
			}
		}
		return value == "" && n != nil
	})
	if value == "" {
		return "nothing"
	}
	return value
}

// emptyOf returns the literal of an empty or zero value of t's kind, or ""
// for a kind without one.
func emptyOf(t *types.Type) string {
	if t == nil {
		return ""
	}
	switch t.Kind {
	case types.KList:
		return "[]"
	case types.KText:
		return `""`
	case types.KNumber:
		return "0"
	case types.KBoolean:
		return "no"
	}
	return ""
}

// keywordName reports whether a name begins with a keyword: used where a
// name is undefined, it is a statement missing a word (`gve back x` leaves
// `back x`) rather than a variable to declare.
func keywordName(name string) bool {
	first, _, _ := strings.Cut(name, " ")
	return token.Lookup(first) != token.Identifier
}

// A closeName is a name spelled like an undefined one.
type closeName struct {
	name string
	dist int // edit distance, ignoring letter case
}

// maxCloseNames bounds the names spelled alike that are tried; Fixes keeps
// the ones that work, nearest first.
const maxCloseNames = 6

// closeNames returns the names visible at id, nearest in spelling first,
// within an edit distance of a third of the name's length (at least one,
// at most three). Where id is called, only actions and builtins.
func closeNames(a *core.Analysis, id *ast.Ident) []closeName {
	limit := min(max(len(id.Name)/3, 1), 3)
	_, called := callOf(a, id)
	seen := map[string]bool{}
	var cands []closeName
	consider := func(name string, callable bool) {
		if seen[name] || name == id.Name {
			return
		}
		seen[name] = true
		if called && !callable {
			return
		}
		if dist := editDistance(strings.ToLower(name), strings.ToLower(id.Name)); dist <= limit {
			cands = append(cands, closeName{name, dist})
		}
	}
	all := func(string, *check.Symbol) bool { return true }
	for sc := a.Info.ScopeAt(id.From); sc != nil; sc = sc.Parent {
		for name, s := range a.TableNames(sc, false, all) {
			sym := s.Sym
			later := sym.Decl != (token.Span{}) && s.Decl().Start > id.From
			if later && (sc != a.Info.Global || sym.Kind == check.SymVariable || sym.Kind == check.SymConstant) {
				seen[name] = true
				continue // declared after the use: WFL requires declaration before use
			}
			consider(name, sym.IsCallable())
		}
		// The names the runtime binds here, and those of included files.
		for name, s := range a.TableNames(sc, true, all) {
			consider(name, s.Sym.IsCallable())
		}
	}
	for _, name := range builtins.Names() { // builtin functions are in no scope
		consider(name, true)
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].dist != cands[j].dist {
			return cands[i].dist < cands[j].dist
		}
		return cands[i].name < cands[j].name
	})
	return cands[:min(len(cands), maxCloseNames)]
}

// operators are the words that continue an expression after an operand,
// with the spellings users try for them.
var operators = []string{"plus", "minus", "times", "divided by", "modulo", "is", "and", "or", "with", "contains", "of", "at", "matches"}

var operatorAliases = map[string]string{
	"mod": "modulo", "mul": "times", "multiplied": "times", "div": "divided by", "divided": "divided by",
	"add": "plus", "equals": "is", "equal": "is", "concat": "with",
}

// operatorWords handles an undefined multi-word name whose first words are
// a visible name: the lexer merged an operand and a word that is no
// operator (`i mod 2` reads the name `i mod`). It offers the operators that
// word misspells, and it returns non-nil (perhaps empty) to say that the
// name is no name to declare.
func (fx *fixer) operatorWords(a *core.Analysis, d diag.Diagnostic, id *ast.Ident) []Fix {
	words, starts := identWords(fx.src, id)
	for k := len(words) - 1; k >= 1; k-- {
		if !visible(a, strings.Join(words[:k], " "), id.From) {
			continue
		}
		rest := strings.ToLower(strings.Join(words[k:], " "))
		from := starts[k]
		out := []Fix{}
		seen := map[string]bool{}
		add := func(op string, dist int) {
			if seen[op] {
				return
			}
			seen[op] = true
			out = append(out, Fix{
				Title:      "Change '" + fx.src[from:id.To] + "' to '" + op + "'",
				Kind:       DidYouMean,
				Diagnostic: d,
				Edits:      []core.Edit{{Start: from, End: id.To, Text: op}},
				dist:       dist,
			})
		}
		if op, ok := operatorAliases[rest]; ok {
			add(op, 1)
		}
		limit := max(len(rest)/3, 1)
		for _, op := range operators {
			if dist := editDistance(rest, op); dist <= limit {
				add(op, dist)
			} else if len(rest) >= 3 && strings.HasPrefix(op, rest) {
				add(op, len(op)-len(rest))
			}
		}
		return out
	}
	return nil
}

// identWords returns the words of an identifier as written and the offset
// of each.
func identWords(src string, id *ast.Ident) (words []string, starts []int) {
	text := src[id.From:id.To]
	for i := 0; i < len(text); {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		j := i
		for j < len(text) && text[j] != ' ' && text[j] != '\t' {
			j++
		}
		if j > i {
			words, starts = append(words, text[i:j]), append(starts, id.From+i)
		}
		i = j
	}
	return words, starts
}

// visible reports whether name denotes something at offset that a
// program may read there: a symbol declared before it (or an action of the
// file), an included file's, a predeclared name or a builtin.
func visible(a *core.Analysis, name string, offset int) bool {
	if builtins.Lookup(name) != nil {
		return true
	}
	sym := a.Info.ScopeAt(offset).Resolve(name)
	// An included file's name is bound before the file's first statement;
	// its Decl is a span of that file, not comparable with offset.
	return sym != nil && (sym.From() != "" || sym.Decl == (token.Span{}) || sym.Decl.Start < offset || sym.Kind == check.SymAction)
}

// callOf returns the arguments of the call id names (`call id with …` or
// `id of …`), and whether id is called at all.
func callOf(a *core.Analysis, id *ast.Ident) ([]*ast.Arg, bool) {
	var args []*ast.Arg
	found := false
	ast.Inspect(a.File, func(n ast.Node) bool {
		if n == nil || found || n.End() < id.From || n.Pos() > id.To {
			return false
		}
		switch n := n.(type) {
		case *ast.ActionCallExpr:
			if n.Name == id {
				args, found = n.Args, true
			}
		case *ast.CallExpr:
			if n.Fun == ast.Expr(id) {
				args, found = n.Args, true
			}
		}
		return !found
	})
	return args, found
}

// createAction defines the action an undefined call names, before the
// top-level statement that holds the call (top-level actions are visible
// in the whole file), with a parameter per argument: named as the argument
// when it is a name the program defines (or a named argument), else
// param1, param2, …
func (fx *fixer) createAction(a *core.Analysis, d diag.Diagnostic, id *ast.Ident, args []*ast.Arg) []Fix {
	if !validName(id.Name) || a.File == nil {
		return nil
	}
	var top ast.Stmt
	for _, st := range a.File.Stmts {
		if st.Pos() <= id.From && id.To <= st.End() {
			top = st
		}
	}
	if top == nil {
		return nil
	}
	var params []string
	used := map[string]bool{id.Name: true}
	for i, arg := range args {
		name := ""
		switch {
		case arg.Name != nil:
			name = arg.Name.Name
		default:
			if v, ok := arg.Value.(*ast.Ident); ok && a.Info.Uses[v] != nil && a.Info.Uses[v].Kind != check.SymBuiltin {
				name = v.Name
			}
		}
		if name == "" || used[name] || !validName(name) {
			name = "param" + strconv.Itoa(i+1)
		}
		used[name] = true
		params = append(params, name)
	}
	brk := core.LineBreak(fx.src)
	var b strings.Builder
	b.WriteString("define action called " + id.Name)
	if len(params) > 0 {
		b.WriteString(" with parameters " + strings.Join(params, " and "))
	}
	b.WriteString(":" + brk + fx.indentUnit() + "// TODO: what " + id.Name + " does" + brk + "end action" + brk + brk)
	at := fx.lines.LineStart(fx.commentsAbove(fx.lines.Line(top.Pos())))
	return []Fix{{
		Title:      "Create the action '" + id.Name + "'",
		Kind:       CreateAction,
		Diagnostic: d,
		Edits:      []core.Edit{{Start: at, End: at, Text: b.String()}},
		Preferred:  true,
	}}
}

// commentsAbove returns the first of the comment lines directly above a
// line (the comments that document its statement), or the line itself.
func (fx *fixer) commentsAbove(line int) int {
	lines := fx.lines
	for line > 0 {
		prev := strings.TrimSpace(fx.src[lines.LineStart(line-1):lines.LineEnd(line-1)])
		if !strings.HasPrefix(prev, "//") && !strings.HasPrefix(prev, "#") {
			break
		}
		line--
	}
	return line
}

// storeToChange turns a redeclaration into the assignment its message
// suggests: `store x as 2` -> `change x to 2`.
func (fx *fixer) storeToChange(d diag.Diagnostic) []Fix {
	decl := varDeclNamed(fx.tree(), d.Span)
	if decl == nil || decl.Constant || decl.Value == nil {
		return nil
	}
	kw := "store"
	if decl.Create {
		kw = "create"
	}
	if !strings.HasPrefix(fx.src[decl.Pos():], kw) {
		return nil
	}
	as := -1
	for _, t := range lexer.Lex(fx.src[decl.Name.To:decl.Value.Pos()]).Tokens {
		if t.Kind == token.KeywordAs {
			as = decl.Name.To + t.Start
			break
		}
	}
	if as < 0 {
		return nil
	}
	return []Fix{{
		Title:      "Change '" + decl.Name.Name + "' instead of declaring it again",
		Kind:       StoreToChange,
		Diagnostic: d,
		Edits: []core.Edit{
			{Start: as, End: as + len("as"), Text: "to"},
			{Start: decl.Pos(), End: decl.Pos() + len(kw), Text: "change"},
		},
		Preferred: true,
	}}
}

// varDeclNamed returns the `store`/`create` statement of f whose name
// spans span, or nil.
func varDeclNamed(f *ast.File, span token.Span) *ast.VarDecl {
	return firstMeeting(f, span, func(v *ast.VarDecl) bool {
		return v.Name != nil && v.Name.From == span.Start && v.Name.To == span.End
	})
}

// removeUnused deletes the declaration of an unused variable: only a
// `store` statement alone on its lines, whose value has no effect (see
// [pure]), of a name declared once and read nowhere.
func (fx *fixer) removeUnused(d diag.Diagnostic) []Fix {
	a := fx.analysisNaming(d.Span.Start)
	decl := varDeclNamed(a.File, d.Span)
	if decl == nil || decl.Value == nil || !pure(a, decl.Value) {
		return nil
	}
	name := decl.Name.Name
	for id := range a.Info.Uses {
		if id.Name == name {
			return nil
		}
	}
	for id := range a.Info.Defs {
		if id.Name == name && id != decl.Name {
			return nil
		}
	}
	lines := fx.lines
	first, last := lines.Line(decl.Pos()), lines.Line(max(decl.End()-1, decl.Pos()))
	start, end := lines.LineStart(first), lines.LineEnd(last)
	if strings.TrimSpace(fx.src[start:decl.Pos()]) != "" {
		return nil
	}
	if after := strings.TrimSpace(fx.src[decl.End():end]); after != "" && !strings.HasPrefix(after, "//") && !strings.HasPrefix(after, "#") {
		return nil
	}
	if last+1 < lines.Count() {
		end = lines.LineStart(last + 1)
	} else if first > 0 {
		start = lines.LineEnd(first - 1) // the last line: remove the break before it
	}
	return []Fix{{
		Title:      "Remove the unused variable '" + name + "'",
		Kind:       RemoveUnused,
		Diagnostic: d,
		Edits:      []core.Edit{{Start: start, End: end}},
	}}
}

// pure reports whether evaluating e can have no effect and cannot fail: a
// literal, a name of a value (not an action or builtin, which a bare name
// calls), and operators over those, dividing only by a number other than 0.
func pure(a *core.Analysis, e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit, *ast.PatternLit:
		return true
	case *ast.Ident:
		sym := a.Info.Uses[e]
		if sym == nil {
			return false
		}
		switch sym.Kind {
		case check.SymVariable, check.SymConstant, check.SymParameter, check.SymPredeclared, check.SymImplicit:
			return true
		}
		return false
	case *ast.ParenExpr:
		return pure(a, e.X)
	case *ast.UnaryExpr:
		return pure(a, e.X)
	case *ast.ListLit:
		for _, x := range e.Elems {
			if !pure(a, x) {
				return false
			}
		}
		return true
	case *ast.ConcatExpr:
		return pure(a, e.X) && pure(a, e.Y)
	case *ast.BinaryExpr:
		if e.Op == ast.OpDivide || e.Op == ast.OpModulo {
			lit, ok := e.Y.(*ast.BasicLit)
			if !ok || (lit.Kind != ast.LitInt && lit.Kind != ast.LitFloat) || strings.Trim(lit.Value, "0.") == "" {
				return false
			}
		}
		return pure(a, e.X) && pure(a, e.Y)
	}
	return false
}
