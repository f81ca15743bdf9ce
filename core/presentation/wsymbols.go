package presentation

// This file supports workspace symbols: the flattened outline of a file
// (for an index of the files on disk) and the fuzzy match that ranks
// declarations against what the user typed.

import (
	"strings"
	"unicode"

	"wfl-lsp/core"
	"wfl-lsp/lang/token"
)

// A WorkspaceSymbol is one declaration of one file.
type WorkspaceSymbol struct {
	Name      string
	Container string // the enclosing declaration's name, or ""
	Kind      OutlineKind
	Span      token.Span // the declaration's name
}

// FlatSymbols returns the document's declarations, outline children after
// their parent, each naming its container.
func FlatSymbols(a *core.Analysis) []WorkspaceSymbol {
	var out []WorkspaceSymbol
	var walk func(container string, ss []DocumentSymbol)
	walk = func(container string, ss []DocumentSymbol) {
		for _, s := range ss {
			if s.Kind == OutlineParameter {
				continue
			}
			out = append(out, WorkspaceSymbol{Name: s.Name, Container: container, Kind: s.Kind, Span: s.NameSpan})
			walk(s.Name, s.Children)
		}
	}
	walk("", DocumentSymbols(a))
	return out
}

// FuzzyMatch reports whether query matches name, ignoring case and
// spaces, and scores the match: higher is better. Like gopls, it ranks in
// tiers: the name itself, a prefix in the same case, a prefix in any
// case, the query at the start of a word of the name (`email` in
// `test_email`), anywhere in it, an abbreviation whose every run of
// letters starts a word (`gtot` for `grand total`), then the letters in
// order from a word's start in few runs (`grt` for `greet`: at most one
// run for two letters of the query); within a tier, shorter names first.
// Anything else, letters scattered through a long name (`Person` in
// `Setup/teardown isolation`), does not match. An empty query matches
// everything with score 0.
func FuzzyMatch(query, name string) (int, bool) {
	q := strings.ToLower(strings.ReplaceAll(query, " ", ""))
	if q == "" {
		return 0, true
	}
	n, starts := foldName(name)
	tier := 0
	switch {
	case name == query:
		tier = 7
	case strings.HasPrefix(name, query):
		tier = 6
	case strings.HasPrefix(n, q):
		tier = 5
	default:
		for at := 0; ; {
			k := strings.Index(n[at:], q)
			if k < 0 {
				break
			}
			if starts[at+k] {
				tier = 3
				break
			}
			tier = 2
			at += k + 1
		}
		switch {
		case tier > 0:
			tier++
		case abbreviates(q, n, starts):
			tier = 2
		case fuzzy(q, n, starts):
			tier = 1
		}
	}
	if tier == 0 {
		return 0, false
	}
	return tier<<20 - min(len(name), 1<<20-1), true
}

// foldName returns name in lower case without its spaces, and which of
// its bytes start a word: the first, one after a byte that is not a letter
// or digit, an upper-case letter after a lower-case one.
func foldName(name string) (string, []bool) {
	var b strings.Builder
	var starts []bool
	prev := rune(0)
	for _, r := range name {
		if r == ' ' {
			prev = r
			continue
		}
		start := prev == 0 || !unicode.IsLetter(prev) && !unicode.IsDigit(prev) || unicode.IsUpper(r) && unicode.IsLower(prev)
		lr := unicode.ToLower(r)
		for k := 0; k < len(string(lr)); k++ {
			starts = append(starts, start && k == 0)
		}
		b.WriteRune(lr)
		prev = r
	}
	return b.String(), starts
}

// abbreviates reports whether q is made of runs of letters each of which
// starts a word of n, in order (`gtot`: g of grand, tot of total). It
// fills two tables from the end of q, in time |q|·|n| (a search that
// remembered only part of what it tried took seconds on names of a
// hundred words):
//
//	at[j]:   q[qi:] matches with q[qi] at n[j], its run going on or ending there
//	from[j]: q[qi:] matches with q[qi] starting a run at a word's start at or after j
func abbreviates(q, n string, starts []bool) bool {
	if len(q) > len(n) {
		return false
	}
	at, from := make([]bool, len(n)+1), make([]bool, len(n)+1)
	nextAt, nextFrom := make([]bool, len(n)+1), make([]bool, len(n)+1)
	for qi := len(q) - 1; qi >= 0; qi-- {
		last := qi == len(q)-1
		from[len(n)] = false
		for j := len(n) - 1; j >= 0; j-- {
			at[j] = n[j] == q[qi] && (last || nextAt[j+1] || nextFrom[j+1])
			from[j] = starts[j] && at[j] || from[j+1]
		}
		at, nextAt = nextAt, at
		from, nextFrom = nextFrom, from
	}
	return nextFrom[0]
}

// fuzzy reports whether the letters of q are in n in order, the first at
// the start of a word, in at most half as many runs of adjacent letters
// as q has letters (rounded up).
func fuzzy(q, n string, starts []bool) bool {
	limit := (len(q) + 1) / 2
	for from := 0; from < len(n); from++ {
		if !starts[from] || n[from] != q[0] {
			continue
		}
		runs, qi, prev := 1, 1, from
		for i := from + 1; i < len(n) && qi < len(q) && runs <= limit; i++ {
			if n[i] != q[qi] {
				continue
			}
			if i != prev+1 {
				runs++
			}
			prev = i
			qi++
		}
		if qi == len(q) && runs <= limit {
			return true
		}
	}
	return false
}
