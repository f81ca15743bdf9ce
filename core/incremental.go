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
//     as before, shifted;
//  2. the lines of the new units are linted again;
//  3. the statements that share a declared name with the new or replaced
//     units, directly or through others, are checked again, on a text made
//     of just those units, with the file's context (check.Context); and,
//     when the edit added or removed lines, those whose messages name one;
//  4. every other unit keeps what it had, its spans relative to its start.
//
// Where that reasoning does not hold the whole text is analysed again: a
// top-level return makes every later statement unreachable; `random_seed`
// findings depend on the whole file; the words of action parameters,
// includes and the lint configuration are the file's context. So is it when
// most of the text would be parsed or checked again anyway. A quote the
// lexer found no end for looks for one in the rest of the text: the parse
// then runs from it to the end.
// TestIncrementalEqualsFull checks the result against a full analysis after
// random edits of every corpus program and mutant, FuzzIncremental after
// fuzzed ones.

import (
	"cmp"
	"iter"
	"maps"
	"slices"
	"strings"

	"wfl-lsp/lang/ast"
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

	// final is set when no later version can be derived from this one: a
	// unit has a top-level return or names random_seed. Only a full state
	// can be final: derive gives up on such units.
	final bool
}

// A unit is what the front end found in one unit's text, spans relative to
// the unit's start. Units are many (one per top-level statement) and live
// as long as the document is open, so they are kept small.
type unit struct {
	hashes []uint32   // the keys, then the names (see keys and names)
	nkeys  int32      // len(keys)
	stmts  int32      // number of top-level statements
	d      *unitDiags // nil when the unit has no findings at all
	top    *topFacts  // nil for most units
}

// keys returns the hashes of the names the unit declares, parameters aside,
// sorted.
func (u *unit) keys() []uint32 { return u.hashes[:u.nkeys:u.nkeys] }

// names returns the hashes of every name the unit mentions, sorted.
func (u *unit) names() []uint32 { return u.hashes[u.nkeys:] }

func (u *unit) setKeys(keys []uint32) {
	names := u.names()
	h := make([]uint32, 0, len(keys)+len(names))
	u.hashes = append(append(h, keys...), names...)
	u.nkeys = int32(len(keys))
}

// topFacts are what the file's context and the fallbacks look at.
type topFacts struct {
	params []string // the parameter words of its top-level actions
	loads  uint8    // loadInclude | loadModule
	ret    bool     // a top-level return (later statements are unreachable)
	seed   bool     // names random_seed (its findings depend on the whole file)
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

// findings are a unit's diagnostics by where they come from, while they are
// gathered; a unit keeps them packed (unitDiags).
type findings struct {
	parse    []diag.Diagnostic // as raised, before parser.FilterFirst
	dropped  []diag.Diagnostic
	lintTok  []diag.Diagnostic // lint without a tree: published when the file does not parse
	lintTree []diag.Diagnostic // lint with the tree: published when it does
	analyzer []diag.Diagnostic
	static   []diag.Diagnostic
	typ      []diag.Diagnostic
}

// The sources of a diagnostic, in the order of findings' fields.
type source uint8

const (
	fromParse source = iota
	fromDropped
	fromLintTok
	fromLintTree
	fromAnalyzer
	fromStatic
	fromType
	sources
)

func (f *findings) lists() [sources]*[]diag.Diagnostic {
	return [sources]*[]diag.Diagnostic{&f.parse, &f.dropped, &f.lintTok, &f.lintTree, &f.analyzer, &f.static, &f.typ}
}

// unitDiags are a unit's findings in one list sorted by compareDiagnostics,
// each with its source.
type unitDiags struct {
	list       []finding
	firstParse int32 // index in list of the first parse error raised, or -1
	semErr     bool  // an analyzer finding is an error
	staticErr  bool  // a static-pass finding is an error
}

type finding struct {
	diag.Diagnostic
	from source
}

// pack returns the findings packed, or nil when there are none.
func (f *findings) pack() *unitDiags {
	n := 0
	for _, l := range f.lists() {
		n += len(*l)
	}
	if n == 0 {
		return nil
	}
	d := &unitDiags{list: make([]finding, 0, n), firstParse: -1, semErr: hasError(f.analyzer), staticErr: hasError(f.static)}
	for k, l := range f.lists() {
		for _, x := range *l {
			d.list = append(d.list, finding{x, source(k)})
		}
	}
	// The first parse error raised is the first of the list before sorting.
	first := len(f.parse) > 0
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(x, y int32) int { return compareDiagnostics(d.list[x].Diagnostic, d.list[y].Diagnostic) })
	sorted := make([]finding, n)
	for i, k := range order {
		sorted[i] = d.list[k]
		if first && k == 0 {
			d.firstParse = int32(i)
		}
	}
	d.list = sorted
	return d
}

// unpack returns the findings of a packed unit; the first parse error
// raised stays first.
func (d *unitDiags) unpack() findings {
	var f findings
	if d == nil {
		return f
	}
	lists := f.lists()
	if d.firstParse >= 0 {
		f.parse = append(f.parse, d.list[d.firstParse].Diagnostic)
	}
	for i, x := range d.list {
		if int32(i) != d.firstParse {
			*lists[x.from] = append(*lists[x.from], x.Diagnostic)
		}
	}
	return f
}

// openQuote reports whether the lexer dropped a quote of text, the unit's
// text onwards, finding no end for its string.
func (d *unitDiags) openQuote(text string) bool {
	for _, x := range d.list {
		if x.from == fromDropped && text[x.Span.Start] == '"' {
			return true
		}
	}
	return false
}

// lineRefs reports whether a message of the unit names a line (`already
// defined at line 3`): it changes when lines are added above.
func (u *unit) lineRefs() bool {
	if u.d == nil {
		return false
	}
	for _, x := range u.d.list {
		if x.from == fromAnalyzer && strings.Contains(x.Message, "at line ") {
			return true
		}
	}
	return false
}

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

// ---- the whole text ----

// fullState builds the state of a text from its full analysis.
func fullState(text string, a *Analysis, raw *rawAnalysis) *diagState {
	s := &diagState{text: text, lines: a.Lines, cfg: raw.cfg}
	var groups [][]parser.Unit
	s.starts, groups = groupUnits(text, raw.units)
	s.units = make([]*unit, len(groups))
	fs := make([]findings, len(groups))
	for i, g := range groups {
		s.units[i] = describeUnit(g)
		for _, pu := range g {
			fs[i].parse = append(fs[i].parse, relative(pu.Diags, s.starts[i])...)
		}
	}
	// The linter ran in one mode; the other is needed when the document
	// starts or stops parsing.
	tree, tok := raw.lint, lint.Check(text, nil, nil, raw.cfg)
	if hasError(parser.Diagnostics(raw.units, raw.dropped)) {
		tree, tok = lint.Check(text, a.File, nil, raw.cfg), raw.lint
	}
	for from, diags := range [sources][]diag.Diagnostic{
		fromDropped: raw.dropped, fromLintTree: tree, fromLintTok: tok,
		fromAnalyzer: raw.passes.Analyzer, fromStatic: raw.passes.Static, fromType: raw.passes.Type,
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
	for i, u := range s.units {
		u.setKeys(sortedSet(keys[i]))
		u.d = fs[i].pack()
		f := u.facts()
		s.final = s.final || f.ret || f.seed
	}
	s.ctx = raw.ctx
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

// describeUnit records a unit's names and top-level facts.
func describeUnit(g []parser.Unit) *unit {
	u := &unit{stmts: int32(len(g))}
	var names []uint32
	var top topFacts
	for _, pu := range g {
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
			names = appendNames(names, pu.Stmt)
		}
	}
	u.hashes = sortedSet(names)
	_, top.seed = slices.BinarySearch(u.hashes, nameHash("random_seed"))
	if top.params != nil || top.loads != 0 || top.ret || top.seed {
		u.top = &top
	}
	return u
}

// diffRange returns the bytes that differ between two texts: [from, oldEnd)
// of old became [from, newEnd) of text.
func diffRange(old, text string) (from, oldEnd, newEnd int) {
	const block = 64 // compared a block at a time, then byte by byte
	n := min(len(old), len(text))
	for from+block <= n && old[from:from+block] == text[from:from+block] {
		from += block
	}
	for from < n && old[from] == text[from] {
		from++
	}
	oldEnd, newEnd = len(old), len(text)
	for oldEnd-block >= from && newEnd-block >= from && old[oldEnd-block:oldEnd] == text[newEnd-block:newEnd] {
		oldEnd -= block
		newEnd -= block
	}
	for oldEnd > from && newEnd > from && old[oldEnd-1] == text[newEnd-1] {
		oldEnd--
		newEnd--
	}
	return from, oldEnd, newEnd
}

// appendNames adds the hash of every name n mentions: identifiers, written
// types (which may name containers) and pattern references.
func appendNames(names []uint32, n ast.Node) []uint32 {
	ast.Inspect(n, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			names = append(names, nameHash(x.Name))
		case *ast.TypeExpr:
			names = append(names, nameHash(x.Name))
		case *ast.PatternNode:
			if x.Text != "" {
				names = append(names, nameHash(x.Text))
			}
			if x.Arg != "" {
				names = append(names, nameHash(x.Arg))
			}
		}
		return true
	})
	return names
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

