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
	"unicode/utf8"

	"wfl-lsp/lang/check"
)

// smallIndex is the size of table below which visiting every name is as
// cheap as the index. A variable for the tests.
var smallIndex = 64

// A nameIndex is a table's symbols sorted by their names in lower case,
// each with the unit of the base that declares it; the names a table
// holds under another name than the symbol's own are kept apart, and
// always visited.
type nameIndex struct {
	syms  []indexed
	other []nameEntry
}

// An indexed symbol, and the unit of the base that declares it (baseUnit).
type indexed struct {
	sym  *check.Symbol
	unit int
}

type nameEntry struct {
	name string
	e    indexed
}

// topNames returns the index of the file scope's declared names (bound
// false) or of the names the runtime binds there (bound true), built the
// first time it is asked for.
func (b *queryBase) topNames(bound bool) *nameIndex {
	b.namesOnce.Do(func() {
		b.names = [2]*nameIndex{indexNames(&b.symbols, b.starts), indexNames(b.injected, b.starts)}
	})
	if bound {
		return b.names[1]
	}
	return b.names[0]
}

// indexNames indexes the names of t, whose symbols are declared in the
// units that start at starts.
func indexNames(t *check.SymbolTable, starts []int) *nameIndex {
	x := &nameIndex{syms: make([]indexed, 0, t.Len())}
	for name, sym := range t.All() {
		e := indexed{sym, baseUnit(starts, sym)}
		if sym != nil && name == sym.Name {
			x.syms = append(x.syms, e)
		} else {
			x.other = append(x.other, nameEntry{name, e})
		}
	}
	slices.SortFunc(x.syms, func(p, q indexed) int {
		return cmp.Compare(strings.ToLower(p.sym.Name), strings.ToLower(q.sym.Name))
	})
	x.syms = slices.Clip(x.syms)
	return x
}

// starting yields the names that may start with one of prefixes (lower
// case, none a prefix of another), and their symbols with their units:
// all that do, and perhaps others.
func (x *nameIndex) starting(prefixes []string) iter.Seq2[string, indexed] {
	return func(yield func(string, indexed) bool) {
		for _, p := range prefixes {
			i, _ := slices.BinarySearchFunc(x.syms, p, func(s indexed, p string) int {
				return cmp.Compare(strings.ToLower(s.sym.Name), p)
			})
			for ; i < len(x.syms) && HasPrefixFold(x.syms[i].sym.Name, p); i++ {
				if !yield(x.syms[i].sym.Name, x.syms[i]) {
					return
				}
			}
		}
		for _, e := range x.other {
			if !yield(e.name, e.e) {
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

// HasPrefixFold reports whether strings.ToLower(s) starts with lower, a
// lower-case string, without lowering s when it is ASCII.
func HasPrefixFold(s, lower string) bool {
	for i := 0; i < len(lower); i++ {
		if i == len(s) {
			return false
		}
		c := s[i]
		if c >= utf8.RuneSelf {
			return strings.HasPrefix(strings.ToLower(s), lower)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}
