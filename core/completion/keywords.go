package completion

// This file holds WFL's words as completion offers them and hover explains
// them: the statements (each with its form and what it does), the words a
// block takes (a container's members, a test group's tests, a block's
// closer), the phrases that continue a value, and the type names.

import (
	"io/fs"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"wfl-lsp/core"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
	"wfl-lsp/lang/types"
)

// A wordDoc is a phrase's form and what it does.
type wordDoc struct {
	label string // what completion inserts (and shows)
	form  string // the statement's shape
	doc   string
}

// statements are the statements of WFL, by the words they start with.
var statements = []wordDoc{
	{"store", "store NAME as VALUE", "Declares a variable and gives it a value. A name is declared once in its scope: use `change` to give it another."},
	{"store new constant", "store new constant NAME as VALUE", "Declares a constant: a name whose value never changes."},
	{"create", "create NAME as VALUE", "Declares a variable, like `store`."},
	{"create container", "create container NAME [extends PARENT] [implements INTERFACE, …]: … end", "Declares a container (a class): its properties, actions and events, up to `end`."},
	{"create interface", "create interface NAME [extends OTHER, …]: requires action … end", "Declares an interface: the actions a container that implements it must have."},
	{"create new", "create new CONTAINER as NAME: PROPERTY is VALUE … end", "Makes an instance of a container and sets its properties."},
	{"create list", "create list NAME: add VALUE … end list", "Declares a list with its first items."},
	{"create map", "create map NAME: KEY is VALUE … end map", "Declares a map with its first entries."},
	{"create pattern", "create pattern NAME: … end pattern", "Declares a text pattern in WFL's pattern language."},
	{"create date", "create date NAME [as VALUE]", "Declares a date (today unless a value is given)."},
	{"create time", "create time NAME [as VALUE]", "Declares a time (now unless a value is given)."},
	{"create directory at", "create directory at PATH", "Creates a folder."},
	{"create file at", "create file at PATH with TEXT", "Creates a file with the given text."},
	{"display", "display VALUE [VALUE …]", "Prints values, joined, followed by a line break."},
	{"check if", "check if CONDITION: … [otherwise: …] end check", "Runs the block when the condition holds, else the `otherwise` block."},
	{"if", "if CONDITION then … [otherwise …] end if", "Runs the statements when the condition holds."},
	{"count from", "count from A to B [by STEP] [as NAME]: … end count", "Repeats the block for each number from A to B; the number is `count` unless named."},
	{"for each", "for each NAME in LIST: … end for", "Runs the block once for each item of a list (or value of a map)."},
	{"route", "route VALUE: when CASE: … [otherwise: …] end route", "Runs the block of the first case the value matches."},
	{"define action called", "define action called NAME [with parameters P [as TYPE] and …]: [TYPE:] … end action", "Declares an action (a function). Versions with other parameters overload it."},
	{"change", "change NAME to VALUE", "Gives an existing variable a new value."},
	{"add", "add VALUE to NAME", "Appends to a list, or adds to a number."},
	{"subtract", "subtract VALUE from NAME", "Subtracts from a number variable."},
	{"multiply", "multiply NAME by VALUE", "Multiplies a number variable."},
	{"divide", "divide NAME by VALUE", "Divides a number variable."},
	{"remove", "remove VALUE from LIST", "Removes a value from a list."},
	{"clear", "clear LIST [list]", "Empties a list."},
	{"push with", "push with LIST and VALUE", "Appends a value to a list."},
	{"try", "try: … when error: … [otherwise: …] [finally: …] end try", "Runs the block and handles the errors it raises; the message is `error` in a handler."},
	{"repeat while", "repeat while CONDITION: … end repeat", "Repeats the block while the condition holds."},
	{"repeat until", "repeat until CONDITION: … end repeat", "Repeats the block until the condition holds."},
	{"repeat forever", "repeat forever: … end repeat", "Repeats the block until `break` or `exit`."},
	{"main loop", "main loop [concurrently]: … end loop", "The loop of a server: handles requests for ever."},
	{"break", "break", "Leaves the innermost loop."},
	{"continue", "continue", "Goes on with the next round of the innermost loop."},
	{"skip", "skip", "Goes on with the next round of the innermost loop."},
	{"exit", "exit [loop | program]", "Leaves the loop, or ends the program."},
	{"call", "call ACTION [with ARGUMENT and …]", "Runs an action with arguments; `NAME: VALUE` names an argument."},
	{"return", "return [VALUE]", "Ends the action, giving back a value."},
	{"give back", "give back [VALUE]", "Ends the action, giving back a value."},
	{"event", "event NAME", "Declares an event that `trigger` raises."},
	{"trigger", "trigger EVENT", "Raises an event."},
	{"open file at", "open file at PATH [for reading|writing|appending] as NAME", "Opens a file; `open file at PATH and read content as NAME` reads it whole."},
	{"open url at", "open url at URL [with method M] [and headers H] [and body B] and read content as NAME", "Makes an HTTP request."},
	{"open database at", "open database at URL as NAME", "Connects to a database."},
	{"close file", "close file HANDLE", "Closes a file opened with `open file`."},
	{"close server", "close server SERVER", "Stops a server started with `listen`."},
	{"close database", "close database HANDLE", "Closes a database connection."},
	{"write content", "write content TEXT into FILE", "Writes text into an open file."},
	{"delete file at", "delete file at PATH", "Deletes a file."},
	{"delete directory at", "delete directory at PATH", "Deletes a folder."},
	{"execute command", "execute command COMMAND [with arguments LIST] [using shell] [as NAME]", "Runs a command and waits for it."},
	{"spawn command", "spawn command COMMAND [with arguments LIST] as NAME", "Starts a command without waiting for it."},
	{"read output from process", "read output from process PROCESS as NAME", "Reads what a spawned process printed."},
	{"kill process", "kill process PROCESS", "Stops a spawned process."},
	{"wait for", "wait for STATEMENT | wait for N milliseconds | wait for request … as NAME", "Waits for a file operation, a process, a request or a duration."},
	{"listen on port", "listen on port N [secured with certificate C and key K] as NAME", "Starts a web server."},
	{"respond to", "respond to REQUEST with CONTENT [and status N] [and content_type T] [and headers H]", "Answers a web request."},
	{"start streaming response to", "start streaming response to REQUEST [with status N] as NAME", "Starts answering a request in pieces (`write line`, `flush`)."},
	{"register signal handler for", "register signal handler for SIGNAL as ACTION", "Runs an action when the process gets a signal."},
	{"stop accepting connections on", "stop accepting connections on SERVER", "Stops a server from taking new connections."},
	{"in transaction on", "in transaction on DATABASE: … end transaction", "Runs the block in a database transaction."},
	{"include from", "include from \"FILE\"", "Runs another WFL file here, sharing its definitions with this one."},
	{"load module from", "load module from \"FILE\"", "Runs another WFL file in a scope of its own."},
	{"export", "export action|container|constant NAME", "Makes a definition available to the files that load this one."},
	{"describe", "describe \"SUBJECT\": … end describe", "Groups tests (`test`, `setup`, `teardown`)."},
	{"test", "test \"NAME\": … end test", "A test case; `expect` checks inside it."},
	{"expect", "expect VALUE to equal X | to be … | to contain X | to exist", "Checks a value inside a test."},
}

