package ast

// This file declares the expression nodes.

// BadExpr stands for text where an expression was expected but could not be
// parsed. The parser reported a diagnostic for it.
type BadExpr struct {
	Range
}

// LitKind tells the kinds of [BasicLit] apart.
type LitKind int

const (
	LitString  LitKind = iota + 1 // "text", Value is the decoded text
	LitInt                        // 42, Value is the digits
	LitFloat                      // 2.5, Value is the source spelling
	LitBool                       // yes/no/true/false in any letter case; Value is "true" or "false"
	LitNothing                    // nothing, missing, undefined; Value is the spelling
)

func (k LitKind) String() string {
	switch k {
	case LitString:
		return "string"
	case LitInt:
		return "int"
	case LitFloat:
		return "float"
	case LitBool:
		return "bool"
	case LitNothing:
		return "nothing"
	}
	return "?"
}

// BasicLit is a literal of a primitive type.
type BasicLit struct {
	Range
	Kind  LitKind
	Value string // see LitKind; for strings the text with escapes decoded
}

// PatternLit is `pattern "abc"`: a pattern literal (type Pattern).
type PatternLit struct {
	Range
	Lit *BasicLit // the string after `pattern`
}

// ListLit is `[a, b, c]`. Elements are primaries; separators `,`, `and`, `:`.
type ListLit struct {
	Range // from '[' to ']' inclusive
	Elems []Expr
}

// ParenExpr is `( X )`. The reference has no node for it; printers skip it.
type ParenExpr struct {
	Range
	X Expr
}

