package navigation

import (
	"strings"
	"testing"
)

// TestBuiltinDoc: a builtin's description, which completion items are
// resolved with, holds its signature.
func TestBuiltinDoc(t *testing.T) {
	if doc, ok := BuiltinDoc("length"); !ok || !strings.Contains(doc, "length(") {
		t.Errorf("BuiltinDoc(length) = %q", doc)
	}
}
