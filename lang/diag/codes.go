package diag

// The codes of the diagnostics, one constant each: a Diagnostic's Code is
// one of them. Their values are stable (`check --json` and the reference's
// verdicts compare them); package lang/diag/explain tells what each means.

// Parse errors, reported by the parser (lang/parser).
const (
	ParseExpected    = "PARSE-EXPECTED"     // a required word or token is missing or wrong
	ParseUnexpected  = "PARSE-UNEXPECTED"   // a token that cannot start or continue what is being parsed
	ParseReserved    = "PARSE-RESERVED"     // a reserved keyword used as a name
	ParseStrayEnd    = "PARSE-STRAY-END"    // `end` followed by something that closes nothing
	ParseEOF         = "PARSE-EOF"          // the file ends inside a statement
	ParseTryClause   = "PARSE-TRY-CLAUSE"   // a try without when/catch/finally
	ParsePattern     = "PARSE-PATTERN"      // a malformed pattern definition
	ParseUnsupported = "PARSE-UNSUPPORTED"  // a form the language does not support (module aliases, …)
	ParseDuplicate   = "PARSE-DUPLICATE"    // a clause given twice
	ParseTooDeep     = "PARSE-TOO-DEEP"     // nesting deeper than the parser's MaxDepth
	ParseDroppedChar = "PARSE-DROPPED-CHAR" // a character the language ignores (warning)
	ParseOpenQuote   = "PARSE-OPEN-QUOTE"   // a quote left open on its line, which pairs with a later line's (the editor's list only)
)

// The analyzer's and the static pass's findings (lang/check), the
// reference's ANALYZE-* codes.
const (
	AnalyzeSemantic    = "ANALYZE-SEMANTIC"    // a name or statement misused (undefined, redefined, …)
	AnalyzeInclude     = "ANALYZE-INCLUDE"     // an include that cannot be followed
	AnalyzeUnused      = "ANALYZE-UNUSED"      // a variable never read (warning)
	AnalyzeUnreachable = "ANALYZE-UNREACHABLE" // statements after a top-level return (warning)
	AnalyzeDeadBranch  = "ANALYZE-DEADBRANCH"  // a `check if` after a top-level return (warning)
	AnalyzeShadow      = "ANALYZE-SHADOW"      // a variable that hides another of the same name (warning)
	AnalyzeReturn      = "ANALYZE-RETURN"      // an action that returns on some paths only (warning)
	AnalyzeSecurity    = "ANALYZE-SECURITY"    // an insecure use of a builtin
)

// Type errors, reported by the type checker (lang/check).
const (
	TypeOperand   = "TYPE-OPERAND"   // operator applied to the wrong types
	TypeCall      = "TYPE-CALL"      // calling something that cannot be called, unknown builtins
	TypeArity     = "TYPE-ARITY"     // wrong number of arguments
	TypeArgument  = "TYPE-ARGUMENT"  // argument of the wrong type
	TypeIndex     = "TYPE-INDEX"     // indexing errors
	TypeMember    = "TYPE-MEMBER"    // property and method access
	TypeCondition = "TYPE-CONDITION" // non-boolean conditions
	TypeAssign    = "TYPE-ASSIGN"    // incompatible assignment
	TypeReturn    = "TYPE-RETURN"    // return type errors
	TypeStatement = "TYPE-STATEMENT" // operand types of statements (ports, paths, durations, …)
	TypeContainer = "TYPE-CONTAINER" // unknown containers, interfaces, events, properties
	TypeExport    = "TYPE-EXPORT"    // export errors
	TypeSignal    = "TYPE-SIGNAL"    // signal handlers
)

// Lint findings, reported by the linter's rules (lang/lint), the
// reference's LINT-* codes.
const (
	LintLength     = "LINT-LENGTH"     // a line longer than the maximum
	LintWhitespace = "LINT-WHITESPACE" // blanks at the end of a line
	LintKeyword    = "LINT-KEYWORD"    // a keyword in unusual letter case
	LintIndent     = "LINT-INDENT"     // indentation that does not match the block depth
	LintName       = "LINT-NAME"       // a variable name not in snake_case
	LintComplex    = "LINT-COMPLEX"    // blocks nested deeper than the maximum
)
