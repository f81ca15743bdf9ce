package core

// This file tells completion where the cursor is in the grammar: at the
// start of a statement (and in which block), where a value is expected,
// after a complete value, in the middle of a comparison phrase, where a
// container, an interface, a type, an action or a new name goes. WFL
// statements are lines, so the tokens of the line before the word being
// typed say it; the tree says which block the line is in.

import (
	"sort"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

// A slot is what the grammar expects at the cursor.
type slot int

const (
	slotStatement  slot = iota // the start of a statement
	slotValue                  // a value: names, literals, builtins, `call`, `create new`, …
	slotAfterValue             // after a complete value: operators and phrases that continue it
	slotIsPhrase               // after `is`: the rest of a comparison, or a value
	slotThan                   // after `is greater` / `is less`: `than`
	slotContainer              // after `create new`, a container's `extends`
	slotInterface              // after `implements`, an interface's `extends`
	slotType                   // a parameter's or property's type
	slotAction                 // after `call`
	slotNewName                // a name being declared: nothing to offer
	slotNone                   // nothing sensible (after `.`, inside a literal, …)
)

// A place is a cursor's slot and what else completion needs to know there.
type place struct {
	slot      slot
	want      *types.Type // the type a value here should have, or nil
	declaring string      // the name the statement declares (not offered in its own value)
	block     ast.Node    // the innermost block-like node around the cursor (a container, `create new`, …), or nil
	list      bool        // a value here is a list to change (`add … to`, `push with`)
	typeLower bool        // a type here is written in lower case (after a parameter's `as`)
}

// placeAt works out the place of the cursor at offset; lineStart is the
// start of its line and prefixStart where the word being typed starts.
func (a *Analysis) placeAt(lineStart, prefixStart int) place {
	toks := a.lineTokens(lineStart, prefixStart)
	p := place{block: a.blockAt(prefixStart)}
	if a.inBadStmt(prefixStart) {
		// The line being typed broke its block (a container's body line
		// the parser cannot read yet turns the whole container into a
		// bad statement): the block is the one the text has without it.
		p.block = a.blockWithoutLine(lineStart, prefixStart)
	}
	if len(toks) == 0 {
		p.slot = slotStatement
		return p
	}
	word := func(i int) string { // the spelling of toks[i] (i < 0 counts from the end)
		if i < 0 {
			i += len(toks)
		}
		if i < 0 || i >= len(toks) {
			return ""
		}
		t := toks[i]
		if t.Kind.IsKeyword() {
			return t.Kind.Spelling()
		}
		switch t.Kind {
		case token.Identifier:
			return "IDENT"
		case token.StringLiteral, token.IntLiteral, token.FloatLiteral, token.BooleanLiteral, token.NothingLiteral:
			return "LIT"
		}
		return punctuation[t.Kind]
	}
	first, last := word(0), word(-1)
	// The statement declares a name: not offered in its own value.
	if (first == "store" || first == "create") && len(toks) >= 3 {
		for i := 1; i < len(toks); i++ {
			if toks[i].Kind == token.KeywordAs {
				var names []string
				for _, t := range toks[1:i] {
					if t.Kind == token.Identifier {
						names = append(names, t.Text)
					}
				}
				p.declaring = strings.Join(names, " ")
				break
			}
		}
	}
	switch last {
	case "as":
		switch {
		case (first == "store" || first == "create") && word(1) != "new" || first == "store" && word(1) == "new":
			p.slot = slotValue
		case first == "define" || first == "requires":
			p.slot, p.typeLower = slotType, true // `with parameters x as …`
		default:
			p.slot = slotNewName // `… as NAME` names what the statement makes
		}
	case "new":
		if first == "create" || first == "store" {
			p.slot = slotContainer
		} else {
			p.slot = slotValue
		}
	case "extends":
		if first == "create" && word(1) == "interface" {
			p.slot = slotInterface
		} else {
			p.slot = slotContainer
		}
	case "implements":
		p.slot = slotInterface
	case ",":
		if hasWord(toks, token.KeywordImplements) || first == "create" && word(1) == "interface" {
			p.slot = slotInterface
		} else {
			p.slot = slotValue
		}
	case ":":
		switch {
		case first == "property" || first == "static" && word(1) == "property",
			first == "action" || first == "static" && word(1) == "action" || first == "event" || first == "requires":
			p.slot = slotType // `property x:`, `needs p:`, `action m:` (a result type)
		default:
			p.slot = slotNone // the end of a block's header
		}
	case "call":
		p.slot = slotAction
	case "called", "each", "store", "create", "define", "property", "event", "trigger":
		if last == "create" || last == "store" {
			p.slot = slotNone // a name, or `new`, `list`, …: see statement words
		} else {
			p.slot = slotNewName
		}
	case "is":
		p.slot = slotIsPhrase
	case "greater", "less":
		p.slot = slotThan
	case "IDENT", "LIT", ")", "]":
		p.slot = slotAfterValue
	case ".":
		p.slot = slotNone // members: see Completion
	case "count":
		if len(toks) == 1 {
			p.slot = slotNone // `count from`
		} else {
			p.slot = slotAfterValue
		}
	default:
		p.slot = slotValue
	}
	// What a value here should be.
	if p.slot == slotValue {
		switch {
		case first == "check" || first == "if" || first == "repeat" && (word(1) == "while" || word(1) == "until"):
			if last == "if" || last == "while" || last == "until" || last == "and" || last == "or" || last == "not" {
				p.want = types.Boolean
			}
		case first == "count":
			p.want = types.Number
		case first == "add" && last == "to", first == "remove" && last == "from", first == "clear":
			p.list = true
		case first == "push" && last == "with":
			p.list = true
		}
		switch last {
		case "plus", "minus", "times", "divided by", "by", "%", "/", "modulo":
			if first != "count" || last != "by" {
				p.want = types.Number
			}
		}
	}
	return p
}

// punctuation spells the punctuation tokens.
var punctuation = map[token.Kind]string{
	token.Colon: ":", token.Comma: ",", token.Plus: "plus", token.Minus: "minus", token.Percent: "%",
	token.Slash: "/", token.Dot: ".", token.Equals: "is", token.LeftBracket: "[", token.RightBracket: "]",
	token.LeftParen: "(", token.RightParen: ")",
}

func hasWord(toks []token.Token, k token.Kind) bool {
	for _, t := range toks {
		if t.Kind == k {
			return true
		}
	}
	return false
}

// lineTokens returns the tokens that lie between from and to.
func (a *Analysis) lineTokens(from, to int) []token.Token {
	toks := indexOf(a).tokens(a.Lines.Text(), a.part).Tokens
	i := searchTokens(toks, from)
	j := i
	for j < len(toks) && toks[j].End <= to && toks[j].Kind != token.Eol {
		j++
	}
	return toks[i:j]
}

func searchTokens(toks []token.Token, from int) int {
	lo, hi := 0, len(toks)
	for lo < hi {
		m := (lo + hi) / 2
		if toks[m].Start < from {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// blockAt returns the innermost statement around offset that holds lines
// of its own (a container, a `create new`, a loop, a try, …), or nil at the
// top level.
func (a *Analysis) blockAt(offset int) ast.Node {
	if a.File == nil {
		return nil
	}
	var found ast.Node
	ast.Inspect(a.File, func(n ast.Node) bool {
		if n == nil || offset <= n.Pos() || offset > n.End() {
			return false
		}
		switch n.(type) {
		case *ast.ContainerDecl, *ast.NewStmt, *ast.InterfaceDecl, *ast.CreateListStmt, *ast.CreateMapStmt,
			*ast.DescribeStmt, *ast.TestStmt, *ast.HookStmt, *ast.TryStmt, *ast.ActionDecl, *ast.IfStmt,
			*ast.ForEachStmt, *ast.CountStmt, *ast.RepeatStmt, *ast.MainLoopStmt, *ast.RouteStmt,
			*ast.TransactionStmt, *ast.WebSocketHandlerStmt, *ast.PatternDecl:
			found = n
		}
		return true
	})
	return found
}

// inBadStmt reports whether offset lies in a statement the parser could
// not read.
func (a *Analysis) inBadStmt(offset int) bool {
	bad := indexOf(a).badStmts
	i := sort.Search(len(bad), func(i int) bool { return bad[i].End >= offset })
	return i < len(bad) && bad[i].Start <= offset
}

// blockWithoutLine returns blockAt(offset) in the text parsed again with
// the line from lineStart emptied after its indentation.
func (a *Analysis) blockWithoutLine(lineStart, offset int) ast.Node {
	text := a.Lines.Text()
	end := strings.IndexByte(text[lineStart:], '\n')
	if end < 0 {
		end = len(text)
	} else {
		end += lineStart
	}
	indent := lineStart
	for indent < end && (text[indent] == ' ' || text[indent] == '\t') {
		indent++
	}
	if b := (&Analysis{Syntax: Syntax{File: a.parseWithout(indent, end)}}).blockAt(min(offset, indent)); b != nil {
		return b
	}
	// Still unread (a block left open to the end of the file, being
	// typed): the header of the lines it is indented under, closed. A line
	// not indented is under none.
	if indent == lineStart {
		return nil
	}
	for l := a.Lines.Line(lineStart) - 1; l >= 0; l-- {
		from, to := a.Lines.LineStart(l), a.Lines.LineEnd(l)
		line := text[from:to]
		code := strings.TrimLeft(line, " \t")
		if code == "" || strings.HasPrefix(code, "//") || strings.HasPrefix(code, "#") {
			continue
		}
		if len(line)-len(code) >= indent-lineStart {
			continue // as deep as the line being typed: a sibling
		}
		if !strings.HasSuffix(strings.TrimRight(code, " \t\r"), ":") {
			return nil
		}
		header := strings.TrimRight(code, " \t\r")
		f, _ := parser.Parse(header + "\n    \nend\n")
		return (&Analysis{Syntax: Syntax{File: f}}).blockAt(len(header) + 3)
	}
	return nil
}

// isMemberBlock reports whether the lines of n are its own members or
// entries rather than statements (a container, a `create new`, an
// interface, a list's or map's entries, a test group).
func isMemberBlock(n ast.Node) bool {
	switch n.(type) {
	case *ast.ContainerDecl, *ast.NewStmt, *ast.InterfaceDecl, *ast.CreateListStmt, *ast.CreateMapStmt, *ast.DescribeStmt:
		return true
	}
	return false
}

// parseWithout parses the text with the bytes [from, to) removed, as
// parser.Parse does, and returns the tree of it around from: the whole of
// it, or, when the units of the text are at hand (a partial analysis's, or
// the snapshot's diagnostics), just the statements of the stretch an edit
// removing those bytes would parse again (incremental.go's reparse), in
// the offsets of the text without them. Only a statement around from is
// looked for in it.
func (a *Analysis) parseWithout(from, to int) *ast.File {
	text := a.Lines.Text()
	cut := text[:from] + text[to:]
	var st *diagState
	if a.part != nil {
		st = a.part.q.st
	} else if a.diags != nil {
		st = a.diags.Load()
	}
	if st == nil || st.text != text {
		f, _ := parser.Parse(cut)
		return f
	}
	w := reparse(st, cut, from, to, from-to, true)
	f := w.file
	n := 0
	for _, u := range w.units {
		if u.Start >= w.bound {
			break
		}
		if u.Stmt != nil {
			n++
		}
	}
	f.Stmts = f.Stmts[:n]
	return f
}
