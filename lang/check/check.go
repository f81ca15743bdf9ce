// Package check resolves names and checks types in a parsed WFL program, as
// the reference WFL analyzer and type checker do.
//
// [Check] runs three passes over an *ast.File and returns an [Info] and the
// diagnostics the reference would report:
//
//  1. the analyzer (analyzer.go): scopes, declarations, define-before-use,
//     redeclaration, constness, call arity and overloads. Its findings have
//     category Semantic and code ANALYZE-SEMANTIC.
//  2. the static pass (static.go): unused variables, unreachable code,
//     inconsistent returns, insecure RNG seeding (ANALYZE-*). The reference
//     runs it only when the analyzer found no error, and so does Check.
//  3. the type checker (typecheck.go): flow-sensitive variable types and the
//     typing rules; category Type, codes TYPE-*. Its diagnostics are returned
//     only when the analyzer found no error (the reference does not run it
//     otherwise), but it always runs so that Info.TypeOf answers.
//
// Everything Check learns about names is kept in side tables (Info.Defs,
// Info.Uses, Info.TypeOf) keyed by AST node, and in the tree of scopes
// under Info.Global, never in the syntax tree.
// The passes never fail and accept partial trees with Bad nodes, so hover and
// definition work on programs with parse errors; callers that want the
// reference's behaviour drop Check's diagnostics when parsing failed.
package check

