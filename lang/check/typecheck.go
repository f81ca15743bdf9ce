package check

// This file is the type checker, the reference's third pass: a
// flow-sensitive walk that gives every expression a type (Info.Types) and
// reports the reference's type errors. A variable's type follows its
// writes, through each branch (joined after it; a branch that leaves adds
// nothing, a guard against nothing narrows), each loop (checked again until
// its types settle, with the paths that break out), each try (a handler
// sees any type the body gave); Nothing is a type like the others, and an
// action's result joins its returns, with Nothing when it may end without
// one. Lists several variables may share change together (aliases.go).
// Where our inference knows less than the reference's it answers Unknown,
// which is compatible with everything, so that it stays silent rather than
// invent errors.

import (
	"slices"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

// An env maps variables to their current types. Branches get a child env
// that records only what they change; joining merges those changes back.
// A branch changes few variables: the first envInline live in the env
// itself, the others in a map.
type env struct {
	parent *env
	n      int // entries used in inline
	inline [envInline]envEntry
	m      map[*Symbol]*types.Type
	log    *[]envEntry // the file's env: the types before each set, while a top-level statement is checked
	// escaped is set once every variable seen from e has escaped
	// (escapeAll); since are the variables set in e after that.
	escaped bool
	since   []*Symbol
}

type envEntry struct {
	sym *Symbol
	t   *types.Type
}

const envInline = 2

// lookup returns the type e itself holds for sym.
func (e *env) lookup(sym *Symbol) (*types.Type, bool) {
	for i := range e.n {
		if e.inline[i].sym == sym {
			return e.inline[i].t, true
		}
	}
	t, ok := e.m[sym]
	return t, ok
}

func (e *env) get(sym *Symbol) (*types.Type, bool) {
	for ; e != nil; e = e.parent {
		if t, ok := e.lookup(sym); ok {
			return t, true
		}
	}
	return nil, false
}

func (e *env) set(sym *Symbol, t *types.Type) {
	if e.log != nil {
		before, ok := e.lookup(sym)
		if !ok {
			before = sym.Type // what symType answered
			if before == nil {
				before = types.Unknown
			}
		}
		*e.log = append(*e.log, envEntry{sym, before})
	}
	if e.escaped {
		e.since = append(e.since, sym)
	}
	for i := range e.n {
		if e.inline[i].sym == sym {
			e.inline[i].t = t
			return
		}
	}
	if e.n < envInline {
		e.inline[e.n] = envEntry{sym, t}
		e.n++
		return
	}
	if e.m == nil {
		e.m = map[*Symbol]*types.Type{}
	}
	e.m[sym] = t
}

// drop removes what e itself holds for sym.
func (e *env) drop(sym *Symbol) {
	for i := range e.n {
		if e.inline[i].sym == sym {
			copy(e.inline[i:e.n], e.inline[i+1:e.n])
			e.n--
			e.inline[e.n] = envEntry{}
			return
		}
	}
	delete(e.m, sym)
}

func (e *env) child() *env { return &env{parent: e} }

type typeChecker struct {
	a     *analyzer
	info  *Info
	env   *env
	diags []diag.Diagnostic

	container    *Symbol     // container of the method being checked
	staticMethod bool        // the method being checked is static
	retType      *types.Type // declared return type of the action being checked, or nil
	inAction     bool
	returns      *[]*types.Type                  // types of the return values of the action being checked
	types        map[ast.Expr]*types.Type        // small files: the type of every checked expression (then Info)
	recs         [][]typeRec                     // other files: the types recorded, in order, in chunks (then a typeTable)
	inferred     map[*ast.ActionDecl]*types.Type // return types inferred for actions without a declared one
	errSpans     map[token.Span]bool             // where the analyzer reported errors, made by errorAt

	aliases aliases             // lists that may be shared (aliases.go)
	paths   int                 // branches and loops around the statement checked: it may not run, or run again
	filled  map[*Symbol]bool    // variables known to hold a list that is not empty (stored from a list literal with elements, untouched since)
	holds   map[*Symbol]*Symbol // variables stored from an action, and the action (aliases.go)

	// In a loop's body: the environment on entry to the loop; the types
	// where the bodies of the loops being checked break out, innermost
	// last (see loopFrom).
	loopEntry *env
	inLoop    bool
	exits     []*env

	lastValue *types.Type // the type of the last bare value statement checked (an action's implicit result)
	// completion is the completion value of the statement list checked
	// last: what an action yields when its body falls off the end (the
	// value of its last statement: see completed).
	completion *types.Type
	seen       *env                              // while a try body with handlers is checked: every type each variable set has had in it
	effects    map[*ast.ActionDecl]*actionEffect // what actions' bodies change, by action (aliases.go)

	// While the other reading of a statement read two ways is checked:
	// the leftmost name of its value and the merged name read there.
	swapLead, swapAlt *ast.Ident

	blockScopes  map[*ast.Block]*Scope // the scope each block opens, made on first use (dropLocals)
	brokenBodies map[*ast.Block]bool   // whether each action body checked holds what did not parse (broken)
	leaves       map[leaveKey]bool     // what leavesLoop found of each node
}

func newTypeChecker(a *analyzer) *typeChecker {
	tc := &typeChecker{a: a, info: a.info, env: &env{}}
	// Sizes measured on the corpus: one typed expression per ~30 bytes,
	// a third of them literals of their kind's type.
	if len(a.src) < compactMin {
		tc.types = make(map[ast.Expr]*types.Type, len(a.src)/30+8)
	} else {
		tc.recs = [][]typeRec{make([]typeRec, 0, len(a.src)/45+8)}
	}
	return tc
}

// record sets the type of e: in the map of a small file, else in the
// records a typeTable is built from, leaving out a literal of its kind's
// type (the table does not hold them, and a literal's type is the same
// each time it is checked, so leaving out one record of it never lets an
// earlier one stand).
func (tc *typeChecker) record(e ast.Expr, t *types.Type) {
	t = types.Known(t) // what the editor shows: see types.Escaped
	if tc.types != nil {
		tc.types[e] = t
		return
	}
	if literal(e, t) {
		return
	}
	c := &tc.recs[len(tc.recs)-1]
	if len(*c) == cap(*c) {
		// A new chunk rather than a grown copy: the records are read
		// once, in order.
		tc.recs = append(tc.recs, make([]typeRec, 0, max(cap(tc.recs[0])/2, 256)))
		c = &tc.recs[len(tc.recs)-1]
	}
	*c = append(*c, typeRec{e, t})
}

func (tc *typeChecker) run() {
	root := tc.env
	var log []envEntry
	for _, s := range tc.a.file.Stmts {
		if tc.a.ctx.stopped() {
			return
		}
		log = log[:0]
		root.log = &log
		tc.stmt(s)
		root.log = nil
		tc.retyped(s, log)
	}
}

// retyped notes in Info.Retyped the variables whose type in the file's env
// top-level statement s changed: log holds the type of each before each
// of the statement's sets (the first of a variable is the one before the
// statement). A variable the statement declares has no type before it.
func (tc *typeChecker) retyped(s ast.Stmt, log []envEntry) {
	var seen symSet
	for _, e := range log {
		if !seen.add(e.sym) {
			continue
		}
		now, _ := tc.env.lookup(e.sym)
		if types.Identical(e.t, now) {
			continue
		}
		if declaredIn(e.sym, s) {
			continue
		}
		tc.info.retyped = append(tc.info.retyped, retype{int32(s.Pos()), e.sym})
	}
}

// ---- diagnostics ----

// errorf reports a type error about the names the message quotes.
func (tc *typeChecker) errorf(n ast.Node, code, msg string, expected, found *types.Type, names ...string) {
	sp := token.Span{}
	if n != nil {
		sp = token.Span{Start: n.Pos(), End: n.End()}
	}
	if expected != nil && found != nil {
		msg += expectedFound(msg, expected, found)
	}
	tc.diags = append(tc.diags, diag.Diagnostic{Span: sp, Severity: diag.Error, Category: diag.Type, Code: code, Names: names, Message: msg})
}

// errorOf is errorf for a finding of kind k about names (as k documents).
func (tc *typeChecker) errorOf(n ast.Node, k diag.Kind, code, msg string, names ...string) {
	tc.errorf(n, code, msg, nil, nil, names...)
	tc.diags[len(tc.diags)-1].Kind = k
}

// expectedFound is the " - Expected X but found Y" a type error's message
// ends with, or "" when the message already says it. Two types that print
// alike are told apart: a built-in date against a container named Date.
func expectedFound(msg string, expected, found *types.Type) string {
	e, f := expected.String(), found.String()
	if e == f && !types.Identical(expected, found) {
		e, f = e+" ("+typeOrigin(expected)+")", f+" ("+typeOrigin(found)+")"
	} else if i := strings.Index(msg, "found "+f); i > 0 && strings.Contains(msg[:i], e) {
		return "" // the message says both already
	}
	return " - Expected " + e + " but found " + f
}

// typeOrigin says what kind of type t is, for types that print alike.
func typeOrigin(t *types.Type) string {
	switch t.Kind {
	case types.KDate, types.KTime, types.KDateTime:
		return "the built-in " + strings.ToLower(t.String()) + " type"
	case types.KCustom:
		return "the type named " + t.Name
	case types.KInstance:
		return "an instance of container " + t.Name
	case types.KContainer:
		return "the container " + t.Name
	case types.KInterface:
		return "the interface " + t.Name
	case types.KList, types.KMap, types.KOptional, types.KFunction:
		return "its parts differ"
	}
	return "a " + t.String()
}

// errorAfter reports at the end of loop statement s, where the reference puts
// its loop diagnostics (on its closer, `end for`, when it ends with one),
// with operand as related information.
func (tc *typeChecker) errorAfter(s ast.Node, operand ast.Node, code, msg string, expected, found *types.Type) {
	tc.errorf(nil, code, msg, expected, found)
	d := &tc.diags[len(tc.diags)-1]
	d.Span = token.Span{Start: s.End(), End: s.End()}
	if from := closerAt(tc.a.src, s.End(), operand.End()); from >= 0 {
		d.Span.Start = from
	}
	d.Related = []diag.Related{{Span: token.Span{Start: operand.Pos(), End: operand.End()}, Message: "this operand is not a " + expectedWord(expected)}}
}

// closerAt returns where the words of the last line of a statement that
// ends at end start, when they are its closer (they start with `end`) and
// start past offset after; else -1.
func closerAt(src string, end, after int) int {
	if end > len(src) {
		return -1
	}
	from := strings.LastIndexByte(src[:end], '\n') + 1
	for from < end && (src[from] == ' ' || src[from] == '\t') {
		from++
	}
	if from > after && strings.HasPrefix(src[from:end], "end") {
		return from
	}
	return -1
}

// expectedWord names what a loop's operand must be.
func expectedWord(t *types.Type) string {
	if t.Kind == types.KList {
		return "list or map"
	}
	return strings.ToLower(t.String())
}

// The type checker's names of lang/diag's Type* codes.
const (
	codeOperand   = diag.TypeOperand
	codeCall      = diag.TypeCall
	codeArity     = diag.TypeArity
	codeArgument  = diag.TypeArgument
	codeIndex     = diag.TypeIndex
	codeMember    = diag.TypeMember
	codeCondition = diag.TypeCondition
	codeAssign    = diag.TypeAssign
	codeReturn    = diag.TypeReturn
	codeStatement = diag.TypeStatement
	codeContainer = diag.TypeContainer
	codeExport    = diag.TypeExport
	codeSignal    = diag.TypeSignal
)

// ---- helpers ----

func gradual(t *types.Type) bool {
	return t == nil || t.Kind == types.KUnknown || t.Kind == types.KAny || t.Kind == types.KInvalid
}

// loose reports types our inference may hold where the reference would hold
// something more precise; the checker never reports errors about them.
func loose(t *types.Type) bool {
	return gradual(t) || t.Kind == types.KOptional || t.Kind == types.KNothing || t.Kind == types.KAsync
}

// unsure is loose but for Nothing: rules that want a value of some kind
// (a list to add to, a file to close) reject a variable known to hold
// nothing, as the reference does.
func unsure(t *types.Type) bool { return loose(t) && t.Kind != types.KNothing }

func (tc *typeChecker) symType(sym *Symbol) *types.Type {
	if t, ok := tc.env.get(sym); ok {
		return t
	}
	if sym.Type == nil {
		return types.Unknown
	}
	return sym.Type
}

func (tc *typeChecker) set(sym *Symbol, t *types.Type) {
	if sym == nil {
		return
	}
	tc.put(sym, t)
	if sym.Type == nil || sym.Type.Kind == types.KUnknown {
		if t != nil && !gradual(t) && sym.Kind != SymProperty {
			sym.Type = t
		}
	}
}

// namesUndefined reports whether e holds a name that resolves to nothing
// and that the analyzer reports as an error (not as a warning, as in a try
// body, where the reference still checks types).
func (tc *typeChecker) namesUndefined(e ast.Expr) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && tc.info.Uses[id] == nil && tc.info.Defs[id] == nil {
			found = found || tc.errorAt(token.Span{Start: id.Pos(), End: id.End()})
		}
		return !found
	})
	return found
}

