package core

// This file answers rename: whether the name at a position can be renamed,
// and the edits that rename every place that names the same symbol. Names
// may be multi-word ("first name"); the new name must be one too.

import (
	"fmt"
	"strings"

	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
)

// PrepareRename returns the span of the name at offset and the name, or an
// error that says why it cannot be renamed.
func (a *Analysis) PrepareRename(offset int) (token.Span, string, error) {
	id, sym := a.SymbolAt(offset)
	if id == nil {
		return token.Span{}, "", fmt.Errorf("there is no name here")
	}
	if sym == nil {
		return token.Span{}, "", fmt.Errorf("%q is not declared in this document", id.Name)
	}
	switch sym.Kind {
	case check.SymBuiltin, check.SymPredeclared, check.SymImplicit:
		return token.Span{}, "", fmt.Errorf("%q is a %s name of WFL and cannot be renamed", id.Name, sym.Kind)
	}
	if len(declSpans(sym)) == 0 {
		return token.Span{}, "", fmt.Errorf("%q is not declared in this document", id.Name)
	}
	return token.Span{Start: id.Pos(), End: id.End()}, id.Name, nil
}

// Rename returns the edits, in source order, that rename the symbol at
// offset to newName everywhere in the document.
func (a *Analysis) Rename(offset int, newName string) ([]Edit, error) {
	if _, _, err := a.PrepareRename(offset); err != nil {
		return nil, err
	}
	newName = strings.Join(strings.Fields(newName), " ")
	if err := ValidName(newName); err != nil {
		return nil, err
	}
	_, sym := a.SymbolAt(offset)
	refs := a.References(offset, true)
	// The new name must not mean something else where the symbol is named.
	for _, r := range refs {
		if other := a.Info.ScopeAt(r.Span.Start).Lookup(newName); other != nil && other != sym {
			return nil, fmt.Errorf("%q is already the name of a %s visible on line %d", newName, other.Kind, a.Lines.Line(r.Span.Start)+1)
		}
	}
	edits := make([]Edit, len(refs))
	for i, r := range refs {
		edits[i] = Edit{Start: r.Span.Start, End: r.Span.End, Text: newName}
	}
	return edits, nil
}

// ValidName reports whether name can name a variable, action or other
// declaration: one or more words of ASCII letters, digits and underscores,
// each starting with a letter, none of them a keyword or a literal.
func ValidName(name string) error {
	if name == "" {
		return fmt.Errorf("a name cannot be empty")
	}
	for _, w := range strings.Split(name, " ") {
		for i, r := range w {
			letter := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
			if !(letter || i > 0 && (r >= '0' && r <= '9' || r == '_')) {
				return fmt.Errorf("%q is not a valid name: each word starts with a letter and holds only letters, digits and underscores", name)
			}
		}
		if k := token.Lookup(w); k != token.Identifier {
			return fmt.Errorf("%q is not a valid name: %q is a keyword", name, w)
		}
		switch strings.ToLower(w) {
		case "yes", "no", "true", "false":
			return fmt.Errorf("%q is not a valid name: %q is a boolean", name, w)
		}
		switch w {
		case "nothing", "missing", "undefined":
			return fmt.Errorf("%q is not a valid name: %q means nothing", name, w)
		}
	}
	return nil
}
