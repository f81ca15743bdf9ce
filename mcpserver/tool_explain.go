package mcpserver

// This file implements explain_diagnostic: what a diagnostic code means and
// how to fix it, from the core's table of codes.

import (
	"context"
	"strings"

	"wfl-lsp/core"
)

var explainTool = &Tool{
	Name:  "explain_diagnostic",
	Title: "Explain a diagnostic code",
	Description: "Explain a WFL diagnostic code (such as PARSE-EXPECTED, ANALYZE-SEMANTIC, TYPE-OPERAND or LINT-NAME, " +
		"as the checking tools report them): what it means and how to fix the program, with an example where useful.",
	Input: object([]string{"code"}, map[string]*Schema{
		"code": str("the diagnostic code, as a checking tool reported it"),
	}),
	Output: openObject([]string{"code", "category", "title", "meaning", "fix"}, map[string]*Schema{
		"code":     str("the code"),
		"category": enum("the stage that reports it", "parse", "semantic", "type", "lint"),
		"title":    str("one line"),
		"meaning":  str("what the checker found"),
		"fix":      str("how to change the program"),
		"example":  str("a short WFL example of the problem and its fix"),
	}),
	ReadOnly: true, Idempotent: true,
	Call: func(ctx context.Context, c *Call) Result {
		args := c.Args
		code, _ := strArg(args, "code")
		e, ok := core.Explain(strings.ToUpper(strings.TrimSpace(code)))
		if !ok {
			return failure("not_found", "no diagnostic code "+code+"; the known codes are: "+strings.Join(core.ExplainedCodes(), ", "))
		}
		out := map[string]any{"code": e.Code, "category": e.Category, "title": e.Title, "meaning": e.Meaning, "fix": e.Fix}
		if e.Example != "" {
			out["example"] = e.Example
		}
		return Result{Structured: out}
	},
}
