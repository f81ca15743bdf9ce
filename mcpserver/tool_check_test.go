package mcpserver

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"
)

// TestDiagnosticTools: what analyze_wfl, typecheck_wfl and lint_wfl say of
// programs a model may send: the list an editor shows, the reference's
// verdict, and whether the type checker ran.
func TestDiagnosticTools(t *testing.T) {
	h := start(t, Options{})
	for i, tt := range []struct {
		name, tool, source string
		valid              bool
		typeChecked        *bool
		codes              []string // "line code" of every diagnostic, in order
	}{
		{"a statement that does not parse keeps the others' findings",
			"analyze_wfl", "change q to 1\nstore z as\n", false, nil,
			[]string{"1 ANALYZE-SEMANTIC", "2 PARSE-UNEXPECTED"}},
		{"a semantic error stops the type checker: not valid, and said so",
			"typecheck_wfl", "change q to 1\nstore a as \"x\" minus 1\ndisplay a\n", false, ptr(false),
			[]string{"2 TYPE-OPERAND"}},
		{"a parse error stops it too",
			"typecheck_wfl", "store z as\n", false, ptr(false),
			[]string{"1 PARSE-UNEXPECTED"}},
		{"a program the type checker passes",
			"typecheck_wfl", "store a as 1\ndisplay a plus 1\n", true, ptr(true), nil},
		{"a type error the type checker found",
			"typecheck_wfl", "store a as \"x\" minus 1\ndisplay a\n", false, ptr(true),
			[]string{"1 TYPE-OPERAND"}},
		{"lint: unused code as the description says, beside the linter's",
			"lint_wfl", "store Total as 1\n", true, nil,
			[]string{"1 ANALYZE-UNUSED", "1 LINT-NAME"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h.T = t
			params := fmt.Sprintf(`{"name":%q,"arguments":{"source":%q}}`, tt.tool, tt.source)
			res := h.Call(i+1, "tools/call", params).Tool(t)
			if res.IsError {
				t.Fatalf("failed: %s", res.Content[0].Text)
			}
			checkOutputSchema(t, params, res)
			var out checkOutput
			if err := json.Unmarshal(res.StructuredContent, &out); err != nil {
				t.Fatal(err)
			}
			var codes []string
			for _, d := range out.Diagnostics {
				codes = append(codes, fmt.Sprintf("%d %s", d.Line, d.Code))
			}
			if !slices.Equal(codes, tt.codes) {
				t.Errorf("diagnostics %q, want %q", codes, tt.codes)
			}
			if out.Valid != tt.valid {
				t.Errorf("valid %v, want %v (%s)", out.Valid, tt.valid, out.Summary)
			}
			if (out.TypeChecked == nil) != (tt.typeChecked == nil) || out.TypeChecked != nil && *out.TypeChecked != *tt.typeChecked {
				t.Errorf("typeChecked %v, want %v", out.TypeChecked, tt.typeChecked)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }
