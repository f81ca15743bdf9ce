package parser

import (
	"strconv"
	"strings"

	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/token"
)

// OpenQuote returns the finding of the quote at offset at of src left
// open on its line (lexer.OpenQuotes finds it; lexer.CloseQuote closes it
// for the tree an editor answers from): an error spanning the string to
// the end of its line, whose Related names the later quote the reference
// pairs it with, if any. The reference's reading of the text, and so the
// verdict, is the other one; this is what an editor shows while the
// string is typed.
func OpenQuote(src string, at int) diag.Diagnostic {
	end := at + 1
	for end < len(src) && src[end] != '\n' && src[end] != '\r' {
		end++
	}
	d := diag.Diagnostic{
		Span: token.Span{Start: at, End: end}, Severity: diag.Error, Category: diag.Parse,
		Kind: diag.OpenQuote, Code: diag.ParseOpenQuote,
		Message: "the string is not closed on its line: add '\"' where it ends",
	}
	if k := lexer.Partner(src, at); k >= 0 {
		line := 1 + strings.Count(src[:k], "\n")
		d.Message = "the string is not closed on its line, so it runs to the quote on line " + strconv.Itoa(line) + " and the strings after it are read inside out: add '\"' where it ends"
		d.Related = []diag.Related{{Span: token.Span{Start: k, End: k + 1}, Message: "the quote that closes it as the text stands"}}
	}
	return d
}
