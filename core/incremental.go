package core

// This file keeps a document's diagnostics current edit by edit, without
// analysing the whole text again.
//
// A document is cut into units: a top-level statement (parser.Unit) with the
// lines after it up to the next one (statements sharing a line share a
// unit). The parser keeps no state from one top-level statement to the next,
// the linter judges lines, and the checker connects statements only through
// names that some statement declares (or binds, like the request fields of
// `wait for request`). So after an edit (found by comparing the texts):
//
//  1. the units the edit touches are parsed again, from the unit before
//     them, until the parse starts a unit exactly where an old one started,
//     with two more units of text after that point so that the parser's
//     lookahead sees what the full text has; from there on the text parses
//     as before, shifted. The units at the ends of that stretch that come
//     out as they were (the one before the edit, usually) stay the old
//     units: only the others are new;
//  2. the lines of the new units are linted again;
//  3. the statements whose findings the edit may change are checked
//     again, on a text made of just those units and the ones they need (the
//     declarers and writers of the names they mention, and so on), with
//     the file's context (check.Context): those that name what the new or
//     replaced units declare or write, and so on through what those
//     declare or write; those that write what the edit names (for the
//     unused-variable rule); and, when the edit added or removed lines,
//     those whose messages name one, and when it changed the text's
//     length, those with a finding that points at a place outside them
//     (reach.go says why that is enough);
//  4. every other unit keeps what it had, its spans relative to its start.
//
// One finding depends on the whole file in another way: a `random_seed`
// call is an error when any statement calls a security builtin
// (check.SecurityBuiltins). The state counts the units of each kind; when
// an edit adds the file's first such call or removes its last, every unit
// naming random_seed is checked again, and a check that takes the
// findings of one has a unit with such a call in its text.
//
// Where that reasoning does not hold the whole text is analysed again: a
// top-level return makes every later statement unreachable; the words of
// action parameters, includes and the lint configuration are the file's
// context. So is it when most of the text would be parsed or checked again
// anyway. A quote the
// lexer found no end for looks for one in the rest of the text: the parse
// then runs from it to the end.
// TestIncrementalEqualsFull checks the result against a full analysis after
// random edits of every corpus program and mutant, FuzzIncremental after
// fuzzed ones.
//
// This file holds the state and its units, and how they are built from a
// full analysis; incremental_edit.go derives a state after an edit,
// incremental_recheck.go checks connected statements again, and
// incremental_findings.go packs a unit's findings and assembles the list.

