package txtar

import "testing"

func TestRoundTrip(t *testing.T) {
	for _, s := range []string{
		"",
		"comment\n",
		"a comment\n-- a.wfl --\nstore x as 1\n-- b --\n\n-- c --\nlast\n",
	} {
		if got := Parse(s).Format(); got != s {
			t.Errorf("Parse(%q).Format() = %q", s, got)
		}
	}
	if d, ok := Parse("-- crlf --\r\nline\r\n").Get("crlf"); !ok || d != "line\r\n" {
		t.Errorf("a header ending in CR LF: %q %v", d, ok)
	}
	a := Parse("c\n-- x --\n1\n")
	if d, ok := a.Get("x"); !ok || d != "1\n" || a.Comment != "c\n" {
		t.Fatalf("Get: %q %v, comment %q", d, ok, a.Comment)
	}
	a.Set("x", "2\n")
	a.Set("y", "3")
	if got := a.Format(); got != "c\n-- x --\n2\n-- y --\n3\n" {
		t.Fatalf("after Set: %q", got)
	}
}

func TestDiff(t *testing.T) {
	for _, tc := range []struct{ want, got, diff string }{
		{"a\nb\n", "a\nb\n", ""},
		{"a\nb\nc", "a\nB\nc", "line 2:\n  want b\n  got  B\n"},
		{"a", "a\nmore", "line 2:\n  want \n  got  more\n"},
		{"x\ny", "", "line 1:\n  want x\n  got  \nline 2:\n  want y\n  got  \n"},
	} {
		if d := Diff(tc.want, tc.got); d != tc.diff {
			t.Errorf("Diff(%q, %q) = %q, want %q", tc.want, tc.got, d, tc.diff)
		}
	}
}
