package presentation

// This file answers on-type formatting after Enter: when the line before
// the cursor is the header of a block that is not closed, the block's
// closer (`end check`, `end action`, a container's bare `end`, …) goes on
// the line after the cursor, indented as the header.
//
// Whether the block is closed is decided by the parser, not by the
// indentation. The closer is inserted only when
//   - from the header to the inserted closer the text is one statement that
//     parses (so the closer is the header's);
//   - the block is open: with the closer a parse error at or after the
//     header is gone, or there was none but the statement the parser read
//     from the header does not end with the closer (`create list`,
//     `create map` and `create new … as x:` may run to the end of the text);
//   - no parse error appears below the closer.
//
// A `try` is checked with a `catch:` clause before its closer and a pattern
// with something to match, which the user writes next; the edit inserts
// the closer alone.
//
// So an Enter inside a block that is closed further down, however it is
// indented, inserts nothing.

import (
	"slices"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// CloseBlockOf returns the edit that inserts the closer of the block whose
// header is the line before offset's line, or false when that line is no
// block header or its block is closed. offset is where the cursor is after
// Enter; lines is the text's line table. It parses the text itself, and
// needs no analysis of it.
func CloseBlockOf(lines *token.Lines, offset int) (core.Edit, bool) {
	return closeBlock(lines, offset, 0, false)
}

// CloseBlock is CloseBlockOf for the snapshot's text, which it
// parses only from the top-level statement that holds the header
// (core.Snapshot.BlockStart), as are the parse errors before it.
func CloseBlock(s *core.Snapshot, offset int) (core.Edit, bool) {
	lines, from, broken := s.BlockStart(offset)
	return closeBlock(lines, offset, from, broken)
}

// closeBlock is CloseBlock parsing the text from from, the start of a
// top-level statement at or before the header's line; broken says whether
// the text before from raises a parse error.
func closeBlock(lines *token.Lines, offset, from int, broken bool) (core.Edit, bool) {
	text := lines.Text()
	if offset < 0 || offset > len(text) {
		return core.Edit{}, false
	}
	cur := lines.Line(offset)
	if cur == 0 {
		return core.Edit{}, false
	}
	hs, he := lines.LineStart(cur-1), lines.LineEnd(cur-1)
	header := text[hs:he]
	b := blockOf(header)
	if b.closer == "" {
		return core.Edit{}, false
	}
	indent := header[:len(header)-len(strings.TrimLeft(header, " \t"))]
	first := hs + len(indent) // the header's first word

	// Insert at the start of the line after the cursor's, or at the end
	// of a text whose last line the cursor is on.
	brk := core.LineBreak(text)
	var e, probe core.Edit
	if cur+1 < lines.Count() {
		at := lines.LineStart(cur + 1)
		e = core.Edit{Start: at, End: at, Text: indent + b.closer + brk}
		probe = core.Edit{Start: at, End: at, Text: b.probe(indent, brk) + e.Text}
	} else {
		e = core.Edit{Start: len(text), End: len(text), Text: brk + indent + b.closer}
		probe = core.Edit{Start: len(text), End: len(text), Text: brk + strings.TrimSuffix(b.probe(indent, brk), brk) + e.Text}
	}
	after := text[:probe.Start] + probe.Text + text[probe.Start:]
	closerEnd := probe.Start + len(strings.TrimSuffix(probe.Text, brk))

	// The closer closes the header's block: from the header to the closer,
	// the text is one statement, without a parse error.
	snippet := b.wrap(after[first:closerEnd], brk)
	if f, errs := parser.Parse(snippet); len(errs) > 0 || len(f.Stmts) != 1 {
		return core.Edit{}, false
	}

	// The block is not closed: with the closer, a parse error at or after
	// the header is gone (or there was none, but the parser took the end
	// of the text for the end of the block); no error appears below the
	// closer. Errors of the new text that lie before the closer are about
	// the block (an action without a body yet).
	f, before := parseFrom(text, from, broken)
	_, now := parseFrom(after, from, broken)
	type finding struct {
		at  int
		msg string
	}
	var old, fresh []finding
	for _, d := range before {
		if d.Severity == diag.Error && d.Span.Start >= hs {
			old = append(old, finding{d.Span.Start, d.Message})
		}
	}
	for _, d := range now {
		if d.Severity != diag.Error || d.Span.Start < hs {
			continue
		}
		if d.Span.Start < probe.Start+len(probe.Text) {
			if d.Span.Start < probe.Start && slices.Contains(old, finding{d.Span.Start, d.Message}) {
				fresh = append(fresh, finding{d.Span.Start, d.Message})
			}
			continue
		}
		at := d.Span.Start - len(probe.Text)
		if !slices.ContainsFunc(old, func(o finding) bool { return o.at == at }) {
			return core.Edit{}, false // the closer would make an error further down
		}
		fresh = append(fresh, finding{at, d.Message})
	}
	gone := slices.ContainsFunc(old, func(o finding) bool { return !slices.Contains(fresh, o) })
	if !gone && (len(old) > 0 || closedIn(f, text, first, b.closer)) {
		return core.Edit{}, false
	}
	return e, true
}

// closedIn reports whether the statement of f that starts at start ends
// with closer (or, when none starts there, whether the parser could not
// read it: then the errors decide).
func closedIn(f *ast.File, text string, start int, closer string) bool {
	var st ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil || n.Pos() > start || n.End() < start {
			return false
		}
		if _, ok := n.(ast.Stmt); ok && n.Pos() == start {
			if _, bad := n.(*ast.BadStmt); !bad {
				st = n
			}
		}
		return true
	})
	if st == nil {
		return true
	}
	words, want := strings.Fields(text[st.Pos():st.End()]), strings.Fields(closer)
	return len(words) > len(want) && slices.Equal(words[len(words)-len(want):], want)
}