import (
	"slices"
	"sync"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/config"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lint"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// diagState is what a snapshot's diagnostics are made of, and what a next
// version needs to derive its own: the units, in order. Diagnostics
// assembles the list when it is asked for.
type diagState struct {
	text   string
	lines  *token.Lines
	cfg    config.Config
	ctx    *check.Context // the file's context; shared, never modified
	starts []int          // offset of each unit's first line; starts[0] == 0
	units  []*unit        // immutable, shared by the states of later versions
	shapes []unitShape    // of each unit's text (shape.go)
	// quoted and indents list, in order, the units from the second on
	// whose shapes have shapeStringLines or shapeUnended, and
	// shapeIndented: the walks of every keystroke over a large document
	// visit only these (shape.go). Set with shapes.
	quoted, indents []int32
	// mentionIx indexes an earlier state's units by the names they hold,
	// for the next derivation (mentions.go); nil until one derives.
	mentionIx *mentionIndex
	// rangeMatch is the last matching of the units with an earlier
	// version's, for the answers of a range (matchRange).
	rangeMatch struct {
		mu  sync.Mutex
		old []*unit
		to  []int32
	}

	// included are the texts of the files ctx.Imports were read from, by
	// path (see importSet); nil when the file includes none.
	included map[string]string

	// final is set when no later version can be derived from this one: a
	// unit has a top-level return, or its parse reached the bound on the
	// work of reading ahead (parser.Unit.Bounded: a stretch parsed alone
	// may read it otherwise). Only a full state can be final: derive gives
	// up on such units.
	final bool

	// work is the steps of reading ahead the parse of the text took
	// (parser.Unit.Work) as its units say, extra what a derivation adds to
	// it for what they do not say (workFar), and toks the text's tokens
	// (parser.Unit.Tokens): a parse that reaches parser.WorkBound reads
	// the rest otherwise (a unit's Bounded), so a version is derived only
	// while the work stays far below the bound.
	work, extra, toks int

	// seeds and secure count the units that name random_seed and those
	// that call a builtin of check.SecurityBuiltins: the findings of every
	// random_seed call depend on whether the file has any such call.
	seeds, secure int

	// found lists, in order, the indices of the units with findings
	// (unit.d): most units of a document have none, and the walks made on
	// every keystroke (the lists, the tolerant view, the reach of an edit)
	// visit only these. A derivation carries its previous state's over;
	// other states scan their units once, at the first withFindings.
	foundOnce sync.Once
	found     []int32
}

// withFindings returns the indices of the units with findings, in order.
// The state must be finished: its units no longer change.
func (s *diagState) withFindings() []int32 {
	s.foundOnce.Do(func() {
		for i, u := range s.units {
			if u.d != nil {
				s.found = append(s.found, int32(i))
			}
		}
	})
	return s.found
}

// carryFindings sets the state's withFindings from kept, the units of the
// previous state with findings that the state still holds, at their
// indices in it: the units [lo, hi) are new, and those of set were
// checked again, so whether they have findings is read of them.
func (s *diagState) carryFindings(kept []int32, lo, hi int, set []int) {
	at := func(i int) int {
		k, _ := slices.BinarySearch(kept, int32(i))
		return k
	}
	k := at(lo)
	found := make([]int32, 0, len(kept)+hi-lo)
	found = append(found, kept[:k]...)
	for i := lo; i < hi; i++ {
		if s.units[i].d != nil {
			found = append(found, int32(i))
		}
	}
	found = append(found, kept[at(hi):]...)
	for _, i := range set {
		if i >= lo && i < hi {
			continue
		}
		k, was := slices.BinarySearch(found, int32(i))
		switch has := s.units[i].d != nil; {
		case has && !was:
			found = slices.Insert(found, k, int32(i))
		case was && !has:
			found = slices.Delete(found, k, k+1)
		}
	}
	s.foundOnce.Do(func() { s.found = found })
}

// A unit is what the front end found in one unit's text, spans relative to
// the unit's start. Units are many (one per top-level statement) and live
// as long as the document is open, so they are kept small.
type unit struct {
	hashes  []uint32 // the keys, then the names, the written ones first (see keys, names and writes)
	nkeys   int32    // len(keys)
	stmts   uint16   // number of top-level statements (a unit of more fails the counts that compare it)
	nwrites uint16   // len(writes), or allWrites
	// end is where its last statement ends, relative to its start: a
	// text made of units (incremental_recheck.go) must read each as the
	// text does.
	end  int32
	toks int32      // its tokens (parser.Unit.Tokens)
	d    *unitDiags // nil when the unit has no findings at all
	top  *topFacts  // nil for most units

	// A unit checked again after an edit of another (incremental_recheck.go)
	// is a new unit, as its findings may differ. When it declares the same
	// names, with the same file-scope symbols (sig), as the unit it
	// replaces, and retypes no name it did not, origin is that unit's
	// root: what the partial analyses of queries take of a base's symbols
	// is still true of it, and the index of the base's units says what it
	// holds (see root).
	sig    uint64 // the digest of its file-scope symbols (symbolSigs); 0 when not known
	origin *unit
}

// keys returns the hashes of the names the unit declares, parameters aside,
// sorted.
func (u *unit) keys() []uint32 { return u.hashes[:u.nkeys:u.nkeys] }

// names returns the hashes of every name the unit mentions.
func (u *unit) names() []uint32 { return u.hashes[u.nkeys:] }

// writes returns the hashes of the names whose declarations or types the
// unit gives the statements after it: those it stores into or creates (the
// unused-variable rule's declarations among them), and those whose type it
// changes in the flow of types, or whether they hold an action
// (check.Info.Retyped: a `change`, `add` or test against nothing that
// retypes a variable); all of its names when they are too many to count.
// A write that leaves the type as it was is only a name: the counters of a
// program of tests (`change passed to passed plus 1` in every test) do
// not connect every test to every other.
func (u *unit) writes() []uint32 {
	if u.nwrites == allWrites {
		return u.names()
	}
	return u.hashes[u.nkeys : u.nkeys+int32(u.nwrites)]
}

// allWrites is unit.nwrites when every name counts as written.
const allWrites = 1<<16 - 1

// retype makes the names of hs written ones (see writes): the checker found
// that the unit retypes them.
func (u *unit) retype(hs []uint32) {
	if u.nwrites == allWrites || !slices.ContainsFunc(hs, func(h uint32) bool { return !slices.Contains(u.writes(), h) }) {
		return
	}
	writes := slices.Concat(u.writes(), hs)
	names := slices.Concat(u.names(), hs)
	ns, nw := writesFirst(sortedSet(names), sortedSet(writes))
	h := make([]uint32, 0, int(u.nkeys)+len(ns))
	u.hashes, u.nwrites = append(append(h, u.keys()...), ns...), nw
}

func (u *unit) setKeys(keys []uint32) {
	names := u.names()
	h := make([]uint32, 0, len(keys)+len(names))
	u.hashes = append(append(h, keys...), names...)
	u.nkeys = int32(len(keys))
}

// topFacts are what the file's context and the fallbacks look at. (Its
// fields are in the order that leaves no padding but at the end: an open
// document keeps one for each of its actions.)
type topFacts struct {
	params []string // the parameter words of its top-level actions
	// values are the hashes of the builtins' names it reads as values, not
	// as the action a call calls (`timestamp` of `datetime_from_timestamp
	// of timestamp`), sorted: a variable of such a name would change their
	// types (broken.shadowed).
	values []uint32
	// strayAt is where the first stray `end` starts, relative to the unit
	// (parser.Unit.StrayAt): where a body read ahead into the unit stops.
	strayAt int
	// ahead is how far past its start, when that is past the next unit's
	// start, the parse of the unit read (parser.Unit.Reach): to where a
	// block whose closer is missing would have stopped, which decided its
	// tree and findings; an edit up to there parses the unit again.
	ahead int
	// work is the steps of reading ahead its parse took (parser.Unit.Work),
	// and extra what it would read past the stretch it was parsed in, in
	// the whole text, as workFar counts it.
	work, extra int
	// parsedTo is where its first statement with a parse error starts,
	// relative to the unit, when statements that parse come before it (on
	// its line: `store n as 1` of `store n as 1 store`); else 0
	// (broken.findMisread reads it).
	parsedTo int
	loads    uint8 // loadInclude | loadModule
	ret      bool  // a top-level return (later statements are unreachable)
	seed     bool  // names random_seed (its findings depend on whether a unit is secure)
	secure   bool  // calls a builtin of check.SecurityBuiltins
	stray    bool  // stray `end` lines follow a statement (parser.Unit.Stray)
	// context is set when its parse depended on every block it is in
	// (parser.Unit.Context): read in a body, it may read otherwise.
	context bool
	// bounded is set when its parse reached the bound on the work of
	// reading ahead (parser.Unit.Bounded).
	bounded bool
}

func (u *unit) facts() topFacts {
	if u.top == nil {
		return topFacts{}
	}
	return *u.top
}

const (
	loadInclude = 1 << iota
	loadModule
)

func (s *diagState) end(i int) int {
	if i+1 < len(s.starts) {
		return s.starts[i+1]
	}
	return len(s.text)
}

// unitAt returns the index of the unit holding offset.
func unitAt(starts []int, offset int) int {
	i, found := slices.BinarySearch(starts, offset)
	if !found {
		i--
	}
	return max(i, 0)
}

// fullState builds the state of a text from its full analysis.
func fullState(text string, a *Analysis, raw *rawAnalysis) *diagState {
	s := &diagState{text: text, lines: a.Lines, cfg: raw.cfg}
	var groups [][]parser.Unit
	s.starts, groups = groupUnits(text, raw.units)
	s.units = make([]*unit, len(groups))
	fs := make([]findings, len(groups))
	for i, g := range groups {
		s.units[i] = describeUnit(g, s.starts[i], s.end(i))
		s.work += s.units[i].facts().work
		s.toks += int(s.units[i].toks)
		fs[i].parse, fs[i].raised = parseFindings(g, s.starts[i])
	}
	// Both of the linter's modes are kept: the document may start or stop
	// parsing. The analysis made for this state reported in both
	// (raw.both); one made before it, in the one it shows, and the other
	// is made here.
	parses := !hasError(parser.Diagnostics(raw.units, raw.dropped))
	tree, tok := raw.lint, raw.other
	switch {
	case raw.both && !parses:
		tree, tok = raw.other, raw.lint
	case !raw.both && parses:
		tok = lint.Check(text, nil, nil, raw.cfg)
	case !raw.both:
		tree, tok = lint.Check(text, a.File, nil, raw.cfg), raw.lint
	}
	for from, diags := range [sources][]diag.Diagnostic{
		fromDropped: raw.dropped, fromLintTree: tree, fromLintTok: tok,
		fromAnalyzer: raw.passes.Analyzer, fromStatic: raw.passes.Static, fromType: raw.passes.Type, fromRetold: raw.passes.Retold,
	} {
		for _, d := range diags {
			i := unitAt(s.starts, d.Span.Start)
			l := fs[i].lists()[from]
			*l = append(*l, shift(d, -s.starts[i]))
		}
	}
	keys := make([][]uint32, len(s.units))
	declaredNames(a.Info, func(pos int, h uint32) {
		i := unitAt(s.starts, pos)
		keys[i] = append(keys[i], h)
	})
	sigs := symbolSigs(a.Info, len(s.units), func(pos int) (int, int) {
		i := unitAt(s.starts, pos)
		return i, pos - s.starts[i]
	})
	retyped := make(map[int][]uint32)
	a.Info.Retyped(func(pos int, name string) {
		i := unitAt(s.starts, pos)
		retyped[i] = append(retyped[i], nameHash(name))
	})
	for i, u := range s.units {
		u.setKeys(sortedSet(keys[i]))
		u.retype(retyped[i])
		u.sig = sigs[i]
		u.d = fs[i].pack()
		f := u.facts()
		s.final = s.final || f.ret || f.bounded
		s.tally(u, 1)
	}
	s.ctx, s.included = raw.ctx, raw.included
	s.describeShapes(nil, 0, 0, nil)
	return s
}

// declaredNames calls add with the position and name hash of every name
// the checked statements declare, parameters aside (they are local to their
// action), and of the names a statement binds in the file scope without
// declaring them (the request fields of `wait for request`).
func declaredNames(info *check.Info, add func(pos int, h uint32)) {
	for id, sym := range info.Defs {
		if sym.Kind != check.SymParameter {
			add(id.Pos(), nameHash(id.Name))
		}
	}
	for name, sym := range info.Global.Symbols.All() {
		if sym.Kind == check.SymImplicit && sym.Node != nil {
			add(sym.Node.Pos(), nameHash(name))
		}
	}
}

// groupUnits cuts text into units at the lines where parser units start:
// a statement that shares its first line with the one before joins its
// unit. The first unit starts at 0.
func groupUnits(text string, pus []parser.Unit) (starts []int, groups [][]parser.Unit) {
	starts = []int{0}
	groups = [][]parser.Unit{nil}
	for _, pu := range pus {
		ls := lineStartOf(text, pu.Start)
		if ls > starts[len(starts)-1] {
			starts = append(starts, ls)
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], pu)
	}
	return starts, groups
}