import (
	"iter"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

// SymbolKind says what a name denotes.
type SymbolKind uint8

const (
	SymVariable    SymbolKind = iota + 1 // store/create NAME, create list/map/date NAME, open … as NAME, …
	SymConstant                          // store new constant NAME
	SymParameter                         // an action, method or event parameter
	SymAction                            // define action called NAME (all overloads share one symbol)
	SymContainer                         // create container NAME
	SymInterface                         // create interface NAME
	SymProperty                          // property NAME inside a container
	SymMethod                            // action NAME inside a container
	SymEvent                             // event NAME
	SymPattern                           // create pattern NAME
	SymBuiltin                           // a builtin function (Builtin is set)
	SymPredeclared                       // yes, no, newline, tab, args, loop, …
	SymImplicit                          // injected bindings: count loop variable, for-each item, error, request fields, …
	SymCapture                           // capture { … } as NAME inside a pattern definition
	SymSignal                            // a signal name of `register signal handler for NAME`
	SymType                              // a type name WFL defines: Number, Text, list, Request, …
	SymField                             // a member of a value without declared members: a map key, or a member of a value whose type is only known at run time
)

var symbolKindNames = [...]string{
	SymVariable: "variable", SymConstant: "constant", SymParameter: "parameter",
	SymAction: "action", SymContainer: "container", SymInterface: "interface",
	SymProperty: "property", SymMethod: "method", SymEvent: "event", SymPattern: "pattern",
	SymBuiltin: "builtin", SymPredeclared: "predeclared", SymImplicit: "implicit",
	SymCapture: "capture", SymSignal: "signal", SymType: "type", SymField: "field",
}

func (k SymbolKind) String() string {
	if k > 0 && int(k) < len(symbolKindNames) {
		return symbolKindNames[k]
	}
	return "?"
}

// A Symbol is one declared name. The fields few symbols have (a doc
// comment, a container's members and parent, the file an included symbol
// comes from, ...) are behind methods, in one struct allocated only for the
// symbols that have one: an open document keeps a symbol for each name it
// declares, most of them variables.
type Symbol struct {
	Name     string
	Kind     SymbolKind
	Mutable  bool        // `change NAME to …` is allowed
	Constant bool        // declared with `store new constant`
	Decl     token.Span  // the declaring name in the source; zero for predeclared names and builtins
	Node     ast.Node    // the declaring node (*ast.VarDecl, *ast.ActionDecl, *ast.Param, …), or nil
	Type     *types.Type // declared or first inferred type; Unknown when nothing is known
	Parent   *Symbol     // properties, methods and container events: the container; interface actions: the interface; captures: the pattern; fields: the map, or nil

	// actions: see [Symbol.Actions]; behind a pointer, as most symbols
	// are not actions and every symbol would pay for the slice.
	actions *[]*ast.ActionDecl

	ext *symbolExt // nil while every field of it is zero
}

// symbolExt holds the fields of a [Symbol] that few symbols set. A copy of
// a symbol (an included one, a branch's merged one) shares it until one of
// them sets a field: the setters replace it (see own).
type symbolExt struct {
	doc     string
	builtin *builtins.Builtin
	nested  []*ast.ActionDecl
	members map[string]*Symbol
	extends string
	base    *Symbol
	from    string
}

// own gives s a symbolExt of its own, a copy of the one it had, to set a
// field of.
func (s *Symbol) own() *symbolExt {
	e := new(symbolExt)
	if s.ext != nil {
		*e = *s.ext
	}
	s.ext = e
	return e
}

// Doc returns the doc comment above the declaration, without markers, or "".
func (s *Symbol) Doc() string {
	if s.ext == nil {
		return ""
	}
	return s.ext.doc
}

func (s *Symbol) setDoc(doc string) {
	if doc != "" || s.ext != nil {
		s.own().doc = doc
	}
}

// Builtin returns a builtin's description, or nil.
func (s *Symbol) Builtin() *builtins.Builtin {
	if s.ext == nil {
		return nil
	}
	return s.ext.builtin
}

// Members returns, for containers and interfaces, the properties, methods,
// events and required actions by name (own members only); for maps made by
// `create map`, their keys; else nil.
func (s *Symbol) Members() map[string]*Symbol {
	if s.ext == nil {
		return nil
	}
	return s.ext.members
}

// SetMembers sets the map Members returns.
func (s *Symbol) SetMembers(m map[string]*Symbol) { s.own().members = m }

// Extends returns, for a container, the name of the container it extends,
// or "".
func (s *Symbol) Extends() string {
	if s.ext == nil {
		return ""
	}
	return s.ext.extends
}

// Base returns, for a container, the symbol of the container it extends
// once known, or nil.
func (s *Symbol) Base() *Symbol {
	if s.ext == nil {
		return nil
	}
	return s.ext.base
}

// SetBase sets the symbol Base returns.
func (s *Symbol) SetBase(b *Symbol) { s.own().base = b }

// From returns the path of the file an included symbol is declared in, ""
// for the file checked; an included symbol's Decl is a span of that file
// (see Context.Imports).
func (s *Symbol) From() string {
	if s.ext == nil {
		return ""
	}
	return s.ext.from
}

// SetFrom sets the path From returns.
func (s *Symbol) SetFrom(path string) { s.own().from = path }

// Versions returns every definition of an action: the checked ones, then
// the versions defined in nested blocks.
func (s *Symbol) Versions() []*ast.ActionDecl {
	acts := s.Actions()
	if len(s.Nested()) == 0 {
		return acts
	}
	return append(slices.Clip(acts), s.Nested()...)
}

// Actions returns, for an action, the definitions with its name that calls
// are checked against, in declaration order (overloads); for a method, its
// one definition; else nil.
func (s *Symbol) Actions() []*ast.ActionDecl {
	if s.actions == nil {
		return nil
	}
	return *s.actions
}

// addAction adds a definition to an action's (a new slice each time: a copy
// of the symbol, a branch's merged one, must not see it).
func (s *Symbol) addAction(d *ast.ActionDecl) {
	acts := append(slices.Clip(s.Actions()), d)
	s.actions = &acts
}

// Nested returns the versions of an action defined in a nested block while
// the action is visible from an outer scope: they extend it at run time (a
// call dispatches among every version), but the reference does not check
// calls against them. See [Symbol.Versions].
func (s *Symbol) Nested() []*ast.ActionDecl {
	if s.ext == nil {
		return nil
	}
	return s.ext.nested
}

// Member returns the member name of a container, its own or inherited
// (following Base), or nil.
func (s *Symbol) Member(name string) *Symbol {
	for c, n := s, 0; c != nil && n < maxBases; c, n = c.Base(), n+1 {
		if m := c.Members()[name]; m != nil {
			return m
		}
	}
	return nil
}

// IsCallable reports whether the symbol is an action, method or builtin.
func (s *Symbol) IsCallable() bool {
	return s.Kind == SymAction || s.Kind == SymMethod || s.Kind == SymBuiltin
}

// Info holds what checking learned, in side tables keyed by AST node.
type Info struct {
	Defs       map[*ast.Ident]*Symbol // declaring identifiers
	Uses       map[*ast.Ident]*Symbol // referring identifiers
	Global     *Scope                 // the file scope; its parent is the universe of predeclared names
	Symbols    []*Symbol              // every symbol declared in the file, in declaration order
	Containers map[string]*Symbol     // containers by name

	fields map[fieldKey]*Symbol // see analyzer.field

	// The types of checked expressions (see TypeOf): typeMap for small
	// files, else the compact types.
	typeMap map[ast.Expr]*types.Type
	types   typeTable
	index   *identIndex

	retyped []retype // see Retyped
}

// A retype is a top-level statement, by position, and a variable it
// retypes (see Info.Retyped).
type retype struct {
	pos int32
	sym *Symbol
}

// Retyped calls f with the position of each top-level statement that
// changes what the statements after it see of a variable it does not
// declare, and the variable's name: the variable's type in the flow of
// types (a write of another type, an add to a list of another element
// type, a test against nothing that narrows it for good), or whether it
// holds an action value. A write that leaves the type as it was, the most
// common one (`change total to total plus 1`), changes nothing; nor do the
// writes inside an action's body, which are checked apart. A statement may
// be reported more than once, and one that changes something only on the
// way back to what was is reported too. Incremental analysis uses it:
// the statements that write a variable without retyping it need not be
// checked again when another writer of it changes.
func (info *Info) Retyped(f func(pos int, name string)) {
	for _, r := range info.retyped {
		f(int(r.pos), r.sym.Name)
	}
}

type fieldKey struct {
	owner *Symbol
	name  string
}

// field returns the field name of owner (nil: of a value whose type is only
// known at run time), making it on first use.
func (info *Info) field(owner *Symbol, name string) *Symbol {
	k := fieldKey{owner, name}
	if f := info.fields[k]; f != nil {
		return f
	}
	if info.fields == nil {
		info.fields = map[fieldKey]*Symbol{}
	}
	f := &Symbol{Name: name, Kind: SymField, Parent: owner, Type: types.Unknown}
	if owner != nil && owner.Kind == SymBuiltin {
		f.Kind = SymParameter // a named argument of a builtin
	}
	info.fields[k] = f
	return f
}

// ObjectOf returns the symbol id declares or refers to, or nil.
func (info *Info) ObjectOf(id *ast.Ident) *Symbol {
	if s := info.Defs[id]; s != nil {
		return s
	}
	return info.Uses[id]
}

// TypeOf returns the type of e, or nil when e was not checked.
func (info *Info) TypeOf(e ast.Expr) *types.Type {
	if info.typeMap != nil {
		return info.typeMap[e]
	}
	return info.types.get(e, info.usual)
}

// usual is the usualFunc of the file's type table: an operator's usual
// type (operatorType), and a name's symbol's type when it is known. (A
// symbol's type only changes while it is Unknown, from the first type
// the type checker infers, so the answer does not change later.)
func (info *Info) usual(e ast.Expr) (*types.Type, int) {
	id, ok := e.(*ast.Ident)
	if !ok {
		return operatorType(e)
	}
	if id == nil {
		return nil, 0
	}
	if sym := info.ObjectOf(id); sym != nil && sym.Type != nil && sym.Type.Kind != types.KUnknown && id.From >= 0 {
		return sym.Type, id.From
	}
	return nil, 0
}

// Typed iterates over every checked expression and its type, in no
// particular order; in all but small files, without the literals of their
// kind's type, the operator expressions of their operator's usual type
// (Number for arithmetic, Boolean for comparisons and logic, Text for
// `with`) and the names of their symbol's type: TypeOf answers them.
func (info *Info) Typed() iter.Seq2[ast.Expr, *types.Type] {
	if info.typeMap != nil {
		return maps.All(info.typeMap)
	}
	return info.types.all
}

// ScopeAt returns the innermost scope containing offset.
func (info *Info) ScopeAt(offset int) *Scope { return info.Global.Innermost(offset) }

// References returns every identifier that declares or refers to sym, sorted
// by position.
func (info *Info) References(sym *Symbol) []*ast.Ident {
	var out []*ast.Ident
	for id, s := range info.Defs {
		if s == sym {
			out = append(out, id)
		}
	}
	for id, s := range info.Uses {
		if s == sym {
			out = append(out, id)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Pos() < out[j].Pos() })
	return out
}

// Check analyzes f, the tree of src. It never fails; the Info is never nil.
func Check(f *ast.File, src string) (*Info, []diag.Diagnostic) {
	info, p := check(f, src, FileContext(f), unlessErr)
	return info, p.Diagnostics()
}

// A Context is what checking some of a file's top-level statements needs to
// know about the whole file: the reference's analyzer looks at every
// top-level statement before it starts. [FileContext] computes it.
type Context struct {
	// ParamWords holds the words of the parameters of every top-level
	// action, and a few fixed words: an undefined name that is one of them
	// is not reported (the reference CLI's final filter).
	ParamWords map[string]bool
	Includes   bool // the file has an `include from` statement
	Loads      bool // the file has a `load module` statement

	// Imports are the top-level symbols of the files the file includes
	// (directly or through the files they include), each with From set.
	// A name the file does not bind resolves to them; the checks the
	// reference makes stay as they are (it does not read included files),
	// and the type checker gives them no type.
	Imports []*Symbol

	// Unfollowed says, by the path as written in an `include from`
	// statement, why that include could not be followed (the file is
	// missing or unreadable, or the includes go round in a cycle); the
	// statement gets a diagnostic saying so.
	Unfollowed map[string]Unfollowed

	// Line, when set, returns the 1-based line of an offset of the checked
	// source, for the messages that name a line; by default lines are
	// counted in the source given to CheckPasses.
	Line func(offset int) int

	// Done, when it is closed, stops the passes at the next statement
	// they come to, at any depth: the caller gave up on their result (a
	// request cancelled or out of time), which is then incomplete and
	// must be dropped. Nil never stops them.
	Done <-chan struct{}
}

// stopped reports whether ctx.Done is closed.
func (ctx *Context) stopped() bool {
	select {
	case <-ctx.Done:
		return true
	default:
		return false
	}
}

// Unfollowed is why an include could not be followed, or what is wrong
// with what it leads to.
type Unfollowed struct {
	Why   string
	Cycle bool // the includes lead back to the file: `wfl` fails there when it runs
	// Broken: a file the include leads to was read but does not parse,
	// so that `wfl` stops there when it runs the program; Why is then the
	// whole message.
	Broken bool
	// Missing: the file the include names does not exist (its path may be
	// misspelled).
	Missing bool
}

// FileContext returns the context of f's own statements.
func FileContext(f *ast.File) *Context {
	ctx := NewContext(nil, false, false)
	for _, s := range f.Stmts {
		switch s := s.(type) {
		case *ast.LoadStmt:
			ctx.Includes = ctx.Includes || s.Include
			ctx.Loads = ctx.Loads || !s.Include
		case *ast.ActionDecl:
			// The words go straight into the set (a file's actions
			// repeat a few parameter names).
			for _, p := range s.Params {
				if p.Name != nil {
					for w := range strings.FieldsSeq(p.Name.Name) {
						ctx.ParamWords[w] = true
					}
				}
			}
		}
	}
	return ctx
}

// NewContext returns the context of a file whose top-level actions have
// parameters of the given words (see [ParamWords]) and which has `include
// from` or `load module` statements or not.
func NewContext(paramWords []string, includes, loads bool) *Context {
	ctx := &Context{ParamWords: map[string]bool{}, Includes: includes, Loads: loads} // few distinct words
	for _, w := range paramWords {
		ctx.ParamWords[w] = true
	}
	for _, w := range fixedParamWords {
		ctx.ParamWords[w] = true
	}
	return ctx
}

// ParamWords returns the words of d's parameter names, as they go into
// [Context.ParamWords] when d is a top-level action.
func ParamWords(d *ast.ActionDecl) []string { return appendParamWords(nil, d) }

func appendParamWords(out []string, d *ast.ActionDecl) []string {
	for _, p := range d.Params {
		if p.Name != nil {
			for w := range strings.FieldsSeq(p.Name.Name) {
				out = append(out, w)
			}
		}
	}
	return out
}

// fixedParamWords are always in the reference's filter.
var fixedParamWords = []string{"count", "loopcounter", "helper_function", "nested_function", "y"}

// Passes are the diagnostics of the three passes (see the package comment),
// each list as Check reports it when the passes before it found no error.
type Passes struct {
	Analyzer []diag.Diagnostic // warnings, then errors
	Static   []diag.Diagnostic
	Type     []diag.Diagnostic
	// Retold are the analyzer's warnings that the type checker's errors
	// say again on the same spans (see oneFindingPerFact): left out of
	// Analyzer, and shown by Diagnostics only when it holds the type
	// checker's findings back, so that the fact is never lost.
	Retold []diag.Diagnostic
}

// Diagnostics combines the passes as the reference does: the static pass's
// findings only after an analysis without errors, the type checker's only
// when neither found one.
func (p Passes) Diagnostics() []diag.Diagnostic {
	out := p.Analyzer
	if hasError(p.Analyzer) {
		return slices.Concat(p.Retold, out)
	}
	if StaticHeld(p.Analyzer) {
		return append(out[:len(out):len(out)], p.Type...)
	}
	out = append(out[:len(out):len(out)], p.Static...)
	if hasError(p.Static) {
		return slices.Concat(p.Retold, out)
	}
	return append(out, p.Type...)
}

// StaticHeld reports whether the analyzer's findings ds hold the static
// pass's back, as the reference's command does: an error it dropped, about
// a word of a top-level action's parameters (diag.UndefinedParamWord).
func StaticHeld(ds []diag.Diagnostic) bool {
	return slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Kind == diag.UndefinedParamWord })
}

