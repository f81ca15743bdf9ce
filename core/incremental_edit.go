package core

// This file implements the derivation of a state after an edit: what
// changed, the stretch parsed again, and whether the file's context still
// holds (steps 1, 2 and 4 of incremental.go; step 3 is
// incremental_recheck.go).

import (
	"maps"
	"slices"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/config"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/lint"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// derive returns the state of text, a later version of prev's text, or nil
// when it must come from a full analysis. same says what the two texts are
// known to share at their ends; lines, when not nil, is text's line table.
func derive(prev *diagState, text string, cfg config.Config, same sameEnds, lines *token.Lines) *diagState {
	if cfg != prev.cfg || prev.final {
		return nil
	}
	from, oldEnd, newEnd := diffRange(prev.text, text, same)
	delta := newEnd - oldEnd

	// 1. Parse again from the unit before the edit.
	w, wstarts, groups, readers, ok := prev.stretch(text, from, oldEnd, delta)
	if !ok {
		return nil // most of the text changed meaning: a full analysis is cheaper
	}
	n, first, next, a, bound, cut := len(prev.starts), w.first, w.next, w.a, w.bound, w.cut
	win, wdropped := w.file, w.dropped
	if lines == nil {
		lines = prev.lines.Splice(text, from, oldEnd, newEnd)
	}

	// The new list of units.
	s := &diagState{text: text, lines: lines, cfg: cfg}
	s.starts = make([]int, 0, first+len(wstarts)+n-next)
	s.starts = append(s.starts, prev.starts[:first]...)
	for _, w := range wstarts {
		s.starts = append(s.starts, w+a)
	}
	moved := len(s.starts)
	s.starts = append(s.starts, prev.starts[next:]...)
	for i := moved; i < len(s.starts); i++ {
		s.starts[i] += delta
	}
	s.units = make([]*unit, 0, len(s.starts))
	s.units = append(s.units, prev.units[:first]...)
	wlo, whi := first, first+len(groups) // the new units' indices
	ds := make([]findings, len(groups))
	for i, g := range groups {
		next := bound - a
		if i+1 < len(wstarts) {
			next = wstarts[i+1]
		}
		u := describeUnit(g, wstarts[i], next)
		if f := u.facts(); f.ret || f.bounded {
			return nil
		}
		s.units = append(s.units, u)
		ds[i].parse, ds[i].raised = parseFindings(g, wstarts[i])
	}
	s.units = append(s.units, prev.units[next:]...)
	for _, r := range readers {
		s.units[r] = prev.units[r].movedPast(oldEnd-prev.starts[r], delta)
	}
	if !s.workFar(prev, w, groups, readers, len(text)) {
		return nil
	}

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
	tree, tok := lint.CheckModes(text[a:cut], win, nil, cfg)
	local(tree, func(f *findings) *[]diag.Diagnostic { return &f.lintTree })
	local(tok, func(f *findings) *[]diag.Diagnostic { return &f.lintTok })

	// The units at the ends of the stretch that were parsed again only for
	// the parser's sake (the one before the edit, always) and came out as
	// they were stay the old units: not new, their names reach nothing.
	for len(groups) > 0 && first < next && s.sameAs(wlo, prev, first, ds[0]) {
		first, wlo = first+1, wlo+1
		groups, ds, wstarts = groups[1:], ds[1:], wstarts[1:]
	}
	for len(groups) > 0 && first < next && s.sameAs(whi-1, prev, next-1, ds[len(ds)-1]) {
		next, whi = next-1, whi-1
		groups, ds, wstarts = groups[:len(groups)-1], ds[:len(ds)-1], wstarts[:len(wstarts)-1]
	}

	// The file's context must not have changed.
	ctx, ok := s.context(prev, prev.units[first:next], s.units[wlo:wlo+len(groups)])
	if !ok {
		return nil
	}
	s.ctx, s.included = ctx, prev.included // an include that came or went made context fail

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
	var gone, goneNames []uint32 // what the replaced units declared or wrote, and named
	for _, u := range prev.units[first:next] {
		gone = append(append(gone, u.keys()...), u.writes()...)
		goneNames = append(goneNames, u.names()...)
	}
	// The counts of units that name random_seed or call a security
	// builtin. When the file gains its first such call or loses its last,
	// every random_seed call's finding comes or goes.
	s.seeds, s.secure = prev.seeds, prev.secure
	for _, u := range prev.units[first:next] {
		s.tally(u, -1)
	}
	for _, u := range s.units[wlo:whi] {
		s.tally(u, 1)
	}
	var also []int
	if s.seeds > 0 && (s.secure > 0) != (prev.secure > 0) {
		for i, u := range s.units {
			if u.facts().seed {
				also = append(also, i)
			}
		}
	}
	// The units of prev with findings that stay, at their new indices.
	var kept []int32
	for _, j := range prev.withFindings() {
		switch {
		case int(j) < first:
			kept = append(kept, j)
		case int(j) >= next:
			kept = append(kept, j+int32(whi-next))
		}
	}
	// Lines after the edit moved when the edit changed the number of lines.
	linesMoved := lines.Count() != prev.lines.Count()
	// The first try takes the new units to retype nothing (they are
	// described from their text), and other units to retype what they
	// did, and only witnesses of the many readers of a name
	// (reach.readers); when the check finds otherwise, the next knows
	// better.
	view := s.mentionsView(prev)
	var set []int
	for try, sample := 0, true; ; try++ {
		var r *reach
		set, r = s.connected(view, kept, also, wlo, whi, gone, goneNames, linesMoved, delta != 0, a, sample)
		if r == nil {
			return nil
		}
		if len(set) == 0 {
			break
		}
		res, more := s.recheck(set, r, ctx, wlo, ds)
		if res == recheckDone {
			break
		}
		if res == recheckFailed || try == 2 {
			return nil
		}
		sample = sample && res != recheckUnread
		gone = append(gone, more...)
	}
	for i := range groups {
		s.units[wlo+i].d = ds[i].pack()
	}
	s.carryFindings(kept, wlo, whi, set)
	s.describeShapes(prev, first, next, set)
	return s
}

// sameAs reports whether unit i, parsed again with the findings f of its
// parse and lint, is unit k of prev: the same text, statements and names,
// and the same parse and lint findings. Then it takes k's place (the
// checker's findings of a unit depend on its text and on the names of the
// others, which the edit's reach follows).
func (s *diagState) sameAs(i int, prev *diagState, k int, f findings) bool {
	u, old := s.units[i], prev.units[k]
	if u.stmts != old.stmts || u.nwrites != old.nwrites || !slices.Equal(u.names(), old.names()) ||
		s.text[s.starts[i]:s.end(i)] != prev.text[prev.starts[k]:prev.end(k)] {
		return false
	}
	if uf, of := u.facts(), old.facts(); uf.ahead != of.ahead || uf.stray != of.stray || uf.strayAt != of.strayAt || uf.work != of.work {
		return false // it read ahead to elsewhere, or otherwise
	}
	o := old.d.unpack()
	o.analyzer, o.static, o.typ, o.retold = nil, nil, nil, nil
	x, y := f.pack(), o.pack()
	if x == nil || y == nil {
		if x != y {
			return false
		}
	} else if x.firstParse != y.firstParse || x.raised != y.raised || !slices.EqualFunc(x.list, y.list, sameFinding) {
		return false
	}
	s.extra += old.facts().extra - u.facts().extra
	s.units[i] = old
	return true
}

// workFar sums the work of reading ahead of s, derived from prev by
// parsing again the stretch w (see diagState.work), and reports whether
// it stays under half the bound on that work: then the parse of the whole
// text reaches the bound nowhere either, and reads every unit as the
// stretch and the units kept say. The stretch's units take the place of
// its old units, but for the work of those that read ahead past their
// end: the statements they parsed ahead, taken over by the units after
// them, counted there, and those may now read on their own. What the new
// units' parse does not count is added (extra):
//   - A unit parsed in the stretch alone that read past it, asking the last
//     version's units where its body stops, reads on in the whole text
//     through the rest (the units after the stretch) and what the rest
//     reads ahead: twice that, as a block inside it may walk the rest
//     before it (only a walk of plain statements is taken over whole,
//     parser.walkRec). The unit records it, for the edit that replaces
//     the unit to take back.
//   - The blocks above the stretch that read through it (readers) read
//     what it grew by again, once for each block left open and once more.
//     That only grows the sum, until a full analysis counts again.
//
// Far from the bound, as in any program but a few written to reach it,
// all of that is small.
func (s *diagState) workFar(prev *diagState, w window, groups [][]parser.Unit, readers []int, size int) bool {
	s.work, s.extra, s.toks = prev.work, prev.extra, prev.toks
	oldWork, oldAll, oldToks := 0, 0, 0 // the work taken back, all of it, the tokens
	for k := w.first; k < w.next; k++ {
		f := prev.units[k].facts()
		if f.ahead == 0 {
			oldWork += f.work
		}
		oldAll, oldToks = oldAll+f.work, oldToks+int(prev.units[k].toks)
		s.extra -= f.extra
	}
	work, toks := 0, 0
	for i := range groups {
		u := s.units[w.first+i]
		work, toks = work+u.facts().work, toks+int(u.toks)
	}
	s.work, s.toks = s.work-oldWork+work, s.toks-oldToks+toks
	rest := -1 // the tokens and the work of the units after the stretch
	for i, g := range groups {
		u := s.units[w.first+i] // new: its facts are not shared yet
		for _, pu := range g {
			if w.cut < size && pu.Reach+w.a >= w.cut {
				if rest < 0 {
					rest = 0
					for _, v := range prev.units[w.next:] {
						rest += int(v.toks)
						if v.top != nil {
							rest += v.top.work
						}
					}
				}
				if u.top == nil {
					u.top = &topFacts{}
				}
				u.top.extra += 2 * rest
			}
		}
		s.extra += u.facts().extra
	}
	if grown := toks - oldToks + work - oldAll; grown > 0 {
		for _, r := range readers {
			s.extra += (prev.units[r].opens() + 1) * grown
		}
	}
	total := s.work + s.extra
	return total == 0 || 2*total < parser.WorkBound(s.toks)
}

// opens counts the blocks of the unit whose closer is missing or
// mistyped.
func (u *unit) opens() int {
	n := 0
	if u.d != nil {
		for _, x := range u.d.list {
			if x.from == fromParse && x.Kind.Layout() {
				n++
			}
		}
	}
	return n
}

// sameFinding reports whether two findings say the same, from the same
// source, at the same place.
func sameFinding(x, y finding) bool {
	return x.from == y.from && x.Span == y.Span && x.Severity == y.Severity && x.Category == y.Category &&
		x.Tags == y.Tags && x.Kind == y.Kind && x.Code == y.Code && x.Message == y.Message &&
		slices.Equal(x.Names, y.Names) && slices.Equal(x.Related, y.Related)
}

// stopsAfter returns where the text after an edit, at or after offset at
// of the old text (at a line start past the edit; the new text is delta
// longer), could stop the body of a block read into it: the first stray
// `end` of the old units from there, or the first of them that starts with
// a clause word (`when error:` parses at the top level, and continues a
// try), in the new text, or end (the new text's length) when there is
// none. It returns -1 when the old units cannot tell: one of them has a
// parse error, or its parse depended on the blocks it is in (a broken
// statement, or one whose lines the layout and its blocks' closers read
// together, may read otherwise inside a body than at the top level). A
// unit holding only blocks left open that read on to the end of the text
// (endsOpen) tells: the body reads on to there too, and open is set. The
// whole text reads so only where the stretch is plain (plainStretch).
func (s *diagState) stopsAfter(at, delta, end int) (stop int, open bool) {
	k0 := max(unitAt(s.starts, at), 0)
	shaped := len(s.shapes) == len(s.units)
	for k := k0; k < len(s.units); k++ {
		u := s.units[k]
		if u.d == nil && (u.top == nil || !u.top.context && !u.top.stray) && shaped && k > 0 && s.shapes[k]&shapeClause == 0 {
			continue // no finding, no stray end, no clause word: it stops nothing
		}
		if s.starts[k] >= at && s.endsOpen(k) {
			if k0+1 < len(s.units) && parser.Indent(s.text, s.starts[k0+1]) > parser.Indent(s.text, s.starts[k0]) {
				// A body whose layout ends at the first unit may take the
				// line after it for its own (the line at the end was
				// misindented).
				return -1, false
			}
			return end, true
		}
		if u.d != nil && u.d.firstParse >= 0 || u.facts().context {
			return -1, false
		}
		if s.startsClause(k) {
			if s.starts[k] >= at {
				return s.starts[k] + delta, false
			}
			return -1, false
		}
		if f := u.facts(); f.stray {
			if s.starts[k]+f.strayAt >= at {
				return s.starts[k] + f.strayAt + delta, false
			}
			return -1, false // past its first stray end: the others are not known
		}
	}
	return end, false
}

// plainStretch reports whether the units of a stretch parsed from base, in
// a text n bytes long (the stretch's text is text), hold no members, read
// no block around them and hold no stray or mistyped `end` and no block
// left open but those that read on to the end of the text. Blocks left open that read past such a stretch into units
// left so (stopsAfter's open), or as a block inside them read it, or from
// a layout end where the stretch ends (parser.UnitsAhead's shared), read
// them as the top level does, and once: in the whole text each records
// what it read, and the block around takes it over (lang/parser: walkRec).
// Read past anything else, the whole text may read them again, up to the
// parser's bound on the work of reading ahead, past which it reads
// otherwise.
func plainStretch(text string, units []parser.Unit, base, n int) bool {
	if holdsMembers(text) {
		return false // a member's body stops at the next member
	}
	for _, pu := range units {
		if pu.Context || pu.Stray || pu.Bounded || len(pu.Opens) > 0 && pu.Reach+base != n {
			return false
		}
		for _, d := range pu.Diags {
			if d.Kind.Layout() && !endStopped(d) {
				return false
			}
		}
	}
	return true
}

// pointsBack returns the last unit from index from on whose parse error
// points back at a place before the offset at (the header of a block that
// the layout ended before it, whose closer the error is), or -1. With at
// where unit from starts, the place is in the stretch parsed again, or
// before the edit, which moves the one and not the other: what the error
// says may have changed (the block may now be at the top level, where the
// error is not its closer's), so the unit is parsed again.
func (s *diagState) pointsBack(from, at int) int {
	last := -1
	for _, i := range s.withFindings() {
		if d := s.units[i].d; int(i) >= from && d.firstParse >= 0 && d.relFrom < 0 && s.starts[i]+d.relFrom < at {
			last = int(i)
		}
	}
	return last
}

// readByStretch returns the last old unit from w.next on that a unit of the
// stretch w (parsed from text[base:], delta longer than the old text), old
// or new, read ahead into and whose parse it may have changed, or -1: one
// with parse findings, or one whose parse read the blocks around it
// (topFacts.context), or one holding a parse finding the reader raised
// past its own text. The others parse as they would on their own.
func (s *diagState) readByStretch(w window, base, delta int) int {
	bound := s.starts[w.next]
	reach, last := -1, -1
	for i := w.first; i < w.next; i++ {
		u := s.units[i]
		if a := u.facts().ahead; a > 0 {
			reach = max(reach, s.starts[i]+a)
			for _, x := range u.d.list {
				// (A closer's finding at the end of the text is no unit's.)
				if x.from == fromParse && s.starts[i]+x.Span.Start >= bound && s.starts[i]+x.Span.Start < len(s.text) {
					last = max(last, unitAt(s.starts, s.starts[i]+x.Span.Start))
				}
			}
		}
	}
	for _, pu := range w.units {
		if pu.Start+base < w.bound && pu.Reach+base > w.bound {
			reach = max(reach, pu.Reach+base-delta)
		}
	}
	for k := w.next; k < len(s.units) && s.starts[k] < reach; k++ {
		if u := s.units[k]; (u.d != nil && u.d.firstParse >= 0 || u.facts().context) && !s.endsOpen(k) {
			last = k
		}
	}
	return last
}

// startsClause reports whether unit k starts with a clause word.
func (s *diagState) startsClause(k int) bool {
	if k > 0 && len(s.shapes) == len(s.units) {
		return s.shapes[k]&shapeClause != 0
	}
	return startsClause(s.text[s.starts[k]:s.end(k)])
}

// startsClause reports whether the first word of text, past blanks, line
// breaks and comments, starts a clause continuing a block (`when`,
// `catch`, `otherwise`, `finally`): the parser stops a body there
// whatever its indentation.
func startsClause(text string) bool {
	text = skipBlank(text)
	i := 0
	for i < len(text) && (text[i] >= 'a' && text[i] <= 'z') {
		i++
	}
	return clauseKind(token.Lookup(text[:i]))
}

// skipBlank returns text past its leading blanks, line breaks and comments.
func skipBlank(text string) string {
	for {
		text = strings.TrimLeft(text, " \t\r\n")
		if !strings.HasPrefix(text, "#") && !strings.HasPrefix(text, "//") {
			return text
		}
		nl := strings.IndexAny(text, "\r\n")
		if nl < 0 {
			return ""
		}
		text = text[nl:]
	}
}

// clauseKind reports whether k starts a clause continuing a block.
func clauseKind(k token.Kind) bool {
	switch k {
	case token.KeywordWhen, token.KeywordCatch, token.KeywordOtherwise, token.KeywordFinally:
		return true
	}
	return false
}

// pointsBefore reports whether one of pu's diagnostics points back before
// the offset at (its block's header: the diagnostic is that block's
// closer's).
func pointsBefore(pu parser.Unit, at int) bool {
	return slices.ContainsFunc(pu.Diags, func(d diag.Diagnostic) bool {
		return slices.ContainsFunc(d.Related, func(r diag.Related) bool { return r.Span.Start < at })
	})
}

// A window is the stretch of a new text parsed again after an edit: the
// old units [first, next) are replaced by units, parsed from text[a:cut];
// the new units end at bound, where old unit next starts (shifted).
type window struct {
	first, next   int
	a, bound, cut int
	// The tree, units and dropped characters' findings of text[a:cut], in
	// offsets of that stretch, or of text when the window is absolute.
	file    *ast.File
	units   []parser.Unit
	dropped []diag.Diagnostic
}

// reparse parses text, prev's text with [from, oldEnd) replaced (delta
// bytes longer), from the unit before the edit until a unit starts exactly
// where an old one did, with two units of text after it for the parser's
// lookahead; or to the end of the text. The window's tree is in offsets of
// the stretch parsed, or of text when abs is set.
func reparse(prev *diagState, text string, from, oldEnd, delta int, abs, narrow bool) (w window, readers []int) {
	old, n := prev.text, len(prev.starts)
	w.first = max(unitAt(prev.starts, from)-1, 0)
	// A quote the lexer found no end for looked as far as the end of the
	// text: the edit may have given it one.
	// So did a block whose closer is missing, which read ahead to where
	// its body stopped (such a unit has a finding: the closer's), there or
	// into a unit parsed again. When narrow is set, such blocks are not
	// parsed again but returned (readers), for derive to ask whether the
	// edit changed what they read.
	reads := func(i int32) bool {
		return prev.starts[i]+prev.units[i].facts().ahead >= min(from, prev.starts[w.first])
	}
	for moved := true; moved; {
		moved = false
		for _, i := range prev.withFindings() {
			if int(i) >= w.first {
				break
			}
			if prev.units[i].d.openQuote(old[prev.starts[i]:]) || !narrow && reads(i) {
				w.first, moved = int(i), true
				break
			}
		}
	}
	if narrow {
		for _, i := range prev.withFindings() {
			if int(i) >= w.first {
				break
			}
			if reads(i) {
				readers = append(readers, int(i))
			}
		}
	}
	w.a = prev.starts[w.first]
	w.next = unitAt(prev.starts, oldEnd) + 1 // first old unit wholly after the edit
	for {
		w.cut = len(text)
		if w.next+2 < n {
			w.cut = prev.starts[w.next+2] + delta
		}
		base := w.a // what the tree's offsets are relative to
		if abs {
			base = 0
		}
		// A body read past the cut (a block whose closer is missing, the
		// layout ending it inside the stretch) reads where the rest of the
		// text would stop it, as the old units say (stopsAfter); where they
		// cannot tell, the stretch is short, and parsed on.
		var short bool
		if w.cut < len(text) {
			open := false
			ahead := func(at int) int {
				stop, o := prev.stopsAfter(at+base-delta, delta, len(text))
				if stop < 0 {
					return -1
				}
				open = open || o
				return stop - base
			}
			var shared bool
			w.file, w.units, w.dropped, short, shared = parser.UnitsAhead(text[base:], w.a-base, w.cut-base, ahead)
			short = short || (open || shared) && !plainStretch(text[w.a:w.cut], w.units, base, len(text))
		} else if abs {
			w.file, w.units, w.dropped = parser.UnitsFrom(text, w.a)
		} else {
			w.file, w.units, w.dropped = parser.Units(text[w.a:])
		}
		w.bound = len(text)
		if w.next < n {
			w.bound = prev.starts[w.next] + delta
		}
		if w.cut < len(text) && (short || slices.ContainsFunc(w.dropped, func(d diag.Diagnostic) bool { return text[base+d.Span.Start] == '"' }) ||
			readPast(w.units, w.bound-base, w.cut-base)) {
			// A quote the lexer found no end for before the cut may have
			// one after it, and a block whose closer is missing may stop
			// after it: only the rest of the text can tell.
			w.next = n
			continue
		}
		if w.next >= n {
			return w, readers
		}
		// A unit of the stretch, old or new, that read ahead past the bound
		// (a block whose closer is missing: the parse reads on to where the
		// reference would stop its body) parsed there the statements after
		// it, and took or dropped the findings of those whose parse its
		// blocks change: the old units it read that may parse otherwise
		// without it, or with it, are parsed again.
		if k := prev.readByStretch(w, base, delta); k >= w.next {
			w.next = min(k+1, n)
			continue
		}
		k := slices.IndexFunc(w.units, func(pu parser.Unit) bool { return pu.Start+base >= w.bound })
		if k >= 0 && lineStartOf(text, w.units[k].Start+base) == w.bound {
			if b := prev.pointsBack(w.next, prev.starts[w.next]); b >= 0 {
				w.next = b + 1
				continue
			}
			// The same the other way: an error past the bound that now
			// points back into the stretch (the closer of a block typed
			// there) is not the old unit's.
			if j := slices.IndexFunc(w.units[k:], func(pu parser.Unit) bool { return pointsBefore(pu, w.bound-base) }); j >= 0 {
				w.next = max(unitAt(prev.starts, w.units[k+j].Start+base-delta)+1, w.next+1)
				continue
			}
			w.units = w.units[:k]
			return w, readers
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

// readPast reports whether a unit of units that starts before bound read
// on to cut or past it (its statement ends past cut, or its parse stopped
// at cut): a body whose closer is missing, which only the text after cut
// can end.
func readPast(units []parser.Unit, bound, cut int) bool {
	return slices.ContainsFunc(units, func(pu parser.Unit) bool {
		return pu.Start < bound && pu.Reach >= cut && (pu.Stmt == nil || pu.Stmt.End() > cut)
	})
}

// sameEnds says how many bytes at the start and at the end of a text are
// known to be those of an earlier text (when known): the edits between
// them tell, and then the texts need not be compared from their ends.
type sameEnds struct {
	prefix, suffix int
	known          bool
}

// after returns what is known of a text of n bytes, e said of it, once the
// edits are applied to it (in order, each to the result of the previous).
func (e sameEnds) after(n int, edits []Edit) sameEnds {
	for _, ed := range edits {
		e.prefix = min(e.prefix, ed.Start)
		e.suffix = min(e.suffix, n-ed.End)
		n += len(ed.Text) - (ed.End - ed.Start)
	}
	return e
}

// diffRange returns the bytes that differ between two texts: [from, oldEnd)
// of old became [from, newEnd) of text, the longest prefix and then the
// longest suffix the two share left out. The bytes same says they share
// are not compared.
func diffRange(old, text string, same sameEnds) (from, oldEnd, newEnd int) {
	const block = 64 // compared a block at a time, then byte by byte
	n := min(len(old), len(text))
	if same.known {
		from = min(same.prefix, n)
	}
	for from+block <= n && old[from:from+block] == text[from:from+block] {
		from += block
	}
	for from < n && old[from] == text[from] {
		from++
	}
	oldEnd, newEnd = len(old), len(text)
	if same.known {
		k := min(same.suffix, n-from)
		oldEnd, newEnd = oldEnd-k, newEnd-k
	}
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

// ParseWithout parses the text with the bytes [from, to) removed, as
// parser.Parse does, and returns the tree of it around from: the whole of
// it, or, when the units of the text are at hand (a partial analysis's, or
// the snapshot's diagnostics), just the statements of the stretch an edit
// removing those bytes would parse again (incremental.go's reparse), in
// the offsets of the text without them. Only a statement around from is
// looked for in it.
func (a *Analysis) ParseWithout(from, to int) *ast.File {
	text := a.Lines.Text()
	cut := text[:from] + text[to:]
	var st *diagState
	if a.part != nil {
		st = a.part.q.st
	} else if a.diags != nil {
		st = a.diags.Load()
	}
	if st == nil || st.text != text {
		f, _ := parser.Parse(cut)
		return f
	}
	w, _ := reparse(st, cut, from, to, from-to, true, false)
	f := w.file
	n := 0
	for _, u := range w.units {
		if u.Start >= w.bound {
			break
		}
		if u.Stmt != nil {
			n++
		}
	}
	f.Stmts = f.Stmts[:n]
	return f
}

// stretch returns the stretch of text (prev's text with [from, oldEnd)
// replaced, delta bytes longer) that derive parses again, its units grouped
// as the state's, and the blocks above it whose closer is missing and whose
// reading went on past the edit, when the edit did not change what they
// read (readersKeep): those are not parsed again, their findings past the
// edit are moved. ok is false when the stretch is more than half the text.
func (prev *diagState) stretch(text string, from, oldEnd, delta int) (w window, wstarts []int, groups [][]parser.Unit, readers []int, ok bool) {
	for _, narrow := range []bool{true, false} {
		w, readers = reparse(prev, text, from, oldEnd, delta, false, narrow)
		if w.bound-w.a > len(text)/2+4096 {
			return w, nil, nil, nil, false
		}
		wstarts, groups = groupUnits(text[w.a:w.bound], w.units)
		if len(readers) == 0 || prev.readersKeep(text, w, wstarts, groups, readers, from, oldEnd, delta) {
			break
		}
	}
	return w, wstarts, groups, readers, true
}

// readersKeep reports whether the blocks above a stretch parsed again whose
// closer is missing and whose reading went on past it (readers: units
// before w.first) read after the edit what they read before, so that only
// the places past the edit in their findings move. Such a block's body
// ends where the layout says; to decide, its parse read the statements
// after it one by one, each as a whole, to where the reference stops the
// body (the end of the text, a stray `end` or a clause word, which its
// closer's finding points at). A statement that does not parse is skipped
// to the next line there as at the top level, and the reading goes on. It
// reads the same when the stretch's new units stand where its old ones
// stood, start with the same words, read no block around them and hold no
// stray `end` and no block whose closer is missing or mistyped but blocks
// that read on to the end of the text as the readers do, old or new, and
// the reading went through the stretch (its finding is past it). A
// parse error or a block left open in the stretch, old or new, keeps the
// readers only when none holds a body of members (holdsMembers). No word
// that stops a body may follow other words on a line of the stretch, old
// or new (stopsMidLine), and the line after the statement where a
// reader's body ends by the layout may not be indented deeper than its
// header (misindentedAfter). Any other change parses the readers again
// (reparse).
func (s *diagState) readersKeep(text string, w window, wstarts []int, groups [][]parser.Unit, readers []int, from, oldEnd, delta int) bool {
	if len(groups) != w.next-w.first {
		return false
	}
	broken := false // a unit of the stretch, old or new, holds a parse error or a block left open
	opens := false  // a unit of the stretch, old or new, holds a block left open (reading on to the end)
	for i, g := range groups {
		k := w.first + i
		at, was := w.a+wstarts[i], s.starts[k]
		switch {
		case was >= oldEnd:
			was += delta
		case was > from:
			return false // it started in what the edit replaced
		}
		if at != was || firstWord(strings.TrimLeft(text[at:], " \t")) != firstWord(strings.TrimLeft(s.text[s.starts[k]:], " \t")) {
			return false
		}
		f := s.units[k].facts()
		if f.context || f.stray {
			return false
		}
		// A block whose closer is missing or mistyped reads what follows
		// it, and what precedes it may read it otherwise: unless it reads
		// on to the end of the text, as the blocks above do.
		if d := s.units[k].d; d != nil && d.firstParse >= 0 {
			for _, x := range d.list {
				if x.from != fromParse || x.Severity != diag.Error {
					continue
				}
				if x.Kind.Layout() && !endStopped(x.Diagnostic) {
					return false
				}
				broken, opens = true, opens || x.Kind.Layout()
			}
			if f.ahead > 0 && s.starts[k]+f.ahead != len(s.text) {
				return false
			}
		}
		for _, pu := range g {
			if pu.Context || pu.Stray || pu.Bounded || len(pu.Opens) > 0 && pu.Reach+w.a != len(text) {
				return false
			}
			opens = opens || len(pu.Opens) > 0
			for _, d := range pu.Diags {
				if d.Severity != diag.Error {
					continue
				}
				if d.Kind.Layout() && !endStopped(d) {
					return false
				}
				broken, opens = true, opens || d.Kind.Layout()
			}
		}
	}
	// The old stretch: [w.a, bound) of the old text.
	bound := len(s.text)
	if w.next < len(s.starts) {
		bound = s.starts[w.next]
	}
	inside := func(rel, r int) bool { return s.starts[r]+rel >= w.a && s.starts[r]+rel < bound }
	// over reports whether a span of unit r's meets the old stretch (a
	// finding naming a string that runs over lines says what it holds).
	over := func(sp token.Span, r int) bool { return s.starts[r]+sp.Start < bound && s.starts[r]+sp.End >= w.a }
	if stopsMidLine(text[w.a:w.bound]) || stopsMidLine(s.text[w.a:bound]) {
		return false
	}
	for _, r := range readers {
		u := s.units[r]
		if r+2 >= w.first && s.misindentedAfter(text, w, wstarts, groups, r, delta) {
			return false
		}
		if broken && holdsMembers(s.text[s.starts[r]:s.starts[r]+int(u.end)]) {
			return false
		}
		if s.starts[r]+u.facts().ahead < bound {
			return false // its reading stopped in the stretch
		}
		if opens && s.starts[r]+u.facts().ahead != len(s.text) {
			return false // a block of the stretch reads on to the end, through where the reading stopped
		}
		if u.d.raised.late && inside(int(u.d.raised.at), r) {
			return false
		}
		for _, x := range u.d.list {
			if over(x.Span, r) {
				return false
			}
			for _, rel := range x.Related {
				if over(rel.Span, r) {
					return false
				}
			}
		}
	}
	return true
}

// misindentedAfter reports whether, in text, the statement after the first
// of the unit after reader r (whose body ends by the layout before that
// unit) starts on a line indented deeper than r's first line. The parser
// then takes the line where r's body ended for a misindented line of the
// body, not its end, and the body reads on: a stretch parsed again (w, its
// units grouped as the state's, as many as it replaces) that holds that
// statement, or the unit after r, may have made it so.
func (s *diagState) misindentedAfter(text string, w window, wstarts []int, groups [][]parser.Unit, r, delta int) bool {
	startOf := func(k int) int { // where unit k starts in text
		switch {
		case k >= len(s.units):
			return len(text)
		case k >= w.next:
			return s.starts[k] + delta
		case k >= w.first:
			return w.a + wstarts[k-w.first]
		}
		return s.starts[k]
	}
	next := startOf(r + 2)
	if k := r + 1; k < w.first {
		if s.units[k].stmts > 1 {
			return false // its second statement, not parsed again
		}
	} else if k < w.next {
		stmts := 0
		for _, pu := range groups[k-w.first] {
			if pu.Stmt == nil {
				continue
			}
			if stmts++; stmts == 2 {
				next = w.a + pu.Start
				break
			}
		}
	}
	return next < len(text) && parser.Indent(text, next) > parser.Indent(s.text, s.starts[r])
}

// endsOpen reports whether unit k holds blocks whose closer is missing and
// that read on to the end of the text, and no other parse finding: each of
// its parse findings is a closer's that the end of the text stopped the
// body for (ParseEOF; no stray `end` and no clause word stopped it before).
// A body that reads into the unit reads it as the top level does, and then
// on to the end of the text too, unless the unit holds members (a
// describe's tests, a container's actions: holdsMembers), which end a
// member's body.
func (s *diagState) endsOpen(k int) bool {
	u := s.units[k]
	f := u.facts()
	if u.d == nil || u.d.firstParse < 0 || f.context || f.stray || f.bounded || s.starts[k]+f.ahead != len(s.text) && k+1 < len(s.units) {
		return false // (the last unit reads to the end of the text as its own)
	}
	return !slices.ContainsFunc(u.d.list, func(x finding) bool {
		return x.from == fromParse && !endStopped(x.Diagnostic)
	}) && !holdsMembers(s.text[s.starts[k]:s.end(k)])
}

// endStopped reports whether d is the finding of a block's missing closer
// that the end of the text stopped the body for: the block read on to
// there.
func endStopped(d diag.Diagnostic) bool { return d.Kind == diag.Unclosed && d.Code == diag.ParseEOF }

// stopsMidLine reports whether a word that stops a body (`end`, or a
// clause word: `when`, `catch`, `otherwise`, `finally`) follows other
// words on its line in text. A statement may end before such a word
// (`display b when 1`): in a body, the body stops there, where the top
// level reads the word as the start of a statement of its own.
func stopsMidLine(text string) bool {
	first := true
	for _, t := range lexer.Lex(text).Tokens {
		switch {
		case t.Kind == token.Eol:
			first = true
			continue
		case !first && (t.Kind == token.KeywordEnd || clauseKind(t.Kind)):
			return true
		}
		first = false
	}
	return false
}

// holdsMembers reports whether a line of text starts with a word that
// may open a body of members (a describe's tests and hooks, a container's
// or an instance's members, an interface's requirements). The reading of
// such a body past its layout end stops at a parse error, where a body of
// statements skips the statement and goes on, and a member's body stops at
// the next member: a parse error or a block left open that the edit made
// or mended changes what the block read.
func holdsMembers(text string) bool {
	for line := range strings.Lines(text) {
		switch firstWord(strings.TrimLeft(line, " \t")) {
		case "describe", "test", "setup", "teardown", "create":
			return true
		}
	}
	return false
}

// firstWord returns the letters text starts with.
func firstWord(text string) string {
	i := 0
	for i < len(text) && (text[i] >= 'a' && text[i] <= 'z' || text[i] >= 'A' && text[i] <= 'Z' || text[i] == '_') {
		i++
	}
	return text[:i]
}

// movedPast returns the unit with what it holds at or after rel (relative
// to its start; an edit's end in the old text) moved delta bytes: where it
// read to, when its parse error was raised, and its findings' spans.
func (u *unit) movedPast(rel, delta int) *unit {
	if delta == 0 {
		return u
	}
	at := func(p int) int {
		if p >= rel {
			return p + delta
		}
		return p
	}
	cp := *u
	if u.top != nil {
		top := *u.top
		top.ahead = at(top.ahead)
		cp.top = &top
	}
	if u.d != nil {
		f := u.d.unpack()
		for _, l := range f.lists() {
			moved := make([]diag.Diagnostic, len(*l))
			for i, d := range *l {
				d.Span.Start, d.Span.End = at(d.Span.Start), at(d.Span.End)
				if len(d.Related) > 0 {
					rs := make([]diag.Related, len(d.Related))
					for j, r := range d.Related {
						r.Span.Start, r.Span.End = at(r.Span.Start), at(r.Span.End)
						rs[j] = r
					}
					d.Related = rs
				}
				moved[i] = d
			}
			*l = moved
		}
		if f.raised.late {
			f.raised.at = int32(at(int(f.raised.at)))
		}
		cp.d = f.pack()
	}
	cp.origin = u.root()
	return &cp
}