// lineStartOf returns the start of the line of offset, or -1 when something
// other than blanks precedes offset on its line.
func lineStartOf(text string, offset int) int {
	i := offset
	for i > 0 {
		switch text[i-1] {
		case ' ', '\t', '\f':
			i--
			continue
		case '\n', '\r':
			return i
		}
		return -1
	}
	return 0
}

// describeUnit records a unit's names and top-level facts; the unit runs
// from start to next.
func describeUnit(g []parser.Unit, start, next int) *unit {
	u := &unit{stmts: uint16(len(g))}
	var names, writes []uint32
	var top topFacts
	broken := false
	for k, pu := range g {
		if !broken && slices.ContainsFunc(pu.Diags, func(d diag.Diagnostic) bool { return d.Severity == diag.Error }) {
			broken = true
			if k > 0 {
				top.parsedTo = pu.Start - start
			}
		}
		switch st := pu.Stmt.(type) {
		case *ast.ActionDecl:
			top.params = append(top.params, check.ParamWords(st)...)
		case *ast.LoadStmt:
			if st.Include {
				top.loads |= loadInclude
			} else {
				top.loads |= loadModule
			}
		case *ast.ReturnStmt:
			top.ret = true
		}
		if pu.Stmt != nil {
			names, writes = appendNames(names, writes, pu.Stmt)
			u.end = int32(pu.Stmt.End() - start)
		}
		top.context = top.context || pu.Context
		top.bounded = top.bounded || pu.Bounded
		if pu.Stray && !top.stray {
			top.stray, top.strayAt = true, pu.StrayAt-start
		}
		if pu.Reach > next {
			top.ahead = max(top.ahead, pu.Reach-start)
		}
		top.work += pu.Work
		u.toks += int32(pu.Tokens)
	}
	names, writes = sortedSet(names), sortedSet(writes)
	if slices.ContainsFunc(names, isBuiltinHash) {
		var values []uint32
		for _, pu := range g {
			if pu.Stmt != nil {
				values = appendBuiltinValues(values, pu.Stmt)
			}
		}
		if len(values) > 0 {
			top.values = sortedSet(values)
		}
	}
	_, top.seed = slices.BinarySearch(names, nameHash("random_seed"))
	if slices.ContainsFunc(names, func(h uint32) bool { _, ok := slices.BinarySearch(securityHashes, h); return ok }) {
		top.secure = slices.ContainsFunc(g, func(pu parser.Unit) bool { return pu.Stmt != nil && check.CallsSecurityBuiltin(pu.Stmt) })
	}
	u.hashes, u.nwrites = writesFirst(names, writes)
	if top.params != nil || top.loads != 0 || top.ret || top.seed || top.secure || top.stray || top.context || top.bounded || top.ahead > 0 || top.work > 0 || top.extra > 0 || top.parsedTo > 0 || top.values != nil {
		u.top = &top
	}
	return u
}