// statementWords lists the statements as completion items.
var statementWords = sync.OnceValue(func() []Item {
	out := make([]Item, len(statements))
	for i, w := range statements {
		out[i] = Item{Label: w.label, Kind: Keyword, Insert: w.label + " ", Detail: w.form, Doc: w.doc}
	}
	return out
})

func statementKeywords() []Item { return statementWords() }

// KeywordDocs gives, for each word that starts a statement or a clause,
// the form it takes and what it does (hover on a keyword).
var KeywordDocs = sync.OnceValue(func() map[string][2]string {
	m := map[string][2]string{}
	for _, w := range statements {
		first := strings.Fields(w.label)[0]
		if _, ok := m[first]; !ok || w.label == first {
			m[first] = [2]string{w.form, w.doc}
		}
	}
	for _, w := range clauses {
		m[w.label] = [2]string{w.form, w.doc}
	}
	return m
})

// clauses are words that continue a statement or shape a block.
var clauses = []wordDoc{
	{"otherwise", "otherwise: …", "The branch taken when the condition of `check if` (or every case of `route`) does not hold; in a `try`, when no handler matched."},
	{"when", "when error [as NAME]: … | when CASE: …", "Handles an error raised in a `try` block (the message is `error`), or a case of `route`."},
	{"catch", "catch [with NAME]: …", "Handles any error raised in a `try` block."},
	{"finally", "finally: …", "Runs after a `try` block, whether it raised an error or not."},
	{"end", "end check | end for | end action | end …", "Closes a block; containers, their actions, interfaces and `create new` close with a bare `end`."},
	{"property", "property NAME[: TYPE] [defaults VALUE]", "A property of a container."},
	{"action", "action NAME [needs P[: TYPE], …][: TYPE] … end", "An action of a container (a method); inside it the properties are plain names."},
	{"static", "static property … | static action …", "A member of the container itself rather than of its instances."},
	{"requires", "requires action NAME [needs P: TYPE, …][: TYPE]", "An action every container that implements the interface must have."},
	{"setup", "setup: … end setup", "Runs before each test of a `describe`."},
	{"teardown", "teardown: … end teardown", "Runs after each test of a `describe`."},
	{"with", "VALUE with VALUE", "Joins values as text; after `call NAME`, gives the arguments."},
	{"of", "ACTION of ARGUMENT and …", "Calls an action or builtin with arguments."},
	{"is", "VALUE is VALUE | is not | is greater than | is less than | is between A and B", "Compares values."},
	{"as", "… as NAME", "Names what a statement makes, or gives a parameter its type."},
	{"extends", "create container NAME extends PARENT", "Makes a container a kind of another: it has the parent's members."},
	{"implements", "create container NAME implements INTERFACE", "Promises that a container has the actions an interface requires."},
}

