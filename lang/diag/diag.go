// Package diag defines the diagnostics every stage of the WFL front end
// reports: parse errors, analyzer and type errors, lint findings. A
// [Diagnostic] is plain data in byte offsets; lang/token.Lines turns its span
// into lines and columns at the edges.
//
// Codes are stable strings, each a constant of this package (codes.go):
// parse diagnostics use "PARSE-*", the analyzer the reference's "ANALYZE-*",
// the type checker "TYPE-*", the linter "LINT-*". The ANALYZE-* and LINT-*
// codes are the reference's own. Package lang/diag/explain tells what each
// code means, with examples.
package diag

import "wfl-lsp/lang/token"

// Severity orders diagnostics from most to least serious.
type Severity uint8

const (
	Error Severity = iota + 1
	Warning
	Information
	Hint
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	case Information:
		return "information"
	case Hint:
		return "hint"
	}
	return "unknown"
}

// Category names the stage that found a problem.
type Category uint8

const (
	Parse Category = iota + 1
	Semantic
	Type
	Lint
)

func (c Category) String() string {
	switch c {
	case Parse:
		return "parse"
	case Semantic:
		return "semantic"
	case Type:
		return "type"
	case Lint:
		return "lint"
	}
	return "unknown"
}

// Tag marks diagnostics that editors render specially. A diagnostic's Tags
// is a set of them, or-ed together.
type Tag uint8

const (
	Unnecessary Tag = 1 << iota // unused code, shown faded
	Deprecated                  // shown struck through
)

// AllTags lists every tag, for iterating over a set.
var AllTags = [...]Tag{Unnecessary, Deprecated}

// Has reports whether the set t holds tag x.
func (t Tag) Has(x Tag) bool { return t&x != 0 }

// A Diagnostic is one problem in one document. (Its one-byte fields come
// together: 104 bytes, not 112, and a document holds its diagnostics in
// more than one list.)
type Diagnostic struct {
	Span     token.Span // smallest span that shows the problem, in bytes
	Severity Severity
	Category Category
	Tags     Tag       // a set; 0 for none
	Kind     Kind      // what the finding is about, for the code that acts on it; 0 when not told
	Code     string    // stable code, e.g. "PARSE-EXPECTED" or "ANALYZE-UNUSED"
	Names    []string  // the names or words it is about, as Kind says (without one: the names its message quotes); nil when none
	Message  string    // lower-case sentence without trailing period where we write it
	Related  []Related // other places that explain this one, or nil
}

// A Kind says what a diagnostic is about, for the code that acts on it
// (quick fixes, the list an editor shows while the text is broken), which
// never reads a message: messages are for people and may be reworded.
type Kind uint8

const (
	// Unclosed: a block's closer is missing, and the parser closed the
	// block where the indentation ends it, keeping its tree. Names[0] is
	// the closer (`end check`); Related[0] is the block's header;
	// Related[1], an empty span, is where the closer goes (on a line of its
	// own after that line). Names[1:], when the finding was the parser's
	// Expected (its closer check found another word), are that finding's
	// names.
	Unclosed Kind = iota + 1
	// Misclosed: a block was closed by a closer that is not its own on a
	// line at its header's indentation (`end for` after a `check if`), which
	// the parser took for its closer. Names[0] is the block's closer;
	// Related[0] is its header. Names[1:] are as Unclosed's.
	Misclosed
	// Stray: an `end` inside a block's body, indented deeper than its
	// header, that closes nothing (its header did not parse); the parser
	// skipped it and read the body on. Its Names are those the finding had
	// (an Expected's, when it was one).
	Stray

	// Undefined: a variable is used that no statement declares where it
	// is used. Names[0] is the name; Names[1], when there, is the included
	// file that declares it, which the checker does not read.
	Undefined
	// UndefinedAction: a call names an action that is not declared.
	// Names[0] is the action's name.
	UndefinedAction
	// UndefinedType: a type is named that no container, interface or
	// type of WFL has. Names[0] is the name.
	UndefinedType
	// UndefinedInterface: a container implements an interface that is not
	// declared. Names[0] is the name.
	UndefinedInterface
	// Redefined: a `store` declares a variable that is already declared
	// in its scope or an outer one. Names[0] is the name.
	Redefined
	// DuplicateAction: an action is declared twice with parameters that
	// calls cannot tell apart; its message names the other's line.
	// Names[0] is the action's name.
	DuplicateAction
	// Unused: a variable is declared and never read. Names[0] is the
	// name.
	Unused
	// ExpectedValue: the parser wanted a value (an expression) and found
	// another token. Names[0] is that token when it is a keyword (`as`
	// in `x as 5`, which lacks its `store`), "" when it is none (a name,
	// a literal, a symbol, the end of a line or of the file).
	ExpectedValue
	// Unsatisfied: a container does not declare an action an interface it
	// implements requires. Names is the container, the interface and the
	// action, in that order.
	Unsatisfied
	// Expected: the parser wanted a word or a symbol and found another
	// token (`expected 'as' after the variable name, found number 5`).
	// Names[0] is what it found, as written: a keyword, a symbol, a name,
	// a literal with its quotes; "\n" for the end of a line, "" for the end
	// of the file. Names[1] is what the wanted words follow, as the message
	// says it: a word (`end` of `expected 'check' after 'end'`) or a part
	// of the statement (`the variable name`); "" when the message places
	// them otherwise (`to close the action`, `in the list`). Names[2:] are
	// the words it wanted, one for each alternative it offers (`when`,
	// `otherwise`, `end route`), each as a program writes it (`end check`,
	// `:`, or `to STREAM` where a value follows).
	Expected
	// NotFound: the type checker finds no declaration of a container, a
	// parent container, an interface, an event, or a constant, action or
	// container exported, of the name used (`Container 'Person' not
	// found`), nor of the action a `flush` that has no stream to flush may
	// name. Names[0] is the name; Names[1], for a parent's method, is the
	// parent container.
	NotFound
	// NoMember: a container has no property or method of the name used.
	// Names[0] is the member, Names[1] the container.
	NoMember
	// NotCallable: a name is called, or named as a signal's handler, that
	// is not an action (`'body' is not a function`). Names[0] is the name.
	NotCallable
	// UndefinedHandler: a signal's handler names nothing declared.
	// Names[0] is the name.
	UndefinedHandler
	// UndefinedListRef: a pattern refers to a list that is not declared.
	// Names[0] is the name.
	UndefinedListRef
	// Unimplemented: a builtin is called that the runtime recognizes but
	// does not implement. Names[0] is the builtin.
	Unimplemented
	// OpenQuote: a quote was left open on its line (lexer.OpenQuotes), as
	// while a string is being typed. The span is the string to the end of
	// its line; Related[0], when there, is the later quote the reference
	// pairs it with.
	OpenQuote
	// UndefinedParamWord: a name read where it is not declared that is a
	// word of a top-level action's parameters (`width` read outside
	// `area with parameters width and height`). The reference's command
	// drops its error; it is a warning here. The reference's static pass
	// does not run then (no unused or unreachable findings), and so the
	// checker's static findings are not shown. Names[0] is the name.
	UndefinedParamWord
	// MissingInclude: an `include from` names a file that does not exist
	// (an information: the reference does not follow includes when it
	// checks). Names[0] is the path as written.
	MissingInclude
)