// isBuiltinHash reports whether h is the hash of a builtin's name.
func isBuiltinHash(h uint32) bool {
	_, ok := slices.BinarySearch(builtinHashes, h)
	return ok
}

// builtinHashes are the hashes of the builtins' names, sorted.
var builtinHashes = func() []uint32 {
	var hs []uint32
	for _, b := range builtins.All() {
		hs = append(hs, nameHash(b.Name))
	}
	return sortedSet(hs)
}()

// securityHashes are the hashes of check.SecurityBuiltins, sorted: a unit
// that names none calls none. Most units name fewer names than there are
// builtins, so their names are looked up here rather than the other way.
var securityHashes = func() []uint32 {
	var hs []uint32
	for _, name := range check.SecurityBuiltins() {
		hs = append(hs, nameHash(name))
	}
	return sortedSet(hs)
}()

// tally adds n times what u is to the state's counts of units that name
// random_seed and that call a security builtin.
func (s *diagState) tally(u *unit, n int) {
	f := u.facts()
	if f.seed {
		s.seeds += n
	}
	if f.secure {
		s.secure += n
	}
}

// writesFirst returns names (sorted) with those of writes (sorted, a
// subset) first, and how many those are (see unit.writes).
func writesFirst(names, writes []uint32) ([]uint32, uint16) {
	if len(writes) >= allWrites {
		return names, allWrites
	}
	out := make([]uint32, 0, len(names))
	out = append(out, writes...)
	for _, h := range names {
		if _, found := slices.BinarySearch(writes, h); !found {
			out = append(out, h)
		}
	}
	return out, uint16(len(writes))
}

