package mcpserver

// This file declares WFL's prompts: message templates for fixing,
// explaining, writing and translating WFL, filled from the workspace and
// the core.

import (
	"context"
	"fmt"
	"strings"

	"wfl-lsp/mcpserver/mcp"
)

var languages = []string{"python", "javascript", "typescript", "java", "c", "c++", "c#", "go", "rust", "ruby", "php", "kotlin", "swift", "bash", "lua", "pseudocode"}

var pathArg = mcp.Argument{Name: "path", Title: "File", Required: true,
	Description: "a .wfl file of the workspace, relative to its root",
	Complete:    completePath}

func wflPrompts() []*mcp.Prompt {
	return []*mcp.Prompt{
		{Name: "fix_wfl_errors", Title: "Fix the errors in a WFL file",
			Description: "Ask to fix the problems the checker reports in a workspace file; the file and its diagnostics are included",
			Arguments:   []mcp.Argument{pathArg},
			Get: aboutFile(func(d *document) string {
				diags, n := d.diagnostics(nil, page{limit: maxDiagnostics, budget: answerBudget})
				var sb strings.Builder
				fmt.Fprintf(&sb, "Fix the problems in the WFL program %s.\n\n", d.path)
				if len(diags) == 0 {
					sb.WriteString("The checker reports no problems; look for logic errors and say so if there are none.\n")
				} else {
					sb.WriteString("The checker reports:\n")
					for _, x := range diags {
						fmt.Fprintf(&sb, "- line %d, column %d: %s: %s [%s]\n", x.Line, x.Column, x.Severity, x.Message, x.Code)
					}
					if n.Omitted > 0 {
						fmt.Fprintf(&sb, "- and %d more findings, not listed (the analyze_wfl tool pages through them)\n", n.Omitted)
					}
				}
				sb.WriteString("\nExplain each fix briefly, then give the corrected program. Check it with the analyze_wfl tool.\n\n")
				fmt.Fprintf(&sb, "```wfl\n%s\n```\n", strings.TrimRight(d.snap.Text, "\n"))
				return sb.String()
			})},
		{Name: "explain_wfl_program", Title: "Explain a WFL program",
			Description: "Ask for an explanation of what a workspace WFL file does, step by step",
			Arguments:   []mcp.Argument{pathArg},
			Get: aboutFile(func(d *document) string {
				return fmt.Sprintf("Explain what the WFL program %s does: its purpose first, then each part in order, "+
					"naming the actions, containers and variables it defines. Point out anything surprising.\n\n```wfl\n%s\n```\n",
					d.path, strings.TrimRight(d.snap.Text, "\n"))
			})},
		{Name: "write_wfl_program", Title: "Write a WFL program for a task",
			Description: "Ask for a new WFL program that does a task",
			Arguments: []mcp.Argument{{Name: "task", Title: "Task", Required: true,
				Description: "what the program should do"}},
			Get: userText(func(c *Call, args map[string]string) (string, error) {
				return "Write a WFL (WebFirst Language) program that does this task:\n\n" + args["task"] + "\n\n" +
					"WFL reads like English: `store name as \"Alice\"`, `display \"Hello, \" with name`, " +
					"`check if x is greater than 3: ... otherwise: ... end check`, `count from 1 to 10: ... end count`, " +
					"`for each item in items: ... end for`, `define action called greet with name: ... end action`. " +
					"Use lookup_builtin to check builtin functions and analyze_wfl to check the program before giving it.", nil
			})},
		{Name: "translate_to_wfl", Title: "Translate code to WFL",
			Description: "Ask to translate a piece of code from another language into idiomatic WFL",
			Arguments: []mcp.Argument{
				{Name: "code", Title: "Code", Required: true, Description: "the code to translate"},
				{Name: "language", Title: "Language", Description: "the language the code is written in",
					Complete: func(c *Call, prefix string) []string { return withPrefix(languages, prefix) }},
			},
			Get: userText(func(c *Call, args map[string]string) (string, error) {
				lang := args["language"]
				if lang != "" {
					lang += " "
				}
				return fmt.Sprintf("Translate this %scode into idiomatic WFL (WebFirst Language). Keep its behaviour, "+
					"use WFL's natural-language statements and builtins (check them with lookup_builtin), and check the "+
					"result with analyze_wfl.\n\n```\n%s\n```\n", lang, args["code"]), nil
			})},
	}
}

// aboutFile makes the Get of a prompt about the workspace file its path
// argument names: f writes the text of its one user message.
func aboutFile(f func(d *document) string) func(context.Context, *Call, map[string]string) ([]any, error) {
	return userText(func(c *Call, args map[string]string) (string, error) {
		d, err := promptDocument(c, args["path"])
		if err != nil {
			return "", err
		}
		return f(d), nil
	})
}

// userText makes a prompt's Get from a function that writes the text of
// its one user message.
func userText(f func(c *Call, args map[string]string) (string, error)) func(context.Context, *Call, map[string]string) ([]any, error) {
	return func(ctx context.Context, c *Call, args map[string]string) ([]any, error) {
		text, err := f(c, args)
		if err != nil {
			return nil, err
		}
		return []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": text}}}, nil
	}
}

// promptDocument reads a workspace file for a prompt; failures are -32602.
func promptDocument(c *Call, p string) (*document, error) {
	d, fail := workspaceOf(c).document(context.Background(), map[string]any{"path": p})
	if fail != nil {
		return nil, &mcp.Error{Code: mcp.CodeInvalidParams, Message: "path: " + fail.Text}
	}
	return d, nil
}