// errorAt reports whether the analyzer reported an error at span sp.
func (tc *typeChecker) errorAt(sp token.Span) bool {
	if tc.errSpans == nil {
		tc.errSpans = map[token.Span]bool{}
		for _, d := range tc.a.diags {
			if d.Severity == diag.Error {
				tc.errSpans[d.Span] = true
			}
		}
	}
	return tc.errSpans[sp]
}

func (tc *typeChecker) extends(child, parent string) bool {
	for c := range tc.info.lineage(tc.info.Containers[child]) {
		if c.Name == parent {
			return true
		}
	}
	return false
}

func (tc *typeChecker) compatible(target, source *types.Type) bool {
	return types.Compatible(target, source, tc.extends)
}

// join merges into tc.env (the entry of a branching statement) the
// environments of its paths, each a child of the entry. A path that is not
// given (nil) stands for the entry itself.
func (tc *typeChecker) join(paths ...*env) {
	var seen symSet
	for _, p := range paths {
		if p == nil {
			continue
		}
		for i := range p.n {
			tc.joinSym(p.inline[i].sym, paths, &seen)
		}
		for sym := range p.m {
			tc.joinSym(sym, paths, &seen)
		}
	}
}

// joinSym sets in tc.env the type sym has on the paths, once a symbol.
func (tc *typeChecker) joinSym(sym *Symbol, paths []*env, seen *symSet) {
	if !seen.add(sym) {
		return
	}
	var t *types.Type
	for i, q := range paths {
		if q == nil {
			q = tc.env
		}
		u, _ := q.get(sym)
		if i == 0 {
			t = u
		} else {
			t = types.Join(t, u)
		}
	}
	if t != nil {
		tc.put(sym, t)
	}
}