// appendNames adds the hash of every name n mentions to names: identifiers,
// written types (which may name containers), pattern references, the names
// a statement binds (check.BoundNames) and the one a header access reads;
// and to writes those of the names it declares by writing them (see
// appendWrites).
func appendNames(names, writes []uint32, n ast.Node) ([]uint32, []uint32) {
	ast.Inspect(n, func(n ast.Node) bool {
		if st, ok := n.(ast.Stmt); ok {
			writes = appendWrites(writes, st)
		}
		switch x := n.(type) {
		case *ast.Ident:
			names = append(names, nameHash(x.Name))
		case *ast.TypeExpr:
			names = append(names, nameHash(x.Name))
		case *ast.WriteStmt:
			// The merged name of the statement's other reading, which no
			// walk visits (check.LeadOf).
			if x.Classic != nil {
				names = append(names, nameHash(x.Classic.Name))
			}
		case *ast.FlushStmt:
			if x.Legacy != nil {
				names = append(names, nameHash(x.Legacy.Name))
			}
		case *ast.HeaderExpr:
			// Checked against the `headers` a `wait for request` binds
			// (check's headersInScope), a name it does not write.
			names = append(names, nameHash("headers"))
		case *ast.PatternNode:
			if x.Text != "" {
				names = append(names, nameHash(x.Text))
			}
			if x.Arg != "" {
				names = append(names, nameHash(x.Arg))
			}
		case ast.Stmt:
			// The names it binds without writing them: two statements
			// binding one name connect like two declaring it, and the
			// statement is the context of those that read them (the
			// file's scope keeps only the last binding's symbol, whose
			// unit declaredNames keys: a unit reading `method` after the
			// first of two `wait for request` needs the first).
			for _, b := range check.BoundNames(x) {
				names = append(names, nameHash(b))
				writes = append(writes, nameHash(b))
			}
		}
		return true
	})
	return names, writes
}

