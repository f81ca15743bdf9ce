package fixes

// This file implements the quick fixes of parse errors: a missing or wrong
// block closer, a missing keyword, extra words after a closer.

import (
	"fmt"
	"slices"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// closer repairs a missing or wrong block closer. When the parser closed
// the block by the layout (the diagnostic points at the block's header and
// at where its closer goes), it inserts the closer there, on a line of its
// own indented as the header; where another closer was written (`end for`
// while a `check if` is open) replacing its word is offered too. Otherwise,
// at the end of the file it inserts the `end …` line the parser expected,
// indented like the statement it closes, and where another closer was
// written it offers both readings: replace the wrong word, or insert the
// expected closer before that line.
func (fx *fixer) closer(d diag.Diagnostic) []Fix {
	found, after, wants, ok := expectedOf(d)
	want := ""
	if len(wants) > 0 {
		want = wants[0]
	}
	// expected 'check' after 'end', found 'for'
	endFor := ok && want != "" && !strings.Contains(want, " ") && after == "end" && fx.foundAt(d, found)
	brk := core.LineBreak(fx.src)
	lines := fx.lines
	if d.Kind == diag.Unclosed && len(d.Related) == 2 && len(d.Names) >= 1 {
		// (The parser's message may name what it found instead: the next
		// member of a container after a method without its `end`.)
		closer := d.Names[0]
		hl := lines.Line(d.Related[0].Span.Start)
		line := lines.Line(d.Related[1].Span.Start)
		// The blocks opened inside this one and left open to the same line
		// are closed first, the last opened first: this block's closer
		// alone would close the innermost (a container's `end` after a
		// method without its own).
		var inner []diag.Diagnostic
		for _, in := range fx.reported {
			if in.Kind == diag.Unclosed && len(in.Related) == 2 && len(in.Names) >= 1 &&
				in.Related[0].Span.Start > d.Related[0].Span.Start && lines.Line(in.Related[1].Span.Start) == line {
				inner = append(inner, in)
			}
		}
		slices.SortFunc(inner, func(x, y diag.Diagnostic) int { return y.Related[0].Span.Start - x.Related[0].Span.Start })
		closers, text := []string{}, ""
		for _, in := range inner {
			closers = append(closers, in.Names[0])
			text += fx.indentOf(lines.Line(in.Related[0].Span.Start)) + in.Names[0] + brk
		}
		closers = append(closers, closer)
		e := core.Edit{Text: text + fx.indentOf(hl) + closer + brk}
		switch {
		case line+1 < lines.Count():
			e.Start = lines.LineStart(line + 1)
		case strings.HasSuffix(fx.src, "\n") || strings.HasSuffix(fx.src, "\r"):
			e.Start = len(fx.src)
		default:
			e.Start, e.Text = len(fx.src), brk+e.Text // after a last line without a break
		}
		e.End = e.Start
		fixes := []Fix{{Title: fmt.Sprintf("Insert '%s' after line %d", strings.Join(closers, "' and '"), line+1), Kind: InsertCloser,
			Diagnostic: d, Preferred: true, Edits: []core.Edit{e}}}
		if endFor {
			fixes = append(fixes, Fix{Title: "Close the block with 'end " + want + "'", Kind: ReplaceCloser, Diagnostic: d,
				Edits: []core.Edit{{Start: d.Span.Start, End: d.Span.End, Text: want}}})
		}
		return fixes
	}
	switch {
	case strings.HasPrefix(want, "end") && ok && found == "":
		// expected 'end check' …, found end of file
		text := fx.indentOf(fx.openerLine(d, want, lines.Line(len(fx.src)))) + want + brk
		if n := len(fx.src); n > 0 && fx.src[n-1] != '\n' && fx.src[n-1] != '\r' {
			text = brk + text
		}
		return []Fix{{Title: "Insert '" + want + "'", Kind: InsertCloser, Diagnostic: d, Preferred: true,
			Edits: []core.Edit{{Start: len(fx.src), End: len(fx.src), Text: text}}}}
	case endFor:
		closer := "end " + want
		line := lines.Line(d.Span.Start)
		ls := lines.LineStart(line)
		// The closer's line is the closer's: the words after the wrong one
		// go with it (`end of transaction`), up to a comment.
		to := d.Span.End
		for _, t := range lexer.Lex(fx.src[d.Span.Start:lines.LineEnd(line)]).Tokens {
			if t.Kind != token.Eol && t.Kind != token.EOF {
				to = max(to, d.Span.Start+t.End)
			}
		}
		return []Fix{
			{Title: "Close the block with '" + closer + "'", Kind: ReplaceCloser, Diagnostic: d, Preferred: true,
				Edits: []core.Edit{{Start: d.Span.Start, End: to, Text: want}}},
			{Title: "Insert '" + closer + "' before this line", Kind: InsertCloser, Diagnostic: d, Preferred: true,
				Edits: []core.Edit{{Start: ls, End: ls, Text: fx.indentOf(fx.openerLine(d, closer, line-1)) + closer + brk}}},
		}
	}
	return nil
}

// expectedOf returns the names of a parse error that says what the parser
// wanted and what it found (diag.Expected), also when the layout recovery
// has since told it as a block's closer missing or mistyped, or as a stray
// `end` (their Names say how they keep them).
func expectedOf(d diag.Diagnostic) (found, after string, want []string, ok bool) {
	names := d.Names
	switch {
	case d.Kind == diag.Expected, d.Kind == diag.Stray:
	case (d.Kind == diag.Unclosed || d.Kind == diag.Misclosed) && len(names) > 0:
		names = names[1:]
	default:
		return "", "", nil, false
	}
	if len(names) < 2 {
		return "", "", nil, false
	}
	return names[0], names[1], names[2:], true
}

// foundAt reports whether found, what a parse error says it found, is the
// word or symbol at its span that its message quotes: a keyword, `nothing`
// or a symbol, not a name or a literal.
func (fx *fixer) foundAt(d diag.Diagnostic, found string) bool {
	if d.Span.End <= d.Span.Start || d.Span.End > len(fx.src) || fx.src[d.Span.Start:d.Span.End] != found {
		return false
	}
	toks := lexer.Lex(found).Tokens
	if len(toks) == 0 {
		return false
	}
	switch k := toks[0].Kind; {
	case k.IsKeyword(), k == token.NothingLiteral:
		return true
	case k == token.Identifier, k == token.StringLiteral, k == token.IntLiteral, k == token.FloatLiteral,
		k == token.BooleanLiteral, k == token.Eol, k == token.EOF:
		return false
	}
	return true
}

// indentOf returns the leading blanks of a 0-based line ("" for -1).
func (fx *fixer) indentOf(line int) string {
	if line < 0 {
		return ""
	}
	ls, le := fx.lines.LineStart(line), fx.lines.LineEnd(line)
	return fx.src[ls : ls+len(fx.src[ls:le])-len(strings.TrimLeft(fx.src[ls:le], " \t"))]
}

// openers maps the second word of a closer to the first word of the
// statements it closes.
var openers = map[string]string{
	"check": "check", "count": "count", "for": "for", "repeat": "repeat", "action": "define",
	"try": "try", "list": "create", "map": "create", "pattern": "create", "describe": "describe",
	"test": "test", "setup": "setup", "teardown": "teardown", "route": "route", "loop": "main",
	"if": "if", "on": "on", "transaction": "in", "": "create",
}

// openerLine returns the 0-based line of the statement a missing closer
// should close: the diagnostic's own line when it points there, else the
// last line at or above from starting with the opener's word that is not
// closed further down. It returns -1 when there is none.
func (fx *fixer) openerLine(d diag.Diagnostic, closer string, from int) int {
	second := strings.TrimSpace(strings.TrimPrefix(closer, "end"))
	opener, ok := openers[second]
	if !ok {
		return -1
	}
	lines := fx.lines
	if d.Span.Start < len(strings.TrimRight(fx.src, " \t\r\n")) {
		if l := lines.Line(d.Span.Start); firstWord(fx.src[lines.LineStart(l):lines.LineEnd(l)]) == opener {
			return l
		}
	}
	open := 0
	for l := from; l >= 0; l-- {
		text := strings.TrimSpace(fx.src[lines.LineStart(l):lines.LineEnd(l)])
		switch {
		case text == closer || strings.HasPrefix(text, closer+" "):
			open++
		case firstWord(text) == opener:
			if open == 0 {
				return l
			}
			open--
		}
	}
	return -1
}

func firstWord(line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return ""
	}
	return strings.TrimSuffix(f[0], ":")
}

