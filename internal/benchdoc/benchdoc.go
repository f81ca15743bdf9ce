// Package benchdoc generates the WFL documents the benchmarks measure, so
// that the front end's, the core's, the server's and the process's
// benchmarks all run on the same text. Tests import it; the binary does not.
//
// Both documents repeat a 12-line chunk of typical WFL (an action with a
// doc comment, a variable, a loop, a check and a call) with names made
// unique by the chunk's number. Dense draws 4 warnings a chunk (multi-word
// names, a result never used), about 3,300 at 10,000 lines; Clean draws none.
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