// Unparen returns e without the parentheses around it.
func Unparen(e Expr) Expr {
	for {
		p, ok := e.(*ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}

// BinaryOp is the operator of a [BinaryExpr], named as in the reference AST.
type BinaryOp int

const (
	OpPlus BinaryOp = iota + 1
	OpMinus
	OpMultiply
	OpDivide
	OpModulo
	OpEquals
	OpNotEquals
	OpGreaterThan
	OpLessThan
	OpGreaterThanOrEqual
	OpLessThanOrEqual
	OpAnd
	OpOr
	OpContains
)

var binaryOpNames = [...]string{
	OpPlus: "Plus", OpMinus: "Minus", OpMultiply: "Multiply", OpDivide: "Divide",
	OpModulo: "Modulo", OpEquals: "Equals", OpNotEquals: "NotEquals",
	OpGreaterThan: "GreaterThan", OpLessThan: "LessThan",
	OpGreaterThanOrEqual: "GreaterThanOrEqual", OpLessThanOrEqual: "LessThanOrEqual",
	OpAnd: "And", OpOr: "Or", OpContains: "Contains",
}

// String returns the reference's name of the operator ("Plus", "Equals", …).
func (op BinaryOp) String() string {
	if op > 0 && int(op) < len(binaryOpNames) {
		return binaryOpNames[op]
	}
	return "?"
}

// IsComparison reports whether op is one of the six comparisons.
func (op BinaryOp) IsComparison() bool { return op >= OpEquals && op <= OpLessThanOrEqual }

// IsArithmetic reports whether op is + - * / %.
func (op BinaryOp) IsArithmetic() bool { return op >= OpPlus && op <= OpModulo }

// BinaryExpr is `X op Y`, for every surface spelling of the operator
// (`plus`/`+`, `is greater than`, `is not equal to`, `=`, `contains`, …).
//
// It is the most numerous node of arithmetic and of long operator chains,
// so it holds no more than it must: 64 bytes, one of the allocator's size
// classes. (The operator's end is not kept: nothing asked for it, and it
// put the node in the 80-byte class.)
type BinaryExpr struct {
	Range
	X     Expr
	Op    BinaryOp
	OpPos int // offset of the operator's first word (`is`, `plus`, `+`, …)
	Y     Expr
}

// BetweenExpr is `X is between Lo and Hi`, meaning X >= Lo and X <= Hi.
type BetweenExpr struct {
	Range
	X, Lo, Hi Expr
}

// UnaryOp is the operator of a [UnaryExpr].
type UnaryOp int

const (
	OpNot UnaryOp = iota + 1 // not x
	OpNeg                    // -x
)

func (op UnaryOp) String() string {
	switch op {
	case OpNot:
		return "Not"
	case OpNeg:
		return "Minus"
	}
	return "?"
}

// UnaryExpr is `not X` or `-X`; X is a primary.
type UnaryExpr struct {
	Range
	Op UnaryOp
	X  Expr
}

// ConcatExpr is `X with Y`: text concatenation (right-associative, and it
// ignores precedence: Y is everything to the right).
type ConcatExpr struct {
	Range
	X       Expr
	WithPos int // offset of `with`
	Y       Expr
}

// An Arg is one argument of a call: a value, optionally named (`name: v`).
type Arg struct {
	Range
	Name  *Ident // nil for a positional argument
	Value Expr
}

// CallExpr is an `of` call, `f of a and b`, and the calls the parser makes
// from phrases: `p starts with "a"` (Fun "starts_with", Args [p, "a"]),
// `contains x in s` (Fun "contains", Args [s, x]) and the file-system sugar
// statements. Fun is an *Ident or another *CallExpr (`f of x of y`).
type CallExpr struct {
	Range
	Fun   Expr
	Args  []*Arg
	Sugar bool // made from a phrase (starts with, ends with, contains … in, copy_file from …), not `of`
}

// ActionCallExpr is `call NAME [with args]`, or the legacy builtin form
// `NAME with a and b` when NAME is a builtin function (Legacy set).
type ActionCallExpr struct {
	Range
	Name   *Ident
	Args   []*Arg
	Legacy bool // `typeof with x`: no `call` keyword
}

// IndexKind tells how an [IndexExpr] was written.
type IndexKind int

const (
	IndexBracket IndexKind = iota + 1 // xs[i]
	IndexAt                           // xs at i
	IndexBare                         // xs 0 (a bare integer after an indexable primary)
)

// IndexExpr is `X[Index]`, `X at Index` or `X 0`.
type IndexExpr struct {
	Range
	X     Expr
	Index Expr
	Kind  IndexKind
}

// PropertyExpr is `X.Prop`.
type PropertyExpr struct {
	Range
	X    Expr
	Prop *Ident
}

// StaticMemberExpr is `kw.member` after a keyword that has its own primary
// form (`error.message`, `count.x`): the reference's StaticMemberAccess.
type StaticMemberExpr struct {
	Range
	Container *Ident // the keyword
	Member    *Ident
}

// MethodCallExpr is `X.Method(a, b)`.
type MethodCallExpr struct {
	Range
	X      Expr
	Method *Ident
	Args   []*Arg
}

// MatchesExpr is `X matches [pattern] P` or `X contains pattern P`
// (the reference's PatternMatch).
type MatchesExpr struct {
	Range
	X       Expr
	Pattern Expr
}

// FindExpr is `find P in T` (the reference's PatternFind). In the binary form
// `L find P in T` the reference discards L; it is kept in Discarded.
type FindExpr struct {
	Range
	Discarded Expr // the ignored left operand, or nil
	Pattern   Expr
	Text      Expr // nil when `in T` is absent (binary `X find P`: Text is X)
}

// ReplaceExpr is `replace P with R in T` (PatternReplace).
type ReplaceExpr struct {
	Range
	Discarded   Expr // the ignored left operand of the binary form, or nil
	Pattern     Expr
	Replacement Expr
	Text        Expr
}

// SplitExpr is `split [of] T by D` (StringSplit) or `split T on pattern P`
// (PatternSplit, OnPattern set).
type SplitExpr struct {
	Range
	Discarded Expr // the ignored left operand of the binary form, or nil
	Text      Expr
	Delim     Expr // delimiter or pattern
	OnPattern bool
}

// HeaderExpr is `header "Name" of R`.
type HeaderExpr struct {
	Range
	Name    *BasicLit
	Request Expr
}

// CurrentTimeExpr is `current time in milliseconds` (Format nil) or
// `current time formatted as "…"`.
type CurrentTimeExpr struct {
	Range
	Format *BasicLit
}

// FileExistsExpr is `file exists at P` or `directory exists at P` (Dir set).
type FileExistsExpr struct {
	Range
	Path Expr
	Dir  bool
}

// FileSizeExpr is `file size of H`.
type FileSizeExpr struct {
	Range
	File Expr
}

// ListFilesExpr is `list files [recursively] in P [recursively] [with
// extension E | extensions L | pattern P]`.
type ListFilesExpr struct {
	Range
	Path       Expr
	Recursive  bool
	Extensions []Expr // the filter values, or nil
}

// ReadKind tells the forms of [ReadContentExpr] apart.
type ReadKind int

const (
	ReadText   ReadKind = iota + 1 // read content from F
	ReadBinary                     // read binary from F
	ReadBytes                      // read N bytes from F
)

// ReadContentExpr is `read content from F`, `read binary from F` or
// `read N bytes from F`.
type ReadContentExpr struct {
	Range
	Kind  ReadKind
	Count Expr // N for ReadBytes, else nil
	File  Expr
}

// ProcessRunningExpr is `process P is running`.
type ProcessRunningExpr struct {
	Range
	Process Expr
}

// QueryKind tells `query` from `execute` database statements.
type QueryKind int

const (
	QueryQuery   QueryKind = iota + 1 // returns rows
	QueryExecute                      // runs a command
)

// DatabaseQueryExpr is `query DB with SQL [and parameters P]` or
// `execute DB with SQL [and parameters P]`; it appears only as the value of
// a [VarDecl] or a [ReturnStmt] (the reference's DatabaseQueryStatement and
// DatabaseQuery).
type DatabaseQueryExpr struct {
	Range
	Kind   QueryKind
	DB     Expr
	SQL    Expr
	Params Expr // or nil
}

func (*BadExpr) exprNode()            {}
func (*BasicLit) exprNode()           {}
func (*PatternLit) exprNode()         {}
func (*ListLit) exprNode()            {}
func (*ParenExpr) exprNode()          {}
func (*BinaryExpr) exprNode()         {}
func (*BetweenExpr) exprNode()        {}
func (*UnaryExpr) exprNode()          {}
func (*ConcatExpr) exprNode()         {}
func (*CallExpr) exprNode()           {}
func (*ActionCallExpr) exprNode()     {}
func (*IndexExpr) exprNode()          {}
func (*PropertyExpr) exprNode()       {}
func (*StaticMemberExpr) exprNode()   {}
func (*MethodCallExpr) exprNode()     {}
func (*MatchesExpr) exprNode()        {}
func (*FindExpr) exprNode()           {}
func (*ReplaceExpr) exprNode()        {}
func (*SplitExpr) exprNode()          {}
func (*HeaderExpr) exprNode()         {}
func (*CurrentTimeExpr) exprNode()    {}
func (*FileExistsExpr) exprNode()     {}
func (*FileSizeExpr) exprNode()       {}
func (*ListFilesExpr) exprNode()      {}
func (*ReadContentExpr) exprNode()    {}
func (*ProcessRunningExpr) exprNode() {}
func (*DatabaseQueryExpr) exprNode()  {}
func (*Ident) exprNode()              {}
