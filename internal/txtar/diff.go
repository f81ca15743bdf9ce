package txtar

import (
	"fmt"
	"strings"
)

// Diff lists the lines where got differs from want, by line number, for a
// golden test's failure: "line N:", then want's line and got's (empty past
// the end of either). It returns "" when they are equal.
func Diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n  want %s\n  got  %s\n", i+1, wl, gl)
		}
	}
	return b.String()
}
