package check

// This file keeps the types of checked expressions once checking is done.

import (
	"math/bits"
	"unsafe"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/types"
)

// A typeTable maps checked expressions to their types: an open-addressing
// hash table with linear probing, filled once at 80% load and never changed,
// hashed by the node's address (every expression is a pointer and the
// collector does not move objects, so the hash needs no visit to the node).
// For all but small files the type checker appends what it learns to a list
// of records (cheaper than filling a Go map that grows) and Check then
// builds a typeTable from them, which takes about half the memory of a map,
// because an open document keeps its types as long as it is open.
type typeTable struct {
	slots []typeSlot
	n     int // used slots
}

type typeSlot struct {
	e ast.Expr // nil: free
	t *types.Type
}

// A typeRec is one type the type checker recorded: later records of an
// expression overwrite earlier ones, as assignments to a map would.
type typeRec = typeSlot

// newTypeTable returns a table of the records, chunks of them in order
// (but a nil key, and literals of their kind's type), the last record of
// each expression winning.
func newTypeTable(recs [][]typeRec) typeTable {
	m := 0
	for _, c := range recs {
		for _, r := range c {
			if r.e != nil && !literal(r.e, r.t) {
				m++
			}
		}
	}
	if m == 0 {
		return typeTable{}
	}
	tt := typeTable{slots: make([]typeSlot, m+m/4+1)}
	for _, c := range recs {
		for _, r := range c {
			if r.e != nil && !literal(r.e, r.t) {
				tt.put(r.e, r.t)
			}
		}
	}
	if tt.n < m {
		// Some expressions were recorded more than once: size the table
		// for the distinct ones.
		old := tt.slots
		tt = typeTable{slots: make([]typeSlot, tt.n+tt.n/4+1)}
		for _, s := range old {
			if s.e != nil {
				tt.put(s.e, s.t)
			}
		}
	}
	return tt
}

// put sets e's type in a table with a free slot.
func (tt *typeTable) put(e ast.Expr, t *types.Type) {
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

// literal reports whether e is a literal of type t, the type of its kind:
// the table leaves those out (about a third of a program's expressions)
// and get answers them from the node.
func literal(e ast.Expr, t *types.Type) bool {
	lit, ok := e.(*ast.BasicLit)
	return ok && lit != nil && t == litType(lit.Kind)
}

// get returns the type of e, or nil when e was not checked; a literal has
// the type of its kind, checked or not.
func (tt *typeTable) get(e ast.Expr) *types.Type {
	t := tt.lookup(e)
	if lit, ok := e.(*ast.BasicLit); ok && lit != nil && t == nil {
		t = litType(lit.Kind)
	}
	return t
}

// lookup returns the type the table holds for e, or nil.
func (tt *typeTable) lookup(e ast.Expr) *types.Type {
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

// slotOf returns the first slot to probe for e in a table of n slots.
func slotOf(e ast.Expr, n int) int {
	h := uint64(nodeAddr(e)) * 0x9e3779b97f4a7c15
	hi, _ := bits.Mul64(h, uint64(n))
	return int(hi)
}

// nodeAddr returns the address e points to: the data word of the interface
// value (every ast.Expr is a pointer type, so the word is the pointer). It
// is reflect.ValueOf(e).Pointer() without its cost.
func nodeAddr(e ast.Expr) uintptr {
	return uintptr((*[2]unsafe.Pointer)(unsafe.Pointer(&e))[1])
}
