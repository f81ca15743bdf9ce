package core

// This file implements a unit's findings: gathered by source, packed into
// one sorted list, and assembled across units into a snapshot's
// diagnostics, as a full analysis would publish them.

import (
	"iter"
	"math"
	"slices"
	"sync/atomic"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
)

// findings are a unit's diagnostics by where they come from, while they are
// gathered; a unit keeps them packed (unitDiags).
type findings struct {
	parse    []diag.Diagnostic // as raised, before parser.Diagnostics filters them
	raised   raisedAt          // when the first of parse was raised
	dropped  []diag.Diagnostic
	lintTok  []diag.Diagnostic // lint without a tree: published when the file does not parse
	lintTree []diag.Diagnostic // lint with the tree: published when it does
	analyzer []diag.Diagnostic
	static   []diag.Diagnostic
	typ      []diag.Diagnostic
	retold   []diag.Diagnostic // check.Passes.Retold: shown while the type checker's findings are held back
}

// raisedAt is when the parser raised a unit's first parse diagnostic, among
// those of the other units (parser.First, parser.Unit.Raised): in its
// unit, or, late, at the place past the unit it read ahead to
// (parser.Unit.Event); at is an offset relative to the unit.
type raisedAt struct {
	at   int32
	late bool
}

// parseFindings returns the parse diagnostics of a unit made of the parser
// units g, starting at start: the one raised first first (parser.First),
// spans relative to start, and when it was raised.
func parseFindings(g []parser.Unit, start int) ([]diag.Diagnostic, raisedAt) {
	k := parser.First(g)
	if k < 0 {
		return nil, raisedAt{}
	}
	n := 0
	for _, pu := range g {
		n += len(pu.Diags)
	}
	out := make([]diag.Diagnostic, 0, n)
	out = append(out, shift(g[k].Diags[0], -start))
	for i, pu := range g {
		for j, d := range pu.Diags {
			if i != k || j != 0 {
				out = append(out, shift(d, -start))
			}
		}
	}
	at, late := g[k].Raised()
	return out, raisedAt{at: int32(at - start), late: late}
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
	fromRetold
	sources
)

func (f *findings) lists() [sources]*[]diag.Diagnostic {
	return [sources]*[]diag.Diagnostic{&f.parse, &f.dropped, &f.lintTok, &f.lintTree, &f.analyzer, &f.static, &f.typ, &f.retold}
}

// unitDiags are a unit's findings in one list sorted by compareDiagnostics,
// each with its source.
type unitDiags struct {
	list       []finding
	firstParse int32    // index in list of the first parse error raised, or -1
	raised     raisedAt // when it was raised
	semErr     bool     // an analyzer finding is an error
	staticErr  bool     // a static-pass finding is an error
	staticHeld bool     // an analyzer finding holds the static pass's back (check.StaticHeld)
	// relFrom and relTo bound the related spans of the findings, relative
	// to the unit (relFrom > relTo when there are none): relatedOut reads
	// them, on every keystroke, for every unit.
	relFrom, relTo int
	// enc is a client's encoding of the findings (diagState.encoded).
	enc atomic.Pointer[encodedFindings]
}

