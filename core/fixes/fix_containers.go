package fixes

// This file implements the quick fix of a container that lacks an action
// an interface it implements requires: a stub of the action in the
// container.

import (
	"strconv"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/types"
)

// implement answers "Container 'C' does not satisfy interface 'I': missing
// required action 'a'" with a stub of a in C, before its closing `end`, with
// the parameters and return type the interface declares. Where C lacks
// several of I's actions, a second fix adds them all.
func (fx *fixer) implement(d diag.Diagnostic) []Fix {
	if d.Kind != diag.Unsatisfied || len(d.Names) != 3 || fx.analysis().File == nil {
		return nil
	}
	cname, iname, aname := d.Names[0], d.Names[1], d.Names[2]
	c := fx.containerNamed(d, cname)
	if c == nil {
		return nil
	}
	reqs := fx.required(iname)
	var missing []*ast.ActionSig
	var this *ast.ActionSig
	for _, r := range reqs {
		if fx.hasMethod(c, r.Name.Name) {
			continue
		}
		missing = append(missing, r)
		if r.Name.Name == aname && this == nil {
			this = r
		}
	}
	if this == nil {
		return nil
	}
	at, indent, ok := fx.memberSlot(c)
	if !ok {
		return nil
	}
	out := []Fix{{
		Title:      "Add the action '" + aname + "' that '" + iname + "' requires",
		Kind:       Implement,
		Diagnostic: d,
		Edits:      []core.Edit{{Start: at, End: at, Text: fx.stub(this, indent)}},
		Preferred:  true,
	}}
	if len(missing) > 1 {
		var b strings.Builder
		for _, r := range missing {
			b.WriteString(fx.stub(r, indent))
		}
		out = append(out, Fix{
			Title:      "Add all " + strconv.Itoa(len(missing)) + " actions that '" + iname + "' requires",
			Kind:       Implement,
			Diagnostic: d,
			Edits:      []core.Edit{{Start: at, End: at, Text: b.String()}},
		})
	}
	return out
}

// containerNamed returns the declaration of the container the diagnostic
// is about: the one whose name it spans.
func (fx *fixer) containerNamed(d diag.Diagnostic, name string) *ast.ContainerDecl {
	var found *ast.ContainerDecl
	ast.Inspect(fx.analysis().File, func(n ast.Node) bool {
		if n == nil || found != nil {
			return false
		}
		if c, ok := n.(*ast.ContainerDecl); ok && c.Name != nil && c.Name.Name == name && c.Name.From == d.Span.Start {
			found = c
		}
		return found == nil
	})
	return found
}

// required returns the actions an interface requires, its own and those of
// the interfaces it extends, as the type checker collects them.
func (fx *fixer) required(name string) []*ast.ActionSig {
	var reqs []*ast.ActionSig
	seen := map[string]bool{}
	var collect func(name string)
	collect = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		sym := fx.analysis().Info.Global.Lookup(name)
		if sym == nil {
			return
		}
		i, ok := sym.Node.(*ast.InterfaceDecl)
		if !ok {
			return
		}
		for _, r := range i.Actions {
			if r.Name != nil {
				reqs = append(reqs, r)
			}
		}
		for _, e := range i.Extends {
			collect(e.Name)
		}
	}
	collect(name)
	return reqs
}

// hasMethod reports whether a container or one it extends declares an
// action or another member called name.
func (fx *fixer) hasMethod(c *ast.ContainerDecl, name string) bool {
	sym := fx.analysis().Info.Containers[c.Name.Name]
	if sym == nil {
		return true // unknown: add nothing
	}
	return sym.Member(name) != nil
}

// memberSlot returns where a new member goes in a container: the start of
// the line of its closing `end`, and the indentation of its members.
func (fx *fixer) memberSlot(c *ast.ContainerDecl) (at int, indent string, ok bool) {
	lines := fx.lines
	endLine := lines.Line(c.End() - 1)
	ls := lines.LineStart(endLine)
	if strings.TrimSpace(fx.src[ls:c.End()]) != "end" || endLine == lines.Line(c.Pos()) {
		return 0, "", false // not a closing `end` alone on its line
	}
	indent = fx.indentOf(lines.Line(c.Pos())) + fx.indentUnit()
	for _, m := range c.Members {
		indent = fx.indentOf(lines.Line(m.Pos()))
		break
	}
	return ls, indent, true
}

// stub writes a container action with the header an interface requires and
// a body that says it is still to be written.
func (fx *fixer) stub(r *ast.ActionSig, indent string) string {
	brk := core.LineBreak(fx.src)
	var b strings.Builder
	b.WriteString(indent + "action " + r.Name.Name)
	for i, p := range r.Params {
		if i == 0 {
			b.WriteString(" needs ")
		} else {
			b.WriteString(", ")
		}
		b.WriteString(fx.src[p.Pos():p.End()])
	}
	// After an untyped last parameter a `:` would read as its type: the
	// header then ends without one (an interface cannot declare a return
	// type after an untyped parameter either).
	untyped := len(r.Params) > 0 && r.Params[len(r.Params)-1].Type == nil
	switch {
	case r.ReturnType != nil:
		b.WriteString(": " + fx.src[r.ReturnType.Pos():r.ReturnType.End()])
	case !untyped:
		b.WriteString(":")
	}
	b.WriteString(brk + indent + fx.indentUnit() + "// TODO: what " + r.Name.Name + " does" + brk)
	if r.ReturnType != nil {
		// A typed action that ends without returning a value of its
		// type is a type error: the stub returns the type's empty value.
		if v := emptyOf(types.FromAnnotation(r.ReturnType.Name)); v != "" {
			b.WriteString(indent + fx.indentUnit() + "return " + v + brk)
		}
	}
	b.WriteString(indent + "end" + brk)
	return b.String()
}
