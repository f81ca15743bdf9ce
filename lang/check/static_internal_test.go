package check

import (
	"testing"

	"wfl-lsp/lang/parser"
)

// The analyzer's redeclaration error masks shadowing in every complete
// program (the reference runs the static pass only after a clean analysis),
// so the shadow rule is tested on its own.
func TestShadowing(t *testing.T) {
	tests := []struct {
		src  string
		want int
	}{
		{"store x as 1\ncheck if yes:\n    store x as 2\nend check\n", 1},
		{"store x as 1\nstore x as 2\n", 1},
		{"define action called f with parameters p:\n    store p as 1\nend action\n", 1},
		{"store x as 1\ncount from 1 to 2:\n    store y as 2\nend count\n", 0},
		{"check if yes:\n    store a as 1\notherwise:\n    store a as 2\nend check\n", 0},
		{"store x as 1\ncheck if yes:\n    display 1\notherwise check if no:\n    store x as 2\nend check\n", 1},
		{"check if yes:\n    store a as 1\n    check if yes:\n        store a as 2\n    end check\nend check\n", 1},
		{"store q as 1\ndefine action called g:\n    store q as 2\nend action\n", 1},
		{"check if yes:\n    store z as 1\nend check\nstore z as 2\n", 0},
		{"store w as 1\ncount from 1 to 2:\n    for each i in [1]:\n        store w as 2\n        store w as 3\n    end for\nend count\n", 3},
	}
	for _, tt := range tests {
		f, _ := parser.Parse(tt.src)
		if got := len(shadowing(f)); got != tt.want {
			t.Errorf("%q: %d shadow warnings, want %d", tt.src, got, tt.want)
		}
	}
}