// blockWords returns the words of the block the cursor is in at offset:
// a container's members, a `create new`'s properties not set yet, an
// interface's requirements, a test group's tests, a list's items, and the
// words that close or continue the block.
func blockWords(a *core.Analysis, block ast.Node, offset int) []Item {
	kw := func(label string, insert ...string) Item {
		it := keywordItem(label)
		if len(insert) > 0 {
			it.Insert = insert[0]
		}
		return it
	}
	switch b := block.(type) {
	case *ast.ContainerDecl:
		return []Item{kw("property", "property "), kw("static property", "static property "),
			kw("action", "action "), kw("static action", "static action "), kw("event", "event "), kw("end")}
	case *ast.InterfaceDecl:
		return []Item{kw("requires action", "requires action "), kw("end")}
	case *ast.NewStmt:
		out := []Item{kw("end")}
		if b.Container == nil || a.Info == nil {
			return out
		}
		c := a.Info.Containers[b.Container.Name]
		if c == nil {
			if s := a.Info.Global.Resolve(b.Container.Name); s != nil && s.Kind == check.SymContainer {
				c = s
			}
		}
		set := map[string]bool{}
		for _, in := range b.Inits {
			if in.Name != nil && in.End() <= offset || in.Name != nil && in.Pos() > offset {
				set[in.Name.Name] = true
			}
		}
		for k, n := c, 0; k != nil && n < 64; k, n = k.Base(), n+1 {
			for name, m := range k.Members() {
				if m.Kind == check.SymProperty && !set[name] {
					set[name] = true
					it, _ := symbolItem(m)
					it.Insert = name + " is "
					out = append(out, it)
				}
			}
		}
		return out
	case *ast.CreateListStmt:
		return []Item{kw("add", "add "), kw("end list")}
	case *ast.CreateMapStmt:
		return []Item{kw("end map")}
	case *ast.DescribeStmt:
		return []Item{kw("test", "test "), kw("setup:"), kw("teardown:"), kw("describe", "describe "), kw("end describe")}
	case *ast.TryStmt:
		return []Item{kw("when error:"), kw("when error as", "when error as "), kw("catch:"), kw("otherwise:"), kw("finally:"), kw("end try")}
	case *ast.IfStmt:
		if b.Check {
			return []Item{kw("otherwise:"), kw("otherwise check if", "otherwise check if "), kw("end check")}
		}
		return []Item{kw("otherwise"), kw("end if")}
	case *ast.RouteStmt:
		return []Item{kw("when", "when "), kw("otherwise:"), kw("end route")}
	}
	if closer := closerOf(block); closer != "" {
		return []Item{kw(closer)}
	}
	return nil
}

// closed reports whether the block n ends with its closer in the text (not
// closed by the parser where its indentation ends, its closer missing).
func closed(a *core.Analysis, n ast.Node) bool {
	if a.Lines == nil || n == nil {
		return false
	}
	text := a.Lines.Text()
	if n.End() > len(text) || n.Pos() >= n.End() {
		return false
	}
	body := strings.TrimRight(text[n.Pos():n.End()], " \t\r\n")
	last := strings.TrimSpace(body[strings.LastIndexByte(body, '\n')+1:])
	return last == "end" || strings.HasPrefix(last, "end ")
}

