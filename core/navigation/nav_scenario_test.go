package navigation

// This file answers the scenario questions (scenario_test.go) about
// navigation by type and the editing aids:
//
//	FILE NEEDLE#N+D typedef          the type definition of the name there
//	FILE NEEDLE#N+D implementation   its implementations
//	FILE NEEDLE#N+D hierarchy        the type there, its supertypes and subtypes
//	FILE NEEDLE#N+D lenses           every code lens of the file, with its count
//	FILE NEEDLE#N+D incoming         the callers of the action there, with the places of the calls
//	FILE NEEDLE#N+D enter            on-type formatting after Enter, the cursor there

import (
	"fmt"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/token"
)

func navQuery(out *strings.Builder, q []string, a *core.Analysis, off int, files Files, where func(string, *token.Lines, token.Span) string) bool {
	spans := func(fs []FileSpan) {
		for _, s := range fs {
			fmt.Fprintln(out, where(s.Path, s.Lines, s.Span))
		}
		if len(fs) == 0 {
			out.WriteString("(none)\n")
		}
	}
	item := func(indent string, it TypeItem) {
		kind := "container"
		if it.Interface {
			kind = "interface"
		}
		fmt.Fprintf(out, "%s%s %s %q at %s\n", indent, kind, it.Name, it.Detail, where(it.Path, it.Lines, it.NameSpan))
	}
	switch q[0] {
	case "typedef":
		spans(TypeDefinition(a, off, files))
	case "implementation":
		spans(Implementations(a, off, files))
	case "hierarchy":
		it, ok := PrepareTypeHierarchy(a, off, files)
		if !ok {
			out.WriteString("(none)\n")
			break
		}
		item("", it)
		for _, s := range Supertypes(a, off, files) {
			item("  super ", s)
		}
		for _, s := range Subtypes(a, off, files) {
			item("  sub ", s)
		}
	case "lenses":
		for _, l := range CodeLenses(&a.Syntax) {
			n, _ := ReferenceCount(a, l.Span.Start, files)
			fmt.Fprintf(out, "%s %s: %d\n", where(files.Base, a.Lines, l.Span), l.Kind, n)
		}
	case "incoming":
		calls := IncomingCallsAcross(a, off, files.Base, files.Candidates, files.IncludesOf, files.Load)
		for _, c := range calls {
			path, lines := files.Base, a.Lines
			if c.Item.File != "" && c.Item.File != files.Base {
				b, ok := files.Load(c.Item.File)
				if !ok {
					continue
				}
				path, lines = c.Item.File, b.Lines
			}
			for _, sp := range c.Spans {
				fmt.Fprintf(out, "from %s: %s\n", c.Item.Name, where(path, lines, sp))
			}
		}
		if len(calls) == 0 {
			out.WriteString("(none)\n")
		}
	case "enter":
		e, ok := presentation.CloseBlockOf(a.Lines, off)
		if !ok {
			out.WriteString("(nothing)\n")
			break
		}
		l, c := a.Lines.OffsetPosition(e.Start)
		fmt.Fprintf(out, "insert at %d:%d %q\n", l, c, e.Text)
	default:
		return false
	}
	return true
}
