package mcpserver

// This file implements prompts: message templates for fixing, explaining,
// writing and translating WFL, filled from the workspace and the core.

import (
	"fmt"
	"strings"
)

// A prompt is one prompt template.
type prompt struct {
	name, title, description string
	args                     []promptArg
	build                    func(s *Server, r *request, args map[string]string) (string, *rpcError)
}

type promptArg struct {
	name, title, description string
	required                 bool
	complete                 func(s *Server, prefix string) []string // completion/complete values, or nil
}

func (p *prompt) listing(v string) map[string]any {
	m := map[string]any{"name": p.name, "description": p.description}
	var args []any
	for _, a := range p.args {
		am := map[string]any{"name": a.name, "description": a.description, "required": a.required}
		if atLeast(v, "2025-06-18") {
			am["title"] = a.title
		}
		args = append(args, am)
	}
	m["arguments"] = args
	if atLeast(v, "2025-06-18") {
		m["title"] = p.title
	}
	return m
}

var languages = []string{"python", "javascript", "typescript", "java", "c", "c++", "c#", "go", "rust", "ruby", "php", "kotlin", "swift", "bash", "lua", "pseudocode"}

var pathArg = promptArg{name: "path", title: "File", required: true,
	description: "a .wfl file of the workspace, relative to its root",
	complete:    (*Server).completePath}

var prompts = []*prompt{
	{name: "fix_wfl_errors", title: "Fix the errors in a WFL file",
		description: "Ask to fix the problems the checker reports in a workspace file; the file and its diagnostics are included",
		args:        []promptArg{pathArg},
		build: func(s *Server, r *request, args map[string]string) (string, *rpcError) {
			d, rerr := s.promptDocument(args["path"])
			if rerr != nil {
				return "", rerr
			}
			diags := d.diagnostics(nil)
			var sb strings.Builder
			fmt.Fprintf(&sb, "Fix the problems in the WFL program %s.\n\n", d.path)
			if len(diags) == 0 {
				sb.WriteString("The checker reports no problems; look for logic errors and say so if there are none.\n")
			} else {
				sb.WriteString("The checker reports:\n")
				for _, x := range diags {
					fmt.Fprintf(&sb, "- line %d, column %d: %s: %s [%s]\n", x.Line, x.Column, x.Severity, x.Message, x.Code)
				}
			}
			sb.WriteString("\nExplain each fix briefly, then give the corrected program. Check it with the analyze_wfl tool.\n\n")
			fmt.Fprintf(&sb, "```wfl\n%s\n```\n", strings.TrimRight(d.snap.Text, "\n"))
			return sb.String(), nil
		}},
	{name: "explain_wfl_program", title: "Explain a WFL program",
		description: "Ask for an explanation of what a workspace WFL file does, step by step",
		args:        []promptArg{pathArg},
		build: func(s *Server, r *request, args map[string]string) (string, *rpcError) {
			d, rerr := s.promptDocument(args["path"])
			if rerr != nil {
				return "", rerr
			}
			return fmt.Sprintf("Explain what the WFL program %s does: its purpose first, then each part in order, "+
				"naming the actions, containers and variables it defines. Point out anything surprising.\n\n```wfl\n%s\n```\n",
				d.path, strings.TrimRight(d.snap.Text, "\n")), nil
		}},
	{name: "write_wfl_program", title: "Write a WFL program for a task",
		description: "Ask for a new WFL program that does a task",
		args: []promptArg{{name: "task", title: "Task", required: true,
			description: "what the program should do"}},
		build: func(s *Server, r *request, args map[string]string) (string, *rpcError) {
			return "Write a WFL (WebFirst Language) program that does this task:\n\n" + args["task"] + "\n\n" +
				"WFL reads like English: `store name as \"Alice\"`, `display \"Hello, \" with name`, " +
				"`check if x is greater than 3: ... otherwise: ... end check`, `count from 1 to 10: ... end count`, " +
				"`for each item in items: ... end for`, `define action called greet with name: ... end action`. " +
				"Use lookup_builtin to check builtin functions and analyze_wfl to check the program before giving it.", nil
		}},
	{name: "translate_to_wfl", title: "Translate code to WFL",
		description: "Ask to translate a piece of code from another language into idiomatic WFL",
		args: []promptArg{
			{name: "code", title: "Code", required: true, description: "the code to translate"},
			{name: "language", title: "Language", description: "the language the code is written in",
				complete: func(s *Server, prefix string) []string { return withPrefix(languages, prefix) }},
		},
		build: func(s *Server, r *request, args map[string]string) (string, *rpcError) {
			lang := args["language"]
			if lang == "" {
				lang = "another language"
			}
			return fmt.Sprintf("Translate this %s code into idiomatic WFL (WebFirst Language). Keep its behaviour, "+
				"use WFL's natural-language statements and builtins (check them with lookup_builtin), and check the "+
				"result with analyze_wfl.\n\n```\n%s\n```\n", lang, args["code"]), nil
		}},
}

// promptDocument reads a workspace file for a prompt; failures are -32602.
func (s *Server) promptDocument(p string) (*document, *rpcError) {
	d, fail := s.document(map[string]any{"path": p})
	if fail != nil {
		return nil, errInvalidParams("path: " + fail.text)
	}
	return d, nil
}

// getPrompt answers prompts/get.
func (s *Server) getPrompt(r *request) (any, *rpcError) {
	var p struct {
		Name      *string        `json:"name"`
		Arguments map[string]any `json:"arguments"`
	}
	if err := decodeParams(r.params, &p); err != nil {
		return nil, err
	}
	if p.Name == nil {
		return nil, errInvalidParams(`prompts/get: "name" is required`)
	}
	var pr *prompt
	for _, x := range prompts {
		if x.name == *p.Name {
			pr = x
		}
	}
	if pr == nil {
		return nil, &rpcError{Code: codeInvalidParams, Message: "Unknown prompt: " + *p.Name, Data: map[string]any{"name": *p.Name}}
	}
	args := map[string]string{}
	for k, v := range p.Arguments {
		known := false
		for _, a := range pr.args {
			known = known || a.name == k
		}
		if !known {
			return nil, errInvalidParams(fmt.Sprintf("prompt %s has no argument %q", pr.name, k))
		}
		sv, ok := v.(string)
		if !ok {
			return nil, errInvalidParams(fmt.Sprintf("prompt argument %q must be a string", k))
		}
		args[k] = sv
	}
	for _, a := range pr.args {
		if a.required && args[a.name] == "" {
			return nil, errInvalidParams(fmt.Sprintf("prompt %s needs the argument %q (%s)", pr.name, a.name, a.description))
		}
	}
	text, rerr := pr.build(s, r, args)
	if rerr != nil {
		return nil, rerr
	}
	return map[string]any{
		"description": pr.description,
		"messages":    []any{map[string]any{"role": "user", "content": map[string]any{"type": "text", "text": text}}},
	}, nil
}