func relative(ds []diag.Diagnostic, start int) []diag.Diagnostic {
	out := make([]diag.Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = shift(d, -start)
	}
	return out
}

// assemble combines the units' findings as analyze does, in canonical
// order (sortDiagnostics).
func (s *diagState) assemble() []diag.Diagnostic {
	out := make([]diag.Diagnostic, 0, s.count())
	for d := range s.all() {
		out = append(out, d)
	}
	return out
}

// all yields the units' findings combined as analyze does, in canonical
// order (sortDiagnostics): each unit's list is sorted and units follow one
// another in the text, so they are yielded as they are found, except when
// the text does not parse (a parse error may lie past the end of the unit
// that raised it): then they are gathered and sorted first.
func (s *diagState) all() iter.Seq[diag.Diagnostic] {
	return func(yield func(diag.Diagnostic) bool) {
		// As parser.FilterFirst: the first parse error raised, then those
		// not before it. Every parse diagnostic but a dropped character is
		// an error.
		first, parses := 0, true
		semErr, staticErr := false, false
		for i, u := range s.units {
			if u.d == nil {
				continue
			}
			if parses && u.d.firstParse >= 0 {
				first, parses = s.starts[i]+u.d.list[u.d.firstParse].Span.Start, false
			}
			semErr = semErr || u.d.semErr
			staticErr = staticErr || u.d.staticErr
		}
		emit := yield
		var gathered []diag.Diagnostic
		if !parses {
			emit = func(d diag.Diagnostic) bool { gathered = append(gathered, d); return true }
		}
		for i, u := range s.units {
			if u.d == nil {
				continue
			}
			at := s.starts[i]
			for _, x := range u.d.list {
				var keep bool
				switch x.from {
				case fromParse:
					keep = x.Span.Start+at >= first // the first one raised included
				case fromDropped:
					keep = true
				case fromLintTok:
					keep = !parses
				case fromLintTree, fromAnalyzer:
					keep = parses
				case fromStatic:
					keep = parses && !semErr
				case fromType:
					keep = parses && !semErr && !staticErr
				}
				if keep && !emit(shift(x.Diagnostic, at)) {
					return
				}
			}
		}
		if !parses {
			sortDiagnostics(gathered)
			for _, d := range gathered {
				if !yield(d) {
					return
				}
			}
		}
	}
}

// count returns an upper bound of the number of findings all yields.
func (s *diagState) count() int {
	n := 0
	for _, u := range s.units {
		if u.d != nil {
			n += len(u.d.list)
		}
	}
	return n
}

