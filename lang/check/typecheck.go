package check

import "wfl-lsp/lang/diag"

type typeChecker struct {
	a     *analyzer
	diags []diag.Diagnostic
}

func newTypeChecker(a *analyzer) *typeChecker { return &typeChecker{a: a} }

func (tc *typeChecker) run() {}
