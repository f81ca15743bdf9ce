// Package explain tells what each diagnostic code of lang/diag means: the
// cases it reports (each with the message it says, a program that gets it
// and the program fixed), and how to fix a program that gets it. It is
// plain data, shown by the MCP explain_diagnostic tool. Start with [Of].
//
// Its tests hold the table to lang/diag's codes: every code constant has
// an explanation and every explanation is of a code constant; core's tests
// run every example through the analysis.
package explain

import (
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
)

// An Explanation tells what a diagnostic code means and how to fix it.
type Explanation struct {
	Code     string
	Category string // parse, semantic, type or lint
	Title    string // one line
	Meaning  string // what the checker found
	Fix      string // how to change the program
	// Cases are the situations the code reports, the most common first;
	// every code has at least one.
	Cases []Case
}

// A Case is one situation a code reports, told apart by its message.
type Case struct {
	// Message is the form of the diagnostic's message: `…` stands for the
	// names, types and words that vary. A message has this form when it
	// starts like it (see [Explanation.CaseOf]).
	Message string
	Meaning string // what the checker found in this case
	Fix     string // how to change the program in this case
	Example string // a program that gets a diagnostic of this case
	Fixed   string // Example fixed: it gets no diagnostic of the code
	// Files are the other files Example and Fixed are checked beside, by
	// name (they are in the same folder, named a.wfl): the files they
	// include. Nil for most cases.
	Files map[string]string
	// Hidden cases are found by a pass of the checker but never reported:
	// whatever has them also has an error of an earlier pass, which stops
	// the reference from reporting the later passes' findings.
	Hidden bool
	// Editor cases are told only in the list an editor shows while the
	// text is being typed (core's Snapshot.Tolerant), not in the verdict.
	Editor bool

	match *regexp.Regexp // Message compiled
}

// Of returns the explanation of a diagnostic code.
func Of(code string) (Explanation, bool) {
	e, ok := explanations()[code]
	return e, ok
}