// missingKeyword repairs a statement whose word the parser names as
// expected where it found something else on the same line: `store x 5`
// -> `store x as 5`, `check score is 3:` -> `check if score is 3:`,
// `define called f:` -> `define action called f:`. It inserts the word
// before what was found, and where what was found is a word spelled like
// the expected one (`iff`, `eahc`), replaces it too; each is checked like
// every fix before it is offered, and the one leaving fewest errors is
// preferred.
func (fx *fixer) missingKeyword(d diag.Diagnostic) []Fix {
	found, after, wants, ok := expectedOf(d)
	if !ok || len(wants) != 1 || after == "" || !keywordWords(wants[0]) || d.Span.End <= d.Span.Start || d.Span.End > len(fx.src) {
		return nil
	}
	want := wants[0]
	span := fx.foundSpan(d, found)
	text := want + " "
	if at := span.Start; at > 0 && fx.src[at-1] != ' ' && fx.src[at-1] != '\t' {
		text = " " + text
	}
	written := fx.src[span.Start:span.End]
	before := strings.ToValidUTF8(written, "\uFFFD")
	if r := []rune(before); len(r) > 24 {
		before = string(r[:23]) + "…"
	}
	out := []Fix{{Title: "Insert '" + want + "' before '" + before + "'", Kind: InsertKeyword,
		Diagnostic: d, Preferred: true, Edits: []core.Edit{{Start: span.Start, End: span.Start, Text: text}}}}
	// The first word of what was found (WFL reads `iff x` as one name).
	first, _, _ := strings.Cut(written, " ")
	if w := strings.ToLower(first); w != want && w != "" && !strings.ContainsAny(w, "\t\n\"") && editDistance(w, want) <= max(1, len(want)/3) {
		out = append(out, Fix{Title: "Replace '" + first + "' with '" + want + "'", Kind: ReplaceKeyword,
			Diagnostic: d, Preferred: true, Edits: []core.Edit{{Start: span.Start, End: span.Start + len(first), Text: want}}})
	}
	return out
}

