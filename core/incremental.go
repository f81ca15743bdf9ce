package core

// This file keeps a document's diagnostics current edit by edit, without
// analysing the whole text again.
//
// A document is cut into units: a top-level statement (parser.Unit) with the
// lines after it up to the next one. The parser keeps no state from one
// top-level statement to the next, the linter judges lines, and the checker
// connects statements only through names that some statement declares. So
// after an edit:
//
//  1. the units the edit touches are parsed again, with one unit before them
//     and until the parse starts a unit where an old one started (then the
//     rest of the text parses as before, shifted);
//  2. their lines are linted again;
//  3. the statements that share a declared name with them, directly or
//     through others, are checked again, on a text made of just those
//     units, with the file's context (check.Context);
//  4. every other unit keeps what it had, its spans relative to its start.
//
// Where that reasoning does not hold (a top-level return makes every later
// statement unreachable; `random_seed` findings depend on the whole file; a
// change to the words of action parameters, to includes or to the lint
// configuration) the whole text is analysed again. TestIncrementalEqualsFull
// checks the result against a full analysis after random edits of every
// corpus program.

import (
	"cmp"
	"slices"
	"strings"
	"sync/atomic"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/config"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lint"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// diagState is the diagnostics of one snapshot and what a next one needs to
// derive its own: the units, in order.
type diagState struct {
	text   string
	lines  *token.Lines
	cfg    config.Config
	starts []int   // offset of each unit's first line; starts[0] == 0
	units  []*unit // immutable, shared by the states of later versions
	diags  []diag.Diagnostic
}

// A unit is what the front end found in one unit's text, spans relative to
// the unit's start.
type unit struct {
	stmts  int        // number of top-level statements
	d      *unitDiags // nil when the unit has no findings at all
	names  []uint32   // hashes of every name the unit mentions, sorted
	keys   []uint32   // hashes of the names it declares, parameters aside
	params []string   // the parameter words of its top-level actions
	loads  uint8      // loadInclude | loadModule
	ret    bool       // a top-level return (later statements are unreachable)
	seed   bool       // names random_seed (its findings depend on the whole file)

	pub atomic.Pointer[[]diag.Diagnostic] // see published
}

const (
	loadInclude = 1 << iota
	loadModule
)

type unitDiags struct {
	parse    []diag.Diagnostic // as raised, before parser.FilterFirst
	dropped  []diag.Diagnostic
	lintTok  []diag.Diagnostic // lint without a tree: published when the file does not parse
	lintTree []diag.Diagnostic // lint with the tree: published when it does
	analyzer []diag.Diagnostic
	static   []diag.Diagnostic
	typ      []diag.Diagnostic
}

func (d *unitDiags) empty() bool {
	return len(d.parse)+len(d.dropped)+len(d.lintTok)+len(d.lintTree)+len(d.analyzer)+len(d.static)+len(d.typ) == 0
}

// lineRefs reports whether a message of the unit names a line (`already
// defined at line 3`): it changes when lines are added above.
func (u *unit) lineRefs() bool {
	if u.d == nil {
		return false
	}
	for _, d := range u.d.analyzer {
		if strings.Contains(d.Message, "at line ") {
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
func fullState(text string, a *Analysis) *diagState {
	s := &diagState{text: text, lines: a.Lines, cfg: a.raw.cfg}
	var groups [][]parser.Unit
	s.starts, groups = groupUnits(text, a.raw.units)
	s.units = make([]*unit, len(groups))
	ds := make([]unitDiags, len(groups))
	for i, g := range groups {
		s.units[i] = describeUnit(g)
		for _, pu := range g {
			ds[i].parse = append(ds[i].parse, relative(pu.Diags, s.starts[i])...)
		}
	}
	s.distribute(a.raw.dropped, ds, func(d *unitDiags) *[]diag.Diagnostic { return &d.dropped })
	// The linter ran in one mode; the other is needed when the document
	// starts or stops parsing.
	parses := !hasError(parseDiagnostics(a.raw.units, a.raw.dropped))
	tree, tok := a.raw.lint, lint.Check(text, nil, nil, a.raw.cfg)
	if !parses {
		tree, tok = lint.Check(text, a.File, nil, a.raw.cfg), a.raw.lint
	}
	s.distribute(tree, ds, func(d *unitDiags) *[]diag.Diagnostic { return &d.lintTree })
	s.distribute(tok, ds, func(d *unitDiags) *[]diag.Diagnostic { return &d.lintTok })
	s.distribute(a.raw.passes.Analyzer, ds, func(d *unitDiags) *[]diag.Diagnostic { return &d.analyzer })
	s.distribute(a.raw.passes.Static, ds, func(d *unitDiags) *[]diag.Diagnostic { return &d.static })
	s.distribute(a.raw.passes.Type, ds, func(d *unitDiags) *[]diag.Diagnostic { return &d.typ })
	keys := make([][]uint32, len(s.units))
	declaredNames(a.Info, func(pos int, h uint32) {
		i := unitAt(s.starts, pos)
		keys[i] = append(keys[i], h)
	})
	for i, u := range s.units {
		u.keys = sortedSet(keys[i])
		if !ds[i].empty() {
			u.d = &ds[i]
		}
	}
	s.diags = s.assemble()
	return s
}

// distribute adds each diagnostic to the unit holding its start, relative
// to that unit's start.
func (s *diagState) distribute(diags []diag.Diagnostic, ds []unitDiags, field func(*unitDiags) *[]diag.Diagnostic) {
	for _, d := range diags {
		i := unitAt(s.starts, d.Span.Start)
		f := field(&ds[i])
		*f = append(*f, shift(d, -s.starts[i]))
	}
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
	u := &unit{stmts: len(g)}
	var names []uint32
	for _, pu := range g {
		switch st := pu.Stmt.(type) {
		case *ast.ActionDecl:
			u.params = append(u.params, check.ParamWords(st)...)
		case *ast.LoadStmt:
			if st.Include {
				u.loads |= loadInclude
			} else {
				u.loads |= loadModule
			}
		case *ast.ReturnStmt:
			u.ret = true
		}
		if pu.Stmt != nil {
			names = appendNames(names, pu.Stmt)
		}
	}
	u.names = sortedSet(names)
	_, u.seed = slices.BinarySearch(u.names, nameHash("random_seed"))
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
// order (sortDiagnostics): each unit's list is sorted, and units follow one
// another in the text.
func (s *diagState) assemble() []diag.Diagnostic {
	// As parser.FilterFirst: the first parse error raised, then those not
	// before it. Every parse diagnostic but a dropped character is an error.
	first, parses := 0, true
	semErr, staticErr := false, false
	n := 0
	for i, u := range s.units {
		if u.d == nil {
			continue
		}
		if parses && len(u.d.parse) > 0 {
			first, parses = s.starts[i]+u.d.parse[0].Span.Start, false
		}
		semErr = semErr || hasError(u.d.analyzer)
		staticErr = staticErr || hasError(u.d.static)
		n += len(u.d.parse) + len(u.d.dropped) + max(len(u.d.lintTok), len(u.d.lintTree)+len(u.d.analyzer)+len(u.d.static)+len(u.d.typ))
	}
	clean := parses && !semErr && !staticErr
	out := make([]diag.Diagnostic, 0, n)
	var list []diag.Diagnostic
	for i, u := range s.units {
		if u.d == nil {
			continue
		}
		at := s.starts[i]
		if clean {
			for _, d := range u.published() {
				out = append(out, shift(d, at))
			}
			continue
		}
		list = list[:0]
		for k, d := range u.d.parse {
			if d.Span.Start+at >= first || (k == 0 && d.Span.Start+at == first) {
				list = append(list, d)
			}
		}
		list = append(list, u.d.dropped...)
		if !parses {
			list = append(list, u.d.lintTok...)
		} else {
			list = append(list, u.d.analyzer...)
			if !semErr {
				list = append(list, u.d.static...)
				if !staticErr {
					list = append(list, u.d.typ...)
				}
			}
			list = append(list, u.d.lintTree...)
		}
		sortDiagnostics(list)
		for _, d := range list {
			out = append(out, shift(d, at))
		}
	}
	// A parse error may lie past the end of the unit that raised it.
	if !parses && !slices.IsSortedFunc(out, compareDiagnostics) {
		sortDiagnostics(out)
	}
	return out
}

// published returns what the unit publishes, relative to its start, when
// the file parses and has no semantic error: the common case, computed once.
func (u *unit) published() []diag.Diagnostic {
	if p := u.pub.Load(); p != nil {
		return *p
	}
	d := u.d
	list := make([]diag.Diagnostic, 0, len(d.dropped)+len(d.analyzer)+len(d.static)+len(d.typ)+len(d.lintTree))
	list = append(append(append(append(append(list, d.dropped...), d.analyzer...), d.static...), d.typ...), d.lintTree...)
	sortDiagnostics(list)
	u.pub.Store(&list)
	return list
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
	if cfg != prev.cfg {
		return nil
	}
	old := prev.text
	from, oldEnd, newEnd := diffRange(old, text)
	delta := newEnd - oldEnd
	for _, u := range prev.units {
		if u.ret || u.seed {
			return nil
		}
	}

	// 1. Parse from the unit before the edit until a unit starts where an
	// old one did, two units past the edit (lookahead), or to the end.
	n := len(prev.starts)
	first := max(unitAt(prev.starts, from)-1, 0)
	// A quote the lexer found no end for looked as far as the end of the
	// text: the edit may have given it one.
	for i, u := range prev.units[:first] {
		if u.d != nil && slices.ContainsFunc(u.d.dropped, func(d diag.Diagnostic) bool { return old[prev.starts[i]+d.Span.Start] == '"' }) {
			first = i
			break
		}
	}
	a := prev.starts[first]
	next := unitAt(prev.starts, oldEnd) + 1 // first old unit wholly after the edit
	var (
		win      *ast.File
		wunits   []parser.Unit
		wdropped []diag.Diagnostic
		bound    int // end of the parsed units in text
		cut      int
	)
	for {
		cut = len(text)
		if next+2 < n {
			cut = prev.starts[next+2] + delta
		}
		win, wunits, wdropped = parser.Units(text[a:cut])
		if cut < len(text) && slices.ContainsFunc(wdropped, func(d diag.Diagnostic) bool { return text[a+d.Span.Start] == '"' }) {
			// A quote the lexer found no end for before the cut may have
			// one after it: only the rest of the text can tell.
			next = n
			continue
		}
		if next >= n {
			bound = len(text)
			break
		}
		bound = prev.starts[next] + delta
		k := slices.IndexFunc(wunits, func(pu parser.Unit) bool { return pu.Start+a >= bound })
		if k >= 0 && lineStartOf(text, wunits[k].Start+a) == bound && (k == 0 || wunits[k-1].Start+a < bound) {
			wunits = wunits[:k]
			break
		}
		next = min(next+max(next-first, 2), n) // no resynchronisation yet: a longer stretch
	}
	wstarts, groups := groupUnits(text[a:bound], wunits)
	if first == 0 {
		wstarts[0] = 0
	}
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
	ds := make([]unitDiags, len(groups))
	for i, g := range groups {
		u := describeUnit(g)
		if u.ret || u.seed {
			return nil
		}
		s.units = append(s.units, u)
		for _, pu := range g {
			ds[i].parse = append(ds[i].parse, relative(pu.Diags, wstarts[i])...)
		}
	}
	s.units = append(s.units, prev.units[next:]...)

	// 2. Lint the new units' lines, in both modes.
	local := func(diags []diag.Diagnostic, field func(*unitDiags) *[]diag.Diagnostic) {
		for _, d := range diags {
			if d.Span.Start >= bound-a {
				continue
			}
			i := unitAt(wstarts, d.Span.Start)
			f := field(&ds[i])
			*f = append(*f, shift(d, -wstarts[i]))
		}
	}
	local(wdropped, func(d *unitDiags) *[]diag.Diagnostic { return &d.dropped })
	local(lint.Check(text[a:cut], win, nil, cfg), func(d *unitDiags) *[]diag.Diagnostic { return &d.lintTree })
	local(lint.Check(text[a:cut], nil, nil, cfg), func(d *unitDiags) *[]diag.Diagnostic { return &d.lintTok })

	// The file's context must not have changed.
	ctx, ok := s.context(prev)
	if !ok {
		return nil
	}

	// 3. Check again every unit connected to the new ones through a
	// declared name.
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
		s.units[wlo+i].keys = sortedSet(wkeys[i])
	}
	var gone, goneNames []uint32 // what the replaced units declared and named
	for _, u := range prev.units[first:next] {
		gone = append(gone, u.keys...)
		goneNames = append(goneNames, u.names...)
	}
	linesMoved := strings.Count(old[from:oldEnd], "\n")+strings.Count(old[from:oldEnd], "\r") !=
		strings.Count(text[from:newEnd], "\n")+strings.Count(text[from:newEnd], "\r")
	set := s.connected(wlo, whi, gone, goneNames, linesMoved, a)
	if set == nil {
		return nil
	}
	if !s.recheck(set, ctx, wlo, ds) {
		return nil
	}
	for i := range groups {
		if !ds[i].empty() {
			d := ds[i]
			s.units[wlo+i].d = &d
		}
	}
	s.diags = s.assemble()
	return s
}

// context returns the check context of the state's units, and false when it
// differs from prev's in a way that changes the findings of units that were
// not edited.
func (s *diagState) context(prev *diagState) (*check.Context, bool) {
	ctx := &check.Context{ParamWords: map[string]bool{}}
	var loads uint8
	for _, u := range s.units {
		for _, w := range u.params {
			ctx.ParamWords[w] = true
		}
		loads |= u.loads
	}
	for _, w := range []string{"count", "loopcounter", "helper_function", "nested_function", "y"} {
		ctx.ParamWords[w] = true
	}
	ctx.Includes, ctx.Loads = loads&loadInclude != 0, loads&loadModule != 0
	var before uint8
	words := map[string]bool{}
	for _, u := range prev.units {
		before |= u.loads
		for _, w := range u.params {
			words[w] = true
		}
	}
	if before != loads {
		return nil, false
	}
	for w := range words {
		if !ctx.ParamWords[w] {
			return nil, false
		}
	}
	for _, u := range s.units {
		for _, w := range u.params {
			if !words[w] && !isFixedParamWord(w) {
				return nil, false
			}
		}
	}
	return ctx, true
}

func isFixedParamWord(w string) bool {
	switch w {
	case "count", "loopcounter", "helper_function", "nested_function", "y":
		return true
	}
	return false
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
		n += len(u.keys)
	}
	declared := newHashSet(n) // every declared name of the file
	for _, u := range s.units {
		for _, h := range u.keys {
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
		for _, h := range u.keys {
			key(h)
		}
		for _, h := range u.names {
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
	for _, h := range u.names {
		if in(h) {
			return true
		}
	}
	for _, h := range u.keys {
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
func (s *diagState) recheck(set []int, ctx *check.Context, wlo int, ds []unitDiags) bool {
	var b strings.Builder
	segs := make([]int, len(set)) // start of each unit's text in b
	want := 0
	for k, i := range set {
		segs[k] = b.Len()
		b.WriteString(s.text[s.starts[i]:s.end(i)])
		want += s.units[i].stmts
	}
	src := b.String()
	real := func(off int) int {
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
	ctx.Line = func(off int) int { return s.lines.Line(real(off)) + 1 }
	info, passes := check.CheckPasses(f, src, ctx)

	out := make(map[int]*unitDiags, len(set))
	for _, i := range set {
		d := &unitDiags{}
		if i >= wlo && i < wlo+len(ds) {
			d = &ds[i-wlo]
		} else if old := s.units[i].d; old != nil {
			*d = *old
		}
		d.analyzer, d.static, d.typ = nil, nil, nil
		out[i] = d
	}
	put := func(diags []diag.Diagnostic, field func(*unitDiags) *[]diag.Diagnostic) bool {
		for _, d := range diags {
			if d.Span == (token.Span{}) && s.starts[set[0]] != 0 {
				return false // a finding without a place: where would the full analysis put it?
			}
			i := set[unitAt(segs, d.Span.Start)]
			by := real(d.Span.Start) - d.Span.Start
			d.Span.Start += by
			d.Span.End += by
			if len(d.Related) > 0 {
				rel := make([]diag.Related, len(d.Related))
				for k, r := range d.Related {
					rb := real(r.Span.Start) - r.Span.Start
					r.Span.Start += rb
					r.Span.End += rb
					rel[k] = r
				}
				d.Related = rel
			}
			f := field(out[i])
			*f = append(*f, shift(d, -s.starts[i]))
		}
		return true
	}
	if !put(passes.Analyzer, func(d *unitDiags) *[]diag.Diagnostic { return &d.analyzer }) ||
		!put(passes.Static, func(d *unitDiags) *[]diag.Diagnostic { return &d.static }) ||
		!put(passes.Type, func(d *unitDiags) *[]diag.Diagnostic { return &d.typ }) {
		return false
	}
	keys := make(map[int][]uint32, len(set))
	declaredNames(info, func(pos int, h uint32) {
		i := set[unitAt(segs, pos)]
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
			if _, found := slices.BinarySearch(s.units[i].keys, h); !found {
				fresh[h] = true
			}
		}
		if i < wlo || i >= wlo+len(ds) {
			old := s.units[i]
			u := &unit{stmts: old.stmts, d: out[i], names: old.names, keys: ks, params: old.params, loads: old.loads, ret: old.ret}
			if u.d.empty() {
				u.d = nil
			}
			s.units[i] = u
		} else {
			s.units[i].keys = ks
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
