package mcp

// This file tests how declared primitives are served: tool arguments
// checked against the input schema, prompts/get and completion/complete,
// on the fixture.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// typed is a test tool whose arguments are checked: name (a string,
// required), count (an integer of at least 1), flag (a boolean), nothing
// else. It answers its arguments as decoded.
var typed = func() *Tool {
	no := false
	one := 1.0
	return &Tool{Name: "typed", Description: "checks its arguments",
		Input: &Schema{Type: "object", Required: []string{"name"}, AdditionalProperties: &no, Properties: map[string]*Schema{
			"name":  {Type: "string"},
			"count": {Type: "integer", Minimum: &one},
			"flag":  {Type: "boolean"},
		}},
		Call: func(ctx context.Context, c *Call) Result {
			b, _ := json.Marshal(c.Args)
			return Result{Text: string(b)}
		}}
}()

func TestToolArgumentsChecked(t *testing.T) {
	h := start(t, Options{Primitives: withTools(typed)})
	h.Initialize("2025-11-25")
	tests := []struct {
		name, args string
		problems   []string // substrings of the invalid_arguments message; none for success
	}{
		{"ok", `{"name":"x","count":2,"flag":true}`, nil},
		{"integral float is an integer", `{"name":"x","count":2.0}`, nil},
		{"unknown argument", `{"name":"x","sauce":1}`, []string{`unknown argument "sauce"; the known ones are: count, flag, name`}},
		{"mistyped", `{"name":5}`, []string{`argument "name" must be a string, not the integer 5`}},
		{"not an integer", `{"name":"x","count":1.5}`, []string{`argument "count" must be an integer`}},
		{"below the minimum", `{"name":"x","count":0}`, []string{`argument "count" must be at least 1, not 0`}},
		{"boolean mistyped", `{"name":"x","flag":"yes"}`, []string{`argument "flag" must be a boolean`}},
		{"every problem", `{"count":"two","flag":1}`, []string{`"count" must be an integer`, `"flag" must be a boolean`, `missing required argument "name"`}},
		{"absent arguments", ``, []string{`missing required argument "name"`}},
		{"null arguments", `null`, []string{`missing required argument "name"`}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.T = t
			params := `{"name":"typed"}`
			if tt.args != "" {
				params = `{"name":"typed","arguments":` + tt.args + `}`
			}
			res := h.Call(i+1, "tools/call", params).Tool(t)
			if tt.problems == nil {
				if res.IsError {
					t.Fatalf("failed: %s", res.Content[0].Text)
				}
				return
			}
			var f toolFailure
			if !res.IsError || json.Unmarshal([]byte(res.Content[0].Text), &f) != nil || f.Error.Kind != "invalid_arguments" {
				t.Fatalf("got %+v, want invalid_arguments", res)
			}
			for _, p := range tt.problems {
				if !strings.Contains(f.Error.Message, p) {
					t.Errorf("message %q lacks %q", f.Error.Message, p)
				}
			}
			if len(f.Error.Problems) != len(tt.problems) {
				t.Errorf("problems %q, want %d", f.Error.Problems, len(tt.problems))
			}
		})
	}
	h.T = t
	if w := h.Call(50, "tools/call", `{"name":"typed","arguments":[1]}`); w.ErrCode() != -32602 {
		t.Errorf("arguments not an object: %s", w.Raw)
	}
}

func TestPromptsGet(t *testing.T) {
	h := start(t, Options{})
	h.Initialize("2025-11-25")
	get := h.Call(1, "prompts/get", `{"name":"prompt_b","arguments":{"topic":"tea"}}`).ResultMap(t)
	if msgs := fmt.Sprint(get["messages"]); !strings.Contains(msgs, "b tea") {
		t.Errorf("messages %s", msgs)
	}
	for _, tt := range []struct{ params, msg string }{
		{`{"name":"nope"}`, "Unknown prompt"},
		{`{}`, `"name" is required`},
		{`{"name":"prompt_a"}`, `needs the argument "topic"`},
		{`{"name":"prompt_a","arguments":{"topic":"a","extra":"b"}}`, `no argument "extra"`},
		{`{"name":"prompt_a","arguments":{"topic":5}}`, "must be a string"},
	} {
		if w := h.Call(2, "prompts/get", tt.params); w.ErrCode() != -32602 || !strings.Contains(w.Error.Message, tt.msg) {
			t.Errorf("%s: %s, want -32602 saying %q", tt.params, w.Raw, tt.msg)
		}
	}
}

func TestCompletion(t *testing.T) {
	h := start(t, Options{})
	h.Initialize("2025-11-25")
	complete := func(params string) map[string]any {
		t.Helper()
		return h.Call(1, "completion/complete", params).ResultMap(t)["completion"].(map[string]any)
	}
	if c := complete(`{"ref":{"type":"ref/prompt","name":"prompt_a"},"argument":{"name":"topic","value":"ap"}}`); fmt.Sprint(c["values"]) != "[apple apricot]" || c["total"] != 2.0 || c["hasMore"] != false {
		t.Errorf("prompt argument: %v", c)
	}
	if c := complete(`{"ref":{"type":"ref/prompt","name":"prompt_a"},"argument":{"name":"topic","value":"z"}}`); fmt.Sprint(c["values"]) != "[]" {
		t.Errorf("no match: %v, want an empty list", c)
	}
	// At most 100 values; total says how many there are.
	if c := complete(`{"ref":{"type":"ref/resource","uri":"test://file/{name}"},"argument":{"name":"name","value":"f"}}`); len(c["values"].([]any)) != 100 || c["total"] != 150.0 || c["hasMore"] != true {
		t.Errorf("template variable: %d values, total %v, hasMore %v", len(c["values"].([]any)), c["total"], c["hasMore"])
	}
	// A template or argument without Complete has no values.
	if c := complete(`{"ref":{"type":"ref/resource","uri":"test://a/{name}"},"argument":{"name":"name","value":""}}`); fmt.Sprint(c["values"]) != "[]" {
		t.Errorf("without Complete: %v", c)
	}
	for _, bad := range []string{`{}`,
		`{"ref":{"type":"ref/prompt","name":"nope"},"argument":{"name":"x","value":""}}`,
		`{"ref":{"type":"ref/prompt","name":"prompt_a"},"argument":{"name":"x","value":""}}`,
		`{"ref":{"type":"ref/other"},"argument":{"name":"x","value":""}}`,
		`{"ref":{"type":"ref/resource","uri":"x://{y}"},"argument":{"name":"y","value":""}}`,
		`{"ref":{"type":"ref/resource","uri":"test://a/{name}"},"argument":{"name":"other","value":""}}`} {
		if w := h.Call(2, "completion/complete", bad); w.ErrCode() != -32602 {
			t.Errorf("%s: %s", bad, w.Raw)
		}
	}
}