// closers returns, for a line starting `end` at lineStart, the words that
// close the blocks open there, innermost first: `check` for a `check if`
// whose header is at the line's indentation, then those of the blocks
// around it. A block closed by a bare `end` (a container, its actions, an
// interface, `create new`) has none, and the blocks around it cannot be
// closed before it.
func closers(a *core.Analysis, lineStart int) []Item {
	text := a.Lines.Text()
	indent := func(line string) int { return len(line) - len(strings.TrimLeft(line, " \t")) }
	l := a.Lines.Line(lineStart)
	want := indent(text[lineStart:a.Lines.LineEnd(l)])
	var out []Item
	for l--; l >= 0 && want >= 0 && len(out) < 4; l-- {
		line := text[a.Lines.LineStart(l):a.Lines.LineEnd(l)]
		code := strings.TrimSpace(line)
		if code == "" || strings.HasPrefix(code, "//") || strings.HasPrefix(code, "#") {
			continue
		}
		in := indent(line)
		if in > want {
			continue // the body of the block
		}
		if in < want {
			break // out of the blocks at this indentation: none open here
		}
		first := strings.Fields(code)[0]
		switch first {
		case "otherwise", "when", "catch", "finally", "else":
			continue // a clause of the block, whose header is further up
		case "end":
			return out // the block at this indentation is closed
		}
		if !strings.HasSuffix(code, ":") {
			return out // a statement, not a header: no block open here
		}
		word := "pattern" // a pattern's body is not statements
		if !strings.HasPrefix(code, "create pattern ") {
			f, _ := parser.Parse(code + "\n    \nend\n")
			word = closerWord(blockAt((&core.Analysis{Syntax: core.Syntax{File: f}}), len(code)+3))
		}
		if word == "" {
			return out
		}
		it := keywordItem("end")
		it.Label, it.Insert, it.Detail = word, word, "end "+word
		out = append(out, it)
		want = in - 1 // the block around it: less indented
		// Its header is the nearest line less indented than this one.
		for l > 0 {
			prev := text[a.Lines.LineStart(l-1):a.Lines.LineEnd(l-1)]
			if c := strings.TrimSpace(prev); c != "" && !strings.HasPrefix(c, "//") && indent(prev) < in {
				want = indent(prev)
				break
			}
			l--
		}
	}
	return out
}

// closerWord returns the word after `end` that closes block n, or "" when
// it closes with a bare `end`.
func closerWord(n ast.Node) string {
	switch n := n.(type) {
	case *ast.IfStmt:
		if n.Check {
			return "check"
		}
		return "if"
	case *ast.TryStmt:
		return "try"
	case *ast.RouteStmt:
		return "route"
	case *ast.DescribeStmt:
		return "describe"
	case *ast.CreateListStmt:
		return "list"
	case *ast.CreateMapStmt:
		return "map"
	}
	w, _ := strings.CutPrefix(closerOf(n), "end ")
	if w == "end" {
		return ""
	}
	return w
}

// closerOf is the line that closes a block statement.
func closerOf(n ast.Node) string {
	switch n := n.(type) {
	case *ast.ActionDecl:
		if n.Method {
			return "end"
		}
		return "end action"
	case *ast.ForEachStmt:
		return "end for"
	case *ast.CountStmt:
		return "end count"
	case *ast.RepeatStmt:
		if n.Kind != ast.RepeatDoUntil {
			return "end repeat"
		}
	case *ast.MainLoopStmt:
		return "end loop"
	case *ast.TransactionStmt:
		return "end transaction"
	case *ast.WebSocketHandlerStmt:
		return "end on"
	case *ast.TestStmt:
		return "end test"
	case *ast.HookStmt:
		if n.Teardown {
			return "end teardown"
		}
		return "end setup"
	case *ast.PatternDecl:
		return "end pattern"
	}
	return ""
}

// keywordItem is a word or phrase as an item, with its documentation when
// it has one.
func keywordItem(label string) Item {
	it := Item{Label: label, Kind: Keyword, Insert: label}
	if d, ok := KeywordDocs()[strings.Fields(label)[0]]; ok {
		it.Detail, it.Doc = d[0], d[1]
	}
	return it
}

