package check

// This file keeps the types of checked expressions once checking is done.

import (
	"math/bits"
	"slices"
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
// builds a typeTable from them, which is much smaller than a map, because
// an open document keeps its types as long as it is open.
type typeTable struct {
	slots []typeSlot
	kinds []unsafe.Pointer // the interface type words of the expressions held, by typeSlot.kind-1
	types []*types.Type    // the types held, each once, by typeSlot.typ
	n     int              // used slots
}

// A typeSlot is an expression and its type in 16 bytes (an ast.Expr and a
// *types.Type take 24): the expression's pointer and the index of its
// interface type word, and the index of its type.
type typeSlot struct {
	p    unsafe.Pointer // the expression's data word: the node
	kind uint32         // 0: free; else 1 + the index in kinds of its type word
	typ  uint32         // the index in types
}

// A typeRec is one type the type checker recorded: later records of an
// expression overwrite earlier ones, as assignments to a map would.
type typeRec struct {
	e ast.Expr
	t *types.Type
}

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
	ix := typeIndexer{index: map[*types.Type]uint32{}}
	for _, c := range recs {
		for _, r := range c {
			if r.e != nil {
				tt.put(words(r.e), ix.of(&tt, r.t), !literal(r.e, r.t))
			}
		}
	}
	if tt.n < m {
		// Some expressions were recorded more than once: size the table
		// for the distinct ones.
		old := tt.slots
		tt.slots, tt.n = make([]typeSlot, tt.n+tt.n/4+1), 0
		for _, s := range old {
			if s.kind != 0 {
				tt.put([2]unsafe.Pointer{tt.kinds[s.kind-1], s.p}, s.typ, true)
			}
		}
	}
	tt.types = slices.Clip(tt.types)
	tt.kinds = slices.Clip(tt.kinds)
	return tt
}

// A typeIndexer gives each type its index in a table's types, once.
type typeIndexer struct {
	index map[*types.Type]uint32
	last  *types.Type // and its index: types repeat
	ti    uint32
}

func (x *typeIndexer) of(tt *typeTable, t *types.Type) uint32 {
	if t != x.last || len(tt.types) == 0 {
		ti, ok := x.index[t]
		if !ok {
			ti = uint32(len(tt.types))
			x.index[t] = ti
			tt.types = append(tt.types, t)
		}
		x.last, x.ti = t, ti
	}
	return x.ti
}

// put sets the type (its index) of the expression of words w: over its
// earlier one, or in a free slot when add (a literal of its kind's type is
// only recorded over an earlier type).
func (tt *typeTable) put(w [2]unsafe.Pointer, typ uint32, add bool) {
	k := tt.kind(w[0])
	i := slotOf(w[1], len(tt.slots))
	for tt.slots[i].kind != 0 {
		if s := &tt.slots[i]; s.p == w[1] && s.kind == k {
			s.typ = typ
			return
		}
		if i++; i == len(tt.slots) {
			i = 0
		}
	}
	if add {
		tt.slots[i] = typeSlot{w[1], k, typ}
		tt.n++
	}
}

// kind returns the kind index of an interface type word, adding it when it
// is new (the node types of the tree are a few dozen).
func (tt *typeTable) kind(w unsafe.Pointer) uint32 {
	for i, k := range tt.kinds {
		if k == w {
			return uint32(i + 1)
		}
	}
	tt.kinds = append(tt.kinds, w)
	return uint32(len(tt.kinds))
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
	w := words(e)
	for i := slotOf(w[1], len(tt.slots)); tt.slots[i].kind != 0; {
		if s := &tt.slots[i]; s.p == w[1] && tt.kinds[s.kind-1] == w[0] {
			return tt.types[s.typ]
		}
		if i++; i == len(tt.slots) {
			i = 0
		}
	}
	return nil
}

func (tt *typeTable) all(yield func(ast.Expr, *types.Type) bool) {
	for _, s := range tt.slots {
		if s.kind == 0 {
			continue
		}
		var e ast.Expr
		*(*[2]unsafe.Pointer)(unsafe.Pointer(&e)) = [2]unsafe.Pointer{tt.kinds[s.kind-1], s.p}
		if !yield(e, tt.types[s.typ]) {
			return
		}
	}
}

// slotOf returns the first slot to probe for the node at p in a table of n
// slots.
func slotOf(p unsafe.Pointer, n int) int {
	h := uint64(uintptr(p)) * 0x9e3779b97f4a7c15
	hi, _ := bits.Mul64(h, uint64(n))
	return int(hi)
}

// words returns the two words of e: its type word and its data word (every
// ast.Expr is a pointer type, so the data word is the pointer). The data
// word is reflect.ValueOf(e).UnsafePointer() without its cost; the two
// make e again (typeTable.all).
func words(e ast.Expr) [2]unsafe.Pointer {
	return *(*[2]unsafe.Pointer)(unsafe.Pointer(&e))
}
