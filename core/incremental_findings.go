package core

// This file implements a unit's findings: gathered by source, packed into
// one sorted list, and assembled across units into a snapshot's
// diagnostics, as a full analysis would publish them.

import (
	"cmp"
	"iter"
	"math"
	"slices"
	"strings"

	"wfl-lsp/lang/diag"
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
	// relFrom and relTo bound the related spans of the findings, relative
	// to the unit (relFrom > relTo when there are none): relatedOut reads
	// them, on every keystroke, for every unit.
	relFrom, relTo int
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