// A symSet is a set of symbols: a list while it is short (the variables a
// branch changes are few), else a map.
type symSet struct {
	list []*Symbol
	m    map[*Symbol]bool
}

// add adds sym and reports whether it was not in the set.
func (s *symSet) add(sym *Symbol) bool {
	if s.m != nil {
		if s.m[sym] {
			return false
		}
		s.m[sym] = true
		return true
	}
	if slices.Contains(s.list, sym) {
		return false
	}
	if len(s.list) < 16 {
		s.list = append(s.list, sym)
		return true
	}
	s.m = make(map[*Symbol]bool, 2*len(s.list))
	for _, x := range s.list {
		s.m[x] = true
	}
	s.m[sym] = true
	return true
}

// branch runs f in a child of the environment and returns the child.
func (tc *typeChecker) branch(f func()) *env {
	saved := tc.env
	tc.env = saved.child()
	tc.paths++
	f()
	tc.paths--
	out := tc.env
	tc.env = saved
	return out
}

// ---- statements ----

func (tc *typeChecker) stmts(list []ast.Stmt) {
	tc.completion = types.Nothing
	for i, s := range list {
		if tc.a.ctx.stopped() {
			return
		}
		tc.stmt(s)
		tc.completion = tc.completed(s)
		if i < len(list)-1 && mayLeave(s) && leaves(s, true) {
			// What follows is never reached: checked, but what it does
			// to the types and the action's result flows nowhere.
			tc.unreached(func() { tc.stmts(list[i+1:]) })
			return
		}
	}
}

// tryState sets in a handler's environment the type sym may have where
// the try body failed: as on entry, or any the body gave it.
func (tc *typeChecker) tryState(sym *Symbol, t *types.Type) {
	if was := tc.symType(sym); !types.Identical(was, types.Join(was, t)) {
		tc.env.set(sym, types.Join(was, t))
	}
}

// put sets the type of sym in the environment, and notes it in the try
// body's being checked (see TryStmt).
func (tc *typeChecker) put(sym *Symbol, t *types.Type) {
	tc.env.set(sym, t)
	if tc.seen != nil {
		tc.saw(tc.seen, sym, t)
	}
}

// saw joins t into the types seen holds for sym.
func (tc *typeChecker) saw(seen *env, sym *Symbol, t *types.Type) {
	if was, ok := seen.lookup(sym); ok {
		t = types.Join(was, t)
	}
	seen.set(sym, t)
}

// unreached checks what f checks, code that never runs: its findings are
// reported, but it changes no type and returns nothing.
func (tc *typeChecker) unreached(f func()) {
	saved := tc.returns
	tc.returns = nil
	tc.branch(f)
	tc.returns = saved
}

// snapshot returns a child of e holding the types that the environments
// from cur up to e (not included) give, cur's first.
func snapshot(cur, e *env) *env {
	out := e.child()
	for x := cur; x != nil && x != e; x = x.parent {
		for i := range x.n {
			if _, ok := out.lookup(x.inline[i].sym); !ok {
				out.set(x.inline[i].sym, x.inline[i].t)
			}
		}
		for sym, t := range x.m {
			if _, ok := out.lookup(sym); !ok {
				out.set(sym, t)
			}
		}
	}
	return out
}

func (tc *typeChecker) block(b *ast.Block) { tc.blockThen(b, nil) }

// blockThen is block, running then (unless nil) after b's statements and
// before b's own names are dropped: a repeat-until's condition reads the
// names of its body.
func (tc *typeChecker) blockThen(b *ast.Block, then func()) {
	if b != nil {
		tc.stmts(b.Stmts)
	} else {
		tc.completion = types.Nothing
	}
	if then != nil {
		then()
	}
	if b != nil {
		tc.dropLocals(b)
	}
}

// dropLocals forgets, in the environment, the types of the variables that
// b declares for itself: no statement after b sees them (a name declared
// on every path of a branching statement is one the scope around declares
// too, and is kept). Joined into the environments around, they would make
// each block nested in another carry the names of all the blocks inside
// it, and a text nested a few thousand blocks deep cost the cube of its
// depth (TestDeepNesting). The file's environment, whose sets a log
// records, keeps them.
func (tc *typeChecker) dropLocals(b *ast.Block) {
	if tc.env.log != nil || tc.env.n == 0 && len(tc.env.m) == 0 {
		return
	}
	if tc.blockScopes == nil {
		tc.blockScopes = map[*ast.Block]*Scope{}
		var walk func(sc *Scope)
		walk = func(sc *Scope) {
			for _, c := range sc.Children {
				if blk, ok := c.Node.(*ast.Block); ok {
					tc.blockScopes[blk] = c
				}
				walk(c)
			}
		}
		if tc.info.Global != nil {
			walk(tc.info.Global)
		}
	}
	sc := tc.blockScopes[b]
	if sc == nil {
		return
	}
	for name, sym := range sc.Symbols.All() {
		if sc.Parent == nil || sc.Parent.Symbols.Get(name) != sym {
			tc.env.drop(sym)
		}
	}
}

