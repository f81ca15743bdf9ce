package core

// This file answers a document's outline after an edit without its full
// analysis. The outline is read from the tree but for one checked fact:
// the type of each top-level store's value (Analysis.DocumentSymbols).
// The diagnostics' state checks a unit again only when an edit reaches it
// through a name (reach.go), and a unit checked again is a new unit; a
// unit that is still the same one was checked against the same names, and
// its types are what they were. So the types found for the units of one
// version are kept by unit (outlineTypes) and carried to the later
// versions, and only those of the units that are new since are found
// again, from an analysis of just those (Query). TestOutlineEqualsFull
// compares the outline with a full analysis's after random edits of every
// corpus program.

import (
	"math"
	"slices"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/token"
)

// outlineTypes are the details of the top-level stores of a version's
// units (the checked types of their values, as DocumentSymbols shows
// them): for each store, in source order, its unit and its detail. A
// document keeps them while it is typed into: a unit and an index a
// store, the few distinct details apart.
type outlineTypes struct {
	units   []*unit
	details []uint16 // an index in names
	names   []string
	over    bool // more distinct details than a uint16 tells apart: not kept
}

// add appends a store of unit u, whose detail is detail.
func (o *outlineTypes) add(u *unit, detail string) {
	k := slices.Index(o.names, detail)
	if k < 0 {
		k = len(o.names)
		o.names = append(o.names, detail)
		o.over = o.over || k > math.MaxUint16
	}
	o.units = append(o.units, u)
	o.details = append(o.details, uint16(k))
}

// byUnit returns the details of the stores of each unit.
func (o *outlineTypes) byUnit() map[*unit][]string {
	m := make(map[*unit][]string)
	for k, u := range o.units {
		m[u] = append(m[u], o.names[o.details[k]])
	}
	return m
}

// DocumentSymbols returns the outline of the snapshot's text: the full
// analysis's (Analysis.DocumentSymbols) when it is computed, or the text
// is small; else the outline of a parse of the text (Snapshot.Syntax),
// with the types of the units an earlier outline found, and those of the
// units new since from partial analyses of them. The units of a file with
// includes are checked again when what they name of an included file
// changes (incremental_imports.go): new units, typed anew.
// It is safe to call from many goroutines.
func (s *Snapshot) DocumentSymbols() []DocumentSymbol {
	if out, ok := s.outlineSince(); ok {
		return out
	}
	a := s.Analysis()
	out := a.DocumentSymbols()
	if st := s.diagState(); st != nil && a.File != nil && len(a.File.Stmts) > 0 {
		o := new(outlineTypes)
		for _, stmt := range a.File.Stmts {
			if d, ok := stmt.(*ast.VarDecl); ok {
				o.add(st.units[unitAt(st.starts, d.Pos())], a.typeDetail(d.Value))
			}
		}
		if !o.over {
			s.outline.Store(o.clip())
		}
	}
	return out
}

// clip returns o without room to grow.
func (o *outlineTypes) clip() *outlineTypes {
	o.units, o.details, o.names = slices.Clip(o.units), slices.Clip(o.details), slices.Clip(o.names)
	return o
}

// outlineSince is DocumentSymbols without the full analysis, or false when
// it needs one.
func (s *Snapshot) outlineSince() ([]DocumentSymbol, bool) {
	if s.analysed.Load() || len(s.Text) < partialMin {
		return nil, false
	}
	st := s.diagState()
	if !s.derived || st == nil {
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
		units[k] = unitAt(st.starts, d.Pos())
		count[units[k]]++
	}
	var known map[*unit][]string
	if o := s.outline.Load(); o != nil {
		known = o.byUnit()
	}
	var unknown []int // the units whose types are not known, in order
	for i, n := range count {
		if ts, ok := known[st.units[i]]; !ok || len(ts) != n {
			unknown = append(unknown, i)
		}
	}
	slices.Sort(unknown)
	// The others' come from analyses of just those units (and what they
	// need), a stretch of nearby ones at a time (an edit far below a
	// declaration it names checks the declaration again: two small
	// stretches, not half the text), or the full one when that is cheaper.
	type typed struct {
		a *Analysis
		d *ast.VarDecl
	}
	fresh := map[int]typed{} // the stores of those analyses, by offset
	for _, run := range clusters(unknown, outlineGap, outlineRuns) {
		a := s.Query(token.Span{Start: st.starts[run[0]], End: st.end(run[1])})
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
	o := new(outlineTypes)
	detail := make(map[*ast.VarDecl]string, len(decls))
	nth := 0 // the index of decls[k] among its unit's
	for k, d := range decls {
		if k > 0 && units[k] == units[k-1] {
			nth++
		} else {
			nth = 0
		}
		u := st.units[units[k]]
		if ts, ok := known[u]; ok && len(ts) == count[units[k]] {
			detail[d] = ts[nth]
		} else if f, ok := fresh[d.Pos()]; ok {
			detail[d] = f.a.typeDetail(f.d.Value)
		} else {
			return nil, false // not in the partial analysis: the full one answers
		}
		o.add(u, detail[d])
	}
	if !o.over {
		s.outline.Store(o.clip())
	}
	return outliner(func(d *ast.VarDecl) string { return detail[d] }).outline(x.File.Stmts, true), true
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
