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
//
// Some expressions are answered without a slot of their own: a literal
// of its kind's type, and an expression of its usual type (a usualFunc
// says which: an operator's usual result, a name's symbol's type), which
// is a bit at the expression's offset in usual. Those are most of a long
// chain's expressions, where a slot (20 bytes with the free ones) costs a
// third of the node, and most names of ordinary code.
type typeTable struct {
	slots []typeSlot
	kinds []unsafe.Pointer // the interface type words of the expressions held, by typeSlot.kind-1
	types []*types.Type    // the types held, each once, by typeSlot.typ
	n     int              // used slots
	usual bitset           // the offsets of the expressions checked to their usual type
}

// A bitset is a set of offsets, a bit each.
type bitset []uint64

func (b *bitset) add(i int) {
	if w := i / 64; w >= len(*b) {
		*b = append(*b, make([]uint64, w+1-len(*b))...)
	}
	(*b)[i/64] |= 1 << (i % 64)
}

func (b bitset) has(i int) bool { return i/64 < len(b) && b[i/64]&(1<<(i%64)) != 0 }

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

// A usualFunc returns the usual type of e, the one the table holds as a
// bit at the offset it returns, or nil when e has none. A name and an
// operator never start at the same offset.
type usualFunc func(e ast.Expr) (*types.Type, int)

// newTypeTable returns a table of the records, chunks of them in order
// (but a nil key, and literals of their kind's type), the last record of
// each expression winning; usual says which records are a bit.
func newTypeTable(recs [][]typeRec, usual usualFunc) typeTable {
	m, last := 0, -1 // the records that take a slot; the last offset of a usual type
	for _, c := range recs {
		for _, r := range c {
			if r.e == nil || literal(r.e, r.t) {
				continue
			}
			if u, at := usual(r.e); u != nil && u == r.t {
				last = max(last, at)
				continue
			}
			m++
		}
	}
	tt := typeTable{slots: make([]typeSlot, m+m/4+1)}
	if last >= 0 {
		tt.usual = make(bitset, last/64+1)
	}
	ix := typeIndexer{index: map[*types.Type]uint32{}}
	retyped := false // a usual type took the place of another
	for _, c := range recs {
		for _, r := range c {
			if r.e == nil {
				continue
			}
			// A literal of its kind's type or an expression of its
			// usual type only takes the place of an earlier record.
			add, u := !literal(r.e, r.t), false
			if t, at := usual(r.e); add && t != nil && t == r.t {
				tt.usual.add(at)
				add, u = false, true
			}
			if tt.put(words(r.e), ix.of(&tt, r.t), add) && u {
				retyped = true
			}
		}
	}
	if tt.n < m || retyped {
		// Some expressions were recorded more than once: size the table
		// for the distinct ones, without those whose last type is their
		// usual one.
		old, n := tt.slots, 0
		for i, s := range old {
			if s.kind != 0 && tt.held(s, usual) {
				n++
			} else {
				old[i].kind = 0
			}
		}
		tt.slots, tt.n = make([]typeSlot, n+n/4+1), 0
		for _, s := range old {
			if s.kind != 0 {
				tt.put([2]unsafe.Pointer{tt.kinds[s.kind-1], s.p}, s.typ, true)
			}
		}
	}
	if tt.n == 0 {
		tt.slots, tt.types, tt.kinds = nil, nil, nil
		if tt.usual == nil {
			return typeTable{}
		}
		return tt
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
// only recorded over an earlier type). It reports whether it found the
// earlier one.
func (tt *typeTable) put(w [2]unsafe.Pointer, typ uint32, add bool) bool {
	k := tt.kind(w[0])
	i := slotOf(w[1], len(tt.slots))
	for tt.slots[i].kind != 0 {
		if s := &tt.slots[i]; s.p == w[1] && s.kind == k {
			s.typ = typ
			return true
		}
		if i++; i == len(tt.slots) {
			i = 0
		}
	}
	if add {
		tt.slots[i] = typeSlot{w[1], k, typ}
		tt.n++
	}
	return false
}

// held reports whether the slot s needs to be held: its type is not the
// one get answers without it.
func (tt *typeTable) held(s typeSlot, usual usualFunc) bool {
	e, t := tt.expr(s), tt.types[s.typ]
	u, _ := usual(e)
	return t != u && !literal(e, t)
}

// expr returns the expression of the slot s.
func (tt *typeTable) expr(s typeSlot) ast.Expr {
	var e ast.Expr
	*(*[2]unsafe.Pointer)(unsafe.Pointer(&e)) = [2]unsafe.Pointer{tt.kinds[s.kind-1], s.p}
	return e
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

// operatorType returns the type an operator expression has unless an
// operand is unknown or wrong (Number for arithmetic, Boolean for
// comparisons and logic, Text for `with`), and the offset of its
// operator; nil for other expressions.
func operatorType(e ast.Expr) (*types.Type, int) {
	switch e := e.(type) {
	case *ast.BinaryExpr:
		if e == nil || e.OpPos < 0 {
			break
		}
		if e.Op.IsArithmetic() {
			return types.Number, e.OpPos
		}
		return types.Boolean, e.OpPos
	case *ast.ConcatExpr:
		if e == nil || e.WithPos < 0 {
			break
		}
		return types.Text, e.WithPos
	}
	return nil, 0
}

// get returns the type of e, or nil when e was not checked; a literal has
// the type of its kind, checked or not. (An expression of another tree
// answers as this tree's at its offset would.)
func (tt *typeTable) get(e ast.Expr, usual usualFunc) *types.Type {
	t := tt.lookup(e)
	if t != nil {
		return t
	}
	if lit, ok := e.(*ast.BasicLit); ok && lit != nil {
		return litType(lit.Kind)
	}
	if u, at := usual(e); u != nil && tt.usual.has(at) {
		return u
	}
	return nil
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
		if !yield(tt.expr(s), tt.types[s.typ]) {
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
