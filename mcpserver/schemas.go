package mcpserver

// This file builds the JSON schemas of WFL's tools and reads their
// arguments, which the server has checked against those schemas already
// (mcp.Schema).

import (
	"encoding/json"

	"wfl-lsp/mcpserver/mcp"
)

var falseVal = false

// object returns a closed object schema (no properties beyond props). A
// tool that takes a program as source or path takes exactly one of them.
func object(required []string, props map[string]*mcp.Schema) *mcp.Schema {
	sc := &mcp.Schema{Type: "object", Properties: props, Required: required, AdditionalProperties: &falseVal}
	if props["source"] != nil && props["path"] != nil {
		sc.If = &mcp.Schema{Required: []string{"source"}}
		sc.Then = &mcp.Schema{Description: `give either "source" or "path", not both`, Not: &mcp.Schema{Required: []string{"path"}}}
		sc.Else = &mcp.Schema{Description: `missing required argument: give "source" (the program text) or "path" (a workspace file)`,
			Required: []string{"path"}}
	}
	return sc
}

// openObject returns an object schema that allows more properties.
func openObject(required []string, props map[string]*mcp.Schema) *mcp.Schema {
	return &mcp.Schema{Type: "object", Properties: props, Required: required}
}

func str(desc string) *mcp.Schema     { return &mcp.Schema{Type: "string", Description: desc} }
func boolean(desc string) *mcp.Schema { return &mcp.Schema{Type: "boolean", Description: desc} }
func integer(desc string, minimum float64) *mcp.Schema {
	return &mcp.Schema{Type: "integer", Description: desc, Minimum: &minimum}
}
func array(desc string, items *mcp.Schema) *mcp.Schema {
	return &mcp.Schema{Type: "array", Description: desc, Items: items}
}
func enum(desc string, values ...string) *mcp.Schema {
	return &mcp.Schema{Type: "string", Description: desc, Enum: values}
}

// intArg reads an integer argument that validation has already checked.
func intArg(args map[string]any, name string) (int, bool) {
	n, ok := args[name].(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	if err != nil {
		return 0, false
	}
	return int(f), true
}

func strArg(args map[string]any, name string) (string, bool) {
	s, ok := args[name].(string)
	return s, ok
}

func boolArg(args map[string]any, name string, def bool) bool {
	if b, ok := args[name].(bool); ok {
		return b
	}
	return def
}
