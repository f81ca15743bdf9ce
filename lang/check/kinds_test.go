package check_test

import (
	"slices"
	"testing"

	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
)

// TestKinds holds that the checker tells the code acting on its findings
// what each is about, and the names involved, in fields: quick fixes and
// incremental checking read these, never the message.
func TestKinds(t *testing.T) {
	for _, tc := range []struct {
		src   string
		kind  diag.Kind
		names []string
		msg   string
	}{
		{"display nope\n", diag.Undefined, []string{"nope"}, "Variable 'nope' is not defined"},
		{"try:\n    display missing_name\ncatch:\n    display \"failed\"\nend try\n", diag.Undefined, []string{"missing_name"}, "Variable 'missing_name' is not defined"},
		{"create interface Speaker extends Nope:\n    requires action speak\nend\n", diag.UndefinedInterface, []string{"Nope"}, "Interface 'Nope' is not defined"},
		{"define action called f with parameters a as Nope:\n    display a\nend action\ncall f with 1\n", diag.UndefinedType, []string{"Nope"},
			"Type 'Nope' is not defined: no container, interface or type of WFL has this name"},
		{"change nope to 2\n", diag.Undefined, []string{"nope"}, "Variable 'nope' is not defined"},
		{"call nowhere with 1\n", diag.UndefinedAction, []string{"nowhere"}, "Undefined action 'nowhere'"},
		{"store x as 1\nstore x as 2\ndisplay x\n", diag.Redefined, []string{"x"},
			"Variable 'x' has already been defined at line 1. Use 'change x to <value>' to modify it."},
		{"define action called f with parameters a:\n    display a\nend action\ndefine action called f with parameters b:\n    display b\nend action\n",
			diag.DuplicateAction, []string{"f"},
			"Action 'f' was already defined with the same parameters at line 1. Overloads must differ in parameter count or in their declared parameter types (e.g. 'value as number' vs 'value as text')."},
		{"define action called f:\n    store unused_thing as 1\nend action\ncall f\n", diag.Unused, []string{"unused_thing"}, "Unused variable 'unused_thing'"},
		{"create interface Speaker:\n    requires action speak\nend\ncreate container Dog implements Speaker:\n    property name: Text\nend\n",
			diag.Unsatisfied, []string{"Dog", "Speaker", "speak"},
			"Container 'Dog' does not satisfy interface 'Speaker': missing required action 'speak'"},
	} {
		tree, _ := parser.Parse(tc.src)
		_, diags := check.Check(tree, tc.src)
		found := false
		for _, d := range diags {
			if d.Message == tc.msg {
				found = true
				if d.Kind != tc.kind || !slices.Equal(d.Names, tc.names) {
					t.Errorf("%q: %q has kind %v, names %q; want %v, %q", tc.src, d.Message, d.Kind, d.Names, tc.kind, tc.names)
				}
			}
		}
		if !found {
			t.Errorf("%q: no finding %q in %v", tc.src, tc.msg, diags)
		}
	}
}