// sortDiagnostics puts diagnostics in the order they are published: by
// position, then by what they say, so that two analyses finding the same
// things publish the same list.
func sortDiagnostics(ds []diag.Diagnostic) { slices.SortStableFunc(ds, compareDiagnostics) }

func compareDiagnostics(x, y diag.Diagnostic) int {
	return cmp.Or(
		cmp.Compare(x.Span.Start, y.Span.Start),
		cmp.Compare(x.Span.End, y.Span.End),
		cmp.Compare(x.Severity, y.Severity),
		cmp.Compare(x.Code, y.Code),
		cmp.Compare(x.Message, y.Message),
		cmp.Compare(len(x.Related), len(y.Related)),
	)
}

// ---- an edit ----

// derive returns the state of text, a later version of prev's text, or nil
// when it must come from a full analysis.
func derive(prev *diagState, text string, cfg config.Config) *diagState {
	if cfg != prev.cfg || prev.final {
		return nil
	}
	from, oldEnd, newEnd := diffRange(prev.text, text)
	delta := newEnd - oldEnd

	// 1. Parse again from the unit before the edit.
	w := reparse(prev, text, from, oldEnd, delta)
	if w.bound-w.a > len(text)/2+4096 {
		return nil // most of the text changed meaning: a full analysis is cheaper
	}
	n, first, next, a, bound, cut := len(prev.starts), w.first, w.next, w.a, w.bound, w.cut
	win, wunits, wdropped := w.file, w.units, w.dropped
	wstarts, groups := groupUnits(text[a:bound], wunits)
	lines := prev.lines.Splice(text, from, oldEnd, newEnd)

	// The new list of units.
	s := &diagState{text: text, lines: lines, cfg: cfg}
	s.starts = make([]int, 0, first+len(wstarts)+n-next)
	s.starts = append(s.starts, prev.starts[:first]...)
	for _, w := range wstarts {
		s.starts = append(s.starts, w+a)
	}
	for _, st := range prev.starts[next:] {
		s.starts = append(s.starts, st+delta)
	}
	s.units = make([]*unit, 0, len(s.starts))
	s.units = append(s.units, prev.units[:first]...)
	wlo, whi := first, first+len(groups) // the new units' indices
	ds := make([]findings, len(groups))
	for i, g := range groups {
		u := describeUnit(g)
		if f := u.facts(); f.ret || f.seed {
			return nil
		}
		s.units = append(s.units, u)
		for _, pu := range g {
			ds[i].parse = append(ds[i].parse, relative(pu.Diags, wstarts[i])...)
		}
	}
	s.units = append(s.units, prev.units[next:]...)

	// 2. Lint the new units' lines, in both modes.
	local := func(diags []diag.Diagnostic, field func(*findings) *[]diag.Diagnostic) {
		for _, d := range diags {
			if d.Span.Start >= bound-a {
				continue
			}
			i := unitAt(wstarts, d.Span.Start)
			f := field(&ds[i])
			*f = append(*f, shift(d, -wstarts[i]))
		}
	}
	local(wdropped, func(f *findings) *[]diag.Diagnostic { return &f.dropped })
	local(lint.Check(text[a:cut], win, nil, cfg), func(f *findings) *[]diag.Diagnostic { return &f.lintTree })
	local(lint.Check(text[a:cut], nil, nil, cfg), func(f *findings) *[]diag.Diagnostic { return &f.lintTok })

	// The file's context must not have changed.
	ctx, ok := s.context(prev, prev.units[first:next], s.units[wlo:wlo+len(groups)])
	if !ok {
		return nil
	}
	s.ctx = ctx

	// 3. Check again every unit connected to the new ones through a
	// declared name. What the new units declare is learnt by checking them
	// alone first; recheck verifies it.
	var wstmts []ast.Stmt
	for _, g := range groups {
		for _, pu := range g {
			if pu.Stmt != nil {
				wstmts = append(wstmts, pu.Stmt)
			}
		}
	}
	winfo, _ := check.CheckPasses(&ast.File{Range: ast.Range{From: 0, To: bound - a}, Stmts: wstmts}, text[a:bound], ctx)
	wkeys := make([][]uint32, len(groups))
	declaredNames(winfo, func(pos int, h uint32) {
		i := unitAt(wstarts, pos)
		wkeys[i] = append(wkeys[i], h)
	})
	for i := range groups {
		s.units[wlo+i].setKeys(sortedSet(wkeys[i]))
	}
	var gone, goneNames []uint32 // what the replaced units declared and named
	for _, u := range prev.units[first:next] {
		gone = append(gone, u.keys()...)
		goneNames = append(goneNames, u.names()...)
	}
	// Lines after the edit moved when the edit changed the number of lines.
	linesMoved := lines.Count() != prev.lines.Count()
	set := s.connected(wlo, whi, gone, goneNames, linesMoved, a)
	if set == nil {
		return nil
	}
	if !s.recheck(set, ctx, wlo, ds) {
		return nil
	}
	for i := range groups {
		s.units[wlo+i].d = ds[i].pack()
	}
	return s
}