// appendBuiltinValues adds to values the hashes of the builtins' names n
// reads other than as the action a call calls (topFacts.values).
func appendBuiltinValues(values []uint32, n ast.Node) []uint32 {
	var called []*ast.Ident // the calls' actions not visited yet (a call comes before its parts)
	ast.Inspect(n, func(n ast.Node) bool {
		var fun *ast.Ident
		switch x := n.(type) {
		case *ast.CallExpr:
			fun, _ = x.Fun.(*ast.Ident)
		case *ast.ActionCallExpr:
			fun = x.Name
		case *ast.Ident:
			if !isBuiltinHash(nameHash(x.Name)) {
				break
			}
			if i := slices.Index(called, x); i >= 0 {
				called = slices.Delete(called, i, i+1)
			} else {
				values = append(values, nameHash(x.Name))
			}
		}
		if fun != nil && isBuiltinHash(nameHash(fun.Name)) {
			called = append(called, fun)
		}
		return true
	})
	return values
}

// appendWrites adds the hash of the name a statement declares by writing
// it, if any (see unit.writes), to writes. The other writes are written
// names only when the checker finds that they retype the name
// (unit.retype).
func appendWrites(writes []uint32, st ast.Stmt) []uint32 {
	var id *ast.Ident
	switch x := st.(type) {
	case *ast.VarDecl:
		id = x.Name
	case *ast.PatternDecl:
		id = x.Name
	case *ast.CreateListStmt:
		id = x.Name
	case *ast.CreateMapStmt:
		id = x.Name
	case *ast.CreateDateStmt:
		id = x.Name
	}
	if id == nil {
		return writes
	}
	return append(writes, nameHash(id.Name))
}

// nameHash is FNV-1a. Two names with one hash only make the set of
// statements checked again larger.
func nameHash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

func sortedSet(x []uint32) []uint32 {
	if len(x) == 0 {
		return nil
	}
	slices.Sort(x)
	return slices.Clip(slices.Compact(x))
}

func shift(d diag.Diagnostic, by int) diag.Diagnostic {
	d.Span.Start += by
	d.Span.End += by
	if len(d.Related) > 0 {
		rel := make([]diag.Related, len(d.Related))
		for i, r := range d.Related {
			r.Span.Start += by
			r.Span.End += by
			rel[i] = r
		}
		d.Related = rel
	}
	return d
}
