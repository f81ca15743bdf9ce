package core

import (
	"strings"
	"testing"

	"wfl-lsp/lang/token"
)

// featureSrc exercises the position queries. Markers are found by text.
const featureSrc = `// Says hello to someone by name.
// Twice as friendly.
define action called greet with name as text:
    display "Hello, " with name
end action

store first name as "Zoë 😀"
call greet with first name
check if first name is "Zoë 😀":
    change first name to "Ann"
    display length of first name
otherwise:
    display "no"
end check

create container Person:
    property age: Number
    action birthday:
        change age to age plus 1
    end
end

describe "greeting":
    test "says hello":
        expect 1 to equal 1
    end test
end describe
`

func analysisOf(t *testing.T, src string) *Analysis {
	t.Helper()
	return NewSnapshot("file:///t.wfl", 1, src).Analysis()
}

// at returns the offset of the nth occurrence of needle plus delta.
func at(t *testing.T, src, needle string, nth, delta int) int {
	t.Helper()
	i := -1
	for k := 0; k <= nth; k++ {
		j := strings.Index(src[i+1:], needle)
		if j < 0 {
			t.Fatalf("%q #%d not found", needle, nth)
		}
		i += 1 + j
	}
	return i + delta
}

func spanOf(t *testing.T, src, needle string, nth int) token.Span {
	s := at(t, src, needle, nth, 0)
	return token.Span{Start: s, End: s + len(needle)}
}
