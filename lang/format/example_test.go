package format_test

import (
	"errors"
	"fmt"

	"wfl-lsp/lang/format"
)

func ExampleSource() {
	src := "check if total is greater than 5 // big\n" +
		"display   \"big: \"with total\n" +
		"\n\n\n" +
		"  otherwise\n" +
		"store flag as YES\n" +
		"end check\n"
	out, err := format.Source("store total as 7\n"+src, format.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(out)
	// Output:
	// store total as 7
	// check if total is greater than 5: // big
	//     display "big: " with total
	//
	// otherwise:
	//     store flag as yes
	// end check
}

func ExampleSource_syntaxError() {
	src := "store x as\n"
	out, err := format.Source(src, format.Options{})
	var se *format.SyntaxError
	fmt.Println(errors.As(err, &se), se.Line, out == src)
	// Output:
	// true 1 true
}
