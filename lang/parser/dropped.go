package parser

// This file words the findings of what the lexer dropped: characters WFL
// does not know, a quote that opens no string, a string with an unknown
// escape, a number too large to read.

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/token"
)

// MaxDroppedOnLine is how many findings of dropped text a line gets;
// the rest of the line's are told in one more. A line of `@ @ @ …` would
// otherwise make a finding every two bytes. (The count is the line's
// alone, so that a stretch parsed again after an edit words the findings
// of its lines as the whole text's parse does.) The lexer keeps as many
// spans a line, and joins the characters after them to the last.
const MaxDroppedOnLine = lexer.MaxDroppedOnLine

// droppedShown is how many characters of a dropped run or string the
// message quotes.
const droppedShown = 24

// droppedFindings returns the findings of the spans the lexer dropped from
// src, in order.
func droppedFindings(src string, spans []token.Span) []diag.Diagnostic {
	if len(spans) == 0 {
		return nil
	}
	// nextOnLine reports whether span k+1 is on span k's line.
	nextOnLine := func(k int) bool {
		return k+1 < len(spans) && !strings.ContainsAny(src[spans[k].End:spans[k+1].Start], "\n\r")
	}
	out := make([]diag.Diagnostic, 0, min(len(spans), 64))
	onLine := 0
	for k := 0; k < len(spans); k++ {
		d := spans[k]
		if k == 0 || !nextOnLine(k-1) {
			onLine = 0
		}
		onLine++
		if onLine == MaxDroppedOnLine && (nextOnLine(k) || joined(src[d.Start:d.End])) {
			// The rest of the line's, told as one.
			last := k
			for nextOnLine(last) {
				last++
			}
			out = append(out, diag.Diagnostic{
				Span: token.Span{Start: d.Start, End: spans[last].End}, Severity: diag.Warning, Category: diag.Parse, Code: CodeDropped,
				Message: "this and later characters on the line are not part of WFL and are ignored (a line gets at most " + strconv.Itoa(MaxDroppedOnLine) + " findings of them)",
			})
			k = last
			continue
		}
		out = append(out, diag.Diagnostic{Span: d, Severity: diag.Warning, Category: diag.Parse, Code: CodeDropped, Message: droppedMessage(src, d)})
	}
	return out
}

// joined reports whether a span the lexer dropped holds characters it
// joined across blanks, past MaxDroppedOnLine spans on its line.
func joined(text string) bool {
	return text[0] != '"' && strings.ContainsAny(text, " \t\f")
}

// droppedMessage says what the lexer dropped at d and why.
func droppedMessage(src string, d token.Span) string {
	text := src[d.Start:d.End]
	switch c := text[0]; {
	case c == '"' && len(text) == 1:
		if brokenByBackslash(src, d.End) {
			return "the quote opens a string that a backslash at the end of a line breaks (a string cannot go on after `\\` and a line break), so the quote is ignored"
		}
		return "the quote opens a string that is never closed (no '\"' follows it), so the quote is ignored"
	case c == '"':
		return "the string holds the unknown escape \\" + unknownEscape(text) + ", so the whole string is ignored (WFL's escapes are \\n, \\t, \\r, \\\\, \\0 and \\\")"
	case c >= '0' && c <= '9':
		return "the number " + clip(text, droppedShown) + " is too large for WFL and is ignored"
	}
	if text == "\uFEFF" {
		return "the byte order mark (U+FEFF) is not part of WFL and is ignored"
	}
	if n := utf8.RuneCountInString(text); n > 1 {
		return "the " + strconv.Itoa(n) + " characters " + quoteText(clip(text, droppedShown)) + " are not part of WFL and are ignored"
	}
	return "the character " + quoteText(text) + " is not part of WFL and is ignored"
}

// brokenByBackslash reports whether the string whose body starts at from
// meets a backslash before a line break (or the end) before any closing
// quote: the lexer's other reason to drop a quote.
func brokenByBackslash(src string, from int) bool {
	for j := from; j < len(src); j++ {
		switch src[j] {
		case '"':
			return false
		case '\\':
			if j+1 >= len(src) || src[j+1] == '\n' {
				return true
			}
			j++
		}
	}
	return false
}

// unknownEscape returns the character after the backslash of the first
// escape of a string literal's text that is not one of WFL's, written as
// quoteText writes it (a letter as it is); "" when it finds none.
func unknownEscape(text string) string {
	for j := 1; j+1 < len(text); j++ {
		if text[j] != '\\' {
			continue
		}
		switch text[j+1] {
		case 'n', 't', 'r', '\\', '0', '"':
			j++
		default:
			_, size := utf8.DecodeRuneInString(text[j+1:])
			q := quoteText(text[j+1 : j+1+size])
			return q[1 : len(q)-1]
		}
	}
	return ""
}
