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
	Summary      string     `json:"summary"`
}

func checkSchema(validDesc string) *Schema {
	return openObject([]string{"valid", "errorCount", "warningCount", "diagnostics", "summary"}, map[string]*Schema{
		"file":         str("the workspace file checked, when a path was given"),
		"valid":        boolean(validDesc),
		"errorCount":   integer("number of errors among the diagnostics", 0),
		"warningCount": integer("number of warnings among the diagnostics", 0),
		"diagnostics":  array("the findings in source order", diagSchema),
		"summary":      str("one line for people"),
	})
}

func diagnosticTool(name, title, desc, validDesc string, keep func(diag.Diagnostic) bool) *Tool {
	return &Tool{
		Name: name, Title: title, Description: desc,
		Input:    object(nil, sourceOrPath()),
		Output:   checkSchema(validDesc),
		ReadOnly: true, Idempotent: true,
		Call: onDocument(func(ctx context.Context, c *Call, d *document) Result {
			out := checkOutput{File: d.path, Diagnostics: d.diagnostics(keep)}
			for _, x := range out.Diagnostics {
				switch x.Severity {
				case "error":
					out.ErrorCount++
				case "warning":
					out.WarningCount++
				}
			}
			out.Valid = out.ErrorCount == 0
			out.Summary = summarize(len(out.Diagnostics), out.ErrorCount, out.WarningCount)
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
			"Give the program as source, or a workspace file as path.",
		"true when no diagnostic is an error", nil)

	typecheckTool = diagnosticTool("typecheck_wfl", "Type-check a WFL program",
		"Run the WFL type checker and report type errors. Parse errors are reported too, because they stop "+
			"the checker from seeing part of the program. Give the program as source, or a workspace file as path.",
		"true when the program has no type or parse errors",
		func(d diag.Diagnostic) bool { return d.Category == diag.Type || d.Category == diag.Parse })

	lintTool = diagnosticTool("lint_wfl", "Lint a WFL program",
		"Report style and maintainability findings of the WFL linter (naming, line length, nesting, unused code). "+
			"Give the program as source, or a workspace file as path.",
		"true when no lint finding is an error",
		func(d diag.Diagnostic) bool { return d.Category == diag.Lint })
)
