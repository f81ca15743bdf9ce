package typingbench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"wfl-lsp/internal/benchdoc"
)

// The documents typed into, written into a workspace folder. Each types,
// one character a keystroke, a second operand into the last argument of
// the middle chunk's call of its action, so that the cursor is always
// inside the call's arguments, and hovers the action's name in that call:
//
//	display call sum_numbers_c417 with total_c417 and 1+total_c417      (WFL, clean)
//	fmt.Println(sumNumbersC357(totalC357, 1+totalC357))                  (Go)
//
// Every keystroke changes what is wrong with the line (a dangling
// operator, an undefined name, a different undefined name, nothing), so a
// server that publishes diagnostics only when they change publishes them
// after every keystroke too.

// WFLDoc writes the generated WFL document of about lines lines
// (internal/benchdoc: clean, without a finding, or dense, with 4 warnings
// every 12 lines) into dir and returns it. Its name is "lines=N" or
// "clean/lines=N", as the other benchmarks name these documents.
func WFLDoc(dir string, clean bool, lines int) (Doc, error) {
	chunk := (lines + 11) / 12 / 2 // the middle chunk
	text, name := benchdoc.Dense(lines), fmt.Sprintf("lines=%d", lines)
	call := fmt.Sprintf("store result c%[1]d as call sum numbers c%[1]d with total c%[1]d and 1|\n", chunk)
	hover := fmt.Sprintf("call sum| numbers c%d with", chunk)
	typed := fmt.Sprintf("+total c%d", chunk)
	if clean {
		text, name = benchdoc.Clean(lines), "clean/"+name
		call = fmt.Sprintf("display call sum_numbers_c%[1]d with total_c%[1]d and 1|\n", chunk)
		hover = fmt.Sprintf("call sum_|numbers_c%d with", chunk)
		typed = fmt.Sprintf("+total_c%d", chunk)
	}
	return writeDoc(dir, "doc.wfl", name, "wfl", text, call, typed, hover)
}

// BlockDoc writes benchdoc's clean WFL document of about lines lines into
// dir and returns it typing a block by hand after the middle chunk's call,
// as an editor user types one: the header, Enter, its body line by line,
// and no closer (`end check` comes last, and is not typed yet). The block
// is open for most of the keystrokes; the cursor ends in a call's
// arguments. It hovers the call's action before the block.
//
//	display call sum_numbers_c417 with total_c417 and 1
//	check if total_c417 is greater than 3:
//	    store bonus as total_c417 plus 1
//	    display call sum_numbers_c417 with bonus and total_c417
func BlockDoc(dir string, lines int) (Doc, error) {
	chunk := (lines + 11) / 12 / 2
	typed := fmt.Sprintf("\ncheck if total_c%[1]d is greater than 3:\n    store bonus as total_c%[1]d plus 1\n"+
		"    display call sum_numbers_c%[1]d with bonus and total_c%[1]d", chunk)
	return writeDoc(dir, "doc.wfl", fmt.Sprintf("block/lines=%d", lines), "wfl", benchdoc.Clean(lines),
		fmt.Sprintf("display call sum_numbers_c%[1]d with total_c%[1]d and 1|\n", chunk), typed,
		fmt.Sprintf("call sum_|numbers_c%d with", chunk))
}

// GoBlockDoc is BlockDoc for gopls: the same block typed into GoSource, a
// brace opened and not closed.
//
//	fmt.Println(sumNumbersC357(totalC357, 1))
//	if totalC357 > 3 {
//		bonus := totalC357 + 1
//		fmt.Println(sumNumbersC357(bonus, totalC357
func GoBlockDoc(dir string, lines int) (Doc, error) {
	return goDoc(dir, "go-block", lines, "\tfmt.Println(sumNumbersC%[1]d(totalC%[1]d, 1))|\n",
		"\n\tif totalC%[1]d > 3 {\n\t\tbonus := totalC%[1]d + 1\n\t\tfmt.Println(sumNumbersC%[1]d(bonus, totalC%[1]d")
}

// QuoteDoc writes benchdoc's clean WFL document of about lines lines into
// dir and returns it typing, after the middle chunk's call, a line that
// displays a string and a name: from its opening quote to its closing one
// the quote is open, and the reference pairs it with the next line's
// quote, reading every string below inside out. It hovers the call's
// action before the line.
//
//	display call sum_numbers_c417 with total_c417 and 1
//	display "Total so far: " with total_c417
func QuoteDoc(dir string, lines int) (Doc, error) {
	chunk := (lines + 11) / 12 / 2
	return writeDoc(dir, "doc.wfl", fmt.Sprintf("quote/lines=%d", lines), "wfl", benchdoc.Clean(lines),
		fmt.Sprintf("display call sum_numbers_c%[1]d with total_c%[1]d and 1|\n", chunk),
		fmt.Sprintf("\ndisplay \"Total so far: \" with total_c%d", chunk),
		fmt.Sprintf("call sum_|numbers_c%d with", chunk))
}

