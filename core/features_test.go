package core

import (
	"testing"

	"wfl-lsp/core/internal/coretest"
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

// A needle's offset and span, shared with the feature packages' tests.
var (
	at     = coretest.At
	spanOf = coretest.SpanOf
)