// A window is the stretch of a new text parsed again after an edit: the
// old units [first, next) are replaced by units, parsed from text[a:cut];
// the new units end at bound, where old unit next starts (shifted).
type window struct {
	first, next   int
	a, bound, cut int
	file          *ast.File
	units         []parser.Unit
	dropped       []diag.Diagnostic
}

// reparse parses text, prev's text with [from, oldEnd) replaced (delta
// bytes longer), from the unit before the edit until a unit starts exactly
// where an old one did, with two units of text after it for the parser's
// lookahead; or to the end of the text.
func reparse(prev *diagState, text string, from, oldEnd, delta int) window {
	old, n := prev.text, len(prev.starts)
	w := window{first: max(unitAt(prev.starts, from)-1, 0)}
	// A quote the lexer found no end for looked as far as the end of the
	// text: the edit may have given it one.
	for i, u := range prev.units[:w.first] {
		if u.d != nil && u.d.openQuote(old[prev.starts[i]:]) {
			w.first = i
			break
		}
	}
	w.a = prev.starts[w.first]
	w.next = unitAt(prev.starts, oldEnd) + 1 // first old unit wholly after the edit
	for {
		w.cut = len(text)
		if w.next+2 < n {
			w.cut = prev.starts[w.next+2] + delta
		}
		w.file, w.units, w.dropped = parser.Units(text[w.a:w.cut])
		if w.cut < len(text) && slices.ContainsFunc(w.dropped, func(d diag.Diagnostic) bool { return text[w.a+d.Span.Start] == '"' }) {
			// A quote the lexer found no end for before the cut may have
			// one after it: only the rest of the text can tell.
			w.next = n
			continue
		}
		if w.next >= n {
			w.bound = len(text)
			return w
		}
		w.bound = prev.starts[w.next] + delta
		k := slices.IndexFunc(w.units, func(pu parser.Unit) bool { return pu.Start+w.a >= w.bound })
		if k >= 0 && lineStartOf(text, w.units[k].Start+w.a) == w.bound {
			w.units = w.units[:k]
			return w
		}
		w.next = min(w.next+max(w.next-w.first, 2), n) // no resynchronisation yet: a longer stretch
	}
}

// context returns the check context of the state's units, and false when it
// differs from prev's in a way that changes the findings of units that were
// not edited. The edit replaced the units gone by the units come.
func (s *diagState) context(prev *diagState, gone, come []*unit) (*check.Context, bool) {
	facts := func(us []*unit) (words []string, loads uint8) {
		for _, u := range us {
			f := u.facts()
			words = append(words, f.params...)
			loads |= f.loads
		}
		slices.Sort(words)
		return words, loads
	}
	w0, l0 := facts(gone)
	w1, l1 := facts(come)
	if (l0|l1)&loadInclude != 0 {
		return nil, false // an include came, went or changed: the names it brings
	}
	if l0 == l1 && slices.Equal(w0, w1) {
		return prev.ctx, true // the usual case: the same parameter words went and came
	}
	var words []string
	var loads uint8
	for _, u := range s.units {
		f := u.facts()
		words = append(words, f.params...)
		loads |= f.loads
	}
	ctx := check.NewContext(words, loads&loadInclude != 0, loads&loadModule != 0)
	if ctx.Includes != prev.ctx.Includes || ctx.Loads != prev.ctx.Loads || !maps.Equal(ctx.ParamWords, prev.ctx.ParamWords) {
		return nil, false
	}
	return prev.ctx, true
}

