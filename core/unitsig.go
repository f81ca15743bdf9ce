package core

// This file digests what each unit declares in the file scope, as the
// partial analyses of queries read it of their base (query_partial.go): the
// symbols of the file scope, the names bound there and the containers,
// each with what a query shows of it (kind, flags, type, members,
// parameters, where its declaration lies in the unit). A unit checked
// again after an edit elsewhere (incremental_recheck.go) whose digest is
// the one a full analysis gave it still has the symbols that analysis
// made: the queries may go on taking them from it (unit.root).
//
// The doc comments are left out: a declaration's comment lies in the unit
// before, and a partial analysis takes the unit after every changed one
// (newQueryState).

import (
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/types"
)

// root returns the unit that the partial analyses of queries take u for: the
// first of the units u only checks again (origin), or u.
func (u *unit) root() *unit {
	if u.origin != nil {
		return u.origin
	}
	return u
}

// symbolSigs returns the digest of the file-scope symbols of each of n
// units that info declares; locate gives the unit of an offset of info's
// text and the offset within it. No digest is 0.
func symbolSigs(info *check.Info, n int, locate func(pos int) (unit, rel int)) []uint64 {
	sigs := make([]uint64, n)
	for i := range sigs {
		sigs[i] = 1
	}
	if info == nil || info.Global == nil {
		return sigs
	}
	add := func(table uint64, name string, sym *check.Symbol) {
		if sym == nil || sym.From() != "" {
			return // an included file's
		}
		pos := sym.Decl.Start
		if sym.Decl.End == 0 {
			if sym.Node == nil {
				return // predeclared
			}
			pos = sym.Node.Pos()
		}
		i, rel := locate(pos)
		if i < 0 || i >= n {
			return
		}
		h := newSigHash()
		h.int(table)
		h.str(name)
		h.int(uint64(rel))
		if sym.Decl.End != 0 {
			h.int(uint64(sym.Decl.End - sym.Decl.Start))
		}
		h.symbol(sym, 2)
		// A sum: the symbols come in no particular order.
		sigs[i] += h.sum()
	}
	for name, sym := range info.Global.Symbols.All() {
		add(1, name, sym)
	}
	for name, sym := range info.Global.Injected().All() {
		add(2, name, sym)
	}
	for name, sym := range info.Containers {
		add(3, name, sym)
	}
	return sigs
}

// sigHash is FNV-1a over 64 bits.
type sigHash uint64

func newSigHash() sigHash { return 14695981039346656037 }

func (h *sigHash) byte(b byte) {
	*h = (*h ^ sigHash(b)) * 1099511628211
}

func (h *sigHash) int(v uint64) {
	for range 8 {
		h.byte(byte(v))
		v >>= 8
	}
}

func (h *sigHash) str(s string) {
	h.int(uint64(len(s)))
	for i := 0; i < len(s); i++ {
		h.byte(s[i])
	}
}

func (h *sigHash) bool(b bool) {
	if b {
		h.byte(1)
	} else {
		h.byte(0)
	}
}

// sum mixes the hash's bits, so that sums of hashes do not cancel.
func (h sigHash) sum() uint64 {
	x := uint64(h)
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	return x
}

// symbol hashes what a query shows of sym; depth bounds how far members
// are followed.
func (h *sigHash) symbol(sym *check.Symbol, depth int) {
	h.int(uint64(sym.Kind))
	h.bool(sym.Mutable)
	h.bool(sym.Constant)
	h.bool(sym.Builtin() != nil)
	h.typ(sym.Type, 4)
	h.str(sym.Extends())
	if sym.Parent != nil {
		h.str(sym.Parent.Name)
	}
	for _, a := range sym.Versions() {
		h.action(a)
	}
	h.int(uint64(len(sym.Members())))
	if depth == 0 {
		return
	}
	var members uint64
	for name, m := range sym.Members() {
		mh := newSigHash()
		mh.str(name)
		if m != nil {
			mh.symbol(m, depth-1)
		}
		members += mh.sum()
	}
	h.int(members)
}

// action hashes an action's definition: where it lies and its parameters
// (the action's own text, so the same in every version of a unit whose
// text is the same; it tells a definition from another).
func (h *sigHash) action(a *ast.ActionDecl) {
	if a == nil {
		h.byte(0)
		return
	}
	h.int(uint64(a.End() - a.Pos()))
	h.int(uint64(len(a.Params)))
	for _, p := range a.Params {
		if p != nil && p.Name != nil {
			h.str(p.Name.Name)
		}
	}
}

// typ hashes a type; depth bounds how far its parts are followed.
func (h *sigHash) typ(t *types.Type, depth int) {
	if t == nil {
		h.byte(0)
		return
	}
	h.int(uint64(t.Kind) + 1)
	h.str(t.Name)
	if depth == 0 {
		return
	}
	h.typ(t.Elem, depth-1)
	h.typ(t.Key, depth-1)
	h.int(uint64(len(t.Params)))
	for _, p := range t.Params {
		h.typ(p, depth-1)
	}
	h.typ(t.Result, depth-1)
}