func keywordItems(labels ...string) []Item {
	out := make([]Item, len(labels))
	for i, l := range labels {
		out[i] = keywordItem(l)
	}
	return out
}

// valueWords are the words that start a value; the list is made once.
var valueWords = sync.OnceValue(func() []Item {
	return keywordItems("call", "not", "yes", "no", "nothing", "create list", "current time in milliseconds",
		"current time formatted as", "file exists at", "directory exists at", "read content from",
		"list files in", "pattern", "find", "replace", "split")
})

// wholeValueWords are the value words that take no value after them.
var wholeValueWords = sync.OnceValue(func() []Item {
	return keywordItems("yes", "no", "nothing", "current time in milliseconds")
})

// valueWordTypes returns the type of the value a value word gives, or nil
// when it is not known (`call`).
func valueWordTypes(label string) *types.Type {
	switch label {
	case "not", "yes", "no", "file exists at", "directory exists at":
		return types.Boolean
	case "nothing":
		return types.Nothing
	case "create list":
		return types.NewList(types.Unknown)
	case "current time in milliseconds":
		return types.Number
	case "current time formatted as", "read content from", "replace":
		return types.Text
	case "list files in", "split":
		return types.NewList(types.Text)
	case "pattern":
		return types.Pattern
	case "find":
		return types.NewOptional(types.NewMap(types.Text, types.Any))
	}
	return nil
}

// PatternWords are the elements a pattern's body is made of; the list is
// made once.
var PatternWords = sync.OnceValue(func() []Item {
	words := []wordDoc{
		{"digit", "digit", "One digit, 0 to 9."},
		{"letter", "letter", "One letter."},
		{"whitespace", "whitespace", "One space, tab or line break."},
		{"any letter", "any letter", "One letter."},
		{"any digit", "any digit", "One digit."},
		{"any whitespace", "any whitespace", "One whitespace character."},
		{"any character", "any character", "Any one character."},
		{"letters", "letters", "One or more letters."},
		{"digits", "digits", "One or more digits."},
		{"one or more", "one or more [of] ELEMENT", "The element, once or more."},
		{"zero or more", "zero or more [of] ELEMENT", "The element, any number of times."},
		{"optional", "optional ELEMENT", "The element, or nothing."},
		{"exactly", "exactly N [of] ELEMENT", "The element, N times."},
		{"at least", "at least N [of] ELEMENT", "The element, N times or more."},
		{"at most", "at most N [of] ELEMENT", "The element, up to N times."},
		{"start of text", "start of text", "The start of the text matched."},
		{"capture", "capture { … } as NAME", "Remembers what the elements in braces matched, under a name."},
		{"same as captured", "same as captured \"NAME\"", "What a capture matched, again."},
		{"check ahead for", "check [not] ahead for { … }", "Looks at what follows without matching it."},
		{"check behind for", "check [not] behind for { … }", "Looks at what comes before without matching it."},
		{"unicode letter", "unicode letter", "A letter of any script."},
		{"unicode digit", "unicode digit", "A digit of any script."},
		{"unicode category", "unicode category \"CATEGORY\"", "A character of a Unicode category."},
		{"unicode script", "unicode script \"SCRIPT\"", "A character of a Unicode script."},
	}
	out := make([]Item, len(words))
	for i, w := range words {
		out[i] = Item{Label: w.label, Kind: Keyword, Insert: w.label, Detail: w.form, Doc: w.doc}
	}
	return out
})

// patternJoiners are the words that follow an element of a pattern; the
// list is made once.
var patternJoiners = sync.OnceValue(func() []Item {
	words := []wordDoc{
		{"or", "ELEMENT or ELEMENT", "Either element."},
		{"then", "ELEMENT then ELEMENT", "One element after the other."},
		{"followed by", "ELEMENT followed by ELEMENT", "One element after the other."},
		{"exactly", "ELEMENT exactly N", "The element, N times."},
		{"between", "ELEMENT between N and M", "The element, N to M times."},
	}
	out := make([]Item, len(words))
	for i, w := range words {
		out[i] = Item{Label: w.label, Kind: Keyword, Insert: w.label, Detail: w.form, Doc: w.doc}
	}
	return out
})

