package core

// This file supports workspace symbols: the flattened outline of a file
// (for an index of the files on disk) and the fuzzy match that ranks
// declarations against what the user typed.

import (
	"strings"
	"unicode"

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
func (a *Analysis) FlatSymbols() []WorkspaceSymbol {
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
	walk("", a.DocumentSymbols())
	return out
}

// FuzzyMatch reports whether every character of query appears in name in
// order, ignoring case and spaces, and scores the match: higher is better
// (a prefix beats a word start beats a scattered match; shorter names win
// ties). An empty query matches everything with score 0.
func FuzzyMatch(query, name string) (int, bool) {
	q := strings.ToLower(strings.ReplaceAll(query, " ", ""))
	if q == "" {
		return 0, true
	}
	n := strings.ToLower(name)
	score, qi, prev := 0, 0, -2
	for i := 0; i < len(n) && qi < len(q); i++ {
		if n[i] != q[qi] {
			continue
		}
		switch {
		case i == 0:
			score += 10
		case i == prev+1:
			score += 5
		case !unicode.IsLetter(rune(n[i-1])) && !unicode.IsDigit(rune(n[i-1])):
			score += 8 // the start of a word
		default:
			score++
		}
		prev = i
		qi++
	}
	if qi < len(q) {
		return 0, false
	}
	return score*100 - len(n), true
}