// completed returns the completion value of s, just checked: the type of
// the value an action yields when s is the last statement it runs. A bare
// value gives its type; a check, a try and a transaction what their
// branches' last statements give (they set tc.completion as they end);
// `wait for S` what S gives; a definition the value it defines; the loops
// that run until they are left or while a test holds, and an event or an
// include, any value; every other statement nothing.
func (tc *typeChecker) completed(s ast.Stmt) *types.Type {
	switch s := s.(type) {
	case *ast.ExprStmt:
		if tc.lastValue == nil {
			return types.Unknown
		}
		return tc.lastValue
	case *ast.IfStmt, *ast.SingleIfStmt, *ast.TryStmt, *ast.TransactionStmt, *ast.Block:
		return tc.completion
	case *ast.WaitForStmt:
		if s.Inner == nil {
			return types.Nothing
		}
		return tc.completed(s.Inner)
	case *ast.ContainerDecl:
		if s.Name != nil {
			return types.NewContainer(s.Name.Name)
		}
		return types.Unknown
	case *ast.InterfaceDecl:
		if s.Name != nil {
			return types.NewInterface(s.Name.Name)
		}
		return types.Unknown
	case *ast.PatternDecl:
		return types.Pattern
	case *ast.RepeatStmt:
		switch s.Kind {
		case ast.RepeatDoUntil:
			return types.Nothing
		case ast.RepeatWhile:
			// Left when its test fails, at any iteration: any value,
			// unless the test never holds (the reference's rule).
			if b, ok := ast.Unparen(s.Cond).(*ast.BasicLit); ok && b.Kind == ast.LitBool && b.Value == "false" {
				return types.Nothing
			}
			return types.Any
		}
		return types.Unknown
	case *ast.ActionDecl, *ast.EventDecl, *ast.MainLoopStmt, *ast.LoadStmt:
		return types.Unknown
	}
	return types.Nothing
}

func (tc *typeChecker) cond(e ast.Expr, msg func(t *types.Type) string) {
	t := tc.expr(e)
	if !loose(t) && t.Kind != types.KBoolean {
		tc.errorf(e, codeCondition, msg(t), types.Boolean, t)
	}
}

func (tc *typeChecker) mustBe(e ast.Expr, want *types.Type, code, msg string) *types.Type {
	if e == nil {
		return nil
	}
	t := tc.expr(e)
	if !gradual(t) && t.Kind != types.KAsync && !types.Identical(t, want) {
		// Nothing, or a value that may be Nothing, fails too.
		tc.errorf(e, code, msg, want, t)
	}
	return t
}

func (tc *typeChecker) loop(body func()) { tc.loopFrom(false, body) }

// maxLoopRounds bounds the rounds of a loop's fixed point (a type that only
// grows reaches it in one or two).
const maxLoopRounds = 3

// loopFrom checks a loop's body where its types are those on entry joined
// with those after the body (a second round and on run on what the first
// left): the findings are those of the first round, with the entry's
// types, and those of the last, as the reference reports them (a finding
// of both, once). A loop known to run at least once (ranOnce) leaves the
// types of its body's end; else those joined with the entry's, for when
// it does not run.
func (tc *typeChecker) loopFrom(ranOnce bool, body func()) {
	nd := len(tc.diags)
	first := -1 // the end of the first round's findings, once there is another
	firstExit := len(tc.exits)
	savedEntry, savedIn := tc.loopEntry, tc.inLoop
	tc.loopEntry, tc.inLoop = tc.env, true
	out := tc.branch(body)
	var head *env
	for round := 1; round < maxLoopRounds && (out.n > 0 || out.m != nil); round++ {
		// The head of the next round: what changed, joined with the entry;
		// none when nothing did (most loops).
		changed := false
		for e := out; e != nil && e != tc.env && !changed; e = e.parent {
			for i := range e.n {
				changed = changed || tc.loopHead(nil, head, out, e.inline[i].sym)
			}
			for sym := range e.m {
				changed = changed || tc.loopHead(nil, head, out, sym)
			}
		}
		if !changed {
			break
		}
		next := tc.env.child()
		for e := out; e != nil && e != tc.env; e = e.parent {
			for i := range e.n {
				tc.loopHead(next, head, out, e.inline[i].sym)
			}
			for sym := range e.m {
				tc.loopHead(next, head, out, sym)
			}
		}
		head = next
		if first < 0 {
			first = len(tc.diags)
		}
		tc.diags = tc.diags[:first]
		tc.exits = tc.exits[:firstExit]
		saved := tc.env
		tc.env = head
		out = tc.branch(body)
		tc.env = saved
	}
	tc.loopEntry, tc.inLoop = savedEntry, savedIn
	if first >= 0 {
		tc.diags = append(tc.diags[:first], newFindings(tc.diags[nd:first], tc.diags[first:])...)
	}
	if head != nil {
		// out is a child of the last head: its types, flattened.
		out = snapshot(out, tc.env)
	}
	exits := tc.exits[firstExit:]
	switch {
	case len(exits) > 0:
		paths := append([]*env{out}, exits...)
		if !ranOnce {
			paths = append(paths, nil)
		}
		tc.join(paths...)
	case ranOnce:
		tc.join(out)
	default:
		tc.join(nil, out)
	}
	tc.exits = tc.exits[:firstExit]
	clear(tc.filled) // the body may have emptied them
}

// newFindings returns the findings of later that earlier does not hold
// (the same message at the same place), in order; it reuses later.
func newFindings(earlier, later []diag.Diagnostic) []diag.Diagnostic {
	out := later[:0]
	for _, d := range later {
		if !slices.ContainsFunc(earlier, func(e diag.Diagnostic) bool { return e.Span == d.Span && e.Message == d.Message }) {
			out = append(out, d)
		}
	}
	return out
}

// loopHead sets in next (unless nil), a loop's head for its next round,
// the type of sym on entry joined with its type after the body (out), and
// reports whether that differs from its type at the last head (the
// entry's, the first time).
func (tc *typeChecker) loopHead(next, head, out *env, sym *Symbol) bool {
	now, _ := out.get(sym)
	was, _ := tc.env.get(sym)
	if was == nil {
		was = tc.symType(sym)
	}
	if gradual(was) || now == nil || now.Kind == types.KInvalid {
		// Nothing to learn from another round: a type not known stays
		// so, and an error was reported already.
		return false
	}
	t := types.Join(was, now)
	if next != nil {
		if prev, ok := next.lookup(sym); ok {
			t = types.Join(prev, t)
		}
		next.set(sym, t)
	}
	if h, ok := head.get(sym); ok {
		return !types.Identical(t, h)
	}
	return !types.Identical(t, was)
}

// noteFilled notes whether sym, just stored from value, holds a list known
// not to be empty.
func (tc *typeChecker) noteFilled(sym *Symbol, value ast.Expr) {
	if sym == nil {
		return
	}
	if l, ok := ast.Unparen(value).(*ast.ListLit); ok && len(l.Elems) > 0 {
		if tc.filled == nil {
			tc.filled = map[*Symbol]bool{}
		}
		tc.filled[sym] = true
		return
	}
	delete(tc.filled, sym)
}