func hasError(ds []diag.Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}

// CheckPasses analyzes f, some or all of the top-level statements of a file
// whose context is ctx, and returns the diagnostics of every pass, whether
// or not an earlier pass found errors; [Passes.Diagnostics] combines them
// as Check does.
func CheckPasses(f *ast.File, src string, ctx *Context) (*Info, Passes) {
	return check(f, src, ctx, always)
}

// Resolve is CheckPasses without the static pass, whose findings are about
// the whole file: what a query about some of its statements needs (their
// names and types), and the findings of the analyzer and the type checker.
func Resolve(f *ast.File, src string, ctx *Context) (*Info, Passes) {
	return check(f, src, ctx, never)
}

// When check runs the static pass.
type staticMode uint8

const (
	always    staticMode = iota
	unlessErr            // not when the analyzer found an error (Check drops its findings then)
	never
)

// check runs the passes, the static one as static says.
func check(f *ast.File, src string, ctx *Context, static staticMode) (*Info, Passes) {
	if f == nil {
		f = &ast.File{}
	}
	// Sizes measured on the corpus: one typed expression per ~30 bytes of
	// source, one use per ~100, one definition per ~200.
	n := len(src)
	info := &Info{
		Defs:       make(map[*ast.Ident]*Symbol, n/200+4),
		Uses:       make(map[*ast.Ident]*Symbol, n/100+4),
		Containers: map[string]*Symbol{},
		index:      &identIndex{},
	}
	a := newAnalyzer(f, src, info, ctx)
	a.run()
	tc := newTypeChecker(a)
	tc.run()
	p := Passes{Analyzer: a.diags}
	if tc.types != nil {
		info.typeMap = tc.types
	} else {
		info.types = newTypeTable(tc.recs, info.usual)
	}
	tc.types, tc.recs = nil, nil
	if (static == always || static == unlessErr && !hasError(a.diags) && !StaticHeld(a.diags)) && !ctx.stopped() {
		p.Static = staticDiagnostics(f, src, info)
	}
	p.Type = tc.diags
	p.Analyzer, p.Retold = oneFindingPerFact(p.Analyzer, a.typeFacts, p.Type)
	return info, p
}

