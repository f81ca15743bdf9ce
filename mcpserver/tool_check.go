package mcpserver

// This file implements the diagnostic tools: analyze_wfl (every finding),
// typecheck_wfl (type errors) and lint_wfl (style findings). Their names and
// their source argument are the ones WFL's contributor docs use.

import (
	"context"
	"fmt"

	"wfl-lsp/lang/diag"
)

// checkOutput is the structured content of the three diagnostic tools.
type checkOutput struct {
	File         string     `json:"file,omitempty"`
	Valid        bool       `json:"valid"`
	ErrorCount   int        `json:"errorCount"`
	WarningCount int        `json:"warningCount"`
	Diagnostics  []diagJSON `json:"diagnostics"`
	pageOut
	TypeChecked *bool  `json:"typeChecked,omitempty"`
	Summary     string `json:"summary"`
}

func checkSchema(validDesc string, typeChecked bool) *Schema {
	props := map[string]*Schema{
		"file":         str("the workspace file checked, when a path was given"),
		"valid":        boolean(validDesc),
		"errorCount":   integer("number of errors among the findings, listed or not", 0),
		"warningCount": integer("number of warnings among the findings, listed or not", 0),
		"diagnostics": array("the findings, errors first, then warnings, information and hints, each in source order: "+
			"the reference's, and while a statement does not parse those of the statements that do, and the type "+
			"findings of statements without semantic errors; a page of them (limit, offset)", diagSchema),
		"summary": str("one line for people"),
	}
	pageSchema(props, "findings")
	if typeChecked {
		props["typeChecked"] = boolean("false when the reference's type checker did not run over the program " +
			"(a parse error or a semantic error stops it): valid is then false, and the diagnostics hold the type " +
			"findings of the statements that could be checked alone")
	}
	return openObject([]string{"valid", "errorCount", "warningCount", "diagnostics", "summary"}, props)
}

// diagnosticTool makes a tool that reports the findings keep returns true
// for. valid is the reference's verdict on them (the program's
// Diagnostics, not the longer list shown); typed tools also say whether
// the type checker ran at all.
func diagnosticTool(name, title, desc, validDesc string, typed bool, keep func(diag.Diagnostic) bool) *Tool {
	return &Tool{
		Name: name, Title: title, Description: desc,
		Input:    object(nil, pageProps(sourceOrPath(), "findings", maxDiagnostics)),
		Output:   checkSchema(validDesc, typed),
		ReadOnly: true, Idempotent: true,
		Call: onDocument(func(ctx context.Context, c *Call, d *document) Result {
			diags, n := d.diagnostics(keep, pageArgs(c.Args, maxDiagnostics))
			out := checkOutput{File: d.path, Diagnostics: diags, pageOut: n.pageOut, ErrorCount: n.errors, WarningCount: n.warnings, Valid: true}
			stopped := 0 // the errors that keep the type checker from running
			for _, x := range d.a.Diagnostics {
				if x.Severity != diag.Error {
					continue
				}
				if keep == nil || keep(x) {
					out.Valid = false
				}
				if x.Category == diag.Parse || x.Category == diag.Semantic {
					stopped++
				}
			}
			out.Summary = summarize(n.total, n.errors, n.warnings) + n.listedNote()
			if typed {
				ran := stopped == 0
				out.TypeChecked = &ran
				if !ran {
					out.Valid = false
					out.Summary = fmt.Sprintf("the type checker did not run: %d parse or semantic error%s stop it (see analyze_wfl); %s",
						stopped, plural(stopped), out.Summary)
				}
			}
			return Result{Structured: out}
		}),
	}
}

func summarize(total, errs, warns int) string {
	if total == 0 {
		return "no problems found"
	}
	return fmt.Sprintf("%d problem%s: %d error%s, %d warning%s, %d other",
		total, plural(total), errs, plural(errs), warns, plural(warns), total-errs-warns)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

var (
	analyzeTool = diagnosticTool("analyze_wfl", "Analyze a WFL program",
		"Check a WFL program and report every diagnostic: parse errors, semantic errors (undefined names, misuse), "+
			"type errors and lint findings, each with a 1-based line and column, a severity, a category and a stable code. "+
			"While one statement does not parse, the findings of the others are reported too (valid stays false). "+
			"Give the program as source, or a workspace file as path.",
		"true when the program has no error (the reference's verdict)", false, nil)

	typecheckTool = diagnosticTool("typecheck_wfl", "Type-check a WFL program",
		"Run the WFL type checker and report type errors. Parse errors are reported too, because they stop "+
			"the checker from seeing part of the program. The reference runs the type checker only over a program "+
			"without parse or semantic errors: typeChecked says whether it did, and valid is false when it did not. "+
			"Give the program as source, or a workspace file as path.",
		"true when the type checker ran and found no type or parse error",
		true, func(d diag.Diagnostic) bool { return d.Category == diag.Type || d.Category == diag.Parse })

	lintTool = diagnosticTool("lint_wfl", "Lint a WFL program",
		"Report the style and maintainability findings of a WFL program: the linter's (LINT-NAME naming, "+
			"LINT-INDENT indentation, LINT-LENGTH line length, LINT-WHITESPACE trailing blanks, LINT-KEYWORD keyword "+
			"case, LINT-COMPLEX nesting; thresholds from .wflcfg) and the analyzer's warnings about unused code "+
			"(ANALYZE-UNUSED, ANALYZE-UNREACHABLE, ANALYZE-DEADBRANCH, ANALYZE-SHADOW). "+
			"Give the program as source, or a workspace file as path.",
		"true when no lint finding is an error", false, isLintFinding)
)

// isLintFinding reports whether lint_wfl reports d: the linter's findings
// and the analyzer's warnings about unused or unreachable code.
func isLintFinding(d diag.Diagnostic) bool {
	switch d.Code {
	case diag.AnalyzeUnused, diag.AnalyzeUnreachable, diag.AnalyzeDeadBranch, diag.AnalyzeShadow:
		return d.Severity != diag.Error
	}
	return d.Category == diag.Lint
}