// signalWords are the signals a handler can be registered for; the list is
// made once.
var signalWords = sync.OnceValue(func() []Item {
	var out []Item
	for _, n := range []string{"SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGCHLD", "SIGCONT", "SIGABRT"} {
		out = append(out, Item{Label: n, Kind: Constant, Insert: n, Detail: "signal"})
	}
	return out
})

// operatorWords are the words that continue a complete value; the list is
// made once.
var operatorWords = sync.OnceValue(func() []Item {
	return keywordItems("plus", "minus", "times", "divided by", "modulo", "with", "is", "is not",
		"is greater than", "is less than", "is greater than or equal to", "is less than or equal to",
		"is equal to", "is between", "and", "or", "contains", "matches", "of")
})

// isPhrases are the words that continue `is`; the list is made once.
var isPhrases = sync.OnceValue(func() []Item {
	return keywordItems("not", "not equal to", "equal to", "greater than", "less than", "greater than or equal to",
		"less than or equal to", "between", "above", "below")
})

// typeWords are the type names WFL defines, spelled as the place takes
// them: lower case after a parameter's `as`, capitalised after `:`.
func typeWords(p place) []Item {
	names := []string{"Text", "Number", "Boolean", "Nothing", "Pattern", "Any", "Date", "Time", "List"}
	out := make([]Item, 0, len(names))
	for _, n := range names {
		it := Item{Label: n, Kind: Type, Insert: n, Doc: "A type WFL defines."}
		if p.typeLower {
			it.Label, it.Insert = strings.ToLower(n), strings.ToLower(n)
		}
		out = append(out, it)
	}
	return out
}

// includePath matches a line that is writing the path of an include.
// The words may be apart by any blanks, as the parser reads them, and the
// first line may start with a byte order mark.
var includePath = regexp.MustCompile(`^\x{FEFF}?\s*(?:include\s+from|load\s+module\s+from)\s*"([^"]*)$`)

// includePathAt reports whether before (a line up to the cursor) ends in
// the path of an `include from "` or `load module from "`, and splits the
// typed path into its folder and the name being typed.
func includePathAt(before string) (dir, typed string, ok bool) {
	m := includePath.FindStringSubmatch(before)
	if m == nil {
		return "", "", false
	}
	i := strings.LastIndex(m[1], "/")
	return m[1][:i+1], m[1][i+1:], true
}

// readable reports whether files may read the entry at path: a link, or
// a file a confined access may not read (a link out of its folders), is
// offered only when it may.
func readable(files *core.FileAccess, path string) bool {
	_, err := files.Stat(path)
	return err == nil
}

// pathCompletion offers the WFL files and folders in dir (relative to the
// document's folder) whose names start with typed, as files lists them
// (nil: core.AnyFile). after is the line after the cursor: an item
// replaces the name typed and what follows it up to the next / or quote
// (completing in the middle of a name leaves no tail of the old one).
func pathCompletion(a *core.Analysis, offset int, dir, typed, after, docPath string, files *core.FileAccess) (token.Span, []Item) {
	tail := len(after)
	if i := strings.IndexAny(after, `/"`); i >= 0 {
		tail = i
	}
	span := token.Span{Start: offset - len(typed), End: offset + tail}
	if docPath == "" {
		return span, nil
	}
	base := filepath.Join(filepath.Dir(docPath), filepath.FromSlash(dir))
	if filepath.IsAbs(filepath.FromSlash(dir)) {
		base = filepath.FromSlash(dir)
	}
	if files == nil {
		files = core.AnyFile()
	}
	entries, err := files.ReadDir(base)
	if err != nil {
		return span, nil
	}
	var out []Item
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, typed) {
			continue
		}
		path := filepath.Join(base, name)
		isDir := e.IsDir()
		if !isDir && e.Type()&fs.ModeSymlink != 0 {
			// A link to a folder the access may read is a folder.
			fi, err := files.StatDir(path)
			isDir = err == nil && fi.IsDir()
		}
		insert := lexer.Escape(name) // inserted between quotes
		switch {
		case isDir && !core.SkipDir(name):
			out = append(out, Item{Label: name + "/", Kind: Folder, Insert: insert + "/"})
		case !isDir && strings.HasSuffix(name, ".wfl") && path != filepath.Clean(docPath) && readable(files, path):
			out = append(out, Item{Label: name, Kind: File, Insert: insert})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if fi, fj := out[i].Kind == File, out[j].Kind == File; fi != fj {
			return fi // the files, then the folders
		}
		return out[i].Label < out[j].Label
	})
	return span, out
}