// oneFindingPerFact splits the analyzer's findings ds into those kept and
// the warnings that the type checker's errors typ say again on the same
// spans (facts holds the spans of the analyzer's findings that it may say
// again): the type checker's say more (the types found). It goes by span,
// so a statement checked alone (core's incremental diagnostics) splits as
// in its whole file.
func oneFindingPerFact(ds []diag.Diagnostic, facts map[token.Span]bool, typ []diag.Diagnostic) (kept, retold []diag.Diagnostic) {
	if len(facts) == 0 {
		return ds, nil
	}
	said := map[token.Span]bool{}
	for _, d := range typ {
		if d.Severity == diag.Error && facts[d.Span] {
			said[d.Span] = true
		}
	}
	if len(said) == 0 {
		return ds, nil
	}
	kept = make([]diag.Diagnostic, 0, len(ds))
	for _, d := range ds {
		if d.Severity == diag.Warning && said[d.Span] {
			retold = append(retold, d)
		} else {
			kept = append(kept, d)
		}
	}
	return kept, retold
}

// compactMin is the size of source from which the types of a checked file
// are kept in a typeTable rather than in the type checker's map.
const compactMin = 16 << 10

// identIndex is the identifiers of Defs and Uses sorted by position, built
// on first use by IdentAt.
type identIndex struct {
	once sync.Once
	ids  []*ast.Ident
}