// foundSpan returns the span of what a parse error says it found, found
// as written: the finding's own span, or where the finding is on the
// statement's first word, the first token after it on its line written
// so.
func (fx *fixer) foundSpan(d diag.Diagnostic, found string) token.Span {
	what := found
	if what == "" || strings.HasPrefix(fx.src[d.Span.Start:d.Span.End], what) {
		return d.Span
	}
	line := fx.lines.Line(d.Span.Start)
	ls, le := fx.lines.LineStart(line), fx.lines.LineEnd(line)
	for _, t := range lexer.Lex(fx.src[ls:le]).Tokens {
		if ls+t.Start >= d.Span.End && fx.src[ls+t.Start:ls+t.End] == what {
			return token.Span{Start: ls + t.Start, End: ls + t.End}
		}
	}
	return d.Span
}

// missingStatementWord repairs a line whose statement word is missing,
// which the parser reads as a value followed by a word no value takes:
// `x as 5` -> `store x as 5`, `x to 5` -> `change x to 5`.
func (fx *fixer) missingStatementWord(d diag.Diagnostic) []Fix {
	if d.Kind != diag.ExpectedValue || len(d.Names) == 0 {
		return nil
	}
	var word string
	switch d.Names[0] {
	case "as":
		word = "store"
	case "to":
		word = "change"
	default:
		return nil
	}
	line := fx.lines.Line(d.Span.Start)
	ls, le := fx.lines.LineStart(line), fx.lines.LineEnd(line)
	var words []token.Token
	for _, t := range lexer.Lex(fx.src[ls:le]).Tokens {
		if t.Kind != token.Eol && t.Kind != token.EOF {
			words = append(words, t)
		}
	}
	// The line is NAME as|to …, the finding on its second word.
	if len(words) < 3 || words[0].Kind != token.Identifier || ls+words[1].Start != d.Span.Start {
		return nil
	}
	at := ls + words[0].Start
	return []Fix{{Title: "Insert '" + word + "' at the start of the line", Kind: InsertKeyword,
		Diagnostic: d, Preferred: true, Edits: []core.Edit{{Start: at, End: at, Text: word + " "}}}}
}