func (k Kind) String() string {
	switch k {
	case Unclosed:
		return "unclosed"
	case Misclosed:
		return "misclosed"
	case Stray:
		return "stray"
	case Undefined:
		return "undefined"
	case UndefinedAction:
		return "undefined action"
	case UndefinedType:
		return "undefined type"
	case UndefinedInterface:
		return "undefined interface"
	case Redefined:
		return "redefined"
	case DuplicateAction:
		return "duplicate action"
	case Unused:
		return "unused"
	case ExpectedValue:
		return "expected value"
	case Unsatisfied:
		return "unsatisfied"
	case Expected:
		return "expected"
	case NotFound:
		return "not found"
	case NoMember:
		return "no member"
	case NotCallable:
		return "not callable"
	case UndefinedHandler:
		return "undefined handler"
	case UndefinedListRef:
		return "undefined list reference"
	case Unimplemented:
		return "unimplemented"
	case OpenQuote:
		return "open quote"
	case UndefinedParamWord:
		return "undefined parameter word"
	case MissingInclude:
		return "missing include"
	}
	return ""
}

// Recovered reports whether the parser recovered from the finding keeping
// the tree whole: a block's closer missing or mistyped. (A Stray `end`
// says a block's header did not parse: the lines it held are misread.)
func (k Kind) Recovered() bool { return k == Unclosed || k == Misclosed }

// UndefinedVariable reports whether the finding says a name read as a
// variable is declared nowhere: Undefined, or UndefinedParamWord (the same
// finding about a word of an action's parameters read outside it, which
// only holds the static pass back besides).
func (k Kind) UndefinedVariable() bool { return k == Undefined || k == UndefinedParamWord }

// Undeclared reports whether the finding says a name is not declared, or
// not as what it is used as (a value called, a builtin the runtime lacks
// named where an action of the program may stand): a declaration the text
// gains may remove it.
func (k Kind) Undeclared() bool {
	switch k {
	case Undefined, UndefinedAction, UndefinedType, UndefinedInterface, NotFound, NoMember, NotCallable,
		UndefinedHandler, UndefinedListRef, Unimplemented, UndefinedParamWord:
		return true
	}
	return false
}

// Layout reports whether the parser's recovery of blocks by their layout
// told the finding: Unclosed, Misclosed or Stray.
func (k Kind) Layout() bool { return k == Unclosed || k == Misclosed || k == Stray }

// ProgramNames returns the names of the program that d is about: its
// Names but for those that are not such names (an Undefined's included
// file; the words and the text of the parser's findings).
func (d Diagnostic) ProgramNames() []string {
	switch d.Kind {
	case Undefined:
		return d.Names[:min(1, len(d.Names))]
	case Unclosed, Misclosed, Stray, ExpectedValue, Expected:
		return nil
	}
	return d.Names
}

// Related points at another place that explains a diagnostic, such as the
// block opener that an "end" is missing for.
type Related struct {
	Span    token.Span
	Message string
}
