package check

import "testing"

func TestArityMessage(t *testing.T) {
	for _, tt := range []struct {
		want string
		got  int
		msg  string
	}{
		{"1", 2, "Builtin 'x' expects 1 argument, but 2 were provided"},
		{"1", 0, "Builtin 'x' expects 1 argument, but 0 were provided"},
		{"2", 1, "Builtin 'x' expects 2 arguments, but 1 was provided"},
		{"at least 1", 0, "Builtin 'x' expects at least 1 argument, but 0 were provided"},
		{"at least 2", 1, "Builtin 'x' expects at least 2 arguments, but 1 was provided"},
		{"1 to 3", 4, "Builtin 'x' expects 1 to 3 arguments, but 4 were provided"},
		{"0 or 1", 2, "Builtin 'x' expects 0 or 1 arguments, but 2 were provided"},
		{"2 or 1", 0, "Builtin 'x' expects 2 or 1 arguments, but 0 were provided"},
		{"11", 1, "Builtin 'x' expects 11 arguments, but 1 was provided"},
		{"at least 21", 1, "Builtin 'x' expects at least 21 arguments, but 1 was provided"},
		{"0", 1, "Builtin 'x' expects 0 arguments, but 1 was provided"},
	} {
		if got := arityMessage("Builtin 'x'", tt.want, tt.got); got != tt.msg {
			t.Errorf("arityMessage(%q, %d) = %q, want %q", tt.want, tt.got, got, tt.msg)
		}
	}
}