// keywordWords reports whether a word a parse error wanted is one or more
// keywords of letters that is not a closer (which closer repairs).
func keywordWords(word string) bool {
	if word == "" || strings.HasPrefix(word, "end") {
		return false
	}
	for _, r := range word {
		if (r < 'a' || r > 'z') && r != ' ' {
			return false
		}
	}
	return true
}

// extraWords removes what follows a complete closer on its line, when the
// finding is about it: `end for each` closes with `end for`, and `each`
// is then read as a statement of its own.
func (fx *fixer) extraWords(d diag.Diagnostic) []Fix {
	lines := fx.lines
	line := lines.Line(d.Span.Start)
	ls, le := lines.LineStart(line), lines.LineEnd(line)
	toks := lexer.Lex(fx.src[ls:le]).Tokens
	var words []token.Token
	for _, t := range toks {
		if t.Kind != token.Eol && t.Kind != token.EOF {
			words = append(words, t)
		}
	}
	if len(words) < 3 || words[0].Kind != token.KeywordEnd || ls+words[2].Start != d.Span.Start {
		return nil
	}
	if _, ok := openers[fx.src[ls+words[1].Start:ls+words[1].End]]; !ok || words[1].Start == words[1].End {
		return nil
	}
	last := words[len(words)-1]
	closer := "end " + fx.src[ls+words[1].Start:ls+words[1].End]
	return []Fix{{Title: "Write '" + strings.TrimSpace(fx.src[ls+words[0].Start:ls+last.End]) + "' as '" + closer + "'",
		Kind: ExtraWords, Diagnostic: d, Preferred: true,
		Edits: []core.Edit{{Start: ls + words[1].End, End: ls + last.End}}}}
}

// closeQuote closes a string left open on its line (diag.OpenQuote, or a
// quote the lexer dropped for want of a partner) at the end of the line,
// as the editor's tree reads it, or, on a line that ends with a colon,
// before the colon: that one is preferred on a block's header (`describe
// "totals:`, `check if name is "Ada:`), the other elsewhere (`display
// "Note:`). The preferred one is sound as made (the tree reads the string
// closed there, or the header's grammar closes it) when the line, the
// string closed at its end, parses on its own; where it does not, the
// words the string swallowed are ones its statement needs (`wait for
// spawn command "ls as p` closed at the end still lacks its `as`), and the
// fix is checked like other fixes, as the other one always is.
func (fx *fixer) closeQuote(d diag.Diagnostic) []Fix {
	ls := strings.LastIndexAny(fx.src[:d.Span.Start], "\n\r") + 1
	end := d.Span.Start
	for end < len(fx.src) && fx.src[end] != '\n' && fx.src[end] != '\r' {
		end++
	}
	line := fx.lines.Line(d.Span.Start) + 1
	_, errs := parser.Parse(strings.TrimLeft(fx.src[ls:end], " \t") + `"`)
	open := len(errs) == 0 // the line reads as one statement with the string closed at its end
	fixes := []Fix{{Title: fmt.Sprintf("Close the string: insert '\"' at the end of line %d", line), Kind: CloseQuote,
		Diagnostic: d, Preferred: true, sound: open, Edits: []core.Edit{{Start: end, End: end, Text: `"`}}}}
	body := strings.TrimRight(fx.src[d.Span.Start:end], " \t")
	if !strings.HasSuffix(body, ":") || len(body) < 3 {
		return fixes
	}
	colon := d.Span.Start + len(body) - 1
	header := false
	if ws := strings.Fields(fx.src[ls:d.Span.Start]); len(ws) > 0 {
		switch ws[0] {
		case "describe", "test", "check", "if", "for", "count", "repeat", "while", "when", "otherwise", "define", "on", "create", "try":
			header = true
		}
	}
	fixes[0].Preferred, fixes[0].sound = !header, open && !header
	return append(fixes, Fix{Title: fmt.Sprintf("Close the string: insert '\"' before the colon of line %d", line), Kind: CloseQuote,
		Diagnostic: d, Preferred: header, sound: header, Edits: []core.Edit{{Start: colon, End: colon, Text: `"`}}})
}