// GoQuoteDoc is QuoteDoc for gopls: the same line typed into GoSource, a
// string literal open until its closing quote is typed.
//
//	fmt.Println(sumNumbersC357(totalC357, 1))
//	fmt.Println("Total so far: ", totalC357)
func GoQuoteDoc(dir string, lines int) (Doc, error) {
	return goDoc(dir, "go-quote", lines, "\tfmt.Println(sumNumbersC%[1]d(totalC%[1]d, 1))|\n",
		"\n\tfmt.Println(\"Total so far: \", totalC%[1]d)")
}

// TestsDoc writes benchdoc's program of tests of about lines lines into dir
// and returns it: typing a second operand into the middle test's increment
// of the count of passed tests, which every test writes, and hovering the
// count there. There is no call to type into: signature help finds none.
func TestsDoc(dir string, lines int) (Doc, error) {
	mid := (lines + 11) / 12 / 2
	line := fmt.Sprintf("with value_c%d\n    change passed to passed plus 1", mid)
	return writeDoc(dir, "tests.wfl", fmt.Sprintf("tests/lines=%d", lines), "wfl", benchdoc.Tests(lines),
		line+"|\n", " plus value_c0", "change pass|ed to passed plus 1\notherwise:\n    display \"FAIL: test "+fmt.Sprint(mid)+" ")
}

// CorpusProgram is the largest program of the WFL corpus
// (../shared/corpus/wfl), relative to the corpus folder.
const CorpusProgram = "experiments/nexus/nexus.wfl"

// CorpusDoc copies the corpus's largest program into dir and returns it:
// typing into `store add_result2 as sum_numbers of 10 and 15`.
func CorpusDoc(dir, corpus string) (Doc, error) {
	b, err := os.ReadFile(filepath.Join(corpus, CorpusProgram))
	if err != nil {
		return Doc{}, err
	}
	return writeDoc(dir, filepath.Base(CorpusProgram), "corpus="+filepath.Base(CorpusProgram), "wfl", string(b),
		"store add_result2 as sum_numbers of 10 and 15|", "+add_result", "as sum_|numbers of 10")
}

const goChunk = `// sumNumbersC%[1]d adds two numbers, chunk %[1]d.
func sumNumbersC%[1]d(a, b int) int {
	return a + b
}
var totalC%[1]d = 0
func chunkC%[1]d() {
	for count := 1; count <= 3; count++ {
		totalC%[1]d = totalC%[1]d + count
	}
	if totalC%[1]d > 2 {
		fmt.Println("total ", totalC%[1]d)
	}
	fmt.Println(sumNumbersC%[1]d(totalC%[1]d, 1))
}
`

// GoSource returns a Go file of about lines lines equal to benchdoc's clean
// WFL document: the same chunk (a documented function adding two numbers,
// a package variable, a loop, a condition, a call), written in Go, 14 lines
// a chunk, in package main; it compiles, and vet finds nothing.
func GoSource(lines int) string {
	var b strings.Builder
	b.WriteString("package main\n\nimport \"fmt\"\n\nfunc main() {}\n\n")
	for i := 0; 6+14*i < lines; i++ {
		fmt.Fprintf(&b, goChunk, i)
	}
	return b.String()
}

// GoDoc writes a Go module into dir (go.mod, and main.go of about lines
// lines: GoSource) and returns main.go, named "go/lines=N".
func GoDoc(dir string, lines int) (Doc, error) {
	return goDoc(dir, "go", lines, "\tfmt.Println(sumNumbersC%[1]d(totalC%[1]d, 1|))\n", "+totalC%[1]d")
}

// goDoc writes a Go module into dir (go.mod, and main.go of about lines
// lines: GoSource) and returns main.go, named "name/lines=N", typing typed
// at the cursor (|) of cursor and hovering the middle chunk's call of its
// action; cursor and typed are formats of the middle chunk's number.
func goDoc(dir, name string, lines int, cursor, typed string) (Doc, error) {
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module typingbench\n\ngo 1.26\n"), 0o644); err != nil {
		return Doc{}, err
	}
	chunk := (lines - 6 + 13) / 14 / 2
	return writeDoc(dir, "main.go", fmt.Sprintf("%s/lines=%d", name, lines), "go", GoSource(lines),
		fmt.Sprintf(cursor, chunk), fmt.Sprintf(typed, chunk), fmt.Sprintf("\tfmt.Println(sum|NumbersC%d(totalC", chunk))
}

func writeDoc(dir, file, name, lang, text, cursor, typed, hover string) (Doc, error) {
	path, err := filepath.Abs(filepath.Join(dir, file))
	if err != nil {
		return Doc{}, err
	}
	d, err := NewDoc(name, path, lang, text, cursor, typed, hover)
	if err != nil {
		return Doc{}, fmt.Errorf("%s: %w", name, err)
	}
	return d, os.WriteFile(path, []byte(text), 0o644)
}
