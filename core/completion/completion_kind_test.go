package completion

import "testing"

// TestCompletionKindsHaveNames: every kind completion makes has a name, as
// MCP's get_completions reports it (an interface's item had none, nor a
// type's, a file's or a folder's).
func TestCompletionKindsHaveNames(t *testing.T) {
	seen := map[string]Kind{}
	for k := Keyword; k <= Folder; k++ {
		name := k.String()
		if name == "" {
			t.Errorf("completion kind %d has no name", k)
		}
		if other, ok := seen[name]; ok {
			t.Errorf("kinds %d and %d are both named %q", other, k, name)
		}
		seen[name] = k
	}
	if Kind(0).String() != "" || (Folder+1).String() != "" {
		t.Error("a kind out of range has a name")
	}
}
