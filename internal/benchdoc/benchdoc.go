// Package benchdoc generates the WFL documents the benchmarks measure, so
// that the front end's, the core's, the server's and the process's
// benchmarks all run on the same text. Tests import it; the binary does not.
//
// Both documents repeat a 12-line chunk of typical WFL (an action with a
// doc comment, a variable, a loop, a check and a call) with names made
// unique by the chunk's number. Dense draws 4 warnings a chunk (multi-word
// names, a result never used), about 3,300 at 10,000 lines; Clean draws none.
// Tests is a third shape: a program of tests whose every chunk writes the
// same counters.
package benchdoc

import (
	"fmt"
	"strings"
)

const denseChunk = `// Adds two numbers, chunk %[1]d.
define action called sum numbers c%[1]d with a and b:
    return a plus b
end action
store total c%[1]d as 0
count from 1 to 3:
    change total c%[1]d to total c%[1]d plus count
end count
check if total c%[1]d is greater than 2:
    display "total " with total c%[1]d
end check
store result c%[1]d as call sum numbers c%[1]d with total c%[1]d and 1
`

const cleanChunk = `// Adds two numbers, chunk %[1]d.
define action called sum_numbers_c%[1]d with a and b:
    return a plus b
end action
store total_c%[1]d as 0
count from 1 to 3:
    change total_c%[1]d to total_c%[1]d plus count
end count
check if total_c%[1]d is greater than 2:
    display "total " with total_c%[1]d
end check
display call sum_numbers_c%[1]d with total_c%[1]d and 1
`

const testsHead = `store passed as 0
store failed as 0
store total as 0
`

const testsChunk = `// Test %[1]d: a sum and its check.
store value_c%[1]d as %[1]d plus 2
check if value_c%[1]d is %[1]d plus 2:
    display "PASS: test %[1]d gave " with value_c%[1]d
    change passed to passed plus 1
otherwise:
    display "FAIL: test %[1]d gave " with value_c%[1]d
    change failed to failed plus 1
end check
change total to total plus value_c%[1]d
display "so far: " with passed plus failed

`

const testsTail = `display "passed " with passed with ", failed " with failed with ", total " with total
`

// Tests returns a program of tests of about lines lines without a finding,
// written as WFL's own test programs are: every test changes the count of
// passed or failed tests, and a total, that the end displays.
func Tests(lines int) string { return testsHead + repeat(testsChunk, lines) + testsTail }

// Dense returns a document of about lines lines with 4 warnings a chunk.
func Dense(lines int) string { return repeat(denseChunk, lines) }

// Clean returns a document of about lines lines without a finding.
func Clean(lines int) string { return repeat(cleanChunk, lines) }

func repeat(chunk string, lines int) string {
	var b strings.Builder
	for i := 0; i*12 < lines; i++ {
		fmt.Fprintf(&b, chunk, i)
	}
	return b.String()
}
