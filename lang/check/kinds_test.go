package check_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/internal/testcorpus"

	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// TestKinds holds that the checker tells the code acting on its findings
// what each is about, and the names involved, in fields: quick fixes, the
// list shown while the text is broken and incremental checking read
// these, never the message.
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
		{"create new Person as p:\nend\n", diag.NotFound, []string{"Person"}, "Container type 'Person' not found"},
		{"create container Box:\n    property size: Number\nend\ncreate new Box as b:\n    size is 1\nend\ndisplay b.weight\n",
			diag.NoMember, []string{"weight", "Box"}, "Property 'weight' not found in container 'Box'"},
		{"store method as 1\nstore r as 2\nstore m as method of r\n", diag.NotCallable, []string{"method"}, "'method' is not a function"},
		{"register signal handler for SIGINT as nope_handler\n", diag.UndefinedHandler, []string{"nope_handler"},
			"Undefined signal handler 'nope_handler'"},
		{"create pattern p:\n    list_nope\nend pattern\n", diag.UndefinedListRef, []string{"list_nope"},
			"Undefined list reference 'list_nope' in pattern"},
		{"display pattern(\"x\")\n", diag.Unimplemented, []string{"pattern"},
			"Builtin 'pattern' is recognized but not implemented by the runtime"},
		{"store new constant LIMIT as 3\nchange LIMIT to 4\n", 0, []string{"LIMIT"},
			"Cannot modify constant 'LIMIT' - constants are immutable once defined"},
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

// TestNamesOfFindings holds, over the corpus and its mutants, that the
// checker's findings carry in Names every name their message quotes ('x',
// a keyword quoted as an operator left out), and that those saying a name
// is not declared or not found have a kind that says so (Undeclared):
// which findings an editor shows while the text is broken follows these
// fields, not the message.
func TestNamesOfFindings(t *testing.T) {
	progs := testcorpus.Programs(t)
	for i, path := range testcorpus.Glob(t, "wfl-mutants/*.wfl") {
		if i%testcorpus.RaceStride(32) != 0 {
			continue
		}
		if data, err := os.ReadFile(path); err == nil {
			progs[path] = string(data)
		}
	}
	n := 0
	for path, src := range progs {
		f, _ := parser.Parse(src)
		_, ps := check.CheckPasses(f, src, &check.Context{})
		for _, d := range slices.Concat(ps.Analyzer, ps.Static, ps.Type, ps.Retold) {
			n++
			for _, q := range quotedNames(d.Message) {
				if !slices.Contains(d.Names, q) {
					t.Errorf("%s: %q (kind %v) has names %q, without %q", path, d.Message, d.Kind, d.Names, q)
				}
			}
			says := strings.Contains(d.Message, "not defined") || strings.Contains(d.Message, "not found") ||
				strings.Contains(d.Message, "Undefined") || strings.Contains(d.Message, "is not a function") ||
				strings.Contains(d.Message, "recognized but not implemented")
			if says != d.Kind.Undeclared() {
				t.Errorf("%s: %q has kind %v (undeclared: %v)", path, d.Message, d.Kind, d.Kind.Undeclared())
			}
		}
	}
	t.Logf("%d findings", n)
}

// quotedNames returns what a message quotes ('x') that can spell a name:
// one word that is no keyword, or words none of which is one.
func quotedNames(msg string) []string {
	var out []string
	for rest := msg; ; {
		i := strings.IndexByte(rest, '\'')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(rest[i+1:], '\'')
		if j < 0 {
			return out
		}
		ws := strings.FieldsFunc(rest[i+1:i+1+j], func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
		})
		name := len(ws) > 0
		for _, w := range ws {
			name = name && token.Lookup(w) == token.Identifier
		}
		if name {
			out = append(out, rest[i+1:i+1+j])
		}
		rest = rest[i+1+j+1:]
	}
}
