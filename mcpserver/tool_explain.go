package mcpserver

// This file implements explain_diagnostic: what a diagnostic code means and
// how to fix it, from lang/diag/explain's table of codes, and with the
// diagnostic's message, the case that message is about.

import (
	"context"
	"maps"
	"slices"
	"strings"

	"wfl-lsp/lang/diag/explain"
)

var caseSchema = openObject([]string{"message", "meaning", "fix"}, map[string]*Schema{
	"message": str("the form of the case's messages; … stands for the names and types that vary"),
	"meaning": str("what the checker found in this case"),
	"fix":     str("how to change the program in this case"),
	"hidden":  boolean("found by the checker but never reported: an earlier error always comes with it and stops the later passes' findings"),
})

var explainTool = &Tool{
	Name:  "explain_diagnostic",
	Title: "Explain a diagnostic code",
	Description: "Explain a WFL diagnostic code (such as PARSE-EXPECTED, ANALYZE-SEMANTIC, TYPE-OPERAND or LINT-NAME, " +
		"as the checking tools report them): what it means, how to fix the program, and a program that gets it with " +
		"the same program fixed. Give the diagnostic's message too to get the case it is about (a code covers " +
		"several: TYPE-CONTAINER is a missing interface action as well as an unknown container); without it, " +
		"the code's cases are listed.",
	Input: object([]string{"code"}, map[string]*Schema{
		"code":    str("the diagnostic code, as a checking tool reported it"),
		"message": str("the diagnostic's message, to explain the case it is about"),
	}),
	Output: openObject([]string{"code", "category", "title", "meaning", "fix", "example", "fixed"}, map[string]*Schema{
		"code":     str("the code"),
		"category": enum("the stage that reports it", "parse", "semantic", "type", "lint"),
		"title":    str("one line"),
		"meaning":  str("what the checker found"),
		"fix":      str("how to change the program"),
		"example":  str("a WFL program that gets the diagnostic (of the case, when a message was given)"),
		"fixed":    str("the example fixed"),
		"files": array("the other files the example and the fixed program sit beside, in the same folder (the example is a.wfl)",
			openObject([]string{"name", "text"}, map[string]*Schema{"name": str("the file's name"), "text": str("its text")})),
		"case":  caseSchema,
		"cases": array("every case of the code, when no message was given or it matched none", caseSchema),
	}),
	ReadOnly: true, Idempotent: true,
	Call: func(ctx context.Context, c *Call) Result {
		args := c.Args
		code, _ := strArg(args, "code")
		e, ok := explain.Of(strings.ToUpper(strings.TrimSpace(code)))
		if !ok {
			return failure("not_found", "no diagnostic code "+code+"; the known codes are: "+strings.Join(explain.Codes(), ", "))
		}
		out := map[string]any{"code": e.Code, "category": e.Category, "title": e.Title, "meaning": e.Meaning, "fix": e.Fix}
		shown := e.Cases[0]
		message, _ := strArg(args, "message")
		if k, ok := e.CaseOf(strings.TrimSpace(message)); message != "" && ok {
			shown = k
			out["case"] = caseJSON(k)
		} else {
			cases := make([]any, len(e.Cases))
			for i, k := range e.Cases {
				cases[i] = caseJSON(k)
			}
			out["cases"] = cases
		}
		out["example"], out["fixed"] = shown.Example, shown.Fixed
		if len(shown.Files) > 0 {
			files := []any{}
			for _, name := range slices.Sorted(maps.Keys(shown.Files)) {
				files = append(files, map[string]any{"name": name, "text": shown.Files[name]})
			}
			out["files"] = files
		}
		return Result{Structured: out}
	},
}

func caseJSON(k explain.Case) map[string]any {
	m := map[string]any{"message": k.Message, "meaning": k.Meaning, "fix": k.Fix}
	if k.Hidden {
		m["hidden"] = true
	}
	return m
}
