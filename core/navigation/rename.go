package navigation

// This file answers rename: whether the name at a position can be renamed,
// and the edits that rename every place that names the same symbol. Names
// may be multi-word ("first name"); the new name must be one too.

import (
	"fmt"
	"slices"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/token"
)

// PrepareRename returns the span of the name at offset and the name, or an
// error that says why it cannot be renamed.
func PrepareRename(a *core.Analysis, offset int) (token.Span, string, error) {
	id, sym := a.SymbolAt(offset)
	if id == nil {
		return token.Span{}, "", fmt.Errorf("there is no name here")
	}
	if sym == nil {
		return token.Span{}, "", fmt.Errorf("%q is not declared in this document", id.Name)
	}
	if at := a.OpenQuote(); at >= 0 {
		// WFL reads the text below the quote otherwise than the editor's
		// tree does: a rename made from the tree may change what it means.
		return token.Span{}, "", fmt.Errorf("the string on line %d is not closed, so WFL reads the text after it otherwise: close it before renaming", a.Lines.Line(at)+1)
	}
	if err := renameable(sym); err != nil {
		return token.Span{}, "", err
	}
	if line := unreadMention(a, sym.Name); line > 0 {
		// The checker did not read that statement: its mentions of the
		// name are not among the references, and would be left behind.
		return token.Span{}, "", fmt.Errorf("line %d does not parse and names %q, which a rename would not see there: fix it before renaming", line, sym.Name)
	}
	if line := flushWord(a, sym); line > 0 {
		return token.Span{}, "", fmt.Errorf("%q is also the word `flush` that starts the statement on line %d, which calls it; renamed, that statement would flush a stream instead: rename it by hand", sym.Name, line)
	}
	return token.Span{Start: id.Pos(), End: id.End()}, id.Name, nil
}

// unreadMention returns the line (1-based) of a statement that does not
// parse (a BadStmt, which the checker does not read) and whose text holds
// name as words of its own, or 0.
func unreadMention(a *core.Analysis, name string) int {
	text := a.Lines.Text()
	line := 0
	ast.Inspect(a.File, func(n ast.Node) bool {
		if b, ok := n.(*ast.BadStmt); ok && b.Pos() >= 0 && b.End() <= len(text) && holdsWords(text[b.Pos():b.End()], name) {
			line = a.Lines.Line(b.Pos()) + 1
		}
		return line == 0
	})
	return line
}

// holdsWords reports whether text holds name with no letter, digit or
// underscore right before or after it.
func holdsWords(text, name string) bool {
	word := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; ; {
		j := strings.Index(text[i:], name)
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len(name)
		if (at == 0 || !word(text[at-1])) && (end == len(text) || !word(text[end])) {
			return true
		}
		i = at + 1
	}
}

// flushWord returns the line of a statement `flush (…)` or `flush call …`
// whose word `flush` reads sym (an action or variable named flush), or 0.
func flushWord(a *core.Analysis, sym *check.Symbol) int {
	line := 0
	ast.Inspect(a.File, func(n ast.Node) bool {
		if f, ok := n.(*ast.FlushStmt); ok && f.Legacy != nil && f.Legacy.Name == "flush" && a.Info.Uses[f.Legacy] == sym {
			line = a.Lines.Line(f.Pos()) + 1 // 0-based
		}
		return line == 0
	})
	return line
}

// renameable says why sym cannot be renamed, or nil. Every name the
// program chose can be, loop variables and `as` names included; names WFL
// itself introduces cannot, nor names also spelled out as text elsewhere.
func renameable(sym *check.Symbol) error {
	switch sym.Kind {
	case check.SymBuiltin, check.SymPredeclared, check.SymSignal, check.SymType:
		return fmt.Errorf("%q is a %s name of WFL and cannot be renamed", sym.Name, sym.Kind)
	case check.SymField:
		if sym.Decl.End > sym.Decl.Start {
			return fmt.Errorf("%q is a map key, also written as text wherever the map is indexed; rename it by hand", sym.Name)
		}
		return fmt.Errorf("%q is a member of a value whose type is only known when the program runs, so its declaration cannot be found", sym.Name)
	case check.SymCapture:
		return fmt.Errorf("%q names a capture group, which matches and back-references find by its text; rename it by hand", sym.Name)
	}
	if len(core.DeclSpans(sym)) == 0 {
		if sym.Kind == check.SymImplicit {
			return fmt.Errorf("%q is a name WFL binds here and cannot be renamed", sym.Name)
		}
		return fmt.Errorf("%q is not declared in this document", sym.Name)
	}
	return nil
}

// Rename returns the edits, in source order, that rename the symbol at
// offset to newName everywhere in the document.
func Rename(a *core.Analysis, offset int, newName string) ([]core.Edit, error) {
	if _, _, err := PrepareRename(a, offset); err != nil {
		return nil, err
	}
	newName = strings.Join(strings.Fields(newName), " ")
	if err := ValidName(newName); err != nil {
		return nil, err
	}
	_, sym := a.SymbolAt(offset)
	if isMember(sym) {
		byFile, _, err := renameMember(a, sym, newName, Files{})
		if err != nil {
			return nil, err
		}
		edits := byFile[""]
		slices.SortFunc(edits, func(x, y core.Edit) int { return x.Start - y.Start })
		return edits, nil
	}
	group := renameGroup(a, sym)
	refs := referencesOf(a, true, group...)
	for _, s := range group {
		if err := clash(a, s, newName, referencesOf(a, true, s)); err != nil {
			return nil, err
		}
	}
	edits := make([]core.Edit, len(refs))
	for i, r := range refs {
		edits[i] = core.Edit{Start: r.Span.Start, End: r.Span.End, Text: newName}
	}
	return edits, nil
}

