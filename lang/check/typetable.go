package check

// This file keeps the types of checked expressions once checking is done.

import (
	"math/bits"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/types"
)

// A typeTable maps checked expressions to their types. It is an
// open-addressing hash table filled once, at 80% load, hashed by the
// expression's offset (expressions at one offset are a few nested ones), and
// never changed again. A Go map of the same entries takes about twice the
// memory, and an open document keeps its table as long as it is open.
type typeTable struct {
	slots []typeSlot
}

type typeSlot struct {
	e ast.Expr // nil: free
	t *types.Type
}

func newTypeTable(m map[ast.Expr]*types.Type) typeTable {
	if len(m) == 0 {
		return typeTable{}
	}
	slots := make([]typeSlot, len(m)+len(m)/4+1)
	for e, t := range m {
		i := slotOf(e, len(slots))
		for slots[i].e != nil {
			if i++; i == len(slots) {
				i = 0
			}
		}
		slots[i] = typeSlot{e, t}
	}
	return typeTable{slots: slots}
}

// get returns the type of e, or nil when e was not checked.
func (tt *typeTable) get(e ast.Expr) *types.Type {
	if len(tt.slots) == 0 || e == nil {
		return nil
	}
	for i := slotOf(e, len(tt.slots)); tt.slots[i].e != nil; {
		if tt.slots[i].e == e {
			return tt.slots[i].t
		}
		if i++; i == len(tt.slots) {
			i = 0
		}
	}
	return nil
}

func (tt *typeTable) all(yield func(ast.Expr, *types.Type) bool) {
	for _, s := range tt.slots {
		if s.e != nil && !yield(s.e, s.t) {
			return
		}
	}
}

// slotOf returns the first slot to probe for e in a table of n slots. The
// hash mixes both ends of e: a chain of left-nested operations shares its
// start, a chain of right-nested ones its end.
func slotOf(e ast.Expr, n int) int {
	pos, end := exprSpan(e)
	h := (uint64(pos)*0x9e3779b97f4a7c15 ^ uint64(end)) * 0xbf58476d1ce4e5b9
	hi, _ := bits.Mul64(h, uint64(n))
	return int(hi)
}

// exprSpan returns e's extent, or -1, -1 for a typed nil pointer (whose Pos
// would panic), so that every key the checker recorded can be hashed.
func exprSpan(e ast.Expr) (pos, end int) {
	defer func() {
		if recover() != nil {
			pos, end = -1, -1
		}
	}()
	return e.Pos(), e.End()
}
