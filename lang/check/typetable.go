package check

// This file keeps the types of checked expressions.

import (
	"math/bits"
	"unsafe"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/types"
)

// A typeTable maps checked expressions to their types: an open-addressing
// hash table with linear probing, hashed by the node's address (every
// expression is a pointer and the collector does not move objects, so the
// hash needs no visit to the node). The type checker fills it; when it is
// done, compact makes it at most 5/4 the size of its entries. A Go map of
// the same entries takes about twice the memory, and an open document keeps
// its table as long as it is open.
type typeTable struct {
	slots []typeSlot
	n     int // used slots
}

type typeSlot struct {
	e ast.Expr // nil: free
	t *types.Type
}

// newTypeTable returns a table with room for about hint entries.
func newTypeTable(hint int) typeTable {
	return typeTable{slots: make([]typeSlot, hint+hint/4+8)}
}

// set records t as the type of e, replacing an earlier one. A nil e is not
// recorded.
func (tt *typeTable) set(e ast.Expr, t *types.Type) {
	if e == nil {
		return
	}
	if 5*(tt.n+1) > 4*len(tt.slots) {
		tt.rehash(2*len(tt.slots) + 8)
	}
	i := slotOf(e, len(tt.slots))
	for tt.slots[i].e != nil {
		if tt.slots[i].e == e {
			tt.slots[i].t = t
			return
		}
		if i++; i == len(tt.slots) {
			i = 0
		}
	}
	tt.slots[i] = typeSlot{e, t}
	tt.n++
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

// compact shrinks the table to 5/4 of its entries when they fill less than
// half of it.
func (tt *typeTable) compact() {
	if 2*tt.n < len(tt.slots) {
		tt.rehash(tt.n + tt.n/4 + 1)
	}
}

func (tt *typeTable) rehash(size int) {
	old := tt.slots
	tt.slots = make([]typeSlot, size)
	for _, s := range old {
		if s.e == nil {
			continue
		}
		i := slotOf(s.e, size)
		for tt.slots[i].e != nil {
			if i++; i == size {
				i = 0
			}
		}
		tt.slots[i] = s
	}
}

func (tt *typeTable) all(yield func(ast.Expr, *types.Type) bool) {
	for _, s := range tt.slots {
		if s.e != nil && !yield(s.e, s.t) {
			return
		}
	}
}

// slotOf returns the first slot to probe for e in a table of n slots.
func slotOf(e ast.Expr, n int) int {
	h := uint64(nodeAddr(e)) * 0x9e3779b97f4a7c15
	hi, _ := bits.Mul64(h, uint64(n))
	return int(hi)
}

// nodeAddr returns the address e points to: the data word of the interface
// value (every ast.Expr is a pointer type, so the word is the pointer). It
// is reflect.ValueOf(e).Pointer() without its cost, which showed in the
// checker's profile.
func nodeAddr(e ast.Expr) uintptr {
	return uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(&e))[1])
}