// IdentAt returns the declaring or referring identifier whose extent
// contains offset (a cursor just after an identifier counts), and its
// symbol; nil if there is none. It is safe for concurrent use.
func (info *Info) IdentAt(offset int) (*ast.Ident, *Symbol) {
	if info.index == nil {
		return nil, nil
	}
	x := info.index
	x.once.Do(func() {
		x.ids = make([]*ast.Ident, 0, len(info.Defs)+len(info.Uses))
		for id := range info.Defs {
			x.ids = append(x.ids, id)
		}
		for id := range info.Uses {
			if info.Defs[id] == nil {
				x.ids = append(x.ids, id)
			}
		}
		sort.Slice(x.ids, func(i, j int) bool { return x.ids[i].Pos() < x.ids[j].Pos() })
	})
	// The last identifier starting at or before offset.
	i := sort.Search(len(x.ids), func(i int) bool { return x.ids[i].Pos() > offset }) - 1
	if i < 0 {
		return nil, nil
	}
	id := x.ids[i]
	if offset > id.End() {
		return nil, nil
	}
	return id, info.ObjectOf(id)
}

// VisibleAt returns the symbols visible at offset, as completion offers
// them: names declared before offset in the enclosing scopes (inner names
// hide outer ones), every action of the file scope (actions may be called
// before their definition), and the predeclared names; sorted by name.
// Builtins are not included (see lang/builtins).
func (info *Info) VisibleAt(offset int) []*Symbol {
	seen := map[string]bool{}
	var out []*Symbol
	for s := info.ScopeAt(offset); s != nil; s = s.Parent {
		for name, sym := range s.Symbols.All() {
			if seen[name] {
				continue
			}
			visible := sym.Decl == (token.Span{}) || sym.Decl.Start < offset ||
				(sym.Kind == SymAction && s == info.Global)
			if visible {
				seen[name] = true
				out = append(out, sym)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