// bloom is a set of name hashes that may answer yes wrongly, never no.
type bloom [64]uint64

func (b *bloom) add(h uint32)      { b[h>>6&63] |= 1 << (h & 63) }
func (b *bloom) has(h uint32) bool { return b[h>>6&63]&(1<<(h&63)) != 0 }

// hashSet is an exact set of name hashes, cheaper to fill than a map.
type hashSet []uint32 // open addressing; 0 marks a free slot, hash 0 is stored as 1

func newHashSet(n int) hashSet {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return make(hashSet, size)
}

func (t hashSet) add(h uint32) {
	h = max(h, 1)
	for i := h * 2654435769 & uint32(len(t)-1); ; i = (i + 1) & uint32(len(t)-1) {
		switch t[i] {
		case h:
			return
		case 0:
			t[i] = h
			return
		}
	}
}

func (t hashSet) has(h uint32) bool {
	h = max(h, 1)
	for i := h * 2654435769 & uint32(len(t)-1); ; i = (i + 1) & uint32(len(t)-1) {
		switch t[i] {
		case h:
			return true
		case 0:
			return false
		}
	}
}

// connected returns the units to check again: the new ones [lo, hi), the
// ones that share a declared name with them or with the replaced units
// (which declared gone and named goneNames), and so on; with linesMoved, also the units after
// offset from whose messages name a line. It returns nil when that is most
// of the file (a full analysis is cheaper).
func (s *diagState) connected(lo, hi int, gone, goneNames []uint32, linesMoved bool, from int) []int {
	n := 0
	for _, u := range s.units {
		n += int(u.nkeys)
	}
	declared := newHashSet(n) // every declared name of the file
	for _, u := range s.units {
		for _, h := range u.keys() {
			declared.add(h)
		}
	}
	keys := map[uint32]bool{}
	var kb bloom
	key := func(h uint32) {
		if !keys[h] {
			keys[h] = true
			kb.add(h)
		}
	}
	in := make([]bool, len(s.units))
	var set []int
	take := func(i int) {
		in[i] = true
		set = append(set, i)
		u := s.units[i]
		for _, h := range u.keys() {
			key(h)
		}
		for _, h := range u.names() {
			if declared.has(h) {
				key(h)
			}
		}
	}
	for _, h := range gone {
		key(h)
	}
	for _, h := range goneNames {
		if declared.has(h) {
			key(h)
		}
	}
	for i := lo; i < hi; i++ {
		take(i)
	}
	if linesMoved {
		for i := hi; i < len(s.units); i++ {
			if s.starts[i] > from && s.units[i].lineRefs() {
				take(i)
			}
		}
	}
	for grew := true; grew; {
		grew = false
		for i, u := range s.units {
			if in[i] {
				continue
			}
			if mentions(u, func(h uint32) bool { return kb.has(h) && keys[h] }) {
				take(i)
				grew = true
			}
		}
		if len(set) > len(s.units)/2+8 {
			return nil
		}
	}
	slices.Sort(set)
	return set
}

// mentions reports whether u names or declares a name that is in a set.
func mentions(u *unit, in func(uint32) bool) bool {
	for _, h := range u.hashes {
		if in(h) {
			return true
		}
	}
	return false
}