// encodedFindings is a client's encoding of a unit's findings, made under
// key with the unit starting on line: one after another in buf, finding
// k's at buf[offs[k]:offs[k+1]].
type encodedFindings struct {
	key  string
	line int
	buf  []byte
	offs []int32
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
	d := &unitDiags{list: make([]finding, 0, n), firstParse: -1, raised: f.raised, semErr: hasError(f.analyzer), staticErr: hasError(f.static), staticHeld: check.StaticHeld(f.analyzer)}
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
	d.relFrom, d.relTo = math.MaxInt, math.MinInt
	for _, x := range d.list {
		for _, r := range x.Related {
			d.relFrom, d.relTo = min(d.relFrom, r.Span.Start), max(d.relTo, r.Span.End)
		}
	}
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
	f.raised = d.raised
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

// broken reports whether the unit has a parse error other than about a
// block's closer, which the parser recovers from keeping the tree whole
// (diag.Kind.Recovered).
func (d *unitDiags) broken() bool {
	if d == nil || d.firstParse < 0 {
		return false
	}
	for _, x := range d.list {
		if x.from == fromParse && !x.Kind.Recovered() {
			return true
		}
	}
	return false
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

// lineRefs reports whether a message of the unit may name a line
// (`already defined at line 3`): it changes when lines are added above.
// A redefinition names the line of the first definition, but for one in
// an outer scope; lineRefs counts both.
func (u *unit) lineRefs() bool {
	if u.d == nil {
		return false
	}
	for _, x := range u.d.list {
		if x.from == fromAnalyzer && (x.Kind == diag.Redefined || x.Kind == diag.DuplicateAction) {
			return true
		}
	}
	return false
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
func (s *diagState) all() iter.Seq[diag.Diagnostic] { return s.diagnosticsOf(s.allRefs()) }

// A ref is a finding of a state: k of the list of unit i.
type ref struct{ i, k int32 }

// finding returns the finding r refers to, relative to its unit.
func (s *diagState) finding(r ref) *finding { return &s.units[r.i].d.list[r.k] }

// diagnosticsOf yields the findings refs refers to, in the text's offsets.
func (s *diagState) diagnosticsOf(refs iter.Seq[ref]) iter.Seq[diag.Diagnostic] {
	return func(yield func(diag.Diagnostic) bool) {
		for r := range refs {
			if !yield(shift(s.finding(r).Diagnostic, s.starts[r.i])) {
				return
			}
		}
	}
}

// encoded yields what encode makes of each finding refs refers to, in the
// text's offsets (encode appends it to dst). A unit's findings are encoded
// together and kept with them (unitDiags.enc), so that a unit shared with
// an earlier version a client asked for under the same key, starting on
// the same line, is not encoded again: its text is the same, its findings'
// places are relative to its start, and a unit starts a line, so that
// their lines and columns are the same too. key must say all else the
// encoding depends on (a client's position encoding, the document's URI).
// A unit with a finding pointing outside it (relatedOut) is encoded each
// time. Unless keep is set, nothing is kept: the encodings of a document
// are kept from the first version derived from another (see
// DiagnosticsEncoded), so that one only opened holds no more than it did.
func (s *diagState) encoded(refs iter.Seq[ref], key string, keep bool, encode func(dst []byte, d diag.Diagnostic) []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		var scratch []byte
		lastUnit, line := int32(-1), 0
		for r := range refs {
			u, at := s.units[r.i], s.starts[r.i]
			if !keep || u.relatedOut(s.end(int(r.i))-at) {
				scratch = encode(scratch[:0], shift(u.d.list[r.k].Diagnostic, at))
				if !yield(scratch) {
					return
				}
				continue
			}
			if r.i != lastUnit {
				// The units come in order (but when a parse error lies
				// past its unit): their lines are found walking forward.
				if r.i < lastUnit || line+8 < s.lines.Count() && s.lines.LineStart(line+8) <= at {
					line = s.lines.Line(at)
				}
				for line+1 < s.lines.Count() && s.lines.LineStart(line+1) <= at {
					line++
				}
				lastUnit = r.i
			}
			e := u.d.enc.Load()
			if e == nil || e.line != line || e.key != key {
				e = &encodedFindings{key: key, line: line, offs: make([]int32, len(u.d.list)+1)}
				for k := range u.d.list {
					e.buf = encode(e.buf, shift(u.d.list[k].Diagnostic, at))
					e.offs[k+1] = int32(len(e.buf))
				}
				u.d.enc.Store(e)
			}
			if !yield(e.buf[e.offs[r.k]:e.offs[r.k+1]]) {
				return
			}
		}
	}
}

// sortRefs puts refs in the order sortDiagnostics puts their findings.
func (s *diagState) sortRefs(refs []ref) {
	slices.SortStableFunc(refs, func(x, y ref) int {
		return compareAt(s.finding(x).Diagnostic, s.starts[x.i], s.finding(y).Diagnostic, s.starts[y.i])
	})
}

// allRefs yields the findings all yields, in its order.
func (s *diagState) allRefs() iter.Seq[ref] {
	return func(yield func(ref) bool) {
		// As parser.Diagnostics: the first parse error raised, then those
		// not before it. Every parse diagnostic but a dropped character is
		// an error.
		first := s.firstParseError()
		parses := first < 0
		semErr, staticErr, held := false, false, false
		for _, i := range s.withFindings() {
			u := s.units[i]
			semErr = semErr || u.d.semErr
			staticErr = staticErr || u.d.staticErr
			held = held || u.d.staticHeld
		}
		if held {
			staticErr = false // the static pass's findings are not shown
		}
		emit := yield
		var gathered []ref
		if !parses {
			emit = func(r ref) bool { gathered = append(gathered, r); return true }
		}
		for _, i := range s.withFindings() {
			u := s.units[i]
			at := s.starts[i]
			for k, x := range u.d.list {
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
					keep = parses && !semErr && !held
				case fromType:
					keep = parses && !semErr && !staticErr
				case fromRetold:
					keep = parses && (semErr || staticErr)
				}
				if keep && !emit(ref{int32(i), int32(k)}) {
					return
				}
			}
		}
		if !parses {
			s.sortRefs(gathered)
			for _, r := range gathered {
				if !yield(r) {
					return
				}
			}
		}
	}
}

// staticHeld reports whether a unit's analyzer findings hold the static
// pass's back (check.StaticHeld).
func (s *diagState) staticHeld() bool {
	for _, i := range s.withFindings() {
		if s.units[i].d.staticHeld {
			return true
		}
	}
	return false
}

// firstParseError returns the offset of the first parse error the parser
// raised (parser.First), which all shows with those not before it, or -1
// when the text parses.
func (s *diagState) firstParseError() int {
	first := -1
	var at raisedAt // when it was raised
	for _, i := range s.withFindings() {
		u := s.units[i]
		if u.d.firstParse < 0 {
			continue
		}
		r := u.d.raised
		r.at += int32(s.starts[i])
		if first < 0 || parser.RaisedBefore(int(r.at), r.late, int(at.at), at.late) {
			first, at = s.starts[i]+u.d.list[u.d.firstParse].Span.Start, r
		}
	}
	return first
}

// passRefs yields every finding of the checker's passes (the analyzer's,
// the static pass's and the type checker's), whether all shows it or holds
// it back behind an error of an earlier pass.
func (s *diagState) passRefs() iter.Seq[ref] {
	return func(yield func(ref) bool) {
		for _, i := range s.withFindings() {
			for k, x := range s.units[i].d.list {
				switch x.from {
				case fromAnalyzer, fromStatic, fromType:
					if !yield(ref{i, int32(k)}) {
						return
					}
				}
			}
		}
	}
}

// count returns an upper bound of the number of findings all yields.
func (s *diagState) count() int {
	n := 0
	for _, i := range s.withFindings() {
		n += len(s.units[i].d.list)
	}
	return n
}

// sortDiagnostics puts diagnostics in the order they are published: by
// position, then by what they say, so that two analyses finding the same
// things publish the same list.
func sortDiagnostics(ds []diag.Diagnostic) { slices.SortStableFunc(ds, compareDiagnostics) }

func compareDiagnostics(x, y diag.Diagnostic) int { return compareAt(x, 0, y, 0) }

// PassFindings yields every finding of the checker's passes over the
// snapshot's text, those its diagnostics hold back behind an error of an
// earlier pass included (the quick fixes count them, so as not to offer a
// fix that only brings one to light). When the text parses (parses), they
// come from the units of its diagnostics' state, derived as the
// diagnostics are; when not, the passes run over tree, a parse of the
// whole text (nil: the text is parsed again), with the names of the files
// it includes.
func (s *Snapshot) PassFindings(parses bool, tree *ast.File) iter.Seq[diag.Diagnostic] {
	if parses {
		st := s.diagState()
		return st.diagnosticsOf(st.passRefs())
	}
	if tree == nil {
		tree, _ = parser.Parse(s.Text)
	}
	ctx := check.FileContext(tree) // as analyze makes it: with the names of the included files
	ctx.Imports, ctx.Unfollowed = imports(tree, s.URI.Path(), s.src)
	_, passes := check.CheckPasses(tree, s.Text, ctx)
	return slices.Values(slices.Concat(passes.Analyzer, passes.Static, passes.Type))
}
