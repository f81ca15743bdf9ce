package mcpserver

// This file implements lookup_builtin: the documentation of a builtin
// function from the front end's builtin registry.

import (
	"context"
	"sort"
	"strings"

	"wfl-lsp/lang/builtins"
)

type builtinInfo struct {
	Name        string   `json:"name"`
	Module      string   `json:"module"`
	Doc         string   `json:"doc"`
	Implemented bool     `json:"implemented"`
	Arguments   string   `json:"arguments"`
	Signatures  []string `json:"signatures"`
	Result      string   `json:"result"`
}

var builtinSchema = openObject([]string{"name", "module", "doc", "implemented", "arguments", "signatures", "result"}, map[string]*Schema{
	"name":        str("the builtin's name"),
	"module":      str("the standard library module it belongs to"),
	"doc":         str("what it does"),
	"implemented": boolean("false for names the runtime reserves but does not provide"),
	"arguments":   str(`accepted argument counts, e.g. "2 to 3"`),
	"signatures":  array("each accepted parameter list and result", str("")),
	"result":      str("the result type of the first signature"),
})

func describeBuiltin(b *builtins.Builtin) builtinInfo {
	info := builtinInfo{Name: b.Name, Module: b.Module, Doc: b.Doc, Implemented: b.Implemented,
		Arguments: b.ArityText(), Signatures: []string{}, Result: b.Result().String()}
	for i := range b.Signatures {
		info.Signatures = append(info.Signatures, b.Label(i))
	}
	return info
}

// similarBuiltins returns up to 10 builtin names that contain the query or
// share its first word.
func similarBuiltins(q string) []string {
	q = strings.ToLower(strings.TrimSpace(q))
	var out []string
	for _, n := range builtins.Names() {
		if strings.Contains(n, q) || strings.Contains(q, n) || (len(q) >= 3 && strings.HasPrefix(n, q[:3])) {
			out = append(out, n)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return len(out[i]) < len(out[j]) })
	if len(out) > 10 {
		out = out[:10]
	}
	return out
}

var lookupBuiltinTool = &Tool{
	Name:  "lookup_builtin",
	Title: "Look up a WFL builtin function",
	Description: "Return the documentation of a WFL builtin function (for example substring, length, " +
		"to_uppercase): its module, what it does, its parameter lists and result type. An unknown name " +
		"fails with suggestions.",
	Input: object([]string{"name"}, map[string]*Schema{
		"name": str("the builtin's name, as written in programs"),
	}),
	Output:   openObject([]string{"builtin"}, map[string]*Schema{"builtin": builtinSchema}),
	ReadOnly: true, Idempotent: true,
	Call: func(ctx context.Context, c *Call) Result {
		args := c.Args
		name, _ := strArg(args, "name")
		b := builtins.Lookup(strings.TrimSpace(name))
		if b == nil {
			msg := "no builtin is called " + `"` + name + `"`
			if sim := similarBuiltins(name); len(sim) > 0 {
				msg += "; similar names: " + strings.Join(sim, ", ")
			}
			return failure("not_found", msg)
		}
		return Result{Structured: map[string]any{"builtin": describeBuiltin(b)}}
	},
}