// Codes returns every code that has an explanation, sorted.
func Codes() []string {
	codes := make([]string, 0, len(explanations()))
	for c := range explanations() {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	return codes
}

// CaseOf returns the case a diagnostic's message is about: the first case
// whose form the message has.
func (e Explanation) CaseOf(message string) (Case, bool) {
	for _, c := range e.Cases {
		if c.match.MatchString(message) {
			return c, true
		}
	}
	return Case{}, false
}

// messageForm compiles a case's message form: `…` matches any text, and
// the message may go on after the form (type errors add "- Expected T but
// found U").
func messageForm(form string) *regexp.Regexp {
	parts := strings.Split(form, "…")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return regexp.MustCompile(`^` + strings.Join(parts, `.*?`))
}

// explanations returns the explanations by code, their message forms
// compiled, made on first use rather than when the program starts: a
// language server that is never asked for one does not pay the 4 ms its
// hundreds of regular expressions take to compile.
var explanations = sync.OnceValue(func() map[string]Explanation {
	m := make(map[string]Explanation, len(explanationTable))
	for _, e := range explanationTable {
		for i := range e.Cases {
			e.Cases[i].match = messageForm(e.Cases[i].Message)
		}
		m[e.Code] = e
	}
	return m
})

// deepExample nests negations one level deeper than the parser accepts:
// the statement, parser.MaxDepth-1 of them and the number make
// parser.MaxDepth+1 levels.
var deepExample = "store x as " + strings.Repeat("-", parser.MaxDepth-1) + "1\ndisplay x\n"

var explanationTable = []Explanation{
	// Parse errors.
	{Code: diag.ParseExpected, Category: "parse", Title: "a required word or symbol is missing",
		Meaning: "The statement's form needs a particular word or symbol at this point (for example `as` after a variable name in `store`, `to` in `change`, or `:` after a block header), and something else, or the end of the line, was found instead.",
		Fix:     "Add the missing word or symbol the message names, or rewrite the statement in one of its documented forms.",
		Cases: []Case{
			{Message: "expected 'as' after …",
				Meaning: "A `store` (or `create`, `open … as`, …) statement has no `as` between the name and the value: WFL reads every word up to `as` as the name.",
				Fix:     "Write `as` between the name and the value.",
				Example: "store total 5\ndisplay total\n", Fixed: "store total as 5\ndisplay total\n"},
			{Message: "expected 'to' after …",
				Meaning: "A `change` statement (or `add … to`, a count loop, …) has no `to` where the new value or the end should follow.",
				Fix:     "Write `to` before the value: `change NAME to VALUE`.",
				Example: "store total as 1\nchange total 5\ndisplay total\n", Fixed: "store total as 1\nchange total to 5\ndisplay total\n"},
			{Message: "expected '…' after 'end', found …",
				Meaning: "An `end` line names another kind of block than the one that is open: each block closes with `end` and its own word (`end check` for `check if`, `end for` for `for each`, `end action`, `end repeat`, …).",
				Fix:     "Write the closer of the open block, or add the missing closer of an inner block before this line.",
				Example: "check if 1 is 1:\n    display \"yes\"\nend if\n", Fixed: "check if 1 is 1:\n    display \"yes\"\nend check\n"},
			{Message: "expected ':' after …",
				Meaning: "A block header (`define action called …`, `try`, `repeat forever`, a container, …) must end with `:` before its body.",
				Fix:     "End the header line with `:`.",
				Example: "define action called greet\n    display \"hi\"\nend action\ncall greet\n", Fixed: "define action called greet:\n    display \"hi\"\nend action\ncall greet\n"},
			{Message: "a number cannot be a variable name…",
				Meaning: "A declaration starts its name with a number; names start with a letter.",
				Fix:     "Name the variable with words: `store three as 3`.",
				Example: "store 3 as x\n", Fixed: "store x as 3\ndisplay x\n"},
			{Message: "expected …",
				Meaning: "The statement needs another word, name or symbol where the message points (the message says which, and what was found instead).",
				Fix:     "Write what the message expects there, or rewrite the statement in one of its documented forms.",
				Example: "count from 1 2:\n    display count\nend count\n", Fixed: "count from 1 to 2:\n    display count\nend count\n"},
		}},
	{Code: diag.ParseUnexpected, Category: "parse", Title: "a word or symbol that cannot appear here",
		Meaning: "The parser found a token that can neither start a statement nor continue the one being read.",
		Fix:     "Remove the stray token, or check that the statement before it is complete (a missing operand or keyword often makes the next word unexpected).",
		Cases: []Case{
			{Message: "expected an expression, found end of line",
				Meaning: "A value is missing at the end of the line: the statement stops right after a word that needs one (`as`, `to`, an operator, …).",
				Fix:     "Write the value, or remove the word that asks for it.",
				Example: "store total as\n", Fixed: "store total as 0\ndisplay total\n"},
			{Message: "expected an expression, found …",
				Meaning: "Where a value should start there is a word that cannot start one, often a keyword left over after a complete statement (such as `each` in `end for each`, which closes with `end for`).",
				Fix:     "Remove the word, or put a value before it.",
				Example: "for each n in [1, 2]:\n    display n\nend for each\n", Fixed: "for each n in [1, 2]:\n    display n\nend for\n"},
			{Message: "a container body holds properties, actions and events; found …",
				Meaning: "A container's body holds only `property`, `action` (with `end`), `event` and `static` members, not statements.",
				Fix:     "Move the statement into an action of the container, or out of the container.",
				Example: "create container Box:\n    display \"hi\"\nend\n", Fixed: "create container Box:\n    action hello:\n        display \"hi\"\n    end\nend\n"},
			{Message: "an interface body holds 'requires action' lines; found …",
				Meaning: "An interface's body lists only `requires action NAME …` lines: what its containers must provide, not statements.",
				Fix:     "Write the requirement as `requires action NAME`, or move the statement out of the interface.",
				Example: "create interface Shape:\n    display 1\nend\n", Fixed: "create interface Shape:\n    requires action area: Number\nend\n"},
			{Message: "an instance body holds 'property is value' lines; found …",
				Meaning: "The body of `create new C as x:` only sets properties, one `NAME is VALUE` a line.",
				Fix:     "Set properties there, and move other statements after its `end`.",
				Example: "create container Box:\n    property width: Number\nend\ncreate new Box as b:\n    display 1\nend\n",
				Fixed:   "create container Box:\n    property width: Number\nend\ncreate new Box as b:\n    width is 1\nend\ndisplay b.width\n"},
		}},
	{Code: diag.ParseReserved, Category: "parse", Title: "a reserved keyword used as a name",
		Meaning: "WFL reserves some words for its statements (such as `when`, `add`, `count`, `test`, `display`), so they cannot name variables, actions or containers.",
		Fix:     "Choose another name, for example by adding a word: `item_count` instead of `count`.",
		Cases: []Case{
			{Message: "'…' is a reserved keyword and cannot be a variable name",
				Meaning: "A declaration names its variable with a reserved keyword.",
				Fix:     "Rename the variable: add a word, or use another one.",
				Example: "store when as 3\n", Fixed: "store when_due as 3\ndisplay when_due\n"},
		}},
	{Code: diag.ParseStrayEnd, Category: "parse", Title: "an `end` that closes nothing",
		Meaning: "An `end …` line does not match any open block: there are more closers than openers, or the closer names a word no block uses.",
		Fix:     "Delete the extra `end`, or make it match the block it should close (`end action` for an action, `end check` for `check if`, `end for` for `for each`, …).",
		Cases: []Case{
			{Message: "'end' followed by … closes nothing here",
				Meaning: "The word after `end` is not the closer of any block that is open here.",
				Fix:     "Delete the line, or write the closer of the block it should end.",
				Example: "display 1\nend display\n", Fixed: "display 1\n"},
		}},
	{Code: diag.ParseEOF, Category: "parse", Title: "the file ends inside a statement",
		Meaning: "The program ends before a statement or block is finished, usually a block whose `end …` line is missing.",
		Fix:     "Finish the statement or add the missing closing line at the end of the block.",
		Cases: []Case{
			{Message: "expected 'end …' to close …",
				Meaning: "A block (`check if`, an action, a container, …) is still open at the end of the file: its closing line is missing.",
				Fix:     "Add the closing line the message names after the block's last statement.",
				Example: "check if 5 is greater than 3:\n    display \"big\"\n", Fixed: "check if 5 is greater than 3:\n    display \"big\"\nend check\n"},
			{Message: "expected …, found end of file",
				Meaning: "The last statement stops before its end: a block's closer or a required part is missing at the end of the file.",
				Fix:     "Finish the statement as the message says.",
				Example: "count from 1 to 3:\n    display count\n", Fixed: "count from 1 to 3:\n    display count\nend count\n"},
			{Message: "unexpected end of file: expected 'end'",
				Meaning: "A `test`, `setup` or `teardown` block is still open at the end of the file.",
				Fix:     "Close it with `end test` (or `end setup`, `end teardown`).",
				Example: "test \"adds\":\n    expect 1 plus 1 to equal 2\n", Fixed: "test \"adds\":\n    expect 1 plus 1 to equal 2\nend test\n"},
		}},
	{Code: diag.ParseTryClause, Category: "parse", Title: "a `try` without a handler",
		Meaning: "A `try:` block needs at least one `when …`, `catch` or `finally` clause after its body.",
		Fix:     "Add a clause that handles the error, for example `when error:` followed by what to do, before `end try`.",
		Cases: []Case{
			{Message: "a try needs at least one 'when', 'catch' or 'finally' clause",
				Meaning: "The `try` block has a body but nothing that handles an error.",
				Fix:     "Add `when error:` (or `catch:`, or `finally:`) and its statements before `end try`.",
				Example: "try:\n    display 1\nend try\n", Fixed: "try:\n    display 1\nwhen error:\n    display \"failed\"\nend try\n"},
		}},
	{Code: diag.ParsePattern, Category: "parse", Title: "a malformed pattern definition",
		Meaning: "The body of a `create pattern … end pattern` definition does not follow the pattern language (an unknown element, a repetition without what it repeats, an empty pattern), or the pattern's name is one WFL predefines.",
		Fix:     "Fix the pattern element the message points at; each element must be a literal text, a character class, a group or a repetition of one.",
		Cases: []Case{
			{Message: "'…' is a predefined pattern in WFL: choose a different name",
				Meaning: "The pattern's name is one of the words WFL's pattern language reserves.",
				Fix:     "Name the pattern with another word.",
				Example: "create pattern digit:\n    one or more digit\nend pattern\n", Fixed: "create pattern number_text:\n    one or more digit\nend pattern\n"},
			{Message: "unexpected end of the pattern",
				Meaning: "The pattern stops in the middle of an element, such as a repetition (`exactly 3 of`) with nothing to repeat.",
				Fix:     "Complete the element: say what is repeated.",
				Example: "create pattern code:\n    exactly 3 of\nend pattern\n", Fixed: "create pattern code:\n    exactly 3 of digit\nend pattern\n"},
		}},
	{Code: diag.ParseUnsupported, Category: "parse", Title: "a form WFL does not support",
		Meaning: "The statement uses a form that the WFL language does not provide (for example a module alias).",
		Fix:     "Rewrite the statement with a supported form, as the message suggests.",
		Cases: []Case{
			{Message: "module aliases are not supported…",
				Meaning: "`load module from \"…\" as NAME` gives the module a name; WFL loads a module without one.",
				Fix:     "Drop `as NAME`: `load module from \"path\"`.",
				Example: "load module from \"helpers.wfl\" as helpers\n", Fixed: "load module from \"helpers.wfl\"\n"},
		}},
	{Code: diag.ParseDuplicate, Category: "parse", Title: "a clause given twice",
		Meaning: "A statement has a clause more than once where only one is allowed (two `otherwise` arms in a route, two `setup` blocks in a `describe`, a web clause repeated).",
		Fix:     "Keep one of the clauses and merge or delete the other.",
		Cases: []Case{
			{Message: "a route may have only one 'otherwise' arm",
				Meaning: "A `route` has two `otherwise` arms; only one can run when no `when` arm matches.",
				Fix:     "Merge the two `otherwise` arms into one.",
				Example: "store n as 2\nroute n:\n    when 1:\n        display \"one\"\n    otherwise:\n        display \"other\"\n    otherwise:\n        display \"again\"\nend route\n",
				Fixed:   "store n as 2\nroute n:\n    when 1:\n        display \"one\"\n    otherwise:\n        display \"other\"\nend route\n"},
		}},
	{Code: diag.ParseTooDeep, Category: "parse", Title: "nesting too deep to parse",
		Meaning: "A statement is nested deeper than the parser's limit of " + strconv.Itoa(parser.MaxDepth) + " levels: each operator of a chain (`1 + 1 + …`), each bracket, unary operator, call and block is a level.",
		Fix:     "Move inner parts into actions or intermediate variables to flatten the program; split a long chain of operators into several statements.",
		Cases: []Case{
			{Message: "nesting is too deep (more than …",
				Meaning: "An expression or a chain of blocks is nested more than " + strconv.Itoa(parser.MaxDepth) + " levels deep (here the statement, " + strconv.Itoa(parser.MaxDepth-1) + " minus signs and a number).",
				Fix:     "Compute inner parts first and store them in variables.",
				Example: deepExample, Fixed: "store x as 1\ndisplay x\n"},
		}},
	{Code: diag.ParseDroppedChar, Category: "parse", Title: "a character WFL ignores",
		Meaning: "The line contains a character that the WFL lexer skips (a warning): it has no effect on the program.",
		Fix:     "Delete the character; if it was meant as an operator, use WFL's word form (`plus`, `minus`, `times`, `divided by`, …).",
		Cases: []Case{
			{Message: "the character … is not part of WFL and is ignored",
				Meaning: "A character such as `*` or `^` is not part of WFL: the program runs as if it were not there, so `2 * 3` reads `2 3`.",
				Fix:     "Write the operator as a word: `times` for `*`.",
				Example: "store x as 2 * 3\ndisplay x\n", Fixed: "store x as 2 times 3\ndisplay x\n"},
			{Message: "the … characters … are not part of WFL and are ignored",
				Meaning: "A run of characters WFL does not know, side by side, is one finding (the message quotes its first characters).",
				Fix:     "Delete them; write an operator as a word.",
				Example: "store total as 5 @@\ndisplay total\n", Fixed: "store total as 5\ndisplay total\n"},
			{Message: "this and later characters on the line are not part of WFL and are ignored",
				Meaning: "A line holds more than " + strconv.Itoa(parser.MaxDroppedOnLine) + " places with characters WFL does not know: the rest of the line's are told in one finding, from the first of them to the last.",
				Fix:     "Delete the characters; a line of them is usually text pasted from elsewhere or a line meant as a comment (start it with `//` or `#`).",
				Example: "display 1" + strings.Repeat(" @", parser.MaxDroppedOnLine+1) + "\n", Fixed: "display 1\n"},
			{Message: "the quote opens a string that is never closed",
				Meaning: "No quote follows this one in the file, so it opens no string: the lexer ignores it and reads the words after it as code.",
				Fix:     "Close the string with '\"' where it ends.",
				Example: "display \"hello\n", Fixed: "display \"hello\"\n"},
			{Message: "the quote opens a string that a backslash at the end of a line breaks",
				Meaning: "A string's text reaches a `\\` right before a line break: no string form allows that, so the quote is ignored and the words after it are read as code.",
				Fix:     "Close the string before the line break, or write the backslash as `\\\\`.",
				Example: "display \"one\\\ntwo\"\n", Fixed: "display \"one two\"\n"},
			{Message: "the string holds the unknown escape …",
				Meaning: "A string holds a backslash followed by a character that makes no escape; WFL's escapes are `\\n`, `\\t`, `\\r`, `\\\\`, `\\0` and `\\\"`. The whole string is ignored, as in the reference.",
				Fix:     "Write the escape you meant, or `\\\\` for a backslash.",
				Example: "display \"tab\\qhere\"\n", Fixed: "display \"tab\\there\"\n"},
			{Message: "the number … is too large for WFL and is ignored",
				Meaning: "A whole number beyond 9223372036854775807 (or a decimal beyond the largest float) cannot be read: the lexer ignores it.",
				Fix:     "Write a smaller number, or a decimal (`1.5`) for a large approximate value.",
				Example: "store n as 99999999999999999999\ndisplay n\n", Fixed: "store n as 999999999\ndisplay n\n"},
			{Message: "the byte order mark (U+FEFF) is not part of WFL and is ignored",
				Meaning: "The file starts with (or holds) an invisible byte order mark, which some editors on Windows write: WFL ignores it.",
				Fix:     "Save the file as UTF-8 without a byte order mark.",
				Example: "\uFEFFdisplay 1\n", Fixed: "display 1\n"},
		}},

	{Code: diag.ParseOpenQuote, Category: "parse", Title: "a quote left open on its line",
		Meaning: "A string's quote is not closed on its line. WFL lets a string span lines, so the quote pairs with the next quote of the file, and every string after it is read inside out: text as code and code as text. An editor shows this finding while the string is being typed, and answers below it as if the quote were closed at the end of its line; `wfl-lsp check` reports what the text means as it stands.",
		Fix:     "Close the string with '\"' where it ends, usually at the end of the line.",
		Cases: []Case{
			{Message: "the string is not closed on its line",
				Meaning: "The quote pairs with a quote on a later line (the message names it) or with none, so the lines between are one string.",
				Fix:     "Add the closing quote at the end of the string.",
				Editor:  true,
				Example: "display \"hello\nstore name as \"Ada\"\ndisplay name\n", Fixed: "display \"hello\"\nstore name as \"Ada\"\ndisplay name\n"},
		}},

	// Semantic errors and static warnings.
	{Code: diag.AnalyzeSemantic, Category: "semantic", Title: "a name or statement misused",
		Meaning: "The analyzer found a rule of the language broken: a name used but not defined (or used before its definition), a name defined twice, a constant changed, a call with the wrong arguments, and similar; the message says which. Some cases are warnings (inside `try`, in `repeat` and `main loop` bodies, in a file with `include`).",
		Fix:     "Read the message: define the name before its use (or fix its spelling), use `change` instead of a second `store`, store a new variable instead of changing a constant, or pass the arguments the action's definition names.",
		Cases: []Case{
			{Message: "Variable '…' is not defined",
				Meaning: "A name is read that no statement before it declares, in this scope or an enclosing one (WFL requires declaration before use; a variable declared inside a block is gone after it). A misspelled name or a misspelled operator (which merges into the name before it: `i mod 2` reads the name `i mod`) gives the same message.",
				Fix:     "Fix the spelling, declare the variable before the statement that reads it, or move the use into the block that declares it.",
				Example: "display total\nstore total as 5\n", Fixed: "store total as 5\ndisplay total\n"},
			{Message: "Undefined action '…'",
				Meaning: "`call NAME` names no action of the program and no builtin.",
				Fix:     "Fix the action's name, or define it with `define action called NAME …`.",
				Example: "call greet with \"Ada\"\n", Fixed: "define action called greet with parameters who:\n    display \"Hello \" with who\nend action\ncall greet with \"Ada\"\n"},
			{Message: "Variable '…' has already been defined at line …",
				Meaning: "A second `store` (or `create`) declares a name the same scope already has. WFL has no redeclaration: `store` makes a new variable, `change` gives an existing one a new value.",
				Fix:     "Write `change NAME to VALUE` to give the variable a new value, or store the new value under another name.",
				Example: "store count_so_far as 1\nstore count_so_far as 2\ndisplay count_so_far\n", Fixed: "store count_so_far as 1\nchange count_so_far to 2\ndisplay count_so_far\n"},
			{Message: "Variable '…' has already been defined in an outer scope",
				Meaning: "A block (a loop, a branch, an action) declares a name an enclosing scope already has: WFL does not let an inner variable hide an outer one.",
				Fix:     "Write `change NAME to VALUE` to update the outer variable, or give the inner one another name.",
				Example: "store total as 0\ncount from 1 to 3:\n    store total as total plus count\nend count\ndisplay total\n",
				Fixed:   "store total as 0\ncount from 1 to 3:\n    change total to total plus count\nend count\ndisplay total\n"},
			{Message: "Cannot modify constant '…'",
				Meaning: "A statement changes a name that cannot change: a constant (`store new constant`), a loop variable, an action's parameter, an error name in `when`, or a name WFL predefines.",
				Fix:     "Store the new value in a variable of its own (`store NAME as …`), or declare the original with `store` instead of `store new constant`.",
				Example: "store new constant limit as 10\nchange limit to 20\ndisplay limit\n", Fixed: "store limit as 10\nchange limit to 20\ndisplay limit\n"},
			{Message: "'…' is not a function",
				Meaning: "`NAME of …` calls a name that is a variable, not an action or builtin.",
				Fix:     "Call an action or builtin, or read the variable without `of`.",
				Example: "store width as 3\ndisplay width of 2\n", Fixed: "store width as 3\ndisplay width times 2\n"},
			{Message: "'…' is not an action",
				Meaning: "`call NAME` names a variable, not an action.",
				Fix:     "Call an action, or use the variable as a value.",
				Example: "store greeting as \"hi\"\ncall greeting\n", Fixed: "store greeting as \"hi\"\ndisplay greeting\n"},
			{Message: "Action '…' expects … argument…, but … provided",
				Meaning: "`call NAME with …` passes more or fewer arguments than any definition of the action takes.",
				Fix:     "Pass one argument per parameter of the definition (or define a version of the action with that many).",
				Example: "define action called greet with parameters who:\n    display who\nend action\ncall greet with \"Ada\" and \"Bo\"\n",
				Fixed:   "define action called greet with parameters who:\n    display who\nend action\ncall greet with \"Ada\"\n"},
			{Message: "Function '…' expects … argument…, but … provided",
				Meaning: "`NAME of …` passes more or fewer arguments than the action takes.",
				Fix:     "Pass one argument per parameter, joined by `and`.",
				Example: "define action called double with parameters n:\n    give back n times 2\nend action\ndisplay double of 2 and 3\n",
				Fixed:   "define action called double with parameters n:\n    give back n times 2\nend action\ndisplay double of 2\n"},
			{Message: "Argument '…' of action '…' expects …, but got …",
				Meaning: "An action whose parameter declares a type (`n as number`) is called with a value the analyzer can see is of another type (a literal, a declared variable); the type checker reports the cases it finds later as TYPE-ARGUMENT.",
				Fix:     "Pass a value of the parameter's type.",
				Example: "define action called double with parameters n as number:\n    give back n times 2\nend action\ndisplay double of \"two\"\n",
				Fixed:   "define action called double with parameters n as number:\n    give back n times 2\nend action\ndisplay double of 2\n"},
			{Message: "Unknown parameter '…' for action '…'",
				Meaning: "A named argument (`name: value`) names no parameter of the action.",
				Fix:     "Use the parameter's name as the definition writes it.",
				Example: "define action called greet with parameters who:\n    display who\nend action\ncall greet with whom: \"Ada\"\n",
				Fixed:   "define action called greet with parameters who:\n    display who\nend action\ncall greet with who: \"Ada\"\n"},
			{Message: "Action '…' was already defined with the same parameters",
				Meaning: "Two definitions of an action take the same parameters, so a call could not choose between them (versions of an action must differ in their number or types of parameters).",
				Fix:     "Rename one of the actions, delete one, or give the versions different parameters.",
				Example: "define action called greet with parameters who:\n    display who\nend action\ndefine action called greet with parameters name:\n    display name\nend action\ncall greet with \"Ada\"\n",
				Fixed:   "define action called greet with parameters who:\n    display who\nend action\ncall greet with \"Ada\"\n"},
			{Message: "Nested count loops both use the loop variable '…'",
				Meaning: "A count loop inside another uses the same loop variable (`count` unless named), so the inner one hides the outer one's.",
				Fix:     "Name the loops' variables: `count from 1 to 3 as row:`.",
				Example: "count from 1 to 2:\n    count from 1 to 2:\n        display count\n    end count\nend count\n",
				Fixed:   "count from 1 to 2 as row:\n    count from 1 to 2 as column:\n        display row with column\n    end count\nend count\n"},
			{Message: "Cyclic container inheritance detected: …",
				Meaning: "Containers extend each other in a circle, so none has a first ancestor.",
				Fix:     "Remove one of the `extends` so the chain ends.",
				Example: "create container A extends B:\n    property x: Number\nend\ncreate container B extends A:\n    property y: Number\nend\n",
				Fixed:   "create container A:\n    property x: Number\nend\ncreate container B extends A:\n    property y: Number\nend\n"},
			{Message: "Undefined signal handler '…'",
				Meaning: "`register signal handler for SIGNAL as NAME` names no action. It is a warning here, shown while another error of the analysis holds the type checker back; otherwise the type checker's TYPE-SIGNAL error says it instead.",
				Fix:     "Define the action before registering it, or fix its name.",
				Example: "register signal handler for SIGINT as on_stop\ndisplay missing_name\n",
				Fixed:   "define action called on_stop:\n    display \"stopping\"\nend action\nregister signal handler for SIGINT as on_stop\nstore missing_name as 1\ndisplay missing_name\n"},
			{Message: "Undefined list reference '…' in pattern",
				Meaning: "A pattern names a list of texts that is not declared before the pattern (a warning).",
				Fix:     "Declare the list before the pattern, or fix its name.",
				Example: "create pattern greeting:\n    salutations\nend pattern\n",
				Fixed:   "store salutations as [\"hi\", \"hello\"]\ncreate pattern greeting:\n    salutations\nend pattern\n"},
		}},
	{Code: diag.AnalyzeInclude, Category: "semantic", Title: "an include that cannot be followed",
		Meaning: "An `include from \"…\"` statement names a file that cannot be read (it does not exist, or is not a readable file), the includes go round in a circle back to this file, or a file they lead to does not parse. The names a file that cannot be read would declare are unknown here: uses of them may be reported undefined. A file that cannot be read is information, a cycle or a file that does not parse a warning.",
		Fix:     "Correct the path (it is relative to the including file), create the file, or break the cycle so that no file includes itself through others.",
		Cases: []Case{
			{Message: "The included file cannot be followed: …",
				Meaning: "The path names no readable file (the message says why: missing, a folder, no permission); nothing it would declare is known.",
				Fix:     "Correct the path, relative to the including file, or create the file. The quick fix offers the files of the folder whose names are spelled alike.",
				Example: "include from \"helper.wfl\"\ncall greet\n",
				Fixed:   "include from \"helpers.wfl\"\ncall greet\n",
				Files:   map[string]string{"helpers.wfl": "define action called greet:\n    display \"hi\"\nend action\n"}},
			{Message: "The included file leads to …, which does not parse: …",
				Meaning: "A file the included file includes, directly or through others, has a parse error: when the program runs, that include stops it.",
				Fix:     "Correct the first parse error of the file the message names (its path is relative to this file).",
				Example: "include from \"b.wfl\"\ndisplay shared_limit\n",
				Fixed:   "include from \"c.wfl\"\ndisplay shared_limit\n",
				Files: map[string]string{
					"b.wfl":   "include from \"bad.wfl\"\nstore shared_limit as 10\n",
					"bad.wfl": "store x as\n",
					"c.wfl":   "store shared_limit as 10\n",
				}},
			{Message: "The included file … does not parse: …",
				Meaning: "The file is read and its names are known here, but it has a parse error: when the program runs, the include stops it with \"Parse error in included file\".",
				Fix:     "Open the included file and correct its first parse error (`wfl-lsp check` on it shows where).",
				Example: "include from \"helpers.wfl\"\ncall greet\n",
				Fixed:   "include from \"greetings.wfl\"\ncall greet\n",
				Files: map[string]string{
					"helpers.wfl":   "define action called greet:\n    display \"hi\n",
					"greetings.wfl": "define action called greet:\n    display \"hi\"\nend action\n",
				}},
			{Message: "Includes go round in a cycle: …",
				Meaning: "The included file includes this one again, directly or through others: each file's names are taken from the other, and WFL would include them forever.",
				Fix:     "Include, from both, a third file that holds what they share, and remove the include that leads back.",
				Example: "include from \"b.wfl\"\ndisplay shared_limit\n",
				Fixed:   "include from \"shared.wfl\"\ndisplay shared_limit\n",
				Files: map[string]string{
					"b.wfl":      "include from \"a.wfl\"\nstore shared_limit as 10\n",
					"shared.wfl": "store shared_limit as 10\n",
				}},
		}},
	{Code: diag.AnalyzeUnused, Category: "semantic", Title: "a variable that is never used",
		Meaning: "A variable is stored but never read anywhere in the file (a warning).",
		Fix:     "Use the variable, or delete the statement that stores it (the quick fix does when its value has no effect).",
		Cases: []Case{
			{Message: "Unused variable '…'",
				Meaning: "No statement reads the variable.",
				Fix:     "Read it where it was meant to be used, or delete its `store`.",
				Example: "store total as 5\ndisplay \"done\"\n", Fixed: "store total as 5\ndisplay total\n"},
		}},
	{Code: diag.AnalyzeUnreachable, Category: "semantic", Title: "code that can never run",
		Meaning: "Top-level statements follow a top-level `return` (or `give back`), so they never run (a warning).",
		Fix:     "Delete the unreachable statements or move them before the statement that leaves the program.",
		Cases: []Case{
			{Message: "Unreachable code",
				Meaning: "The statement comes after a `return` at the top level of the file.",
				Fix:     "Move it before the `return`, or delete it.",
				Example: "display \"start\"\nreturn nothing\ndisplay \"never\"\n", Fixed: "display \"start\"\ndisplay \"now\"\nreturn nothing\n"},
		}},
	{Code: diag.AnalyzeDeadBranch, Category: "semantic", Title: "a branch that can never run",
		Meaning: "A `check if` at the top level comes after a top-level `return`, so none of its branches can run (a warning).",
		Fix:     "Move the check before the `return`, or delete it.",
		Cases: []Case{
			{Message: "Unreachable branch",
				Meaning: "The `check if` follows a `return` at the top level of the file.",
				Fix:     "Move it before the `return`, or delete it.",
				Example: "return nothing\ncheck if 1 is 1:\n    display \"never\"\nend check\n",
				Fixed:   "check if 1 is 1:\n    display \"now\"\nend check\nreturn nothing\n"},
		}},
	{Code: diag.AnalyzeShadow, Category: "semantic", Title: "a variable that hides another",
		Meaning: "A variable is stored again under a name already stored in the same or an enclosing block (a warning of the static pass). The static pass runs only when the analyzer found no error, and every such `store` is also a redeclaration, an ANALYZE-SEMANTIC error: so this warning is found but not reported, the redeclaration error is.",
		Fix:     "Use `change` to assign the outer variable instead of declaring a new one, or rename the inner variable.",
		Cases: []Case{
			{Message: "Variable '…' shadows another variable with the same name",
				Meaning: "A `store` inside a block names a variable an enclosing block already stores.",
				Fix:     "Use `change` for the outer variable, or give the inner one another name.",
				Hidden:  true,
				Example: "store note as \"a\"\ncheck if yes:\n    store note as \"b\"\n    display note\nend check\ndisplay note\n",
				Fixed:   "store note as \"a\"\ncheck if yes:\n    change note to \"b\"\n    display note\nend check\ndisplay note\n"},
		}},
	{Code: diag.AnalyzeReturn, Category: "semantic", Title: "an action that sometimes gives back nothing",
		Meaning: "An action with a declared result type gives back a value on some paths and reaches `end action` without one on others (a warning).",
		Fix:     "Give back a value on every path, for example by adding a `give back` before `end action`.",
		Cases: []Case{
			{Message: "Action '…' has inconsistent return paths",
				Meaning: "Some paths through the action end with `give back` and others do not.",
				Fix:     "Add a `give back` at the end of the action (or in the branch without one).",
				Example: "define action called sign with parameters n as number: text:\n    check if n is greater than 0:\n        give back \"positive\"\n    end check\nend action\ndisplay sign of 3\n",
				Fixed:   "define action called sign with parameters n as number: text:\n    check if n is greater than 0:\n        give back \"positive\"\n    end check\n    give back \"not positive\"\nend action\ndisplay sign of 3\n"},
		}},
	{Code: diag.AnalyzeSecurity, Category: "semantic", Title: "an insecure use of a builtin",
		Meaning: "`random_seed` is used in a file that also does authentication, session or cryptographic work (hashing passwords, secure random bytes, tokens, …): seeded random numbers are predictable.",
		Fix:     "Remove the `random_seed` call, and use the secure builtins (`secure_random_bytes`, `generate_uuid`, …) for anything secret.",
		Cases: []Case{
			{Message: "random_seed must not be used in authentication, session, or cryptographic code",
				Meaning: "The file seeds the random generator and also calls a security builtin.",
				Fix:     "Delete the `random_seed` call.",
				Example: "call random_seed with 42\nstore token as secure_random_bytes of 16\ndisplay token\n",
				Fixed:   "store token as secure_random_bytes of 16\ndisplay token\n"},
		}},

	// Type errors.
	{Code: diag.TypeOperand, Category: "type", Title: "an operator applied to the wrong types",
		Meaning: "An operator got operands it cannot combine, such as arithmetic on Text, a comparison between Text and a Number, or `and`/`or`/`not` on non-Boolean values.",
		Fix:     "Convert one operand or use the operator meant for those types (`with` joins texts).",
		Cases: []Case{
			{Message: "Cannot perform … operation on …",
				Meaning: "Arithmetic (`plus`, `minus`, `times`, `divided by`, `modulo`) got a value that is not a Number, such as a Text.",
				Fix:     "Compute with numbers, or join texts with `with`.",
				Example: "store label as \"total\"\ndisplay label minus 1\n", Fixed: "store label as \"total\"\ndisplay label with 1\n"},
			{Message: "Cannot compare … and …",
				Meaning: "A comparison (`is greater than`, `is less than`, …) compares values of types that have no order between them, such as Text and Number.",
				Fix:     "Compare values of the same type.",
				Example: "store name as \"Ada\"\ndisplay name is greater than 3\n", Fixed: "store name as \"Ada\"\ndisplay length of name is greater than 3\n"},
			{Message: "Cannot perform logical … on …",
				Meaning: "`and` or `or` joins values that are not yes/no values.",
				Fix:     "Compare each value so both sides are Booleans.",
				Example: "store items as [1, 2]\ndisplay items and \"x\"\n", Fixed: "store items as [1, 2]\ndisplay length of items is greater than 0 and yes\n"},
			{Message: "Cannot apply 'not' to …",
				Meaning: "`not` negates a value that is not yes or no.",
				Fix:     "Negate a comparison: `not (n is 0)`.",
				Example: "store n as 3\ndisplay not n\n", Fixed: "store n as 3\ndisplay not (n is 0)\n"},
		}},
	{Code: diag.TypeCall, Category: "type", Title: "calling something that cannot be called",
		Meaning: "The program calls a value that is not an action or builtin function (such as a Text), or a builtin the runtime does not implement.",
		Fix:     "Check the name's spelling (lookup_builtin lists builtins) or define the action before calling it.",
		Cases: []Case{
			{Message: "Cannot call …, not a function",
				Meaning: "`NAME of …` calls a value whose type is not a function, such as a request's field (`method of request` reads the Text field `method` and calls it).",
				Fix:     "Read the value without `of`, or call an action or builtin.",
				Example: "define action called show with parameters value as text:\n    display value of 1\nend action\ncall show with \"a\"\n",
				Fixed:   "define action called show with parameters value as text:\n    display value\nend action\ncall show with \"a\"\n"},
			{Message: "Builtin '…' is recognized but not implemented by the runtime",
				Meaning: "The name is reserved for a builtin that WFL's runtime does not provide.",
				Fix:     "Use the implemented builtin (lookup_builtin shows them), such as `pattern_matches` or `read content from`.",
				Example: "display file_exists of \"a.txt\"\n", Fixed: "display path_exists of \"a.txt\"\n"},
		}},
	{Code: diag.TypeArity, Category: "type", Title: "the wrong number of arguments",
		Meaning: "An action, method or builtin was called with more or fewer arguments than it accepts.",
		Fix:     "Pass exactly the arguments its definition lists (lookup_builtin shows a builtin's parameter lists).",
		Cases: []Case{
			{Message: "Builtin '…' expects … argument…, but … provided",
				Meaning: "A builtin function got more or fewer arguments than it takes.",
				Fix:     "Pass the builtin's arguments, joined by `and` (lookup_builtin lists them).",
				Example: "display substring of \"hello\" and 1\n", Fixed: "display substring of \"hello\" and 1 and 3\n"},
			{Message: "Method '…' expects … argument…, but … provided",
				Meaning: "A container's action was called with more or fewer arguments than it declares after `needs`.",
				Fix:     "Pass one argument per parameter, separated by commas.",
				Example: "create container Box:\n    property width: Number\n    action grow needs amount: Number:\n        change width to width plus amount\n    end\nend\ncreate new Box as b:\n    width is 1\nend\nb.grow()\n",
				Fixed:   "create container Box:\n    property width: Number\n    action grow needs amount: Number:\n        change width to width plus amount\n    end\nend\ncreate new Box as b:\n    width is 1\nend\nb.grow(2)\n"},
		}},
	{Code: diag.TypeArgument, Category: "type", Title: "an argument of the wrong type",
		Meaning: "An argument's type does not match the parameter it is passed to, for example a Number where a builtin expects Text.",
		Fix:     "Pass a value of the expected type, converting it if needed.",
		Cases: []Case{
			{Message: "Argument … of builtin '…' expected …, but found …",
				Meaning: "A builtin got an argument of a type that parameter does not accept.",
				Fix:     "Pass a value of the type the message names.",
				Example: "display touppercase of 42\n", Fixed: "display touppercase of \"forty-two\"\n"},
			{Message: "Argument … of action '…' expects …, but found …",
				Meaning: "An action whose parameter declares a type (`n as number`) got a value of another type, one the analyzer could not see (the result of a builtin, a flow-dependent variable).",
				Fix:     "Pass a value of the parameter's type.",
				Example: "define action called double with parameters n as number:\n    give back n times 2\nend action\nstore word as touppercase of \"two\"\ndisplay double of word\n",
				Fixed:   "define action called double with parameters n as number:\n    give back n times 2\nend action\nstore word as length of \"two\"\ndisplay double of word\n"},
		}},
	{Code: diag.TypeIndex, Category: "type", Title: "indexing the wrong kind of value",
		Meaning: "A value is indexed (`x[i]`, `x at i`) that is not a list, map or text, or the index has the wrong type.",
		Fix:     "Index only lists, maps and texts, with a Number for lists and texts and a key of the map's key type for maps.",
		Cases: []Case{
			{Message: "Cannot index into …",
				Meaning: "The value indexed is not a list, map or text (a Number, a request, an action, …).",
				Fix:     "Index a list, map or text.",
				Example: "store n as 5\ndisplay n[0]\n", Fixed: "store n as [5]\ndisplay n[0]\n"},
			{Message: "List index must be a number, got …",
				Meaning: "A list is indexed with something that is not a Number.",
				Fix:     "Index lists with a Number (the first item is at 0).",
				Example: "store items as [1, 2]\ndisplay items[\"first\"]\n", Fixed: "store items as [1, 2]\ndisplay items[0]\n"},
		}},
	{Code: diag.TypeMember, Category: "type", Title: "an unknown property or method",
		Meaning: "A property or method is used on a value that does not have it, such as a container instance without that property, or `header` outside a request handler.",
		Fix:     "Declare the property or method in the container, or use one it has.",
		Cases: []Case{
			{Message: "Property '…' not found in container '…'",
				Meaning: "`x.NAME` reads a property the instance's container (and its ancestors) does not declare.",
				Fix:     "Declare the property in the container, or fix its name.",
				Example: "create container Box:\n    property width: Number\nend\ncreate new Box as b:\n    width is 2\nend\ndisplay b.height\n",
				Fixed:   "create container Box:\n    property width: Number\nend\ncreate new Box as b:\n    width is 2\nend\ndisplay b.width\n"},
			{Message: "Method '…' not found in container '…'",
				Meaning: "`x.NAME()` calls an action the instance's container does not declare.",
				Fix:     "Declare the action in the container, or fix its name.",
				Example: "create container Box:\n    property width: Number\nend\ncreate new Box as b:\n    width is 2\nend\nb.grow()\n",
				Fixed:   "create container Box:\n    property width: Number\n    action grow:\n        change width to width plus 1\n    end\nend\ncreate new Box as b:\n    width is 2\nend\nb.grow()\n"},
			{Message: "Cannot access property '…' on non-container type …",
				Meaning: "`x.NAME` reads a property of a value that is not a container instance (a Number, a Text, a list, a request, …).",
				Fix:     "Read properties of container instances only; for a map, index it: `m[\"key\"]`.",
				Example: "store n as 5\ndisplay n.size\n", Fixed: "store n as 5\ndisplay n\n"},
			{Message: "Header access requires a request object or request headers in scope",
				Meaning: "`header \"…\" of X` reads a header of something that is not a request received with `wait for request`.",
				Fix:     "Read headers of the request a `wait for request … as NAME` statement gives.",
				Example: "store req as \"GET\"\ndisplay header \"Host\" of req\n", Fixed: "store req as \"GET\"\ndisplay req\n"},
		}},
	{Code: diag.TypeCondition, Category: "type", Title: "a condition that is not a Boolean",
		Meaning: "The condition of `check if`, `repeat while`, `repeat until` or a similar statement is not a yes/no value.",
		Fix:     "Compare the value with something (`is`, `is greater than`, …) so the condition is a Boolean.",
		Cases: []Case{
			{Message: "Condition must be a boolean expression",
				Meaning: "A `check if` (or `if`) tests a value that is not yes or no, such as a Number.",
				Fix:     "Compare the value: `check if n is greater than 0:`.",
				Example: "store n as 3\ncheck if n:\n    display n\nend check\n", Fixed: "store n as 3\ncheck if n is greater than 0:\n    display n\nend check\n"},
			{Message: "Expected boolean condition in repeat-while loop, got …",
				Meaning: "A `repeat while` loop tests a value that is not yes or no.",
				Fix:     "Compare the value so the condition is a Boolean.",
				Example: "store n as 3\nrepeat while n:\n    change n to n minus 1\nend repeat\n", Fixed: "store n as 3\nrepeat while n is greater than 0:\n    change n to n minus 1\nend repeat\n"},
		}},
	{Code: diag.TypeAssign, Category: "type", Title: "a value of the wrong type assigned",
		Meaning: "`change` (or `add`, or a property's value) gives a variable or property a value whose type is not compatible with its declared type.",
		Fix:     "Assign a value of the variable's type, convert the value, or store it in a new variable.",
		Cases: []Case{
			{Message: "Cannot assign … to property '…' declared as …",
				Meaning: "A container's action changes a property to a value of another type than the property declares.",
				Fix:     "Assign a value of the property's type.",
				Example: "create container Box:\n    property width: Number\n    action reset:\n        change width to \"none\"\n    end\nend\n",
				Fixed:   "create container Box:\n    property width: Number\n    action reset:\n        change width to 0\n    end\nend\n"},
			{Message: "Cannot assign value of incompatible type to variable '…'",
				Meaning: "A variable of a declared type is changed to a value of another type.",
				Fix:     "Assign a value of the variable's type, or store the value in a new variable.",
				Example: "create date today_date\nchange today_date to 5\n", Fixed: "create date today_date\ndisplay today_date\n"},
		}},
	{Code: diag.TypeReturn, Category: "type", Title: "a returned value of the wrong type",
		Meaning: "An action gives back a value whose type does not match its declared result type, or gives back nothing where it declares one.",
		Fix:     "Give back a value of the declared type, or change the declared type.",
		Cases: []Case{
			{Message: "Return statement has incorrect type",
				Meaning: "`give back` returns a value whose type is not the action's declared result type.",
				Fix:     "Give back a value of the declared type, or declare the type it returns.",
				Example: "define action called answer: number:\n    give back \"forty-two\"\nend action\ndisplay answer\n",
				Fixed:   "define action called answer: number:\n    give back 42\nend action\ndisplay answer\n"},
			{Message: "Function must return a value",
				Meaning: "`return nothing` (or a bare `give back`) leaves an action that declares a result type.",
				Fix:     "Give back a value of the declared type.",
				Example: "define action called answer: number:\n    return nothing\nend action\ndisplay answer\n",
				Fixed:   "define action called answer: number:\n    return 42\nend action\ndisplay answer\n"},
		}},
	{Code: diag.TypeStatement, Category: "type", Title: "a statement operand of the wrong type",
		Meaning: "A statement got a value of the wrong type for one of its parts, such as a port that is not a Number, a file path that is not Text, a loop bound that is not a Number or a duration that is not a Number.",
		Fix:     "Pass a value of the type the statement needs.",
		Cases: []Case{
			{Message: "Port must be a number",
				Meaning: "`listen on port P` got a port that is not a Number.",
				Fix:     "Give the port as a number: `listen on port 8080 as web`.",
				Example: "listen on port \"8080\" as web\n", Fixed: "listen on port 8080 as web\n"},
			{Message: "… value in count loop must be a number",
				Meaning: "A count loop's start, end or step is not a Number.",
				Fix:     "Count with numbers.",
				Example: "count from \"1\" to 3:\n    display count\nend count\n", Fixed: "count from 1 to 3:\n    display count\nend count\n"},
			{Message: "Expected a number for wait duration",
				Meaning: "`wait for D milliseconds` (or `seconds`) got a duration that is not a Number.",
				Fix:     "Give the duration as a number.",
				Example: "wait for \"5\" seconds\n", Fixed: "wait for 5 seconds\n"},
			{Message: "Collection in for-each loop must be a list or map",
				Meaning: "`for each` walks a value that is not a list or a map.",
				Fix:     "Walk a list or a map.",
				Example: "for each n in 5:\n    display n\nend for\n", Fixed: "for each n in [5]:\n    display n\nend for\n"},
		}},
	{Code: diag.TypeContainer, Category: "type", Title: "a container that breaks an interface, or an unknown container, interface, event or property",
		Meaning: "A container does not provide what an interface it implements requires, or the program refers to a container, interface, event or property that is not declared, or creates an instance with properties its container lacks.",
		Fix:     "Add the required actions to the container (the quick fix adds stubs), declare what is missing before its use, or fix the name.",
		Cases: []Case{
			{Message: "Container '…' does not satisfy interface '…': missing required action '…'",
				Meaning: "The container implements an interface (`implements I`) but neither it nor a container it extends has an action the interface requires (with `requires action`, in the interface or one it extends).",
				Fix:     "Add the action to the container, with the parameters and result type the interface gives.",
				Example: "create interface Shape:\n    requires action area: Number\nend\ncreate container Square implements Shape:\n    property side: Number\nend\n",
				Fixed:   "create interface Shape:\n    requires action area: Number\nend\ncreate container Square implements Shape:\n    property side: Number\n    action area: Number\n        give back side times side\n    end\nend\n"},
			{Message: "Container '…' does not satisfy interface '…': action '…' takes … parameter(s) but the interface requires …",
				Meaning: "The container has the action the interface requires, with another number of parameters.",
				Fix:     "Give the action the parameters the interface's `requires action` line lists.",
				Example: "create interface Scalable:\n    requires action scale needs factor: Number\nend\ncreate container Square implements Scalable:\n    property side: Number\n    action scale:\n        change side to side times 2\n    end\nend\n",
				Fixed:   "create interface Scalable:\n    requires action scale needs factor: Number\nend\ncreate container Square implements Scalable:\n    property side: Number\n    action scale needs factor: Number:\n        change side to side times factor\n    end\nend\n"},
			{Message: "Container type '…' not found",
				Meaning: "`create new C as x` names a container that is not declared in this file (containers of included or loaded files are not seen by the type checker).",
				Fix:     "Declare the container with `create container C:` before creating an instance, or fix its name.",
				Example: "create new Person as ada:\n    name is \"Ada\"\nend\n",
				Fixed:   "create container Person:\n    property name: Text\nend\ncreate new Person as ada:\n    name is \"Ada\"\nend\n"},
			{Message: "Container '…' not found",
				Meaning: "A property or action is used on an instance of a container this file does not declare (created from an unknown container, or one of an included file, which the type checker does not see).",
				Fix:     "Declare the container before its use, or fix its name.",
				Example: "create new Person as ada:\n    name is \"Ada\"\nend\ndisplay ada.name\n",
				Fixed:   "create container Person:\n    property name: Text\nend\ncreate new Person as ada:\n    name is \"Ada\"\nend\ndisplay ada.name\n"},
			{Message: "Property '…' not found in container '…'",
				Meaning: "`create new C as x:` sets a property that C does not declare.",
				Fix:     "Set only the container's properties, or declare the property in it.",
				Example: "create container Person:\n    property name: Text\nend\ncreate new Person as ada:\n    age is 36\nend\n",
				Fixed:   "create container Person:\n    property name: Text\n    property age: Number\nend\ncreate new Person as ada:\n    age is 36\nend\n"},
			{Message: "Parent container '…' not found",
				Meaning: "`create container C extends P` names a parent container that is not declared.",
				Fix:     "Declare the parent container first, or fix its name.",
				Example: "create container Dog extends Animal:\n    property name: Text\nend\n",
				Fixed:   "create container Animal:\n    property legs: Number\nend\ncreate container Dog extends Animal:\n    property name: Text\nend\n"},
			{Message: "Interface '…' not found",
				Meaning: "`implements I` names an interface that is not declared.",
				Fix:     "Declare the interface with `create interface I:`, or fix its name.",
				Example: "create container Square implements Shape:\n    property side: Number\nend\n",
				Fixed:   "create interface Shape:\n    requires action area: Number\nend\ncreate container Square implements Shape:\n    property side: Number\n    action area: Number\n        give back side times side\n    end\nend\n"},
		}},
	{Code: diag.TypeExport, Category: "type", Title: "an export that cannot be made",
		Meaning: "An `export` names something that does not exist or is not of the kind it says (container, action or constant), or exports a variable that can change as a constant.",
		Fix:     "Export a declared name with its right kind.",
		Cases: []Case{
			{Message: "'…' is mutable and cannot be exported as constant",
				Meaning: "`export constant NAME` names a variable declared with `store`, which can change.",
				Fix:     "Declare it with `store new constant NAME as …`.",
				Example: "store limit as 10\nexport constant limit\n", Fixed: "store new constant limit as 10\nexport constant limit\n"},
			{Message: "Action '…' not found for export",
				Meaning: "`export action NAME` names no action of the file.",
				Fix:     "Define the action, or fix its name.",
				Example: "export action greet\n", Fixed: "define action called greet:\n    display \"hi\"\nend action\nexport action greet\n"},
			{Message: "Constant '…' not found for export",
				Meaning: "`export constant NAME` names nothing declared in the file.",
				Fix:     "Declare the constant, or fix its name.",
				Example: "export constant limit\n", Fixed: "store new constant limit as 10\nexport constant limit\n"},
		}},
	{Code: diag.TypeSignal, Category: "type", Title: "a wrong signal handler",
		Meaning: "`register signal handler for SIGNAL as NAME` names an action that is not defined, something that is not an action, or a signal WFL does not support.",
		Fix:     "Define the handler action before registering it, and use one of the signals WFL supports (SIGINT, SIGTERM, SIGHUP, …).",
		Cases: []Case{
			{Message: "Undefined signal handler '…'",
				Meaning: "The handler names no action of the program.",
				Fix:     "Define an action with that name (taking no parameter or one Number, the signal) before registering it.",
				Example: "register signal handler for SIGINT as on_stop\n",
				Fixed:   "define action called on_stop:\n    display \"stopping\"\nend action\nregister signal handler for SIGINT as on_stop\n"},
			{Message: "Invalid signal type: '…'",
				Meaning: "The signal is not one WFL can handle.",
				Fix:     "Use SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGPIPE, SIGALRM, SIGCHLD, SIGCONT or SIGABRT (with or without `SIG`).",
				Example: "define action called on_stop:\n    display \"stopping\"\nend action\nregister signal handler for SIGSTOP as on_stop\n",
				Fixed:   "define action called on_stop:\n    display \"stopping\"\nend action\nregister signal handler for SIGTERM as on_stop\n"},
			{Message: "'…' is not a function",
				Meaning: "The handler names a variable, not an action.",
				Fix:     "Register an action as the handler.",
				Example: "store on_stop as 1\nregister signal handler for SIGINT as on_stop\n",
				Fixed:   "define action called on_stop:\n    display \"stopping\"\nend action\nregister signal handler for SIGINT as on_stop\n"},
		}},

	// Lint findings.
	{Code: diag.LintName, Category: "lint", Title: "a variable name not in snake_case",
		Meaning: "Variable names should be lower case words joined by underscores (the snake_case_variables setting of .wflcfg).",
		Fix:     "Rename the variable and every use of it (fix_wfl returns that rename as edits).",
		Cases: []Case{
			{Message: "… name '…' should be snake_case: '…'",
				Meaning: "The name has capital letters or words joined by spaces.",
				Fix:     "Rename it as the message suggests, everywhere.",
				Example: "store userName as \"Ada\"\ndisplay userName\n", Fixed: "store user_name as \"Ada\"\ndisplay user_name\n"},
		}},
	{Code: diag.LintIndent, Category: "lint", Title: "indentation that does not match the block depth",
		Meaning: "A line is not indented by the configured number of spaces (indent_size, 4 by default) per block level.",
		Fix:     "Re-indent the line; format_wfl and fix_wfl do it for you.",
		Cases: []Case{
			{Message: "line should be indented with … spaces, found …",
				Meaning: "The line's indentation is not its block depth times indent_size.",
				Fix:     "Indent it as the message says.",
				Example: "check if 1 is 1:\n  display \"yes\"\nend check\n", Fixed: "check if 1 is 1:\n    display \"yes\"\nend check\n"},
		}},
	{Code: diag.LintKeyword, Category: "lint", Title: "a keyword in unusual letter case",
		Meaning: "Keywords should be written in lower case (the consistent_keyword_case setting); a capitalised keyword is read as a name.",
		Fix:     "Write the keyword in lower case.",
		Cases: []Case{
			{Message: "keyword '…' should be lower-case…",
				Meaning: "A keyword is written with capital letters.",
				Fix:     "Write it in lower case.",
				Example: "Display \"hi\"\n", Fixed: "display \"hi\"\n"},
		}},
	{Code: diag.LintWhitespace, Category: "lint", Title: "blanks at the end of a line",
		Meaning: "The line ends with spaces or tabs (the trailing_whitespace setting forbids them by default).",
		Fix:     "Delete the trailing blanks; format_wfl and fix_wfl do it for you.",
		Cases: []Case{
			{Message: "line has trailing whitespace",
				Meaning: "Spaces or tabs follow the last character of the line.",
				Fix:     "Delete them.",
				Example: "display \"hi\"   \n", Fixed: "display \"hi\"\n"},
		}},
	{Code: diag.LintLength, Category: "lint", Title: "a line that is too long",
		Meaning: "The line is longer than max_line_length (100 by default).",
		Fix:     "Split the statement, for example by storing part of an expression in a variable first.",
		Cases: []Case{
			{Message: "line is … characters long, more than the maximum of …",
				Meaning: "The line has more characters than the configured maximum.",
				Fix:     "Split the statement over several, storing parts in variables.",
				Example: "display \"" + strings.Repeat("a", 50) + "\" with \"" + strings.Repeat("b", 50) + "\"\n",
				Fixed:   "store first_part as \"" + strings.Repeat("a", 50) + "\"\ndisplay first_part with \"" + strings.Repeat("b", 50) + "\"\n"},
		}},
	{Code: diag.LintComplex, Category: "lint", Title: "blocks nested too deeply",
		Meaning: "Blocks are nested deeper than max_nesting_depth (5 by default), which makes the program hard to follow.",
		Fix:     "Move inner blocks into actions, or return early to flatten the nesting.",
		Cases: []Case{
			{Message: "blocks are nested … deep, more than the maximum of …",
				Meaning: "A block sits inside more blocks than the configured maximum.",
				Fix:     "Move the inner blocks into an action and call it.",
				Example: nested(6), Fixed: nested(5)},
		}},
}

// nested returns depth `check if` blocks one inside the other.
func nested(depth int) string {
	var b strings.Builder
	for i := range depth {
		b.WriteString(strings.Repeat("    ", i) + "check if 1 is 1:\n")
	}
	b.WriteString(strings.Repeat("    ", depth) + "display \"deep\"\n")
	for i := depth - 1; i >= 0; i-- {
		b.WriteString(strings.Repeat("    ", i) + "end check\n")
	}
	return b.String()
}