// isFilled reports whether e is a list known not to be empty: a list
// literal with elements, or a variable noteFilled knows.
func (tc *typeChecker) isFilled(e ast.Expr) bool {
	switch x := ast.Unparen(e).(type) {
	case *ast.ListLit:
		return len(x.Elems) > 0
	case *ast.Ident:
		return tc.filled[tc.info.Uses[x]]
	}
	return false
}

func (tc *typeChecker) stmt(s ast.Stmt) {
	switch s := s.(type) {
	case *ast.VarDecl:
		t := tc.expr(s.Value)
		if s.Name == nil {
			return
		}
		if sym := tc.info.Uses[s.Name]; sym != nil && sym.Kind == SymProperty {
			if !gradual(sym.Type) && !loose(t) && !tc.compatible(sym.Type, t) {
				tc.errorf(s.Name, codeAssign, "Cannot initialize property '"+sym.Name+"' with "+t.String()+" because its declared type is "+sym.Type.String(), nil, nil, sym.Name)
			} else if s.Constant {
				tc.errorf(s.Name, codeAssign, "Cannot redeclare container property '"+sym.Name+"' as a constant; the property already holds it", nil, nil, sym.Name)
			}
			return
		}
		tc.set(tc.info.Defs[s.Name], t)
		tc.record(s.Name, t)
		tc.aliasValue(tc.info.Defs[s.Name], s.Value)
		tc.noteFilled(tc.info.Defs[s.Name], s.Value)
		tc.noteHeld(tc.info.Defs[s.Name], s.Value)
	case *ast.AssignStmt:
		if s.Name == nil {
			tc.expr(s.Value)
			return
		}
		sym := tc.info.Uses[s.Name]
		var t *types.Type
		if s.Kind == ast.AssignChange {
			t = tc.expr(s.Value)
		} else {
			var old *types.Type = types.Unknown
			if sym != nil {
				old = tc.symType(sym)
			}
			op := map[ast.AssignKind]ast.BinaryOp{ast.AssignSubtract: ast.OpMinus, ast.AssignMultiply: ast.OpMultiply, ast.AssignDivide: ast.OpDivide}[s.Kind]
			t = tc.binary(s, op, old, tc.expr(s.Value))
		}
		if sym == nil || sym.Kind == SymBuiltin {
			// Changing `count` outside a loop (the only builtin the
			// analyzer lets a change name) checks no type, as in the
			// reference: no variable of that name is there to check.
			return
		}
		if sym.Kind == SymProperty {
			if !gradual(sym.Type) && !loose(t) && !tc.compatible(sym.Type, t) {
				tc.errorf(s.Name, codeAssign, "Cannot assign "+t.String()+" to property '"+sym.Name+"' declared as "+sym.Type.String(), nil, nil, sym.Name)
			}
			return
		}
		old := tc.symType(sym)
		// A stored action changed to another action is checked as any
		// value: an action of another signature does not fit (as the
		// reference's function types say), and the variable keeps its
		// type. It holds the new action all the same: calls through it
		// are checked against what it holds (see call).
		if old.Kind != types.KNothing && !loose(old) && !loose(t) && !tc.compatible(old, t) {
			tc.errorf(s, codeAssign, "Cannot assign value of incompatible type to variable '"+sym.Name+"'", old, t, sym.Name)
			if old.Kind == types.KFunction && t.Kind == types.KFunction && s.Kind == ast.AssignChange {
				tc.noteHeld(sym, s.Value)
			}
			return
		}
		if loose(t) && !loose(old) && tc.namesUndefined(s.Value) {
			// The value's type is not known because it names what is
			// not defined, an error the analyzer reports: the reference
			// checks no type then, and the variable keeps its type here,
			// as it will once the name is typed in full.
			tc.record(s.Name, old)
			return
		}
		tc.put(sym, t)
		tc.record(s.Name, t)
		if s.Kind == ast.AssignChange {
			tc.aliasValue(sym, s.Value)
			tc.noteFilled(sym, s.Value)
			tc.noteHeld(sym, s.Value)
		}
	case *ast.AddStmt:
		vt := tc.expr(s.Value)
		if s.List == nil {
			return
		}
		sym := tc.info.Uses[s.List]
		if sym == nil {
			// A name the analyzer lets pass undefined (a word of an
			// action's parameters, a name in a try's body) is no list.
			if !tc.errorAt(token.Span{Start: s.List.Pos(), End: s.List.End()}) {
				tc.errorOf(s, diag.Undefined, codeStatement, "Cannot add to non-list variable '"+s.List.Name+"'", s.List.Name)
			}
			return
		}
		if tc.propertyElement(s, s.List, vt, "Cannot add") {
			return
		}
		lt := tc.symType(sym)
		switch {
		case lt.Kind == types.KList:
			// A value naming what is not defined leaves the list's
			// type as it was (see the writes above).
			if sym.Kind != SymProperty && !(loose(vt) && tc.namesUndefined(s.Value)) {
				tc.put(sym, types.NewList(types.Join(lt.Elem, vt)))
				tc.mutatePath(aliasPath{sym, 0}, listEffect{t: vt})
			}
		case lt.Kind == types.KNumber:
			if !loose(vt) && vt.Kind != types.KNumber {
				tc.errorf(s, codeStatement, "Cannot add non-numeric value to number", types.Number, vt)
			}
		case unsure(lt):
		default:
			tc.errorf(s, codeStatement, "Cannot add to non-list variable '"+sym.Name+"'", types.NewList(types.Any), lt, sym.Name)
		}
	case *ast.RemoveStmt, *ast.ClearStmt:
		var id *ast.Ident
		verb := "remove from"
		if r, ok := s.(*ast.RemoveStmt); ok {
			tc.expr(r.Value)
			id = r.List
		} else {
			id = s.(*ast.ClearStmt).List
			verb = "clear"
		}
		if id == nil {
			return
		}
		if sym := tc.info.Uses[id]; sym != nil {
			if lt := tc.symType(sym); !unsure(lt) && lt.Kind != types.KList {
				tc.errorf(s, codeStatement, "Cannot "+verb+" non-list variable '"+sym.Name+"'", types.NewList(types.Any), lt, sym.Name)
			}
			if verb == "clear" {
				tc.cleared(sym)
			}
			delete(tc.filled, sym)
		}
	case *ast.PushStmt:
		lt := tc.expr(s.List)
		vt := tc.expr(s.Value)
		if tc.propertyElement(s, s.List, vt, "Cannot push") {
			return
		}
		tc.aliasElement(s.List, s.Value, vt)
		if !loose(lt) && lt.Kind != types.KList {
			tc.errorf(s, codeStatement, "Expected list type for push operation, got "+lt.String(), types.NewList(types.Unknown), lt)
		} else if lt.Kind == types.KList {
			if id, ok := ast.Unparen(s.List).(*ast.Ident); ok {
				if sym := tc.info.Uses[id]; sym != nil && sym.Kind != SymProperty {
					tc.put(sym, types.NewList(types.Join(lt.Elem, vt)))
				}
			}
			tc.mutate(s.List, listEffect{t: vt})
		} else {
			tc.mutate(s.List, listEffect{t: vt}) // a list of lists' element, or of a type not known
		}
	case *ast.DisplayStmt:
		for _, v := range s.Values {
			tc.expr(v)
		}
	case *ast.IfStmt:
		tc.ifStmt(s)
	case *ast.SingleIfStmt:
		tc.cond(s.Cond, func(*types.Type) string { return "Condition must be a boolean expression" })
		var then *types.Type
		tc.join(nil, tc.branch(func() {
			tc.stmt(s.Then)
			then = tc.completed(s.Then)
		}))
		tc.completion = types.Join(then, types.Nothing)
	case *ast.RouteStmt:
		subj := tc.expr(s.Subject)
		_ = subj
		var ends []*env
		for _, arm := range s.Arms {
			for _, v := range arm.Values {
				tc.expr(v)
			}
			ends = append(ends, tc.branch(func() { tc.block(arm.Body) }))
		}
		if s.Otherwise != nil {
			ends = append(ends, tc.branch(func() { tc.block(s.Otherwise) }))
		} else {
			ends = append(ends, nil)
		}
		tc.join(ends...)
	case *ast.CountStmt:
		// The reference places count-loop errors after the loop's `end count`.
		for _, x := range []struct {
			e    ast.Expr
			what string
		}{{s.From, "Start"}, {s.To, "End"}, {s.Step, "Step"}} {
			if x.e == nil {
				continue
			}
			if t := tc.expr(x.e); !loose(t) && t.Kind != types.KNumber {
				tc.errorAfter(s, x.e, codeStatement, x.what+" value in count loop must be a number", types.Number, t)
			}
		}
		tc.loop(func() { tc.block(s.Body) })
	case *ast.ForEachStmt:
		ranOnce := tc.isFilled(s.Coll)
		ct := tc.expr(s.Coll)
		item := types.Unknown
		switch {
		case ct.Kind == types.KList:
			item = ct.Elem
		case ct.Kind == types.KMap:
			item = ct.Elem
		case loose(ct):
		default:
			tc.errorAfter(s, s.Coll, codeStatement, "Collection in for-each loop must be a list or map", types.NewList(types.Unknown), ct)
		}
		tc.loopFrom(ranOnce, func() {
			if s.Var != nil {
				if sym := tc.info.Defs[s.Var]; sym != nil {
					tc.set(sym, item)
					tc.record(s.Var, item)
					if p, ok := tc.aliasPathOf(s.Coll); ok && mayBeList(item) {
						tc.aliases.assign(sym, tc.aliases.at(aliasPath{p.sym, p.depth + 1}, true), false)
					}
				}
			}
			tc.block(s.Body)
		})
	case *ast.RepeatStmt:
		switch s.Kind {
		case ast.RepeatWhile:
			tc.cond(s.Cond, func(t *types.Type) string {
				return "Expected boolean condition in repeat-while loop, got " + t.String()
			})
			tc.loop(func() { tc.block(s.Body) })
		case ast.RepeatUntil:
			// The body runs first, then the condition, in the body's
			// scope; when the body may leave the loop before its end, the
			// condition's types are not forced (what reaches it is not
			// known), so its findings are dropped.
			tc.loop(func() {
				tc.blockThen(s.Body, func() {
					nd := len(tc.diags)
					tc.cond(s.Cond, func(*types.Type) string { return "Condition in repeat-until loop must be a boolean expression" })
					if tc.exitsEarly(s.Body.Stmts, true) {
						tc.diags = tc.diags[:nd]
					}
				})
			})
		case ast.RepeatDoUntil:
			tc.blockThen(s.Body, func() {
				tc.cond(s.Cond, func(*types.Type) string { return "Condition in repeat-until loop must be a boolean expression" })
			})
		default:
			tc.loop(func() { tc.block(s.Body) })
		}
	case *ast.MainLoopStmt:
		tc.loop(func() { tc.block(s.Body) })
	case *ast.ActionDecl:
		tc.action(s)
	case *ast.ReturnStmt:
		t := tc.expr(s.Value)
		if tc.returns != nil {
			rt := t
			if s.Value == nil {
				rt = types.Nothing
			}
			*tc.returns = append(*tc.returns, rt)
		}
		if tc.inAction && tc.retType != nil && !gradual(tc.retType) && tc.retType.Kind != types.KNothing {
			valueless := s.Value == nil
			if bl, ok := s.Value.(*ast.BasicLit); ok && bl.Kind == ast.LitNothing {
				valueless = true
			}
			if valueless {
				if tc.retType.Kind != types.KOptional {
					tc.errorf(s, codeReturn, "Function must return a value", tc.retType, types.Nothing)
				}
			} else if !loose(t) && !tc.compatible(tc.retType, t) {
				tc.errorf(s, codeReturn, "Return statement has incorrect type", tc.retType, t)
			}
		}
	case *ast.TryStmt:
		nr := 0
		if tc.returns != nil {
			nr = len(*tc.returns)
		}
		// A handler runs from wherever the body failed: each variable the
		// body sets has there any type it had in the body.
		var seen *env
		savedSeen := tc.seen
		if len(s.Clauses) > 0 {
			seen = &env{}
			tc.seen = seen
		}
		body := tc.branch(func() { tc.block(s.Body) })
		var completion *types.Type
		if s.Body == nil || !blockLeaves(s.Body.Stmts, true) {
			completion = tc.completion
		}
		if seen != nil && savedSeen != nil {
			// An outer try's handlers see them too.
			for i := range seen.n {
				tc.saw(savedSeen, seen.inline[i].sym, seen.inline[i].t)
			}
			for sym, t := range seen.m {
				tc.saw(savedSeen, sym, t)
			}
		}
		tc.seen = savedSeen
		ends := []*env{nil, body}
		for _, c := range s.Clauses {
			ends = append(ends, tc.branch(func() {
				if seen != nil {
					for i := range seen.n {
						tc.tryState(seen.inline[i].sym, seen.inline[i].t)
					}
					for sym, t := range seen.m {
						tc.tryState(sym, t)
					}
				}
				tc.block(c.Body)
				if c.Body == nil || !blockLeaves(c.Body.Stmts, true) {
					completion = types.Join(completion, tc.completion)
				}
			}))
		}
		if s.Otherwise != nil {
			ends = append(ends, tc.branch(func() {
				tc.block(s.Otherwise)
				if !blockLeaves(s.Otherwise.Stmts, true) {
					completion = types.Join(completion, tc.completion)
				}
			}))
		}
		tc.join(ends...)
		if s.Finally != nil && blockLeaves(s.Finally.Stmts, false) && tc.returns != nil {
			// A finally that returns decides the result, whatever the
			// body and its handlers returned.
			*tc.returns = (*tc.returns)[:nr]
		}
		tc.block(s.Finally)
		if completion == nil {
			completion = types.Nothing
		}
		tc.completion = completion
	case *ast.CreateListStmt:
		t := tc.listOf(s.Values)
		if s.Name != nil {
			tc.set(tc.info.Defs[s.Name], t)
		}
	case *ast.CreateMapStmt:
		var vt *types.Type
		for _, e := range s.Entries {
			vt = types.Join(vt, tc.expr(e.Value))
		}
		if s.Name != nil {
			tc.set(tc.info.Defs[s.Name], types.NewMap(types.Text, types.Unknown))
		}
	case *ast.CreateDateStmt:
		t := tc.expr(s.Value)
		if s.Name != nil && s.Value != nil {
			tc.set(tc.info.Defs[s.Name], t)
		}
	case *ast.ContainerDecl:
		tc.containerDecl(s)
	case *ast.InterfaceDecl:
		for _, e := range s.Extends {
			if x := tc.a.global.Lookup(e.Name); x == nil {
				tc.errorOf(e, diag.NotFound, codeContainer, "Interface '"+e.Name+"' not found", e.Name)
			}
		}
	case *ast.NewStmt:
		tc.newStmt(s)
	case *ast.PatternDecl:
		tc.patternRefs(s, s.Body, map[string]bool{})
	case *ast.TriggerStmt:
		if s.Name != nil && tc.a.events[s.Name.Name] == nil && !tc.containerEvent(s.Name.Name) {
			tc.errorOf(s, diag.NotFound, codeContainer, "Event '"+s.Name.Name+"' not found", s.Name.Name)
		}
		tc.userCode(nil) // the handlers run, found or not, as the reference reads it
	case *ast.OnEventStmt:
		tc.expr(s.Source)
	case *ast.ParentCallStmt:
		tc.parentCall(s)
	case *ast.OpenFileStmt:
		tc.mustBe(s.Path, types.Text, codeStatement, "File path must be a text string")
	case *ast.CloseStmt:
		t := tc.expr(s.X)
		if s.Kind == ast.CloseFile && !unsure(t) && t.Kind != types.KText && !(t.Kind == types.KCustom && (t.Name == "File" || t.Name == "HttpStream" || t.Name == "ResponseStream")) {
			tc.errorf(s, codeStatement, "Expected a file or stream handle, found "+t.String(), nil, nil)
		}
	case *ast.WriteStmt:
		if s.Kind == ast.WriteLine || s.Kind == ast.WriteChunk {
			tc.streamWrite(s)
			return
		}
		ct := tc.expr(s.Content)
		tt := tc.expr(s.Target)
		file := tt.Kind == types.KText || tt.Kind == types.KCustom && tt.Name == "File" || gradual(tt)
		switch s.Kind {
		case ast.WriteContent, ast.WriteTo:
			// `write content E into T`, `write E to T`: any value, into a
			// file or a path (the reference's WriteContent and WriteTo).
			if !file {
				tc.errorf(s.Target, codeStatement, "Expected a file handle or string", types.NewCustom("File"), tt)
			}
		case ast.WriteFileContent, ast.AppendFileContent:
			// The forms of `wait for`: a text, into a file or a path.
			if !file {
				tc.errorf(s.Target, codeStatement, "Expected a file path or File handle", nil, tt)
			}
			if !loose(ct) && ct.Kind != types.KText {
				tc.errorf(s.Content, codeStatement, "File content must be a text string", types.Text, ct)
			}
		}
	case *ast.CreateDirStmt:
		tc.mustBe(s.Path, types.Text, codeStatement, "Expected string for directory path")
	case *ast.CreateFileStmt:
		tc.mustBe(s.Path, types.Text, codeStatement, "Expected string for file path")
		tc.expr(s.Content)
	case *ast.DeleteStmt:
		if s.Dir {
			tc.mustBe(s.Path, types.Text, codeStatement, "Expected string for directory path")
		} else {
			tc.mustBe(s.Path, types.Text, codeStatement, "Expected string for file path")
		}
	case *ast.WaitForStmt:
		tc.stmt(s.Inner)
	case *ast.WaitDurationStmt:
		tc.mustBe(s.Duration, types.Number, codeStatement, "Expected a number for wait duration")
	case *ast.WaitProcessStmt:
		tc.expr(s.Process)
	case *ast.WaitRequestStmt:
		tc.mustBe(s.Server, types.Text, codeStatement, "Server must be a text string")
		tc.mustBe(s.Timeout, types.Number, codeStatement, "Timeout must be a number")
	case *ast.WaitNextStmt:
		if t := tc.expr(s.Source); !loose(t) && !(t.Kind == types.KCustom && t.Name == "HttpStream") {
			tc.errorf(s, codeStatement, "`wait for next chunk|line` requires an outbound stream handle (from `open url … and stream response as …`)", types.NewCustom("HttpStream"), t)
		}
		if s.Name != nil {
			// Nothing once the stream has ended.
			t := types.NewOptional(types.Binary)
			if s.Line {
				t = types.NewOptional(types.Text)
			}
			tc.set(tc.info.Defs[s.Name], t)
			tc.record(s.Name, t)
		}
	case *ast.ExecCommandStmt:
		tc.mustBe(s.Command, types.Text, codeStatement, "Expected string for command")
		if s.Args != nil {
			at := tc.expr(s.Args)
			if !loose(at) && at.Kind != types.KText && at.Kind != types.KList {
				tc.errorf(s.Args, codeStatement, "Command arguments must be text or a list", types.NewList(types.Text), at)
			}
		}
	case *ast.ExecFileStmt:
		tc.mustBe(s.Path, types.Text, codeStatement, "Expected string for execute file path")
		tc.expr(s.Request)
	case *ast.ReadOutputStmt:
		tc.expr(s.Process)
	case *ast.KillStmt:
		tc.expr(s.Process)
	case *ast.ListenStmt:
		tc.mustBe(s.Port, types.Number, codeStatement, "Port must be a number")
		tc.mustBe(s.Cert, types.Text, codeStatement, "Certificate path must be text")
		tc.mustBe(s.Key, types.Text, codeStatement, "Key path must be text")
		tc.mustBe(s.Redirect, types.Number, codeStatement, "Redirect target port must be a number")
	case *ast.RespondStmt:
		rt := tc.expr(s.Request)
		if !loose(rt) && !(rt.Kind == types.KCustom && rt.Name == "Request") && rt.Kind != types.KMap {
			tc.errorf(s.Request, codeStatement, "Response target must be a request object", types.NewCustom("Request"), rt)
		}
		ct := tc.expr(s.Content)
		switch ct.Kind {
		case types.KList, types.KMap, types.KFunction, types.KInstance, types.KContainer, types.KInterface, types.KPattern, types.KDate, types.KTime, types.KDateTime:
			tc.errorf(s.Content, codeStatement, "Response content must be text, binary, a number, a boolean, or nothing", nil, nil)
		}
		tc.mustBe(s.Status, types.Number, codeStatement, "HTTP status must be a number")
		tc.mustBe(s.ContentType, types.Text, codeStatement, "Content type must be text")
		if s.Headers != nil {
			if ht := tc.expr(s.Headers); !loose(ht) && ht.Kind != types.KMap {
				tc.errorf(s.Headers, codeStatement, "Response headers must be a map of header names to values", types.NewMap(types.Text, types.Any), ht)
			}
		}
	case *ast.HTTPStmt:
		tc.mustBe(s.URL, types.Text, codeStatement, "URL must be a text string")
		tc.mustBe(s.Method, types.Text, codeStatement, "HTTP method must be a text string")
		tc.expr(s.Headers)
		tc.expr(s.Body)
		if s.Name != nil && s.Kind != ast.HTTPStream {
			// The body as text, or the whole response (status, headers,
			// body) as a map.
			t := types.Text
			if s.FullResponse {
				t = types.NewMap(types.Text, types.Any)
			}
			tc.set(tc.info.Defs[s.Name], t)
			tc.record(s.Name, t)
		}
	case *ast.StartStreamStmt:
		// As the reference's: a request (not nothing), a number, a text
		// and a map of header names to texts, numbers or booleans.
		if rt := tc.expr(s.Request); !gradual(rt) && !(rt.Kind == types.KCustom && rt.Name == "Request") {
			tc.errorf(s.Request, codeStatement, "Streaming response target must be a request object", types.NewCustom("Request"), rt)
		}
		if st := tc.expr(s.Status); s.Status != nil && !gradual(st) && st.Kind != types.KNumber {
			tc.errorf(s.Status, codeStatement, "Streaming response status must be a number", types.Number, st)
		}
		if ct := tc.expr(s.ContentType); s.ContentType != nil && !gradual(ct) && ct.Kind != types.KText {
			tc.errorf(s.ContentType, codeStatement, "Streaming response content type must be text", types.Text, ct)
		}
		if ht := tc.expr(s.Headers); s.Headers != nil && !gradual(ht) && (ht.Kind != types.KMap || !textKeyed(ht, types.KText, types.KNumber, types.KBoolean)) {
			tc.errorf(s.Headers, codeStatement, "Streaming response headers must be a map of header names to values", types.NewMap(types.Text, types.Any), ht)
		}
	case *ast.FlushStmt:
		tc.flush(s)
	case *ast.WebSocketHandlerStmt:
		tc.expr(s.Server)
		tc.loop(func() {
			if s.Name != nil {
				// The event as a map: a connection's fields are text; a
				// message's hold its sender too. (Set in the body: it is
				// the body's name, dropped at its end.)
				t := types.NewMap(types.Text, types.Text)
				if s.Event == "message" {
					t = types.NewMap(types.Text, types.Any)
				}
				tc.set(tc.info.Defs[s.Name], t)
				tc.record(s.Name, t)
			}
			tc.block(s.Body)
		})
	case *ast.WebSocketSendStmt:
		// As the reference's: a text, a number or a boolean, to a
		// connection (a map of text fields) or, broadcast, on a server
		// (its name, a text).
		if mt := tc.expr(s.Message); !gradual(mt) && mt.Kind != types.KText && mt.Kind != types.KNumber && mt.Kind != types.KBoolean {
			tc.errorf(s.Message, codeStatement, "WebSocket message must be text, a number, or a boolean, not "+mt.String(), nil, nil)
		}
		tt := tc.expr(s.Target)
		switch {
		case gradual(tt):
		case s.Broadcast && tt.Kind != types.KText:
			tc.errorf(s.Target, codeStatement, "Server must be a text string", types.Text, tt)
		case !s.Broadcast && (tt.Kind != types.KMap || !textKeyed(tt, types.KText)):
			tc.errorf(s.Target, codeStatement, "WebSocket connection target must be an object", types.NewMap(types.Text, types.Any), tt)
		}
	case *ast.SignalStmt:
		tc.signal(s)
	case *ast.StopAcceptingStmt:
		tc.expr(s.Server)
	case *ast.OpenDatabaseStmt:
		tc.mustBe(s.URL, types.Text, codeStatement, "Database URL must be a text string")
	case *ast.TransactionStmt:
		tc.expr(s.DB)
		tc.block(s.Body)
	case *ast.LoadStmt:
		if s.Include {
			tc.mustBe(s.Path, types.Text, codeStatement, "Expected string for include path")
		} else {
			tc.mustBe(s.Path, types.Text, codeStatement, "Expected string for module path")
		}
	case *ast.ExportStmt:
		tc.export(s)
	case *ast.DescribeStmt:
		tc.branch(func() { tc.block(s.Body) })
	case *ast.HookStmt:
		tc.block(s.Body)
	case *ast.TestStmt:
		tc.branch(func() { tc.block(s.Body) })
	case *ast.ExpectStmt:
		tc.expect(s)
	case *ast.ExprStmt:
		if id, ok := s.X.(*ast.Ident); ok {
			if sym := tc.info.Uses[id]; sym != nil && sym.Kind == SymAction && !tc.a.aliases[sym] {
				zero := false
				for _, d := range sym.Actions() {
					if len(d.Params) == 0 {
						zero = true
					}
				}
				if len(sym.Actions()) == 1 || zero {
					// A bare action name as a statement calls it with no arguments.
					t := tc.actionCall(s, sym, nil, false)
					tc.record(id, t)
					tc.callEffects(sym, nil)
					tc.lastValue = t
					return
				}
			}
		}
		tc.lastValue = tc.expr(s.X)
	case *ast.Block:
		tc.block(s)
	case *ast.BranchStmt:
		if s.Kind == ast.Break && tc.inLoop {
			tc.exits = append(tc.exits, snapshot(tc.env, tc.loopEntry))
		}
	case *ast.ExitStmt:
		if !s.Program && tc.inLoop {
			tc.exits = append(tc.exits, snapshot(tc.env, tc.loopEntry))
		}
	}
}

// ---- expressions ----

// textKeyed reports whether map type t has text keys and values of one of
// the kinds values (or types not known), as the reference's type checker
// wants the headers of a response and a websocket connection.
func textKeyed(t *types.Type, values ...types.Kind) bool {
	k, v := t.Key, t.Elem
	return (gradual(k) || k.Kind == types.KText) && (gradual(v) || slices.Contains(values, v.Kind))
}
