package main

// This file holds that no code outside lang decides anything from a
// diagnostic's message: messages are for people and may be reworded; the
// code that acts on a finding switches on its Kind and reads its Names.

import (
	goast "go/ast"
	"go/types"
	"os/exec"
	"sort"
	"strings"
	"testing"
)

// messageReaders lists the functions outside lang that may read a
// diag.Diagnostic's Message (as "file: function"), with the reason. Any
// other reading fails TestNoDecisionOnMessages.
var messageReaders = map[string]string{
	// Shown or written out as it is: the protocols and the command line.
	"lsp/diagnostics.go: toDiagnostics": "serializes the diagnostic for the client",
	"lsp/diagjson.go: appendDiagnostic": "serializes the diagnostic for the client",
	"mcpserver/document.go: toDiagJSON": "serializes the diagnostic for the agent",
	"mcpserver/tool_format.go: var": "names a finding by span, code and message to pair it with its fixes, " +
		"and writes the message out",
	"internal/cli/check.go: checkFile": "prints the diagnostic, as text or JSON",

	// Identity: a finding equal to another, its message compared whole.
	"core/presentation/ontype.go: closeBlock": "tells the findings a keystroke made from those before it by place and message",
	"core/fixes/fix.go: fixer.withHidden":     "names the findings already reported by span, code and message",
	"core/fixes/fix.go: findingKey":           "names a finding by code and message (line numbers left out) to tell whether a fix removes it",
	"core/incremental_edit.go: sameFinding":   "compares two findings whole",
	"core/tolerant.go: compareAt":             "orders findings, the message last, for a stable order",
}

// TestNoDecisionOnMessages fails when code outside lang reads the Message
// of a diag.Diagnostic (or of a type embedding one) in a function that
// messageReaders does not list, or when a listed function no longer does.
func TestNoDecisionOnMessages(t *testing.T) {
	out, err := exec.Command("go", "list", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var paths []string
	for _, p := range strings.Fields(string(out)) {
		if p != "wfl-lsp/lang" && !strings.HasPrefix(p, "wfl-lsp/lang/") {
			paths = append(paths, p)
		}
	}
	pkgs := typeCheck(t, paths...)
	found := map[string]bool{}
	for _, p := range pkgs {
		for name, f := range p.files {
			for _, decl := range f.Decls {
				fn := funcName(decl)
				goast.Inspect(decl, func(n goast.Node) bool {
					sel, ok := n.(*goast.SelectorExpr)
					if !ok || sel.Sel.Name != "Message" {
						return true
					}
					tv, ok := p.info.Types[sel.X]
					if !ok || !isDiagnosticMessage(tv.Type) {
						return true
					}
					where := name + ": " + fn
					found[where] = true
					if messageReaders[where] == "" {
						t.Errorf("%s: %s reads a diagnostic's Message; switch on its Kind and read its Names (lang/diag), "+
							"or list the function in messageReaders with the reason",
							p.fset.Position(sel.Pos()), fn)
					}
					return true
				})
			}
		}
	}
	var gone []string
	for where := range messageReaders {
		if !found[where] {
			gone = append(gone, where)
		}
	}
	sort.Strings(gone)
	for _, where := range gone {
		t.Errorf("messageReaders lists %s, which reads no diagnostic's Message: remove it", where)
	}
}

// isDiagnosticMessage reports whether the field Message of a value of type
// t is lang/diag.Diagnostic's.
func isDiagnosticMessage(t types.Type) bool {
	obj, _, _ := types.LookupFieldOrMethod(t, true, nil, "Message")
	v, ok := obj.(*types.Var)
	if !ok || !v.IsField() || v.Pkg() == nil || v.Pkg().Path() != "wfl-lsp/lang/diag" {
		return false
	}
	d, ok := v.Pkg().Scope().Lookup("Diagnostic").(*types.TypeName)
	if !ok {
		return false
	}
	st, ok := d.Type().Underlying().(*types.Struct)
	if !ok {
		return false
	}
	for i := range st.NumFields() {
		if st.Field(i) == v {
			return true
		}
	}
	return false
}

// funcName names a top-level declaration: its function's name, a method's
// with its receiver's type (T.m), "var" for a package-level value.
func funcName(decl goast.Decl) string {
	fd, ok := decl.(*goast.FuncDecl)
	if !ok {
		return "var"
	}
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return fd.Name.Name
	}
	t := fd.Recv.List[0].Type
	if s, ok := t.(*goast.StarExpr); ok {
		t = s.X
	}
	if ix, ok := t.(*goast.IndexExpr); ok {
		t = ix.X
	}
	if id, ok := t.(*goast.Ident); ok {
		return id.Name + "." + fd.Name.Name
	}
	return fd.Name.Name
}
