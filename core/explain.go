package core

// This file explains diagnostic codes: what each code of the front end
// means and how to fix a program that gets it. It is plain data, shown by
// the MCP explain_diagnostic tool.

import "sort"

// An Explanation tells what a diagnostic code means and how to fix it.
type Explanation struct {
	Code     string
	Category string // parse, semantic, type or lint
	Title    string // one line
	Meaning  string // what the checker found
	Fix      string // how to change the program
	Example  string // a short WFL example of the problem and its fix, or ""
}

// Explain returns the explanation of a diagnostic code.
func Explain(code string) (Explanation, bool) {
	e, ok := explanations[code]
	return e, ok
}

// ExplainedCodes returns every code that has an explanation, sorted.
func ExplainedCodes() []string {
	codes := make([]string, 0, len(explanations))
	for c := range explanations {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	return codes
}

var explanations = map[string]Explanation{}

func init() {
	for _, e := range []Explanation{
		// Parse errors.
		{"PARSE-EXPECTED", "parse", "a required word or symbol is missing",
			"The statement's form needs a particular word or symbol at this point (for example `as` after a variable name in `store`, `to` in `change`, or `:` after a block header), and something else, or the end of the line, was found instead.",
			"Add the missing word or symbol the message names, or rewrite the statement in one of its documented forms.",
			"store total 5        // missing 'as'\nstore total as 5"},
		{"PARSE-UNEXPECTED", "parse", "a word or symbol that cannot appear here",
			"The parser found a token that can neither start a statement nor continue the one being read.",
			"Remove the stray token, or check that the statement before it is complete (a missing operand or keyword often makes the next word unexpected).",
			""},
		{"PARSE-RESERVED", "parse", "a reserved keyword used as a name",
			"WFL reserves some words for its statements (such as `add`, `count`, `test`, `display`), so they cannot name variables, actions or containers.",
			"Choose another name, for example by adding a word: `item_count` instead of `count`.",
			"store count as 3\nstore item_count as 3"},
		{"PARSE-STRAY-END", "parse", "an `end` that closes nothing",
			"An `end …` line does not match any open block: there are more closers than openers, or the closer names a different kind of block.",
			"Delete the extra `end`, or make it match the block it should close (`end action` for an action, `end check` for `check if`, `end for` for `for each`, …).",
			""},
		{"PARSE-EOF", "parse", "the file ends inside a statement",
			"The program ends before a statement or block is finished, usually a block whose `end …` line is missing.",
			"Finish the statement or add the missing closing line at the end of the block.",
			"check if x is greater than 3:\n    display \"big\"\nend check"},
		{"PARSE-TRY-CLAUSE", "parse", "a `try` without a handler",
			"A `try:` block needs at least one `when …`, `catch` or `finally` clause after its body.",
			"Add a clause that handles the error, for example `when error:` followed by what to do, before `end try`.",
			""},
		{"PARSE-PATTERN", "parse", "a malformed pattern definition",
			"The body of a `create pattern … end pattern` definition does not follow the pattern language (unbalanced groups, an unknown element or a malformed repetition).",
			"Fix the pattern element the message points at; each element must be a literal text, a character class, a group or a repetition of one.",
			""},
		{"PARSE-UNSUPPORTED", "parse", "a form WFL does not support",
			"The statement uses a form that the WFL language does not provide (for example a module alias).",
			"Rewrite the statement with a supported form, as the message suggests.",
			""},
		{"PARSE-DUPLICATE", "parse", "a clause given twice",
			"A statement has the same clause more than once (for example two `otherwise` branches in one `check if`).",
			"Keep one of the clauses and merge or delete the other.",
			""},
		{"PARSE-TOO-DEEP", "parse", "nesting too deep to parse",
			"Blocks or expressions are nested deeper than the parser's limit.",
			"Move inner parts into actions or intermediate variables to flatten the program.",
			""},
		{"PARSE-DROPPED-CHAR", "parse", "a character WFL ignores",
			"The line contains a character that the WFL lexer skips (a warning): it has no effect on the program.",
			"Delete the character; if it was meant as an operator, use WFL's word form (`plus`, `minus`, `times`, …).",
			""},
		// Semantic errors and static warnings.
		{"ANALYZE-SEMANTIC", "semantic", "a name or statement misused",
			"The analyzer found a rule of the language broken: a name used but not defined (or used before its definition), a name defined twice in one scope, a constant changed, an unknown or repeated named argument, no version of an action that accepts the arguments given, and similar; the message says which.",
			"Read the message: define the name before its use (or fix its spelling), rename the duplicate, store a new variable instead of changing a constant, or pass the arguments the action's definition names.",
			"display total\nstore total as 5\n// define before use:\nstore total as 5\ndisplay total"},
		{"ANALYZE-UNUSED", "semantic", "a variable that is never used",
			"A variable is stored but never read afterwards (a warning).",
			"Use the variable, or delete the statement that stores it.",
			""},
		{"ANALYZE-UNREACHABLE", "semantic", "code that can never run",
			"Statements follow a `give back`, `break`, `continue` or `exit` in the same block, so they never run (a warning).",
			"Delete the unreachable statements or move them before the statement that leaves the block.",
			""},
		{"ANALYZE-DEADBRANCH", "semantic", "a branch that can never run",
			"A branch of a `check if` can never be taken, for example because its condition is a constant (a warning).",
			"Fix the condition or delete the branch.",
			""},
		{"ANALYZE-SHADOW", "semantic", "a variable that hides another",
			"A variable declared inside a block has the same name as one declared outside it, so the outer one cannot be reached there (a warning).",
			"Rename the inner variable, or use `change` to assign the outer one instead of declaring a new one.",
			""},
		{"ANALYZE-RETURN", "semantic", "an action that sometimes gives back nothing",
			"Some paths through an action end with `give back` a value while others reach `end action` without one (a warning).",
			"Give back a value on every path, for example by adding a `give back` before `end action`.",
			""},
		{"ANALYZE-SECURITY", "semantic", "an insecure use of a builtin",
			"A builtin is used where it is unsafe, such as `random_seed` in authentication, session or cryptographic code.",
			"Use a builtin meant for security, such as a secure random generator, in that code.",
			""},
		// Type errors.
		{"TYPE-OPERAND", "type", "an operator applied to the wrong types",
			"An operator got operands it cannot combine, such as arithmetic on Text, a comparison between Text and a Number, or `and`/`or` on non-Boolean values.",
			"Convert one operand (for example with `convert to number` or `convert to text`) or use the operator meant for those types (`with` joins texts).",
			"store n as \"3\" plus 4\nstore n as 3 plus 4"},
		{"TYPE-CALL", "type", "calling something that cannot be called",
			"The program calls a name that is not an action or builtin function, or a builtin that does not exist.",
			"Check the name's spelling (lookup_builtin lists builtins) or define the action before calling it.",
			""},
		{"TYPE-ARITY", "type", "the wrong number of arguments",
			"An action or builtin was called with more or fewer arguments than it accepts.",
			"Pass exactly the arguments its definition lists (lookup_builtin shows a builtin's parameter lists).",
			""},
		{"TYPE-ARGUMENT", "type", "an argument of the wrong type",
			"An argument's type does not match the parameter it is passed to, for example a Number where a builtin expects Text.",
			"Pass a value of the expected type, converting it if needed.",
			""},
		{"TYPE-INDEX", "type", "indexing the wrong kind of value",
			"A value is indexed (`item 1 of x`, `x[i]`) that is not a list, map or text, or the index has the wrong type.",
			"Index only lists, maps and texts, with a Number for lists and texts and a key of the map's key type for maps.",
			""},
		{"TYPE-MEMBER", "type", "an unknown property or method",
			"A property or method is used on a value that does not have it, such as a container instance without that property.",
			"Declare the property or method in the container, or use one it has.",
			""},
		{"TYPE-CONDITION", "type", "a condition that is not a Boolean",
			"The condition of `check if`, `repeat while`, `repeat until` or a similar statement is not a yes/no value.",
			"Compare the value with something (`is`, `is greater than`, …) so the condition is a Boolean.",
			"check if count:\ncheck if count is greater than 0:"},
		{"TYPE-ASSIGN", "type", "a value of the wrong type assigned",
			"`change` gives a variable a value whose type is not compatible with the variable's type.",
			"Assign a value of the variable's type, convert the value, or store it in a new variable.",
			""},
		{"TYPE-RETURN", "type", "a returned value of the wrong type",
			"An action gives back a value whose type does not match its declared return type, or gives back a value where none is declared.",
			"Give back a value of the declared type, or change the declared type.",
			""},
		{"TYPE-STATEMENT", "type", "a statement operand of the wrong type",
			"A statement got a value of the wrong type for one of its parts, such as a port that is not a Number, a file path that is not Text or a duration that is not a Number.",
			"Pass a value of the type the statement needs.",
			""},
		{"TYPE-CONTAINER", "type", "an unknown container, interface, event or property",
			"The program refers to a container, interface, event or property that is not declared, or creates an instance with properties its container lacks.",
			"Declare it before use, or fix the name.",
			""},
		{"TYPE-EXPORT", "type", "an export that cannot be made",
			"An `export` names something that does not exist or is not of the kind it says (container, action or constant).",
			"Export a declared name with its right kind.",
			""},
		{"TYPE-SIGNAL", "type", "a wrong signal handler",
			"A signal handler is declared for something that is not a signal, or with the wrong form.",
			"Use one of the signals WFL supports, in the documented form.",
			""},
		// Lint findings.
		{"LINT-NAME", "lint", "a variable name not in snake_case",
			"Variable names should be lower case words joined by underscores (the snake_case_variables setting of .wflcfg).",
			"Rename the variable and every use of it (fix_wfl returns that rename as edits).",
			"store userName as \"Ada\"\nstore user_name as \"Ada\""},
		{"LINT-INDENT", "lint", "indentation that does not match the block depth",
			"A line is not indented by the configured number of spaces (indent_size, 4 by default) per block level.",
			"Re-indent the line; format_wfl and fix_wfl do it for you.",
			""},
		{"LINT-KEYWORD", "lint", "a keyword in unusual letter case",
			"Keywords should be written in lower case (the consistent_keyword_case setting).",
			"Write the keyword in lower case.",
			"Display \"hi\"\ndisplay \"hi\""},
		{"LINT-WHITESPACE", "lint", "blanks at the end of a line",
			"The line ends with spaces or tabs (the trailing_whitespace setting forbids them by default).",
			"Delete the trailing blanks; format_wfl and fix_wfl do it for you.",
			""},
		{"LINT-LENGTH", "lint", "a line that is too long",
			"The line is longer than max_line_length (100 by default).",
			"Split the statement, for example by storing part of an expression in a variable first.",
			""},
		{"LINT-COMPLEX", "lint", "blocks nested too deeply",
			"Blocks are nested deeper than max_nesting_depth (5 by default), which makes the program hard to follow.",
			"Move inner blocks into actions, or return early to flatten the nesting.",
			""},
	} {
		explanations[e.Code] = e
	}
}