// recheck checks the units of set again, on a text made of their texts, and
// stores the findings: in ds for the new units (from index wlo), in copies of
// the others. It returns false when the result cannot be trusted to equal a
// full analysis's.
func (s *diagState) recheck(set []int, ctx *check.Context, wlo int, ds []findings) bool {
	// The text starts with a line break, so that no unit starts at 0: the
	// checker places what has no place (a predeclared name's declaration,
	// a finding about no node) at 0, and so must the mapping back.
	var b strings.Builder
	b.WriteByte('\n')
	segs := make([]int, len(set)) // start of each unit's text in b
	want := 0
	for k, i := range set {
		segs[k] = b.Len()
		b.WriteString(s.text[s.starts[i]:s.end(i)])
		want += int(s.units[i].stmts)
	}
	src := b.String()
	real := func(off int) int {
		if off < segs[0] {
			return 0
		}
		k := unitAt(segs, off)
		return off - segs[k] + s.starts[set[k]]
	}
	f, pus, _ := parser.Units(src)
	stmts := 0
	for _, pu := range pus {
		if pu.Stmt != nil {
			stmts++
		}
	}
	if stmts != want {
		return false
	}
	// toUnit maps a span of src to the real text, relative to unit i.
	toUnit := func(sp token.Span, i int) token.Span {
		by := real(sp.Start) - sp.Start - s.starts[i]
		return token.Span{Start: sp.Start + by, End: sp.End + by}
	}
	withLines := *ctx // the shared context is never modified
	withLines.Line = func(off int) int { return s.lines.Line(real(off)) + 1 }
	info, passes := check.CheckPasses(f, src, &withLines)

	out := make(map[int]*findings, len(set))
	for _, i := range set {
		f := new(findings)
		if i >= wlo && i < wlo+len(ds) {
			f = &ds[i-wlo]
		} else {
			*f = s.units[i].d.unpack()
		}
		f.analyzer, f.static, f.typ = nil, nil, nil
		out[i] = f
	}
	put := func(diags []diag.Diagnostic, field func(*findings) *[]diag.Diagnostic) bool {
		for _, d := range diags {
			if d.Span.Start < segs[0] && s.starts[set[0]] != 0 {
				return false // a finding without a place belongs to the first unit, not checked here
			}
			i := set[unitAt(segs, d.Span.Start)]
			d.Span = toUnit(d.Span, i)
			if len(d.Related) > 0 {
				rel := make([]diag.Related, len(d.Related))
				for k, r := range d.Related {
					r.Span = toUnit(r.Span, i)
					rel[k] = r
				}
				d.Related = rel
			}
			f := field(out[i])
			*f = append(*f, d)
		}
		return true
	}
	if !put(passes.Analyzer, func(f *findings) *[]diag.Diagnostic { return &f.analyzer }) ||
		!put(passes.Static, func(f *findings) *[]diag.Diagnostic { return &f.static }) ||
		!put(passes.Type, func(f *findings) *[]diag.Diagnostic { return &f.typ }) {
		return false
	}
	keys := make(map[int][]uint32, len(set))
	declaredNames(info, func(pos int, h uint32) {
		i := set[unitAt(segs, pos)] // every declaration is in a unit
		keys[i] = append(keys[i], h)
	})
	// The names the units declare now must not reach outside the set.
	in := make(map[int]bool, len(set))
	for _, i := range set {
		in[i] = true
	}
	fresh := map[uint32]bool{}
	for _, i := range set {
		ks := sortedSet(keys[i])
		for _, h := range ks {
			if _, found := slices.BinarySearch(s.units[i].keys(), h); !found {
				fresh[h] = true
			}
		}
		if i < wlo || i >= wlo+len(ds) {
			// A unit of an earlier version: a new one with the new findings.
			old := s.units[i]
			u := &unit{hashes: old.hashes, nkeys: old.nkeys, stmts: old.stmts, d: out[i].pack(), top: old.top}
			u.setKeys(ks)
			s.units[i] = u
		} else {
			s.units[i].setKeys(ks)
		}
	}
	if len(fresh) > 0 {
		for i, u := range s.units {
			if in[i] {
				continue
			}
			if mentions(u, func(h uint32) bool { return fresh[h] }) {
				return false
			}
		}
	}
	return true
}
