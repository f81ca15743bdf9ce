package presentation

// This file answers a document's outline after an edit without its full
// analysis. The outline is read from the tree but for one checked fact:
// the type of each top-level store's value (DocumentSymbols).
// The diagnostics' state checks a unit again only when an edit reaches it
// through a name (reach.go), and a unit checked again is a new unit; a
// unit that is still the same one was checked against the same names, and
// its types are what they were. So the types found for the units of one
// version are kept by unit (OutlineTypes) and carried to the later
// versions, and only those of the units that are new since are found
// again, from an analysis of just those (Query). TestOutlineEqualsFull
// compares the outline with a full analysis's after random edits of every
// corpus program.

import (
	"slices"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// Outline returns the outline of the snapshot's text: the full
// analysis's ([DocumentSymbols]) when it is computed, or the text
// is small; else the outline of a parse of the text (core.Snapshot.Syntax),
// with the types of the units an earlier outline found, and those of the
// units new since from partial analyses of them. The units of a file with
// includes are checked again when what they name of an included file
// changes (core/incremental_imports.go): new units, typed anew.
// It is safe to call from many goroutines.
func Outline(s *core.Snapshot) []DocumentSymbol {
	if out, ok := outlineSince(s); ok {
		return out
	}
	a := s.Analysis()
	out := DocumentSymbols(a)
	if units, starts := s.Units(); units != nil && a.File != nil && len(a.File.Stmts) > 0 {
		o := new(core.OutlineTypes)
		for _, stmt := range a.File.Stmts {
			if d, ok := stmt.(*ast.VarDecl); ok {
				o.Add(units[core.UnitAt(starts, d.Pos())], typeDetail(a, d.Value))
			}
		}
		if !o.Over() {
			s.KeepOutlineTypes(o.Clip())
		}
	}
	return out
}

// outlineSince is DocumentSymbols without the full analysis, or false when
// it needs one.
func outlineSince(s *core.Snapshot) ([]DocumentSymbol, bool) {
	if !s.PartialQueries() {
		return nil, false
	}
	us, starts := s.Units()
	if !s.Derived() || us == nil {
		return nil, false
	}
	x := s.Syntax()
	var decls []*ast.VarDecl // the top-level stores
	for _, stmt := range x.File.Stmts {
		if d, ok := stmt.(*ast.VarDecl); ok {
			decls = append(decls, d)
		}
	}
	// The stores of each unit; the units whose stores' types an earlier
	// outline found, as many as they have now, keep them.
	units := make([]int, len(decls))
	count := map[int]int{}
	for k, d := range decls {
		units[k] = core.UnitAt(starts, d.Pos())
		count[units[k]]++
	}
	var known map[*core.Unit][]string
	if o := s.OutlineTypes(); o != nil {
		known = o.ByUnit()
	}
	var unknown []int // the units whose types are not known, in order
	for i, n := range count {
		if ts, ok := known[us[i]]; !ok || len(ts) != n {
			unknown = append(unknown, i)
		}
	}
	slices.Sort(unknown)
	// The others' come from analyses of just those units (and what they
	// need), a stretch of nearby ones at a time (an edit far below a
	// declaration it names checks the declaration again: two small
	// stretches, not half the text), or the full one when that is cheaper.
	type typed struct {
		a *core.Analysis
		d *ast.VarDecl
	}
	fresh := map[int]typed{} // the stores of those analyses, by offset
	for _, run := range clusters(unknown, outlineGap, outlineRuns) {
		a := s.Query(token.Span{Start: starts[run[0]], End: s.UnitEnd(run[1])})
		if a.File == nil {
			return nil, false
		}
		for _, stmt := range a.File.Stmts {
			if d, ok := stmt.(*ast.VarDecl); ok {
				fresh[d.Pos()] = typed{a, d}
			}
		}
		if !a.Partial() {
			break // the full analysis has them all
		}
	}
	o := new(core.OutlineTypes)
	detail := make(map[*ast.VarDecl]string, len(decls))
	nth := 0 // the index of decls[k] among its unit's
	for k, d := range decls {
		if k > 0 && units[k] == units[k-1] {
			nth++
		} else {
			nth = 0
		}
		u := us[units[k]]
		if ts, ok := known[u]; ok && len(ts) == count[units[k]] {
			detail[d] = ts[nth]
		} else if f, ok := fresh[d.Pos()]; ok {
			detail[d] = typeDetail(f.a, f.d.Value)
		} else {
			return nil, false // not in the partial analysis: the full one answers
		}
		o.Add(u, detail[d])
	}
	if !o.Over() {
		s.KeepOutlineTypes(o.Clip())
	}
	return outliner(func(d *ast.VarDecl) string { return detail[d] }).top(x.File.Stmts), true
}

// Stretches of units the outline types apart: units fewer than outlineGap
// apart are one stretch; beyond outlineRuns stretches, one stretch from the
// first to the last.
const outlineGap, outlineRuns = 8, 4

// clusters returns the first and last of each stretch of the sorted
// indices at: those less than gap apart are one; when that makes more than
// most stretches, one from the first to the last.
func clusters(at []int, gap, most int) [][2]int {
	var out [][2]int
	for _, i := range at {
		if n := len(out); n > 0 && i-out[n-1][1] < gap {
			out[n-1][1] = i
			continue
		}
		out = append(out, [2]int{i, i})
	}
	if len(out) > most {
		return [][2]int{{out[0][0], out[len(out)-1][1]}}
	}
	return out
}
