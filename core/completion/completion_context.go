package completion

// This file tells completion where the cursor is in the grammar: at the
// start of a statement (and in which block), where a value is expected,
// after a complete value, in the middle of a comparison phrase, where a
// container, an interface, a type, an action or a new name goes. WFL
// statements are lines, so the tokens of the line before the word being
// typed say it; the tree says which block the line is in.

import (
	"slices"
	"strings"
	"sync"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

// A slot is what the grammar expects at the cursor.
type slot int

const (
	slotStatement   slot = iota // the start of a statement
	slotValue                   // a value: names, literals, builtins, `call`, `create new`, …
	slotAfterValue              // after a complete value: operators and phrases that continue it
	slotIsPhrase                // after `is`: the rest of a comparison, or a value
	slotThan                    // after `is greater` / `is less`: `than`
	slotContainer               // after `create new`, a container's `extends`
	slotInterface               // after `implements`, an interface's `extends`
	slotType                    // a parameter's or property's type
	slotAction                  // after `call`
	slotNewName                 // a name being declared: nothing to offer
	slotNone                    // nothing sensible (after `.`, inside a literal, …)
	slotTarget                  // a variable a statement changes (`change`, `add … to`, `clear`, …)
	slotCloser                  // after `end`: the word that closes the open block
	slotEvent                   // after `trigger`: an event
	slotHandler                 // a signal handler: an action
	slotSignal                  // after `register signal handler for`: a signal
	slotPattern                 // an element of a pattern's body
	slotPatternNext             // after an element of a pattern's body: what joins or repeats it
	slotWords                   // one of a clause's own words (`open file at P for reading`): words
)

// A place is a cursor's slot and what else completion needs to know there.
type place struct {
	slot      slot
	declaring string   // the name the statement declares (not offered in its own value)
	block     ast.Node // the innermost block-like node around the cursor (a container, `create new`, …), or nil
	list      bool     // a value here is a list to change (`add … to`, `push with`)
	typeLower bool     // a type here is written in lower case (after a parameter's `as`)
	// wants are the types a value here may have (any of them), when the
	// place says: a builtin's or action's parameter, a loop's operand, an
	// operator's; nil when any value goes. strict says that a value of
	// another type is a TYPE error; else (a condition, which may be a
	// comparison of values of any type) it only ranks lower.
	wants  []*types.Type
	strict bool
	number bool // a target here may also be a number (`add … to`)
	// madeBy, when not nil, says which declaring statements make what goes
	// here (a server, a stream): the names they made come first.
	madeBy func(ast.Node) bool
	// args is how many arguments follow (`call ‸ with a and b`), or 0:
	// the actions that take as many come first.
	args int
	// orderOnly says that after `is` the value compared is of a type
	// without order (not a number): the ordering phrases come last.
	orderOnly bool
	words     []Item // at slotWords: the words that may come next
	// noNames says that a name here would join the word before it into
	// one name (`to have length N`): only values that are not names fit.
	noNames bool
	// base says that the container goes after `extends`: a base, most
	// often declared before the container that extends it.
	base bool
	// callee says that `with` follows: a name here is called with what
	// follows it (`display f with x`), so a variable would be an error.
	callee bool
	// beforeName says that a name follows: only the values complete in
	// one word or phrase (`yes`, `nothing`) fit, not a builtin's name nor
	// a word that takes a value after it.
	beforeName bool
}

// placeAt works out the place of the cursor at offset; lineStart is the
// start of its line and prefixStart where the word being typed starts.
func placeAt(a *core.Analysis, lineStart, prefixStart int) place {
	toks := a.LineTokens(lineStart, prefixStart)
	p := place{block: blockAt(a, prefixStart)}
	if a.InBadStatement(prefixStart) {
		// The line being typed broke its block (a container's body line
		// the parser cannot read yet turns the whole container into a
		// bad statement): the block is the one the text has without it.
		p.block = blockWithoutLine(a, lineStart, prefixStart)
	}
	if pat, ok := p.block.(*ast.PatternDecl); ok && a.Lines.Line(pat.Pos()) < a.Lines.Line(lineStart) || patternBody(a, lineStart) {
		// A pattern's body: its own language, whose line breaks mean
		// nothing.
		p.slot = slotPattern
		if n := len(toks); n > 0 && toks[n-1].Kind == token.KeywordAs {
			p.slot = slotNewName // `capture { … } as NAME`
		} else if n > 0 && patternCount(toks) {
			p.slot = slotNewName // `exactly 3`, `at least 2`, `2 to 4`: a number the user writes
		} else if n > 0 && afterPatternElement(toks[n-1], a.Lines.Text()[toks[n-1].Start:toks[n-1].End]) {
			p.slot = slotPatternNext
		}
		return p
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
	header := !hasWord(toks, token.Colon) // a block's header before its `:`
	if len(toks) == 1 && (first == "and" || first == "with") && strings.HasPrefix(headerAbove(a, lineStart), "open url ") {
		// A line of `open url at U` with its clauses below it.
		p.slot, p.words = slotWords, requestClauses()
		return p
	}
	if ws := clauseWords(toks, first, last, word); ws != nil {
		p.slot, p.words = slotWords, ws
		if first == "respond" && nextKind(a, prefixStart) == token.StringLiteral {
			p.words = respondTextClauses() // `and ‸ "text/html"`: a text follows, the content's type
		}
		return p
	}
	switch last {
	case "as":
		switch {
		case word(-2) == "formatted":
			p.slot = slotNone // `current time formatted as "yyyy-MM-dd"`: a text the user writes, not a name
		case (first == "store" || first == "create") && word(1) != "new" || first == "store" && word(1) == "new":
			p.slot = slotValue
		case first == "define" || first == "requires":
			p.slot, p.typeLower = slotType, true // `with parameters x as …`
		case first == "register":
			p.slot = slotHandler // `register signal handler for SIGINT as …`
		default:
			p.slot = slotNewName // `… as NAME` names what the statement makes
		}
	case "end":
		if len(toks) == 1 {
			p.slot = slotCloser
		} else {
			p.slot = slotNone
		}
	case "change":
		if len(toks) == 1 {
			p.slot = slotTarget
		} else {
			p.slot = slotValue
		}
	case "clear":
		if len(toks) == 1 {
			p.slot, p.list = slotTarget, true
		} else {
			p.slot = slotValue
		}
	case "with", "parameters", "needs":
		switch {
		case first == "define" && header:
			p.slot = slotNewName // `define action called f with …`: a parameter's name
		case (first == "action" || first == "static" && word(1) == "action") && header && last == "needs":
			p.slot = slotNewName // a container action's parameter
		case first == "push" && len(toks) == 2:
			p.slot, p.list = slotTarget, true
		default:
			p.slot = slotValue
		}
	case "and":
		if first == "define" && header && hasWord(toks, token.KeywordWith) {
			p.slot = slotNewName // the next parameter's name
		} else {
			p.slot = slotValue
		}
	case "container", "interface", "pattern", "list", "map", "date", "time", "constant":
		if first == "export" && last == "container" && len(toks) == 2 {
			p.slot = slotContainer // `export container NAME`: one declared
		} else if first == "create" && len(toks) == 2 || (first == "store" || first == "create") && last == "constant" {
			p.slot = slotNewName // `create container NAME`, `store new constant NAME`
		} else {
			p.slot = slotValue
		}
	case "for":
		if first == "register" {
			p.slot = slotSignal
		} else {
			p.slot = slotValue
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
			p.slot, p.base = slotContainer, true
		}
	case "implements":
		p.slot = slotInterface
	case ",":
		switch {
		case hasWord(toks, token.KeywordImplements) || first == "create" && word(1) == "interface":
			p.slot = slotInterface
		case (first == "action" || first == "static" && word(1) == "action") && header:
			p.slot = slotNewName // `action m needs a: Number, …`
		default:
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
		if nextKind(a, prefixStart) == token.KeywordWith {
			p.args = 1 // `call ‸ with a and b`: how many
			for _, t := range a.LineTokens(prefixStart, a.Lines.LineEnd(a.Lines.Line(prefixStart))) {
				if t.Kind == token.KeywordAnd {
					p.args++
				}
			}
		}
	case "action":
		if first == "export" && len(toks) == 2 {
			p.slot = slotHandler // `export action NAME`: one declared
		} else {
			p.slot = slotValue
		}
	case "trigger":
		p.slot = slotEvent
	case "describe", "test":
		if len(toks) == 1 {
			p.slot = slotNewName // the description, a text the user writes
		} else {
			p.slot = slotValue
		}
	case "called", "each", "store", "create", "define", "property", "event":
		if last == "create" || last == "store" {
			p.slot = slotNone // a name, or `new`, `list`, …: see statement words
		} else {
			p.slot = slotNewName
		}
	case "is":
		p.slot = slotIsPhrase
		if n := len(toks); n >= 2 {
			if t := typeOfToken(a, toks[n-2], prefixStart); core.Known(t) && t.Kind != types.KAny && t.Kind != types.KNumber {
				// `flag is …`: a value of its type, or `not`, `equal to`.
				p.orderOnly, p.wants = true, []*types.Type{t}
			}
		}
		if _, ok := p.block.(*ast.CreateMapStmt); len(toks) == 2 && first == "LIT" && (ok || p.block == nil && strings.HasPrefix(headerAbove(a, lineStart), "create map ")) {
			p.slot, p.wants, p.orderOnly = slotValue, nil, false // `"key" is …`: an entry
		}
		if len(toks) == 2 && first == "IDENT" {
			container, ok := "", false
			switch b := p.block.(type) {
			case *ast.NewStmt:
				if ok = true; b.Container != nil {
					container = b.Container.Name
				}
			case *ast.CreateMapStmt:
				p.slot = slotValue // `key is …`: an entry
			case nil:
				// A body the parser could not read (this line is
				// unfinished): the header above it says whose.
				if h := headerAbove(a, lineStart); strings.HasPrefix(h, "create new ") && strings.HasSuffix(h, ":") {
					ok = true
					if f := strings.Fields(h); len(f) > 2 {
						container = f[2]
					}
				}
			}
			if ok {
				// `name is …` sets a property of the instance.
				p.slot = slotValue
				if t := propertyType(a, container, toks[0].Text); core.Known(t) {
					p.wants, p.strict = []*types.Type{t}, true // another type is a TYPE error
				}
			}
		}
	case "greater", "less":
		p.slot = slotThan
	case "IDENT", "LIT", ")", "]":
		p.slot = slotAfterValue
		if n := len(toks); toks[n-1].Kind == token.Identifier && valueClause(toks, first, word) {
			p.slot = slotValue // `write line …`, `and content_type …`, `to have length …`: a value, not its continuation
		}
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
		case first == "add" && last == "to":
			p.slot, p.list, p.number = slotTarget, true, true
		case first == "remove" && last == "from":
			p.slot, p.list = slotTarget, true
		case first == "push" && last == "and" && len(toks) >= 4:
			// `push with LIST and …`: an item of the list.
			if t := typeOfName(a, toks[2:len(toks)-1], prefixStart); t != nil && t.Kind == types.KList && core.Known(t.Elem) {
				p.wants = []*types.Type{t.Elem}
			}
		case first == "change" && last == "to":
			if t := typeOfName(a, toks[1:len(toks)-1], prefixStart); core.Known(t) {
				p.wants = []*types.Type{t}
			}
		case first == "for" && last == "in":
			p.wants, p.strict = []*types.Type{types.NewList(types.Any), types.NewMap(types.Any, types.Any)}, true
		case first == "check" || first == "if" || first == "repeat" && (word(1) == "while" || word(1) == "until"):
			if last == "if" || last == "while" || last == "until" || last == "and" || last == "or" || last == "not" {
				p.wants = []*types.Type{types.Boolean} // or the first operand of a comparison
			}
		case first == "count":
			p.wants, p.strict = []*types.Type{types.Number}, true
		}
		switch {
		case last == "at" && (first == "open" || first == "delete" || first == "create" || first == "list" || first == "file" || first == "directory"),
			last == "from" && (first == "load" || first == "include" || first == "read"):
			p.wants, p.strict = []*types.Type{types.Text}, true // a path
		case first == "listen" && last == "port":
			p.wants, p.strict = []*types.Type{types.Number}, true
		case first == "IDENT" && (toks[0].Text == "copy_file" || toks[0].Text == "move_file") && (last == "from" || last == "to"),
			first == "IDENT" && (len(toks) == 1 || len(toks) == 2 && last == "at") &&
				(toks[0].Text == "makedirs" || toks[0].Text == "remove_file" || toks[0].Text == "remove_dir" || toks[0].Text == "delete_file"):
			// `copy_file from A to B`, `makedirs at P`: paths
			p.wants, p.strict = []*types.Type{types.Text}, true
		case last == "at" && len(toks) >= 2 && indexable(typeOfToken(a, toks[len(toks)-2], prefixStart)):
			// `line at 0`: a position in a list or a text
			p.wants, p.strict = []*types.Type{types.Number}, true
		case last == "than" || last == "above" || last == "below" || last == "to" && word(-2) == "equal" && word(-3) == "or":
			// `is greater than …`, `is less than or equal to …`: a number,
			// or a value of the ordered one's type (dates, times)
			p.wants, p.strict = []*types.Type{types.Number}, true
			if is := lastIndex(toks, token.KeywordIs); is > 0 {
				if t := typeOfToken(a, toks[is-1], prefixStart); t != nil && (t.Kind == types.KDate || t.Kind == types.KTime || t.Kind == types.KDateTime) {
					p.wants = []*types.Type{t}
				}
			}
		case first == "wait" && last == "on":
			// `wait for request comes in on SERVER`: WFL types a server
			// as text; those `listen` made come first.
			p.wants, p.strict = []*types.Type{types.Text}, true
			p.madeBy = func(n ast.Node) bool { _, ok := n.(*ast.ListenStmt); return ok }
		case first == "wait" && last == "from" && len(toks) > 3 && strings.HasPrefix(toks[2].Text, "next"):
			// `wait for next line from STREAM` (`next line` is one name)
			p.madeBy = func(n ast.Node) bool { h, ok := n.(*ast.HTTPStmt); return ok && h.Kind == ast.HTTPStream }
		case first == "write" && (last == "content" || len(toks) == 2 && toks[1].Kind == token.Identifier),
			first == "respond" && last == "IDENT" && strings.HasPrefix(toks[len(toks)-1].Text, "content"),
			first == "start" && last == "IDENT" && word(-2) == "content",
			first == "wait" && last == "content" && (word(2) == "append" || word(2) == "write"),
			last == "in" && (hasWord(toks, token.KeywordReplace) || hasWord(toks, token.KeywordFind)), last == "split",
			last == "at" && (word(-2) == "exists" || first == "execute"), last == "command" && (word(-2) == "execute" || word(-2) == "spawn"),
			len(toks) == 1 && first == "IDENT" && (strings.HasPrefix(toks[0].Text, "send websocket message") || strings.HasPrefix(toks[0].Text, "broadcast websocket message")),
			len(toks) == 2 && (first == "with" || first == "and") && toks[1].Text == "method":
			// `write content TEXT into F`, `write line TEXT to S`, `and
			// content_type TEXT`, `replace A with B in TEXT`, `find P in
			// TEXT`, `split TEXT by …`, `file exists at PATH`, `execute
			// file at PATH`, `execute command TEXT`, `send websocket
			// message TEXT`, an open url's `with method TEXT`
			p.wants, p.strict = []*types.Type{types.Text}, true
		case first == "write" && last == "to":
			// `write line|chunk TEXT to STREAM`: one `start streaming
			// response` made
			p.wants, p.strict = []*types.Type{types.NewCustom("ResponseStream")}, true
			p.madeBy = func(n ast.Node) bool { _, ok := n.(*ast.StartStreamStmt); return ok }
		case first == "expect" && last == "IDENT" && toks[len(toks)-1].Text == "length",
			(first == "respond" || first == "start") && last == "status", first == "wait" && last == "for" && len(toks) == 2, last == "timeout":
			// `to have length N`, `and status N` (of a response or a
			// streaming one), `with timeout N`; `wait
			// for N milliseconds` (or `wait for request …`, a statement's
			// word)
			p.wants, p.strict = []*types.Type{types.Number}, first != "wait" || last == "timeout"
			p.noNames = first == "expect"
		case first == "store" && last == "as" && len(toks) == 3 && toks[1].Kind == token.Identifier && a.Info != nil:
			// `store PROP as …` in a container's action sets its property.
			if t := containerProperty(a, toks[1].Text, prefixStart); core.Known(t) && t.Kind != types.KAny && !declaredBefore(a, toks[1].Text, lineStart) {
				p.wants, p.strict = []*types.Type{t}, true
			}
		case first == "respond" && last == "to":
			p.wants = []*types.Type{types.NewCustom("Request")} // the request answered
		case last == "into" && (first == "write" || first == "wait" && (word(2) == "write" || word(2) == "append")):
			// `write content E into T`, `wait for write|append content E
			// into T`: a file or a path
			p.wants, p.strict = []*types.Type{types.NewCustom("File"), types.Text}, true
		case first == "close" && last == "file":
			p.wants = []*types.Type{types.NewCustom("File")}
		case first == "close" && len(toks) == 1:
			// `close F`: a file, a stream, or a path
			p.wants, p.strict = []*types.Type{types.NewCustom("File"), types.NewCustom("HttpStream"), types.NewCustom("ResponseStream"), types.Text}, true
		case last == "matches" || last == "find" || last == "pattern" && len(toks) >= 2 && word(-2) == "on":
			p.wants, p.strict = []*types.Type{types.Pattern}, true
		}
		switch last {
		case "[":
			// An index: a position in a list or a text, a key of a map.
			if n := len(toks); n >= 2 {
				switch t := typeOfToken(a, toks[n-2], prefixStart); {
				case t == nil:
				case t.Kind == types.KList || t.Kind == types.KText:
					p.wants, p.strict = []*types.Type{types.Number}, true
				case t.Kind == types.KMap && core.Known(t.Key):
					p.wants, p.strict = []*types.Type{t.Key}, true
				case t.Kind == types.KCustom && t.Name == "HttpStream":
					p.wants, p.strict = []*types.Type{types.Text}, true // a field's name
				}
			}
		case "plus":
			// Numbers add; a text joins anything.
			p.wants, p.strict = []*types.Type{types.Number, types.Text}, true
			if n := len(toks); n >= 2 {
				if t := typeOfToken(a, toks[n-2], prefixStart); t != nil && t.Kind == types.KNumber {
					p.wants = []*types.Type{types.Number}
				}
			}
		case "minus", "times", "divided by", "by", "%", "/", "modulo":
			if first != "count" || last != "by" {
				p.wants, p.strict = []*types.Type{types.Number}, true
			}
		case "of", "and", ",", "with", "(":
			if n := len(toks); last == "with" && n >= 3 && (word(-3) == "execute" || toks[n-2].Kind == token.Identifier && strings.HasPrefix(toks[n-2].Text, "query ")) {
				// `execute db with …`, `query db with …`: the statement's text.
				p.wants, p.strict = []*types.Type{types.Text}, true
				break
			}
			// An argument of a call: the types its parameter takes.
			if c, ok := innermostCall(toks); ok {
				if ws, strict := paramTypes(a, c, prefixStart); len(ws) > 0 {
					p.wants, p.strict = ws, strict
				}
			}
		}
	}
	if p.slot == slotValue || p.slot == slotTarget {
		followedBy(a, &p, first, last, prefixStart)
	}
	return p
}

// followedBy narrows what a value at place p wants by what the line holds
// after it, when the cursor is not at its end (a name replaced in a line
// already written): `change ‸ to 3` changes a number, `‸ is greater than
// 0` and `‸ minus 1` are numbers, `‸[0]` is a list or a text, `‸["k"]` a
// map, `‸.area()` an instance of a container with that member; before a
// name, a name would join it into one (`display "a" ‸ b`); before `with`,
// a name would be called. first and last spell the line's first token and
// the one before the cursor; prefixStart is where the word typed starts.
func followedBy(a *core.Analysis, p *place, first, last string, prefixStart int) {
	rest := a.LineTokens(prefixStart, a.Lines.LineEnd(a.Lines.Line(prefixStart)))
	if len(rest) > 0 && rest[0].Start == prefixStart && rest[0].Kind == token.Identifier {
		rest = rest[1:] // the word being typed
	}
	if n := len(rest); n > 0 && rest[n-1].Kind == token.Colon {
		rest = rest[:n-1] // a block's header
		if n == 1 && p.slot == slotValue && slices.ContainsFunc(p.wants, func(t *types.Type) bool { return t.Kind == types.KBoolean }) {
			// `check if ‸:`: the value is the whole condition, no
			// comparison's first operand.
			p.wants, p.strict = []*types.Type{types.Boolean}, true
		}
	}
	if len(rest) == 0 || a.Info == nil {
		return
	}
	next := func(i int) token.Kind {
		if i < len(rest) {
			return rest[i].Kind
		}
		return token.EOF
	}
	number := []*types.Type{types.Number}
	switch k := next(0); {
	case p.slot == slotTarget && first == "change" && k == token.KeywordTo && len(rest) > 1:
		if t := literalType(a, rest[1], prefixStart); core.Known(t) {
			p.wants = []*types.Type{t} // what it is changed to
		}
	case p.slot == slotTarget:
	case first == "add" && k == token.KeywordTo && len(rest) > 1:
		// `add ‸ to N` adds a number, `add ‸ to L` an item of L.
		switch t := literalType(a, rest[1], prefixStart); {
		case t == nil:
		case t.Kind == types.KNumber:
			p.wants, p.strict = number, true
		case t.Kind == types.KList && core.Known(t.Elem):
			p.wants, p.strict = []*types.Type{t.Elem}, true
		}
	case k == token.LeftBracket:
		// An index follows: a list or a text by position, a map by key.
		switch next(1) {
		case token.StringLiteral:
			p.wants = []*types.Type{types.NewMap(types.Any, types.Any), types.NewCustom("HttpStream")}
		default:
			p.wants = []*types.Type{types.NewList(types.Any), types.Text, types.NewMap(types.Any, types.Any)}
		}
		p.strict = true
	case k == token.Dot && next(1) == token.Identifier:
		// A member follows: an instance of a container that has it.
		var ws []*types.Type
		for name, c := range a.Info.Containers {
			for b, n := c, 0; b != nil && n < 64; b, n = b.Base(), n+1 {
				if m := b.Members()[rest[1].Text]; m != nil {
					ws = append(ws, types.NewInstance(name))
					break
				}
			}
		}
		if len(ws) > 0 {
			p.wants, p.strict = ws, true
		}
	case k == token.KeywordIs && (next(1) == token.KeywordGreater || next(1) == token.KeywordLess || next(1) == token.KeywordAbove ||
		next(1) == token.KeywordBelow || next(1) == token.KeywordBetween),
		k == token.KeywordMinus || k == token.Minus || k == token.KeywordTimes || k == token.KeywordDivided ||
			k == token.KeywordModulo || k == token.KeywordDividedBy || k == token.Slash || k == token.Percent,
		first == "wait" && k == token.KeywordMilliseconds:
		p.wants, p.strict = number, true // an order or arithmetic: a number
		if k == token.KeywordIs && len(rest) > 3 && (next(2) == token.KeywordThan || next(2) == token.KeywordOr) {
			// `‸ is less than d`: of d's type, when it is a date or a time
			if t := literalType(a, rest[len(rest)-1], prefixStart); t != nil && (t.Kind == types.KDate || t.Kind == types.KTime || t.Kind == types.KDateTime) {
				p.wants = []*types.Type{t}
			}
		}
	case k == token.Plus || k == token.KeywordPlus:
		p.wants, p.strict = []*types.Type{types.Number, types.Text}, true // numbers add, a text joins
	case k == token.KeywordMatches:
		p.wants, p.strict = []*types.Type{types.Text}, true // what a pattern matches
	case k == token.KeywordIs && len(rest) == 2:
		// `‸ is V`: those of V's type first (values of others compare
		// too: unequal)
		if t := literalType(a, rest[1], prefixStart); t != nil && (t.Kind == types.KText || t.Kind == types.KNumber || t.Kind == types.KBoolean) {
			p.wants, p.strict = []*types.Type{t}, false
		}
	case k == token.KeywordWith && p.slot == slotValue && first != "call" && last != "with":
		// (After a `with` that joins, `a with b with c`, a name is not called.)
		p.callee = true
	case k == token.Identifier && p.slot == slotValue:
		// `display "a" ‸ b`: a name would join b, a word that takes a
		// value (`call`, `not`) would take it.
		p.noNames, p.beforeName = true, true
	}
}

// lastIndex returns the index of the last token of kind k in toks, or -1.
func lastIndex(toks []token.Token, k token.Kind) int {
	for i := len(toks) - 1; i >= 0; i-- {
		if toks[i].Kind == k {
			return i
		}
	}
	return -1
}

// literalType returns the type of the value a token is (a literal, a
// variable seen at offset), or nil.
func literalType(a *core.Analysis, t token.Token, offset int) *types.Type {
	switch t.Kind {
	case token.BooleanLiteral:
		return types.Boolean
	case token.NothingLiteral:
		return types.Nothing
	}
	return typeOfToken(a, t, offset)
}

// clauseWords returns the words that may come next where a statement's
// grammar takes one of a few words of its own (`open file at P for
// reading`, `wait for process P to complete`, `expect X to have length`,
// `respond … and status`), or nil elsewhere. word spells a token of toks
// as placeAt does.
func clauseWords(toks []token.Token, first, last string, word func(int) string) []Item {
	switch {
	case first == "open" && last == "for" && hasWord(toks, token.KeywordFile):
		return openModes()
	case first == "wait" && last == "to" && word(2) == "process":
		return completeWord()
	case first == "expect" && last == "of" && word(-2) == "be":
		return typeWord()
	case first == "expect" && last == "have":
		return lengthWord()
	case first == "on" && len(toks) == 1:
		return socketEvents()
	case first == "respond" && last == "and" && hasWord(toks, token.KeywordWith):
		return respondClauses()
	case first == "write" && len(toks) == 1:
		return writeWords()
	case first == "in" && len(toks) == 1:
		return transactionWord() // `in transaction on DB:`
	case first == "listen" && last == "for" && len(toks) == 2:
		return websocketsWord() // `listen for websockets on port N as S`
	case first == "wait" && len(toks) == 3 && (toks[2].Kind == token.IntLiteral || toks[2].Kind == token.FloatLiteral):
		return timeUnits() // `wait for N milliseconds`
	case first == "start" && last == "content":
		return typeWord()
	case first == "expect" && last == "IDENT" && toks[len(toks)-1].Text == "type" && word(-2) == "of":
		return typeNames()
	}
	return nil
}

var (
	openModes      = sync.OnceValue(func() []Item { return keywordItems("reading", "writing", "appending", "append") })
	completeWord   = sync.OnceValue(func() []Item { return keywordItems("complete") })
	typeWord       = sync.OnceValue(func() []Item { return keywordItems("type") })
	lengthWord     = sync.OnceValue(func() []Item { return keywordItems("length") })
	socketEvents   = sync.OnceValue(func() []Item { return keywordItems("websocket message", "websocket connect", "websocket disconnect") })
	respondClauses = sync.OnceValue(func() []Item { return keywordItems("status", "content_type", "headers") })
	// respondTextClauses are respondClauses where a text follows.
	respondTextClauses = sync.OnceValue(func() []Item { return keywordItems("content_type", "status", "headers") })
	transactionWord    = sync.OnceValue(func() []Item { return keywordItems("transaction") })
	websocketsWord     = sync.OnceValue(func() []Item { return keywordItems("websockets") })
	timeUnits          = sync.OnceValue(func() []Item { return keywordItems("milliseconds", "seconds") })
	writeWords         = sync.OnceValue(func() []Item { return keywordItems("line", "chunk", "content") })
	requestClauses     = sync.OnceValue(func() []Item { return keywordItems("headers", "body", "method", "read") })
	// typeNames are the names of types as `expect X to be of type` takes
	// them: texts.
	typeNames = sync.OnceValue(func() []Item {
		var out []Item
		for _, n := range []string{"Text", "Number", "Boolean", "List", "Map", "Nothing"} {
			out = append(out, Item{Label: `"` + n + `"`, Kind: Constant, Insert: `"` + n + `"`})
		}
		return out
	})
)

// valueClause reports whether the identifier that ends toks is a clause's
// word a value follows rather than a value (`write line|chunk TEXT`,
// `respond … and content_type TEXT`, `expect X to have length N`).
func valueClause(toks []token.Token, first string, word func(int) string) bool {
	n := len(toks)
	w := toks[n-1].Text
	switch {
	case first == "write" && n == 2:
		return w == "line" || w == "chunk"
	case first == "respond":
		return word(-2) == "and" && (w == "content_type" || w == "content type")
	case first == "start":
		return word(-2) == "content" && w == "type"
	case first == "expect":
		return word(-2) == "have" && w == "length"
	case (first == "with" || first == "and") && n == 2:
		return w == "method" // an open url's clause
	case first == "IDENT" && n == 1:
		return strings.HasPrefix(w, "send websocket message") || strings.HasPrefix(w, "broadcast websocket message")
	}
	return false
}

// patternCount reports whether toks, a line of a pattern's body, end
// where the pattern takes a count (`exactly`, `at least`, `at most`,
// `between`, or `N to` of a range).
func patternCount(toks []token.Token) bool {
	n := len(toks)
	switch toks[n-1].Kind {
	case token.KeywordExactly, token.KeywordLeast, token.KeywordMost, token.KeywordBetween:
		return true
	case token.KeywordTo, token.KeywordAnd:
		return n >= 2 && toks[n-2].Kind == token.IntLiteral
	}
	return false
}

// patternBody reports whether the line at lineStart is in the body of a
// pattern the tree does not hold it in (one being typed, whose `end
// pattern` is missing): the nearest line above it that is less indented
// is a `create pattern NAME:` header.
func patternBody(a *core.Analysis, lineStart int) bool {
	for k := 0; k < 64; k++ {
		code, at := headerLineAbove(a, lineStart)
		if !strings.HasSuffix(code, "{") {
			return strings.HasPrefix(code, "create pattern ") && strings.HasSuffix(code, ":")
		}
		lineStart = at // a group's body (`capture {`): the pattern's is further up
	}
	return false
}

// headerAbove returns the words of the nearest line above the one at
// lineStart that is less indented (the header of the block the line is
// in, as the text is laid out), or "" for a line at the first column.
func headerAbove(a *core.Analysis, lineStart int) string {
	code, _ := headerLineAbove(a, lineStart)
	return code
}

// headerLineAbove is headerAbove, with where that line starts.
func headerLineAbove(a *core.Analysis, lineStart int) (string, int) {
	text := a.Lines.Text()
	l := a.Lines.Line(lineStart)
	line := text[lineStart:a.Lines.LineEnd(l)]
	in := len(line) - len(strings.TrimLeft(line, " \t"))
	if in == 0 {
		return "", lineStart
	}
	for l--; l >= 0; l-- {
		from := a.Lines.LineStart(l)
		prev := text[from:a.Lines.LineEnd(l)]
		code := strings.TrimSpace(prev)
		if code == "" || len(prev)-len(strings.TrimLeft(prev, " \t")) >= in {
			continue
		}
		return code, from
	}
	return "", lineStart
}

// typeOfToken returns the type of the value a token is (a literal, or a
// variable seen at offset), or nil.
func typeOfToken(a *core.Analysis, t token.Token, offset int) *types.Type {
	switch t.Kind {
	case token.IntLiteral, token.FloatLiteral:
		return types.Number
	case token.StringLiteral:
		return types.Text
	}
	if t.Kind == token.Identifier || t.Kind.IsKeyword() {
		return typeOfName(a, []token.Token{t}, offset)
	}
	return nil
}

// propertyType returns the type of the property name of the container
// called container (an instance's), or nil.
func propertyType(a *core.Analysis, container, name string) *types.Type {
	if container == "" || a.Info == nil {
		return nil
	}
	c := a.Info.Containers[container]
	if c == nil {
		if s := a.Info.Global.Resolve(container); s != nil && s.Kind == check.SymContainer {
			c = s
		}
	}
	for k := 0; c != nil && k < 64; c, k = c.Base(), k+1 {
		if m := c.Members()[name]; m != nil && m.Kind == check.SymProperty {
			return m.Type
		}
	}
	return nil
}

// typeOfName returns the type of the variable the tokens name, seen at
// offset, or nil.
func typeOfName(a *core.Analysis, toks []token.Token, offset int) *types.Type {
	if len(toks) != 1 || a.Info == nil {
		return nil
	}
	sc := a.Info.ScopeAt(offset)
	if t := toks[0]; t.Kind.IsKeyword() {
		// A variable may be spelled as a word the grammar knows where
		// the grammar does not read it (`store text as …`, then
		// `contains of text and …`).
		if sym := sc.Resolve(a.Lines.Text()[t.Start:t.End]); sym != nil && sym.Kind == check.SymVariable {
			return sym.Type
		}
		return nil
	}
	if toks[0].Kind != token.Identifier {
		return nil
	}
	if sym := sc.Resolve(toks[0].Text); sym != nil {
		return sym.Type
	}
	if t := containerProperty(a, toks[0].Text, offset); t != nil || !a.InBadStatement(offset) {
		return t
	}
	return propertyAbove(a, toks[0].Text, offset)
}

// propertyAbove returns the declared type of the property called name of
// the container whose body holds offset's line, read in the text by the
// layout (the line broke the container: the analysis has no scope of it),
// or of the containers it extends; nil when none declares it with a type
// of one word.
func propertyAbove(a *core.Analysis, name string, offset int) *types.Type {
	text := a.Lines.Text()
	lineAt := func(l int) (code string, indent int) {
		line := text[a.Lines.LineStart(l):a.Lines.LineEnd(l)]
		code = strings.TrimSpace(line)
		return code, len(line) - len(strings.TrimLeft(line, " \t"))
	}
	l := a.Lines.Line(offset)
	_, in := lineAt(l)
	header := -1 // the line of the container's header
	for k := l - 1; k >= 0 && in > 0; k-- {
		code, ind := lineAt(k)
		if code == "" || strings.HasPrefix(code, "//") || ind >= in {
			continue
		}
		if strings.HasPrefix(code, "create container ") {
			header = k
			break
		}
		in = ind // a block around the line, inside the container
	}
	for n := 0; header >= 0 && n < 64; n++ {
		code, ind := lineAt(header)
		for k := header + 1; k < a.Lines.Count(); k++ {
			c, i := lineAt(k)
			if c == "" || strings.HasPrefix(c, "//") {
				continue
			}
			if i <= ind {
				break
			}
			if decl, ok := strings.CutPrefix(c, "property "); ok {
				prop, typ, ok := strings.Cut(decl, ":")
				if w := strings.Fields(typ); ok && strings.TrimSpace(prop) == name && len(w) > 0 && (len(w) == 1 || w[1] == "defaults") {
					return types.FromAnnotation(w[0])
				}
			}
		}
		// The container it extends, declared at the top level.
		_, base, _ := strings.Cut(strings.TrimSuffix(code, ":"), " extends ")
		f := strings.Fields(base)
		if len(f) == 0 {
			return nil
		}
		header = -1
		for k := 0; k < a.Lines.Count(); k++ {
			if c, i := lineAt(k); i == 0 && (strings.HasPrefix(c, "create container "+f[0]+" ") || strings.HasPrefix(c, "create container "+f[0]+":")) {
				header = k
				break
			}
		}
	}
	return nil
}

// declaredBefore reports whether a name is declared in the scope at
// offset before it (not by the statement there).
func declaredBefore(a *core.Analysis, name string, offset int) bool {
	sym := a.Info.ScopeAt(offset).Resolve(name)
	return sym != nil && sym.Kind != check.SymProperty && (sym.Decl.End == 0 || sym.From() != "" || sym.Decl.Start < offset)
}

// containerProperty returns the type of the property called name of the
// container whose action is at offset, or nil.
func containerProperty(a *core.Analysis, name string, offset int) *types.Type {
	for sc := a.Info.ScopeAt(offset); sc != nil; sc = sc.Parent {
		for c, k := sc.Container(), 0; c != nil && k < 64; c, k = c.Base(), k+1 {
			if m := c.Members()[name]; m != nil && m.Kind == check.SymProperty {
				return m.Type
			}
		}
	}
	return nil
}

// indexable reports whether a value of type t is read by position (`L at
// 0`): a list or a text.
func indexable(t *types.Type) bool {
	return t != nil && (t.Kind == types.KList || t.Kind == types.KText)
}

// nextKind returns the kind of the first token after offset on its line
// (the word being typed at offset left out), or EOF.
func nextKind(a *core.Analysis, offset int) token.Kind {
	rest := a.LineTokens(offset, a.Lines.LineEnd(a.Lines.Line(offset)))
	if len(rest) > 0 && rest[0].Start == offset && rest[0].Kind == token.Identifier {
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return token.EOF
	}
	return rest[0].Kind
}

// paramTypes returns the types the argument the cursor is on may have in
// the call c (a builtin's, any of its signatures with that many
// parameters; an action's, those its versions declare), and whether a
// value of another type is a TYPE error there; none when not known.
func paramTypes(a *core.Analysis, c openCall, offset int) ([]*types.Type, bool) {
	if a.Info == nil {
		return nil, false
	}
	var out []*types.Type
	sym := a.Info.ScopeAt(offset).Resolve(c.name)
	if c.method {
		sym = methodNamed(a, c) // `obj.m(…)`: the container's action
		if sym == nil {
			return nil, false
		}
	}
	if sym != nil && (sym.Kind == check.SymAction || sym.Kind == check.SymMethod) {
		for _, d := range sym.Versions() {
			if c.args >= len(d.Params) || d.Params[c.args].Name == nil {
				return nil, false // a version that takes any value there
			}
			ps := a.Info.Defs[d.Params[c.args].Name]
			if ps == nil || !core.Known(ps.Type) || ps.Type.Kind == types.KAny {
				return nil, false
			}
			t := ps.Type
			if t.Kind == types.KCustom && a.Info.Containers[t.Name] != nil {
				t = types.NewInstance(t.Name) // `needs task: Task` takes Task's instances
			}
			out = append(out, t)
		}
		return out, c.method // a method's typed parameter takes nothing else
	}
	b := builtins.Lookup(c.name)
	if b == nil {
		return nil, false
	}
	var t0 *types.Type // the first argument's, when the cursor is past it
	if c.args > 0 && len(c.first) == 1 {
		t0 = typeOfToken(a, c.first[0], offset)
	}
	for _, s := range b.Signatures {
		if core.Known(t0) && len(s.Params) > 0 && !types.BuiltinCompatible(s.Params[0].Type, t0) {
			continue // `contains of TEXT and …`: the version for a text
		}
		if c.args < len(s.Params) {
			t := s.Params[c.args].Type
			if !core.Known(t) || t.Kind == types.KAny {
				return nil, false
			}
			out = append(out, t)
		}
	}
	return out, true
}

// afterPatternElement reports whether t, the last token before the cursor
// in a pattern's body (spelled text), ends an element: what follows joins it to the next
// (`or`, `then`, `followed by`) or repeats it (`exactly`, `between`).
func afterPatternElement(t token.Token, text string) bool {
	switch strings.ToLower(text) {
	case "digit", "letter", "whitespace", "character", "letters", "digits":
		return true
	case "one", "zero", "more", "optional", "exactly", "at", "least", "most", "capture", "same", "captured",
		"check", "not", "ahead", "behind", "for", "unicode", "category", "script", "any", "start", "then",
		"followed", "by", "or", "of", "to", "between", "and", "as":
		return false
	}
	switch t.Kind {
	case token.StringLiteral, token.RightParen, token.RightBrace, token.Identifier:
		return true // a literal, a group, a list of texts
	}
	return false
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

// blockAt returns the innermost statement around offset that holds lines
// of its own (a container, a `create new`, a loop, a try, …), or nil at the
// top level.
func blockAt(a *core.Analysis, offset int) ast.Node {
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

// blockWithoutLine returns blockAt(offset) in the text parsed again with
// the line from lineStart emptied after its indentation.
func blockWithoutLine(a *core.Analysis, lineStart, offset int) ast.Node {
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
	if b := blockAt((&core.Analysis{Syntax: core.Syntax{File: a.ParseWithout(indent, end)}}), min(offset, indent)); b != nil {
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
		return blockAt((&core.Analysis{Syntax: core.Syntax{File: f}}), len(header)+3)
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

// layoutEnds tells, in a tree read around a parse error, which places
// above the cursor are in a block whose layout ended before the cursor's
// line: a later line, up to the cursor's, starts left of them. Such a
// block's names are not in scope at the cursor, whatever the tree the
// error left says. It reads the text's lines (a partial analysis has the
// tokens and the tree of a few statements only) up from the cursor's
// once, as far as it is asked, and no more than maxLayoutLines.
type layoutEnds struct {
	a    *core.Analysis
	line int   // the cursor's line
	mins []int // mins[k]: the least indentation of the lines line-k … line
}

// maxLayoutLines bounds how far up layoutEnds reads.
const maxLayoutLines = 2000

// newLayoutEnds returns the layoutEnds of the cursor at offset when its
// line, read alone, does not parse (a block's header left open aside), or
// nil. (The line alone, not the tree: a partial analysis's tree holds the
// statements around the line otherwise than the full one's.)
func newLayoutEnds(a *core.Analysis, offset int) *layoutEnds {
	l := a.Lines.Line(offset)
	from, to := a.Lines.LineStart(l), a.Lines.LineEnd(l)
	_, diags := parser.Parse(strings.TrimLeft(a.Lines.Text()[from:to], " \t"))
	if !slices.ContainsFunc(diags, func(d diag.Diagnostic) bool {
		return d.Severity == diag.Error && d.Kind != diag.Unclosed
	}) {
		return nil
	}
	// The cursor's line: from its first word, or from the cursor.
	in, ok := indentOf(a.Lines.Text()[from:offset])
	if !ok {
		in = offset - from
	}
	return &layoutEnds{a: a, line: l, mins: []int{in}}
}

// before reports whether the place at offset, above the cursor's line, is
// in a block the layout ended before the cursor's line.
func (e *layoutEnds) before(offset int) bool {
	l := e.a.Lines.Line(offset)
	k := e.line - l // lines l+1 … line must all be at its indentation or right of it
	if k <= 0 || k > maxLayoutLines {
		return false
	}
	for len(e.mins) < k {
		m := e.mins[len(e.mins)-1]
		if in, ok := e.indent(e.line - len(e.mins)); ok {
			m = min(m, in)
		}
		e.mins = append(e.mins, m)
	}
	in, ok := e.indent(l)
	return ok && in > 0 && e.mins[k-1] < in
}

// indent returns the indentation of line l, and whether it holds code (a
// line blank or a comment's has none).
func (e *layoutEnds) indent(l int) (int, bool) {
	return indentOf(e.a.Lines.Text()[e.a.Lines.LineStart(l):e.a.Lines.LineEnd(l)])
}

// indentOf returns the indentation of a line's text, and whether it holds
// code.
func indentOf(line string) (int, bool) {
	code := strings.TrimLeft(line, " \t")
	if t := strings.TrimSpace(code); t == "" || strings.HasPrefix(t, "//") || strings.HasPrefix(t, "#") {
		return 0, false
	}
	return len(line) - len(code), true
}