// A block is what a header line opens: its closer, and what its statement
// needs around it to parse on its own.
type block struct {
	closer string
	member bool // an action of a container: parsed inside one
	test   bool // a test, setup or teardown: parsed inside a describe
	clause bool // a try: parsed with a catch clause
	body   bool // a pattern: parsed with something to match
}

// probe returns the lines a block needs before its closer to parse (a
// try's clause, a pattern's body), each ending with brk.
func (b block) probe(indent, brk string) string {
	switch {
	case b.clause:
		return indent + "catch:" + brk
	case b.body:
		return indent + "    digit" + brk
	}
	return ""
}

// wrap puts the text of a block's statement where it parses.
func (b block) wrap(stmt, brk string) string {
	switch {
	case b.member:
		return "create container Probe:" + brk + stmt + brk + "end" + brk
	case b.test:
		return "describe \"probe\":" + brk + stmt + brk + "end describe" + brk
	}
	return stmt + brk
}

// blockOf returns the block a header line opens, with no closer when the
// line opens none (or one closed on the same line, like the `repeat: …
// until` form and a one-line `if … then …`).
func blockOf(line string) block {
	toks := lexer.Lex(line).Tokens
	var words []token.Token
	for _, t := range toks {
		if t.Kind != token.Eol {
			words = append(words, t)
		}
	}
	if len(words) == 0 {
		return block{}
	}
	kind := func(i int) token.Kind {
		if i < len(words) {
			return words[i].Kind
		}
		return token.Illegal
	}
	text := func(i int) string {
		if i < len(words) {
			return words[i].Text
		}
		return ""
	}
	last := words[len(words)-1].Kind
	colon := last == token.Colon
	switch kind(0) {
	case token.KeywordCheck:
		if kind(1) == token.KeywordIf {
			return block{closer: "end check"}
		}
	case token.KeywordIf:
		if last == token.KeywordThen {
			return block{closer: "end if"}
		}
	case token.KeywordFor:
		if kind(1) == token.KeywordEach {
			return block{closer: "end for"}
		}
	case token.KeywordCount:
		if kind(1) == token.KeywordFrom {
			return block{closer: "end count"}
		}
	case token.KeywordRepeat:
		switch kind(1) {
		case token.KeywordWhile, token.KeywordUntil, token.KeywordForever:
			return block{closer: "end repeat"}
		}
	case token.KeywordDefine:
		if kind(1) == token.KeywordAction && colon {
			return block{closer: "end action"}
		}
	case token.KeywordStatic:
		if kind(1) == token.KeywordAction {
			return block{closer: "end", member: true}
		}
	case token.KeywordAction:
		return block{closer: "end", member: true} // an action of a container
	case token.KeywordCreate:
		switch kind(1) {
		case token.KeywordContainer:
			return block{closer: "end"}
		case token.KeywordInterface, token.KeywordNew:
			if colon {
				return block{closer: "end"}
			}
		case token.KeywordList:
			return block{closer: "end list"}
		case token.KeywordMap:
			return block{closer: "end map"}
		case token.KeywordPattern:
			return block{closer: "end pattern", body: true}
		}
	case token.KeywordTry:
		return block{closer: "end try", clause: true}
	case token.KeywordDescribe:
		return block{closer: "end describe"}
	case token.KeywordTest:
		return block{closer: "end test", test: true}
	case token.KeywordSetup:
		return block{closer: "end setup", test: true}
	case token.KeywordTeardown:
		return block{closer: "end teardown", test: true}
	case token.KeywordRoute:
		return block{closer: "end route"}
	case token.KeywordOn:
		if strings.HasPrefix(text(1), "websocket") {
			return block{closer: "end on"}
		}
	case token.KeywordIn:
		if text(1) == "transaction" {
			return block{closer: "end transaction"}
		}
	case token.Identifier:
		if text(0) == "main" && kind(1) == token.KeywordLoop {
			return block{closer: "end loop"}
		}
	}
	return block{}
}

// parseFrom returns what parser.Parse finds of text from from on, the start
// of a top-level statement: its statements, and its diagnostics there.
// Parse keeps the first parse error raised and those not before it
// (parser.Diagnostics); when the text before from raised one (broken),
// that is every error from from on.
func parseFrom(text string, from int, broken bool) (*ast.File, []diag.Diagnostic) {
	if from == 0 {
		return parser.Parse(text)
	}
	f, units, dropped := parser.UnitsFrom(text, from)
	if !broken {
		return f, parser.Diagnostics(units, dropped)
	}
	var diags []diag.Diagnostic
	for _, u := range units {
		diags = append(diags, u.Diags...)
	}
	return f, append(diags, dropped...)
}
