package mcp

// This file implements the JSON Schema subset the tools declare, and strict
// validation of tool arguments against it: unknown, missing and mistyped
// arguments are reported by name so a model can correct its call.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
)

// A Schema is a JSON Schema (2020-12) object. Arguments are checked
// against the keywords below; a schema made by [ParseSchema] is listed as
// written, other keywords included, and checked by those it shares with
// this struct.
type Schema struct {
	Type                 string             `json:"type,omitempty"`
	Title                string             `json:"title,omitempty"`
	Description          string             `json:"description,omitempty"`
	Properties           map[string]*Schema `json:"properties,omitempty"`
	Required             []string           `json:"required,omitempty"`
	AdditionalProperties *bool              `json:"additionalProperties,omitempty"`
	Items                *Schema            `json:"items,omitempty"`
	Enum                 []string           `json:"enum,omitempty"`
	Minimum              *float64           `json:"minimum,omitempty"`
	Maximum              *float64           `json:"maximum,omitempty"`
	MinLength            *int               `json:"minLength,omitempty"`
	Default              any                `json:"default,omitempty"`
	// If, Then, Else and Not express which arguments go together. A
	// client sees them at the top level of an input schema, where oneOf,
	// anyOf and allOf are refused by model APIs (Anthropic's among them:
	// "input_schema does not support oneOf, allOf, or anyOf at the top
	// level"), and the tool is dropped. A Then, Else or Not that fails
	// with a Description is reported as that description.
	If   *Schema `json:"if,omitempty"`
	Then *Schema `json:"then,omitempty"`
	Else *Schema `json:"else,omitempty"`
	Not  *Schema `json:"not,omitempty"`

	raw json.RawMessage // the schema as written, for ParseSchema's
}

// ParseSchema reads a JSON Schema object. Its listing is raw itself.
func ParseSchema(raw []byte) (*Schema, error) {
	var sc Schema
	if err := json.Unmarshal(raw, &sc); err != nil {
		return nil, fmt.Errorf("mcp: schema: %w", err)
	}
	sc.raw = append(json.RawMessage(nil), raw...)
	return &sc, nil
}

// MarshalJSON writes a parsed schema as written, others from their fields.
func (sc *Schema) MarshalJSON() ([]byte, error) {
	if sc.raw != nil {
		return sc.raw, nil
	}
	type plain Schema
	return marshal((*plain)(sc))
}

// decodeArgs decodes an arguments object keeping numbers exact.
func decodeArgs(raw []byte) (any, error) {
	if len(raw) == 0 {
		return map[string]any{}, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// Validate checks v (JSON as encoding/json decodes it, numbers as
// json.Number) against sc and returns every problem found, each naming
// the argument at fault ("" path for the top level).
func (sc *Schema) Validate(v any) []string {
	var problems []string
	sc.check("", v, &problems)
	return problems
}

func (sc *Schema) check(path string, v any, problems *[]string) {
	where := "the arguments"
	if path != "" {
		where = `argument "` + path + `"`
	}
	add := func(format string, a ...any) { *problems = append(*problems, fmt.Sprintf(format, a...)) }
	if sc.Type != "" && !hasType(v, sc.Type) {
		add("%s must be %s, not %s", where, article(sc.Type), describe(v))
		return
	}
	if sc.If != nil {
		branch := sc.Else
		if len(sc.If.Validate(v)) == 0 {
			branch = sc.Then
		}
		branch.checkPart(path, v, problems)
	}
	if sc.Not != nil && len(sc.Not.Validate(v)) == 0 {
		if sc.Not.Description != "" {
			add("%s", sc.Not.Description)
		} else {
			add("%s must not match the schema under \"not\"", where)
		}
	}
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			sub, ok := sc.Properties[k]
			if !ok {
				if sc.AdditionalProperties != nil && !*sc.AdditionalProperties {
					add("unknown argument %q%s; the known ones are: %s", join(path, k), "", strings.Join(sc.propertyNames(), ", "))
				}
				continue
			}
			sub.check(join(path, k), v[k], problems)
		}
		for _, k := range sc.Required {
			if _, ok := v[k]; !ok {
				add("missing required argument %q", join(path, k))
			}
		}
	case []any:
		if sc.Items != nil {
			for i, e := range v {
				sc.Items.check(fmt.Sprintf("%s[%d]", path, i), e, problems)
			}
		}
	case string:
		if len(sc.Enum) > 0 && !contains(sc.Enum, v) {
			add("%s must be one of %s, not %q", where, strings.Join(sc.Enum, ", "), v)
		}
		if sc.MinLength != nil && len([]rune(v)) < *sc.MinLength {
			add("%s must have at least %d characters", where, *sc.MinLength)
		}
	case json.Number:
		f, _ := v.Float64()
		if sc.Minimum != nil && f < *sc.Minimum {
			add("%s must be at least %v, not %s", where, *sc.Minimum, v)
		}
		if sc.Maximum != nil && f > *sc.Maximum {
			add("%s must be at most %v, not %s", where, *sc.Maximum, v)
		}
	}
}

// checkPart checks v against a part of a schema (then, else): one
// problem, its description, when it has one.
func (sc *Schema) checkPart(path string, v any, problems *[]string) {
	if sc == nil {
		return
	}
	var mine []string
	sc.check(path, v, &mine)
	if len(mine) > 0 && sc.Description != "" {
		mine = []string{sc.Description}
	}
	*problems = append(*problems, mine...)
}

func (sc *Schema) propertyNames() []string {
	names := make([]string, 0, len(sc.Properties))
	for k := range sc.Properties {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// hasType reports whether a decoded JSON value has the JSON Schema type t.
// An integer is any number with an integral value (1.0 included).
func hasType(v any, t string) bool {
	switch t {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	case "number":
		switch v.(type) {
		case json.Number, float64, int:
			return true
		}
		return false
	case "integer":
		switch n := v.(type) {
		case json.Number:
			f, err := n.Float64()
			return err == nil && f == math.Trunc(f) && !math.IsInf(f, 0)
		case float64:
			return n == math.Trunc(n)
		case int:
			return true
		}
		return false
	}
	return true
}

func article(t string) string {
	switch t {
	case "object", "array", "integer":
		return "an " + t
	}
	return "a " + t
}

func describe(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		if hasType(v, "integer") {
			return "the integer " + v.String()
		}
		return "the number " + v.String()
	case float64, int:
		return fmt.Sprintf("the number %v", v)
	}
	return fmt.Sprintf("%T", v)
}