// renameGroup returns the symbols that take a new name together with sym:
// for a member of a container or an interface, the members of that name
// and kind of every container and interface related to it through extends
// and implements (an override, the actions implementing a required action,
// the requirement itself), since WFL finds members by name at run time.
// For any other symbol, sym alone.
func renameGroup(a *core.Analysis, sym *check.Symbol) []*check.Symbol {
	owner := sym.Parent
	if owner == nil || (sym.Kind != check.SymMethod && sym.Kind != check.SymProperty && sym.Kind != check.SymEvent) ||
		(owner.Kind != check.SymContainer && owner.Kind != check.SymInterface) {
		return []*check.Symbol{sym}
	}
	// The containers and interfaces connected to owner.
	related := map[*check.Symbol][]*check.Symbol{}
	link := func(x, y *check.Symbol) {
		if x != nil && y != nil && x != y {
			related[x] = append(related[x], y)
			related[y] = append(related[y], x)
		}
	}
	for _, s := range a.Info.Symbols {
		switch d := s.Node.(type) {
		case *ast.ContainerDecl:
			if s.Kind != check.SymContainer {
				continue
			}
			link(s, s.Base())
			for _, i := range d.Implements {
				link(s, a.Info.Uses[i])
			}
		case *ast.InterfaceDecl:
			if s.Kind != check.SymInterface {
				continue
			}
			for _, e := range d.Extends {
				link(s, a.Info.Uses[e])
			}
		}
	}
	group := []*check.Symbol{sym}
	seen := map[*check.Symbol]bool{owner: true}
	for queue := []*check.Symbol{owner}; len(queue) > 0; queue = queue[1:] {
		for _, r := range related[queue[0]] {
			if seen[r] {
				continue
			}
			seen[r] = true
			queue = append(queue, r)
			if m := r.Members()[sym.Name]; m != nil && m.Kind == sym.Kind && !slices.Contains(group, m) {
				group = append(group, m)
			}
		}
	}
	return group
}

// clash says why naming sym newName would change what the program means,
// or returns nil: where sym is named, newName must not mean something else
// (it would be hidden, or would hide sym), no declaration of newName may sit
// in a scope that encloses or is enclosed by sym's (it would become a
// redeclaration), and a builtin's name is kept for the builtin.
func clash(a *core.Analysis, sym *check.Symbol, newName string, refs []Reference) error {
	if newName == sym.Name {
		return nil
	}
	if builtins.IsBuiltin(newName) {
		return fmt.Errorf("%q is the name of a builtin function", newName)
	}
	declared := func(other *check.Symbol) string {
		if other.Decl.End > other.Decl.Start {
			return fmt.Sprintf("the name of %s declared on line %d", aKind(other.Kind), a.Lines.Line(other.Decl.Start)+1)
		}
		return fmt.Sprintf("%s name of WFL", aKind(other.Kind))
	}
	for _, r := range refs {
		if other := a.Info.ScopeAt(r.Span.Start).Resolve(newName); other != nil && other != sym {
			if r.Decl {
				return fmt.Errorf("%q is already %s: it would be declared twice", newName, declared(other))
			}
			return fmt.Errorf("%q is already %s, which line %d would then name instead", newName, declared(other), a.Lines.Line(r.Span.Start)+1)
		}
	}
	home := declScope(a, sym)
	for _, other := range a.Info.Symbols {
		if other.Name != newName || other == sym || home == nil {
			continue
		}
		if there := declScope(a, other); there != nil && (encloses(home, there) || encloses(there, home)) {
			return fmt.Errorf("%q is already %s: it would be declared twice", newName, declared(other))
		}
	}
	for _, r := range a.Idents() {
		if r.Ident.Name != newName || r.Sym == sym {
			continue
		}
		at := core.NodeSpan(r.Ident).Start
		switch {
		case r.Sym == nil && a.Info.ScopeAt(at).Resolve(sym.Name) == sym:
			// Used where it names nothing (not defined), where sym is seen:
			// the use would come to name sym, and its error go.
			return fmt.Errorf("%q is used on line %d, where it names nothing: it would name this %s there", newName, a.Lines.Line(at)+1, sym.Kind)
		case r.Def && r.Sym != nil:
			// Another declaration of the name (a loop's variable, one of a
			// block) in a scope that encloses sym's or that sym's encloses,
			// or where sym is seen (encloses is false for a nil scope).
			there := declScope(a, r.Sym)
			if there == nil {
				there = a.Info.ScopeAt(at)
			}
			if encloses(home, there) || encloses(there, home) || a.Info.ScopeAt(at).Resolve(sym.Name) == sym {
				return fmt.Errorf("%q is already the name of %s declared on line %d: it would be declared twice", newName, aKind(r.Sym.Kind), a.Lines.Line(at)+1)
			}
		}
	}
	return nil
}

// declScope returns the scope whose table holds sym, or nil (members,
// parameters of bodiless declarations and the like are in none).
func declScope(a *core.Analysis, sym *check.Symbol) *check.Scope {
	if sym.Decl.End <= sym.Decl.Start {
		return nil
	}
	for s := a.Info.ScopeAt(sym.Decl.Start); s != nil; s = s.Parent {
		if s.Symbols.Get(sym.Name) == sym {
			return s
		}
	}
	return nil
}

// encloses reports whether outer is inner or one of its ancestors.
func encloses(outer, inner *check.Scope) bool {
	for s := inner; s != nil; s = s.Parent {
		if s == outer {
			return true
		}
	}
	return false
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

// aKind is a symbol kind with its article: "a variable", "an action".
func aKind(k check.SymbolKind) string {
	w := k.String()
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an " + w
	}
	return "a " + w
}
