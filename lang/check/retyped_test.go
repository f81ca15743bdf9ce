package check_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/lang/check"
	"wfl-lsp/lang/parser"
)

// TestRetyped checks which top-level statements Info.Retyped reports as
// changing what later statements see of a variable: its type in the flow
// of types, or whether it holds an action. Each case lists the reports as
// "line:name", lines counted from 1.
func TestRetyped(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"a write of the same type", "store c as 0\nchange c to c plus 1\ndisplay c\n", nil},
		{"an incompatible write is an error, not a change", "store c as 0\nchange c to \"x\"\ndisplay c\n", nil},
		{"a write of another type", "store c as nothing\nchange c to 5\ndisplay c\n", []string{"2:c"}},
		{"in a branch, the same type", "store c as 0\ncheck if c is 0:\n    change c to c plus 1\notherwise:\n    change c to 2\nend check\n", nil},
		{"in a branch, another type", "store c as nothing\ncheck if yes:\n    change c to 5\nend check\ndisplay c\n", []string{"2:c"}},
		{"a declaration is not a change", "store c as 0\nstore d as c\ncreate list xs\n", nil},
		{"a body is checked apart", "store c as nothing\ndefine action called bump:\n    change c to 5\nend action\n", nil},
		{"a call changes what the body changes", "store c as nothing\ndefine action called bump:\n    change c to 5\nend action\ncall bump\n", []string{"5:c"}},
		{"an action value", "define action called greet:\n    display \"hi\"\nend action\nstore g as 1\nchange g to greet\ncall g\n", []string{"5:g"}},
		{"no longer an action value", "define action called greet:\n    display \"hi\"\nend action\nstore g as greet\nchange g to 1\n", []string{"5:g"}},
		{"a write naming what is not defined keeps the type", "store c as 0\nchange c to c plus nowher\ndisplay c\n", nil},
		{"but not in a try body, where the reference checks types", "store c as 0\ntry:\n    change c to c plus nowher\nwhen error:\n    display error\nend try\ndisplay c\n", []string{"2:c"}},
		{"an add of the list's element type", "create list xs:\n    add 1\nend list\nadd 2 to xs\ndisplay xs\n", nil},
		{"an add naming what is not defined", "create list xs:\n    add 1\nend list\nadd nowher to xs\ndisplay xs\n", nil},
		{"an add of another element type", "create list xs:\n    add 1\nend list\nadd \"a\" to xs\ndisplay xs\n", []string{"4:xs"}},
		{"a counter in a loop", "store n as 0\ncount from 1 to 3:\n    change n to n plus count\nend count\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, _ := parser.Parse(tt.src)
			info, _ := check.CheckPasses(f, tt.src, &check.Context{})
			var got []string
			info.Retyped(func(pos int, name string) {
				got = append(got, fmt.Sprintf("%d:%s", strings.Count(tt.src[:pos], "\n")+1, name))
			})
			slices.Sort(got)
			got = slices.Compact(got)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Retyped = %v, want %v", got, tt.want)
			}
		})
	}
}
