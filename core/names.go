package core

// This file indexes the top-level names of a file by their spelling in
// lower case, so that completion finds those that start with what is being
// typed without visiting the thousands of others a large file declares:
// after an edit, completion's partial analysis (query.go) offers the
// top-level names of the base (the last version analysed in full), and the
// base's index (on its queryBase) serves every version derived from it.

import (
	"cmp"
	"iter"
	"slices"
	"strings"
	"sync"

	"wfl-lsp/lang/check"
)

// smallIndex is the size of table below which visiting every name is as
// cheap as the index. A variable for the tests.
var smallIndex = 64

// A nameIndex is a table's symbols sorted by their names in lower case;
// the names a table holds under another name than the symbol's own are
// kept apart, and always visited.
type nameIndex struct {
	syms  []*check.Symbol
	other []nameEntry
}

type nameEntry struct {
	name string
	sym  *check.Symbol
}

// topNames returns the index of the file scope's declared names (bound
// false) or of the names the runtime binds there (bound true), built the
// first time it is asked for.
func (b *queryBase) topNames(bound bool) *nameIndex {
	b.namesOnce.Do(func() {
		b.names = [2]*nameIndex{indexNames(&b.symbols), indexNames(b.injected)}
	})
	if bound {
		return b.names[1]
	}
	return b.names[0]
}

func indexNames(t *check.SymbolTable) *nameIndex {
	x := &nameIndex{syms: make([]*check.Symbol, 0, t.Len())}
	for name, sym := range t.All() {
		if sym != nil && name == sym.Name {
			x.syms = append(x.syms, sym)
		} else {
			x.other = append(x.other, nameEntry{name, sym})
		}
	}
	slices.SortFunc(x.syms, func(p, q *check.Symbol) int {
		return cmp.Compare(strings.ToLower(p.Name), strings.ToLower(q.Name))
	})
	x.syms = slices.Clip(x.syms)
	return x
}

// starting yields the names that may start with one of prefixes (lower
// case, none a prefix of another), and their symbols: all that do, and
// perhaps others.
func (x *nameIndex) starting(prefixes []string) iter.Seq2[string, *check.Symbol] {
	return func(yield func(string, *check.Symbol) bool) {
		for _, p := range prefixes {
			i, _ := slices.BinarySearchFunc(x.syms, p, func(s *check.Symbol, p string) int {
				return cmp.Compare(strings.ToLower(s.Name), p)
			})
			for ; i < len(x.syms) && hasPrefixFold(x.syms[i].Name, p); i++ {
				if !yield(x.syms[i].Name, x.syms[i]) {
					return
				}
			}
		}
		for _, e := range x.other {
			if !yield(e.name, e.sym) {
				return
			}
		}
	}
}

// namesCache is the lazily built index a queryBase carries.
type namesCache struct {
	namesOnce sync.Once
	names     [2]*nameIndex
}
