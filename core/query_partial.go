package core

// This file implements the partial analyses of query.go: what a snapshot
// keeps of its base, the closure of a query's units, and the analysis of
// just those units.

import (
	"context"
	"iter"
	"runtime"
	"runtime/trace"
	"slices"
	"sort"
	"strings"
	"sync"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// queryState is what a snapshot's partial analyses start from; it is
// computed once, by the first query that needs it.
type queryState struct {
	cuts  []int // the quote left open that the text closes (Snapshot.quote.closes), or nil
	st    *diagState
	view  *indexView // st's units through the base's index: also the names they declare
	limit int        // the most units a partial analysis may take

	// seeds are taken by every partial analysis: the units that are not
	// the base's (and those after one, or after one removed), and those
	// with an include. A
	// unit that only checks one of the base's again, declaring what it did,
	// counts as the base's (unit.root): else every unit an edit's names
	// reached would be taken at every keystroke until the next full
	// analysis.
	seeds []int

	// The names of the other units are the base's top-level symbols of
	// the units that are still the base's and not seeds (see move).
	b      *queryBase
	isSeed []bool // by unit of st
	// containers are the base's containers of those units, by name.
	containers map[string]*check.Symbol

	mu    sync.Mutex // guards parts, not held while one is built
	parts []*partial // the partial analyses built or being built, the latest last
}

// A partial is one partial analysis and the units it took (sorted), or
// one being built for the units [first, last] and the others they reach.
type partial struct {
	first, last int           // the units asked for
	uses        uint32        // the hash of a name every unit naming which it takes, or 0 (answer)
	done        chan struct{} // closed once units and a are set
	units       []int
	a           *Analysis // nil: the full analysis answers
}

// maxParts is how many partial analyses a snapshot keeps.
const maxParts = 4

// coverage is what a partial analysis parsed: stretches of whole lines of
// the text, in order; and the state it was made from.
type coverage struct {
	runs []token.Span
	q    *queryState
}

// PartialIncludes reports whether the analysis is a partial one and the
// file it reads includes others, whose names it reads from its base.
func (a *Analysis) PartialIncludes() bool {
	if a.part == nil {
		return false
	}
	ctx := a.part.q.st.ctx
	return ctx != nil && ctx.Includes
}

// covers reports whether offset lies in a stretch the analysis parsed.
func (a *Analysis) covers(offset int) bool {
	if a.part == nil {
		return true
	}
	runs := a.part.runs
	i := sort.Search(len(runs), func(i int) bool { return runs[i].End > offset })
	return i < len(runs) && runs[i].Start <= offset
}

// query returns the snapshot's query state, or nil when queries must use
// the full analysis: no analysed version to start from, or diagnostics
// that were not derived (then the analysis is computed anyway).
func (s *Snapshot) query() *queryState {
	s.qOnce.Do(func() {
		defer trace.StartRegion(context.Background(), "core.queryState").End()
		defer func() {
			if recover() != nil {
				s.q = nil // a broken invariant: the full analysis answers
			}
		}()
		b := s.qbase.Load()
		if b == nil {
			return
		}
		st := s.diagState()
		if !s.derived || s.analysed.Load() {
			return
		}
		s.q = newQueryState(st, b.take())
		if s.quote.closes > 0 {
			s.q.cuts = []int{s.quote.closes - 1}
		}
	})
	return s.q
}

// A queryBase is what the partial analyses of later versions need of an
// analysed version (their base): the units of its diagnostics' state and
// where they start, and its file scope's names and its containers. Not its
// tree, its other tables, its diagnostics nor its text: once taken, the
// base's snapshot is not kept, and while a document is being typed into
// only the symbols of its top-level names (and the declarations they
// point to) stay of the analysis it had.
type queryBase struct {
	once sync.Once
	snap *Snapshot // the base, until taken

	starts     []int
	units      []*unit
	symbols    check.SymbolTable  // the file scope's (a copy: the scope holds the tree)
	injected   *check.SymbolTable // the file scope's
	containers map[string]*check.Symbol

	namesCache    // the file scope's names by spelling, for completion (names.go)
	mentionsCache // the units by the names they hold, for the partial analyses (mentions.go)
}

// newQueryBase returns the query base of an analysed snapshot. It is taken
// at once when the snapshot's diagnostics are computed (as the publisher
// does before the next edit), else by the first partial analysis.
func newQueryBase(s *Snapshot) *queryBase {
	b := &queryBase{snap: s}
	if s.diags.Load() != nil {
		b.take()
	}
	return b
}

// take returns the base, taking what it needs of its snapshot on first
// use.
func (b *queryBase) take() *queryBase {
	b.once.Do(func() {
		s := b.snap
		st, a := s.diagState(), s.reference()
		b.starts, b.units = st.starts, roots(st.units)
		if a.Info != nil && a.Info.Global != nil {
			b.symbols = a.Info.Global.Symbols
			b.injected = a.Info.Global.Injected()
			b.containers = a.Info.Containers
		}
		b.snap = nil
	})
	return b
}

// newQueryState matches the units of st with those of the base's state,
// by root.
func newQueryState(st *diagState, b *queryBase) *queryState {
	n := len(st.units)
	v := b.mentions().view(st.units, true)
	q := &queryState{st: st, view: v, limit: int(float64(n)*partialMax) + 1}
	// The dirty units are those that are not the base's, and those whose
	// unit before is not the one before them in the base (a doc comment
	// above a unit lies in the unit before: a unit after one changed or
	// removed may have another). They are between the ends the two lists
	// share, or the first unit after them. The seeds are those, and the
	// includes when the file has any (its context says).
	dirty := func(i int) bool {
		k := v.to(i)
		switch {
		case k < 0:
			return true
		case i == 0:
			return k != 0
		}
		before := v.to(i - 1)
		return before < 0 || before != k-1
	}
	includes := st.ctx != nil && st.ctx.Includes
	lo, hi := v.pre, min(n-v.suf, n-1) // where the dirty units may be
	if includes {
		lo, hi = 0, n-1 // and the includes anywhere
	}
	for i := lo; i <= hi; i++ {
		if (i >= v.pre && i <= n-v.suf) && dirty(i) || includes && st.units[i].facts().loads&loadInclude != 0 {
			q.seeds = append(q.seeds, i)
		}
	}
	q.b = b
	q.isSeed = make([]bool, n)
	for _, i := range q.seeds {
		q.isSeed[i] = true
	}
	q.containers = map[string]*check.Symbol{}
	for name, sym := range b.containers {
		if c := q.move(sym); c != nil {
			q.containers[name] = c
		}
	}
	return q
}

// roots returns the units a partial analysis takes units for (unit.root):
// those the base's symbols were made of, where a unit only checks one
// again. It is units itself when none does.
func roots(units []*unit) []*unit {
	i := slices.IndexFunc(units, func(u *unit) bool { return u.origin != nil })
	if i < 0 {
		return units
	}
	out := slices.Clone(units)
	for ; i < len(out); i++ {
		out[i] = out[i].root()
	}
	return out
}

// matchUnits returns, for each of units, the index of the same unit (the
// same pointer) in old, or -1. Units are shared as a prefix and a suffix,
// and here and there between (alignShared).
func matchUnits(units, old []*unit) []int32 { return match(units, old, false) }

// match is matchUnits, by the units' roots (unit.root) when byRoot is set.
func match(units, old []*unit, byRoot bool) []int32 {
	pre, suf, mid := alignEnds(units, old, byRoot)
	n, nB := len(units), len(old)
	to := make([]int32, n)
	for i := range pre {
		to[i] = int32(i)
	}
	copy(to[pre:], mid)
	for j := range suf {
		to[n-1-j] = int32(nB - 1 - j)
	}
	return to
}

// alignEnds returns how many units the two lists share at their start
// (pre) and at their end (suf), by root when byRoot is set, and the
// matching of the units between (alignShared).
func alignEnds(units, old []*unit, byRoot bool) (pre, suf int, mid []int32) {
	n, nB := len(units), len(old)
	for pre < n && pre < nB && same(units[pre], old[pre], byRoot) {
		pre++
	}
	for suf < n-pre && suf < nB-pre && same(units[n-1-suf], old[nB-1-suf], byRoot) {
		suf++
	}
	mid = make([]int32, n-suf-pre)
	alignShared(units[pre:n-suf], byRoot, old[pre:nB-suf], mid, int32(pre))
	return pre, suf, mid
}

// same reports whether rootIf(u, byRoot) is o, looking at u only when the
// pointers differ: most units of a list are those of the list it is
// matched with, and a walk that reads every unit's fields costs a cache
// miss a unit.
func same(u, o *unit, byRoot bool) bool {
	return u == o || byRoot && u.origin != nil && u.origin == o
}

// rootIf returns u's root when byRoot is set, else u.
func rootIf(u *unit, byRoot bool) *unit {
	if byRoot && u.origin != nil {
		return u.origin
	}
	return u
}

// alignShared sets to[i] to the index (from base on) of the unit of old that
// is units[i] (its root, with byRoot), or -1, where units and old are the
// stretches between a prefix and a suffix the two lists share. Units keep
// their order, and most of those in the stretch are shared at the same
// distance from its start (while typing, the few units checked again since
// old are spread over the document, one of them often near the top): a
// unit that is not old's at that distance starts a run that is not old's,
// up to the next that is (16 units at most, or the end of the stretch,
// with as many units in each); only beyond that are old's units looked up
// by a map. A unit of such a run that old does hold elsewhere in the run
// is taken as changed: the partial analyses take it in too, which only
// makes them a little larger.
func alignShared(units []*unit, byRoot bool, old []*unit, to []int32, base int32) {
	n := len(units)
	i, k := 0, 0
	for i < n {
		if k < len(old) && same(units[i], old[k], byRoot) {
			to[i] = base + int32(k)
			i, k = i+1, k+1
			continue
		}
		j := 1
		for j <= 16 && i+j < n && k+j < len(old) && !same(units[i+j], old[k+j], byRoot) {
			j++
		}
		if j <= 16 && (i+j < n && k+j < len(old) || i+j == n && k+j == len(old)) {
			for ; j > 0; j-- {
				to[i] = -1
				i, k = i+1, k+1
			}
			continue
		}
		at := make(map[*unit]int, len(old)-k)
		for ; k < len(old); k++ {
			at[old[k]] = k
		}
		for ; i < n; i++ {
			to[i] = -1
			if k, ok := at[rootIf(units[i], byRoot)]; ok {
				to[i] = base + int32(k)
			}
		}
	}
}

// move returns a symbol of the base as it is in this text: itself, or a
// copy whose declaration is moved where its unit now is; nil when it is
// an included file's (the context has those) or its unit is taken by
// every partial analysis.
func (q *queryState) move(sym *check.Symbol) *check.Symbol {
	by, ok := q.shift(sym)
	if !ok {
		return nil
	}
	if by == 0 || sym.Decl.End == 0 {
		return sym
	}
	c := *sym
	c.Decl.Start += by
	c.Decl.End += by
	return &c
}

// shift returns how far the declaration of a symbol of the base moved in
// this text, and false when move would hide it.
func (q *queryState) shift(sym *check.Symbol) (int, bool) {
	return q.shiftFrom(baseUnit(q.b.starts, sym))
}

// baseUnit returns the unit of starts (the base's) that declares sym, or
// -1 when it is an included file's or has no place.
func baseUnit(starts []int, sym *check.Symbol) int {
	if sym == nil || sym.From() != "" {
		return -1
	}
	pos := sym.Decl.Start
	if sym.Decl.End == 0 {
		if sym.Node == nil {
			return -1
		}
		pos = sym.Node.Pos()
	}
	return unitAt(starts, pos)
}

// shiftFrom is shift for a symbol declared in unit k of the base (-1:
// none).
func (q *queryState) shiftFrom(k int) (int, bool) {
	if k < 0 {
		return 0, false
	}
	i := q.view.from(int32(k))
	if i < 0 || q.isSeed[i] {
		return 0, false
	}
	return q.st.starts[i] - q.b.starts[k], true
}

// lookup is a partial analysis's check.Scope.Outer: the name as the base
// has it at the top level, if its unit is one of the other units.
func (q *queryState) lookup(name string, bound bool) *check.Symbol {
	if bound {
		return q.move(q.b.injected.Get(name))
	}
	return q.move(q.b.symbols.Get(name))
}

// outer yields the top-level names of the other units that keep accepts,
// declared (bound false) or bound, each the base's symbol and how far its
// declaration moved (as move would move it).
func (q *queryState) outer(bound bool, keep func(string, *check.Symbol) bool, prefixes []string) iter.Seq2[string, Scoped] {
	return func(yield func(string, Scoped) bool) {
		table := &q.b.symbols
		if bound {
			table = q.b.injected
		}
		if len(prefixes) > 0 && table.Len() > smallIndex {
			// The index knows the unit of each symbol.
			for name, e := range q.b.topNames(bound).starting(prefixes) {
				if !keep(name, e.sym) {
					continue
				}
				if by, ok := q.shiftFrom(e.unit); ok && !yield(name, Scoped{e.sym, by}) {
					return
				}
			}
			return
		}
		for name, sym := range table.All() {
			if !keep(name, sym) {
				continue
			}
			if by, ok := q.shift(sym); ok && !yield(name, Scoped{sym, by}) {
				return
			}
		}
	}
}

// answer returns a partial analysis that answers the queries about span,
// or nil when the full analysis should. It holds the units of span, the
// seeds, and their contexts (reach.go); when uses is not 0, every unit
// that names the name of that hash too, so that it holds every use of it.
func (q *queryState) answer(span token.Span, uses uint32) *Analysis {
	st := q.st
	first, last := unitAt(st.starts, span.Start), unitAt(st.starts, max(span.End-1, span.Start))
	switch {
	case span.End > span.Start:
		// A stretch of text (a visible range, or the units of one): its
		// units hold everything in it.
	case first > 0 && st.starts[first] == span.Start:
		first-- // a cursor at a line start may be just after the line before
	case first > 0 && wordAtUnitStart(st.text[st.starts[first]:span.Start]):
		// The word being typed starts the unit's first line: completion
		// asks whether it lies in the statement before, which, when the
		// parser could not read it, ends where this unit starts.
		first--
	}
	a, p := q.find(first, last, uses)
	if p == nil {
		return a
	}
	defer func() {
		close(p.done)
		// Those that waited for it run first: the caller's own answer may
		// be the long one (a completion's list), theirs short (hover,
		// definition, signature help), and on two cores they would wait
		// for it.
		runtime.Gosched()
	}()

	defer trace.StartRegion(context.Background(), "core.partial").End()
	set := q.reach(first, last, uses)
	if set == nil {
		return nil
	}
	if p.a = q.analyse(set); p.a != nil {
		p.units = set
		// What every query of it reads first, made before those waiting
		// for it run: else the first of them makes it while the others wait
		// for it in turn.
		indexOf(p.a).tokens(st.text, p.a.part)
	}
	return p.a
}

// reach returns the units a partial analysis of the units [first, last]
// takes (see answer), sorted, or nil when they are too many.
func (q *queryState) reach(first, last int, uses uint32) []int {
	r := newReach(q.view, q.limit)
	for _, i := range q.seeds {
		r.raise(i, roleContext)
	}
	for i := first; i <= last; i++ {
		r.raise(i, roleContext)
	}
	if uses != 0 {
		q.view.holders(uses, holdAny, func(i int) { r.raise(i, roleContext) })
	}
	if !r.close() {
		return nil
	}
	slices.Sort(r.set)
	return r.set
}

// wordAtUnitStart reports whether before, the text of a unit's first line
// up to a cursor, is the words of a name being typed from the line's start
// (see trailingWords).
func wordAtUnitStart(before string) bool {
	if strings.IndexByte(before, '\n') >= 0 {
		return false
	}
	words, at := TrailingWords(before)
	return len(words) > 0 && at == 0
}

// find returns the partial analysis built for the units [first, last], or
// one that took them, waiting for one being built for them or for more
// units around them; or, when there is none, the entry of a partial
// analysis to build for them, which the caller closes when it is built. A
// partial analysis being built for other units does not make it wait:
// hover and definition find the one completion built while the one of the
// visible range is being built. One that takes the uses of a name (see
// answer) serves the others once it is built; they never serve it.
func (q *queryState) find(first, last int, uses uint32) (*Analysis, *partial) {
	for {
		q.mu.Lock()
		var wait *partial
		for _, p := range slices.Backward(q.parts) {
			if p.uses != uses {
				if uses == 0 && p.ready() && p.has(first, last) {
					q.mu.Unlock()
					return p.a, nil
				}
				continue
			}
			if p.first == first && p.last == last || p.first <= first && last <= p.last && !p.ready() {
				wait = p
				break
			}
			if p.ready() && p.has(first, last) {
				q.mu.Unlock()
				return p.a, nil
			}
		}
		if wait == nil {
			p := &partial{first: first, last: last, uses: uses, done: make(chan struct{})}
			if len(q.parts) == maxParts {
				q.parts = slices.Delete(q.parts, 0, 1)
			}
			q.parts = append(q.parts, p)
			q.mu.Unlock()
			return nil, p
		}
		q.mu.Unlock()
		<-wait.done
		if wait.first == first && wait.last == last || wait.a != nil {
			return wait.a, nil // the same units: the same answer, nil or not
		}
		// The units around them reached too many others: these alone may
		// not. Look again (that entry is built now, so it is passed over).
	}
}

// ready reports whether the partial analysis is built.
func (p *partial) ready() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// has reports whether the partial analysis is built and took the units
// [first, last].
func (p *partial) has(first, last int) bool {
	i, found := slices.BinarySearch(p.units, first)
	if !found || i+last-first >= len(p.units) {
		return false
	}
	return p.units[i+last-first] == last
}

// analyse parses and checks the units of set (sorted indices of st.units)
// in the text's own offsets. It returns nil when a stretch does not parse
// into the statements its units hold.
func (q *queryState) analyse(set []int) *Analysis {
	st := q.st
	text := st.text
	f := &ast.File{Range: ast.Range{From: 0, To: len(text)}}
	part := &coverage{q: q}
	size := 0
	for k := 0; k < len(set); {
		i, j := set[k], set[k]
		for k++; k < len(set) && set[k] == j+1; k++ {
			j++
		}
		// The parser's lookahead must see what it sees in the whole text
		// (a statement may parse one way at the end of the text and another
		// before more lines): two units more are parsed, as incremental.go's
		// reparse does, and dropped, and a unit must start where the run
		// ends.
		start, end := st.docStart(i), st.end(j)
		cut := st.end(min(j+2, len(st.units)-1))
		pf, pus := st.parseRun(start, end, cut, i, j)
		want, got := 0, 0
		for u := i; u <= j; u++ {
			want += int(st.units[u].stmts)
		}
		synced := cut == end
		for _, pu := range pus {
			if pu.Start >= end {
				synced = lineStartOf(text, pu.Start) == end
				break
			}
			if pu.Stmt != nil {
				f.Stmts = append(f.Stmts, pu.Stmt)
				got++
			}
		}
		if got != want || !synced {
			return nil
		}
		for _, g := range pf.Comments {
			if g.From < end {
				f.Comments = append(f.Comments, g)
			}
		}
		part.runs = append(part.runs, token.Span{Start: start, End: end})
		size += end - start
	}
	ctx := *st.ctx // the shared context is never modified
	ctx.Line = func(off int) int { return st.lines.Line(off) + 1 }
	// The checker reads its source only for its size (to size its tables)
	// and for words that only findings depend on (`random_seed`, `expect`,
	// `export` and `header`, for the static pass, which Resolve does not
	// run): a stretch of the size of what it checks will do.
	info, _ := check.Resolve(f, text[:size], &ctx)
	// The names of the other units: after checking, so that they are
	// only what they are for the queries (no name of the units checked
	// can reach them).
	info.Global.SetOuter(q.lookup)
	for name, c := range q.containers {
		if info.Containers[name] == nil {
			info.Containers[name] = c
		}
	}
	return &Analysis{Syntax: Syntax{Lines: st.lines, File: f}, Info: info, part: part, cuts: q.cuts}
}

// parseRun parses the text of the units [i, j] from start, with the units
// after them up to cut for the parser's lookahead, as reparse does: a body
// whose closer is missing, read on past cut, reads where the rest of the
// text would stop it, as the state's units say (stopsAfter). Where they
// cannot tell, or a unit of the run read on past cut all the same, it
// parses the text again on to where the run's units read ahead
// (topFacts.ahead), and two units more: what the parse of such a unit saw
// there decided its tree.
func (s *diagState) parseRun(start, end, cut, i, j int) (*ast.File, []parser.Unit) {
	text := s.text
	if cut == len(text) {
		f, units, _ := parser.UnitsFrom(text, start)
		return f, units
	}
	open := false
	rest := func(at int) int {
		stop, o := s.stopsAfter(at, 0, len(text))
		open = open || o
		return stop
	}
	f, units, _, short, shared := parser.UnitsAhead(text, start, cut, rest)
	if !short && !readPast(units, end, cut) && (!open && !shared || plainStretch(text[start:cut], units, 0, len(text))) {
		return f, units
	}
	for u := i; u <= j; u++ {
		if a := s.units[u].facts().ahead; a > 0 && s.starts[u]+a > cut {
			cut = s.end(min(unitAt(s.starts, s.starts[u]+a)+2, len(s.units)-1))
		}
	}
	f, units, _ = parser.UnitsFrom(text[:cut], start)
	return f, units
}

// docStart returns where to parse unit i from: its start, or the start of
// the comment lines that end the unit before it (a doc comment of its
// first statement).
func (s *diagState) docStart(i int) int {
	if i == 0 {
		return 0
	}
	a, b := s.starts[i-1], s.starts[i]
	lx := lexer.LexFrom(s.text[:b], a, nil)
	code := -1 // the end of the last token of the unit before that is not a line break
	for k := len(lx.Tokens) - 1; k >= 0; k-- {
		if lx.Tokens[k].Kind != token.Eol {
			code = lx.Tokens[k].End
			break
		}
	}
	for _, c := range lx.Comments {
		if c.Start < code {
			continue
		}
		ls := lineStartOf(s.text, c.Start)
		if ls > code {
			return ls // the first comment alone on its line after the code
		}
	}
	return b
}

// tokens lexes the stretches a partial analysis parsed.
func (p *coverage) tokens(text string) *lexer.Result {
	out := &lexer.Result{}
	for _, r := range p.runs {
		lx := lexer.LexFrom(text[:r.End], r.Start, nil)
		out.Tokens = append(out.Tokens, lx.Tokens...)
		out.Comments = append(out.Comments, lx.Comments...)
		out.Dropped = append(out.Dropped, lx.Dropped...)
	}
	return out
}

// TrailingWords returns the identifier words at the end of s after the last
// keyword, punctuation or literal (the name being typed), and the index in s
// where the first of them starts.
func TrailingWords(s string) ([]string, int) {
	if len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		return nil, len(s) // a cursor after a space starts a new word
	}
	var words []string
	start, end := len(s), len(s)
	for {
		i := end
		for i > 0 && isWordByte(s[i-1]) {
			i--
		}
		if i == end {
			break
		}
		w := s[i:end]
		// The word at the cursor may be the start of a name that begins
		// like a keyword ("to" of "total"); earlier words must be names.
		if !isLetter(w[0]) || end != len(s) && token.Lookup(w) != token.Identifier {
			break
		}
		words = append([]string{w}, words...)
		start = i
		j := i
		for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
			j--
		}
		if j == i || j == 0 {
			break
		}
		end = j
	}
	return words, start
}

func isWordByte(c byte) bool { return isLetter(c) || c >= '0' && c <= '9' || c == '_' }

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
