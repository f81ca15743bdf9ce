package ast

// This file declares the statement nodes, in the order of the reference
// notes' appendix A. The number in each comment is the appendix A form.

// BadStmt stands for text that could not be parsed as a statement; the
// parser reported a diagnostic and skipped to a recovery point.
type BadStmt struct {
	Range
}

// ---- variables and arithmetic assignment ----

// VarDecl is `store N as E` (1), `create N as E` (2), `store new constant N
// as E` (3), `create new constant N as E` (4), and with a [DatabaseQueryExpr]
// value `store N as query DB with SQL …` (5, 6).
type VarDecl struct {
	Range
	Doc      *CommentGroup // comments directly above, or nil
	Create   bool          // spelled `create` instead of `store`
	Constant bool          // `new constant`
	Name     *Ident
	Value    Expr
}

// AssignKind tells the spellings of [AssignStmt] apart.
type AssignKind int

const (
	AssignChange   AssignKind = iota + 1 // change N to E
	AssignSubtract                       // subtract E from N: N = N - E
	AssignMultiply                       // multiply N by E: N = N * E
	AssignDivide                         // divide N by E: N = N / E
)

// AssignStmt is `change N to E` (7), `subtract E from N` (9), `multiply N
// by E` (10), `divide N by E` (11).
type AssignStmt struct {
	Range
	Kind  AssignKind
	Name  *Ident
	Value Expr
}

// AddStmt is `add E to N` (8): list append or numeric add.
type AddStmt struct {
	Range
	Value Expr
	List  *Ident
}

// ---- output ----

// DisplayStmt is `display E {E}` (12). Juxtaposed values are concatenated.
type DisplayStmt struct {
	Range
	Values []Expr // at least one unless the statement is broken
}

// ---- conditionals ----

// IfStmt is `check if E: … [otherwise …] end check` (13) and `if E then …
// [otherwise …] end if` (15). Else is nil, a *Block, or for `otherwise check
// if …` a chained *IfStmt (Chained set) that shares the final `end check`.
type IfStmt struct {
	Range
	Check   bool // spelled `check if` (else `if … then`)
	Chained bool // an `otherwise check if` link of an outer chain
	Cond    Expr
	Then    *Block
	Else    Stmt
}

// SingleIfStmt is the single-line `if E then S` at the end of a file (14).
type SingleIfStmt struct {
	Range
	Cond Expr
	Then Stmt
}

// RouteStmt is `route E: when …: … [otherwise: …] end route` (103). The
// reference desugars it into an if-chain comparing Subject with each arm.
type RouteStmt struct {
	Range
	Subject   Expr
	Arms      []*RouteArm
	Otherwise *Block // or nil
}

// RouteArmKind tells the patterns of a route arm apart.
type RouteArmKind int

const (
	ArmEquals     RouteArmKind = iota + 1 // when V1 or V2: subject is V1 or subject is V2
	ArmContains                           // when contains V: subject contains V
	ArmOneOf                              // when one of L: L contains subject
	ArmStartsWith                         // when starts with V
	ArmEndsWith                           // when ends with V
)

// RouteArm is one `when PATTERN: body` of a [RouteStmt].
type RouteArm struct {
	Range
	Kind   RouteArmKind
	Values []Expr // one value, or several for ArmEquals
	Body   *Block
}

// ---- loops ----

// CountStmt is `count from A to B [by S] [as V]: … end count` (16) and
// `count from A down to B …` (17).
type CountStmt struct {
	Range
	From, To Expr
	Down     bool
	Step     Expr   // or nil
	Var      *Ident // or nil: the loop variable is `count`
	Body     *Block
}

// ForEachStmt is `for each X in [reversed] E: … end for` (18).
type ForEachStmt struct {
	Range
	Var      *Ident
	Reversed bool
	Coll     Expr
	Body     *Block
}

// RepeatKind tells the forms of [RepeatStmt] apart.
type RepeatKind int

const (
	RepeatWhile   RepeatKind = iota + 1 // repeat while E: … end repeat (19)
	RepeatUntil                         // repeat until E: … end repeat (20)
	RepeatForever                       // repeat forever: … end repeat (21)
	RepeatDoUntil                       // repeat: … until E (22), the test after the body
)

// RepeatStmt is one of the repeat loops.
type RepeatStmt struct {
	Range
	Kind RepeatKind
	Cond Expr // nil for RepeatForever
	Body *Block
}

// MainLoopStmt is `main loop [concurrently]: … end loop` (23).
type MainLoopStmt struct {
	Range
	Concurrent bool
	Body       *Block
}

// BranchKind tells `break` from `continue`.
type BranchKind int

const (
	Break    BranchKind = iota + 1 // break (24)
	Continue                       // continue or skip (25)
)

// BranchStmt is `break`, `continue` or `skip`.
type BranchStmt struct {
	Range
	Kind BranchKind
}

// ExitStmt is `exit`, `exit loop` (26) or `exit program` (27).
type ExitStmt struct {
	Range
	Program bool
}

// ---- actions ----

// A TypeExpr is a written type: `text`, `Number`, `list of text`, `map of
// text to number`, `optional of Date`, or a container name. Name is the
// spelling of the head word; Args are the element types (one for list and
// optional, two for map).
type TypeExpr struct {
	Range
	Name  string
	Ident *Ident // the head word when it is a name (Number, Dog, datetime), not a keyword (text, list); nil otherwise
	Args  []*TypeExpr
}

// A Param is one parameter: `name [as type] [default E]`, or in container
// methods and events `name[: Type]`.
type Param struct {
	Range
	Name    *Ident
	Type    *TypeExpr // or nil
	Default Expr      // or nil
}

// ActionDecl is `define action called N [with|needs [parameters] P and …]:
// [T:] … end action` (28), and a container method `[static] action N [needs
// P, …] [: [T]] … end` (Method set).
type ActionDecl struct {
	Range
	Doc        *CommentGroup
	Method     bool // declared inside a container
	Static     bool // `static action`
	Name       *Ident
	Params     []*Param
	ReturnType *TypeExpr // or nil
	Body       *Block
}

// ReturnStmt is `return [E]` / `give back [E]` (29), also with a
// [DatabaseQueryExpr] value (30).
type ReturnStmt struct {
	Range
	GiveBack bool
	Value    Expr // nil for a bare `return`; `return nothing` has a LitNothing value (both are value-less for the reference)
}

// ---- error handling ----

// ErrorKind is what a `when` clause of a try catches.
type ErrorKind int

const (
	ErrGeneral            ErrorKind = iota + 1 // when error, when:, catch
	ErrFileNotFound                            // when file not found
	ErrPermissionDenied                        // when permission denied
	ErrProcessNotFound                         // when process not found
	ErrProcessSpawnFailed                      // when process spawn failed
	ErrProcessKillFailed                       // when process kill failed
	ErrCommandNotFound                         // when command not found
)

// CatchClause is `when KIND [as N]: …` or `catch [with N]: …` in a try.
type CatchClause struct {
	Range
	Catch bool // spelled `catch`
	Kind  ErrorKind
	Name  *Ident // or nil: the message is bound to `error`
	Body  *Block
}

// TryStmt is `try: … when/catch/otherwise/finally … end try` (31).
type TryStmt struct {
	Range
	Body      *Block
	Clauses   []*CatchClause
	Otherwise *Block // or nil
	Finally   *Block // or nil
}

// ---- lists, maps, dates ----

// CreateListStmt is `create list N: add E … end list` (32).
type CreateListStmt struct {
	Range
	Name   *Ident
	Values []Expr
}

// MapEntry is `K is E` in a [CreateMapStmt]; Key is an *Ident or a string
// *BasicLit.
type MapEntry struct {
	Range
	Key   Expr
	Value Expr
}

// CreateMapStmt is `create map N: K is E … end map` (33).
type CreateMapStmt struct {
	Range
	Name    *Ident
	Entries []*MapEntry
}

// PushStmt is `push with L and E` (34).
type PushStmt struct {
	Range
	List  Expr
	Value Expr
}

// RemoveStmt is `remove E from N` (35).
type RemoveStmt struct {
	Range
	Value Expr
	List  *Ident
}

// ClearStmt is `clear N [list]` (36).
type ClearStmt struct {
	Range
	List *Ident
}

// CreateDateStmt is `create date N [as E]` (37) or `create time N [as E]`
// (38, Time set).
type CreateDateStmt struct {
	Range
	Time  bool
	Name  *Ident
	Value Expr // or nil: today / now
}

// ---- containers, interfaces, events ----

// ContainerDecl is `create container C [extends P] [implements I, …]: …
// end` (39). Members are *PropertyDecl, *ActionDecl (Method set) and
// *EventDecl in source order.
type ContainerDecl struct {
	Range
	Doc        *CommentGroup
	Name       *Ident
	Extends    *Ident // or nil
	Implements []*Ident
	Members    []Stmt
}

// PropertyDecl is `[static] property N [: T] [defaults E]` in a container.
type PropertyDecl struct {
	Range
	Doc     *CommentGroup
	Static  bool
	Name    *Ident
	Type    *TypeExpr // or nil
	Default Expr      // or nil
}

// EventDecl is `event N` at top level (42) or `event N [needs P, …]` in a
// container.
type EventDecl struct {
	Range
	Name   *Ident
	Params []*Param
}

// ActionSig is `requires action N [needs P, …] [: T]` in an interface.
type ActionSig struct {
	Range
	Name       *Ident
	Params     []*Param
	ReturnType *TypeExpr // or nil
}

// InterfaceDecl is `create interface I [extends J, …][: requires action …
// end]` (40).
type InterfaceDecl struct {
	Range
	Doc     *CommentGroup
	Name    *Ident
	Extends []*Ident
	Actions []*ActionSig
}

// PropInit is `prop is E` (or `prop: E`) in a [NewStmt].
type PropInit struct {
	Range
	Name  *Ident
	Value Expr
}

// NewStmt is `create new C as X: prop is E … end` (41).
type NewStmt struct {
	Range
	Container *Ident
	Name      *Ident
	Inits     []*PropInit
}

// TriggerStmt is `trigger N` (43).
type TriggerStmt struct {
	Range
	Name *Ident
}

// OnEventStmt is `on E N` (44): an event handler without a body.
type OnEventStmt struct {
	Range
	Source Expr
	Event  *Ident
}

// ParentCallStmt is `parent M` (45).
type ParentCallStmt struct {
	Range
	Method *Ident
}

// ---- patterns ----

// PatternKind tells the kinds of [PatternNode] apart.
type PatternKind int

const (
	PatLiteral     PatternKind = iota + 1 // "abc" or digits; Text
	PatClass                              // letter, digit, whitespace, any character, unicode …; Text names the class ("digit", "letter", "whitespace", "any", "unicode category", "unicode script", "unicode property"), Arg the quoted name if any
	PatSequence                           // Children in order
	PatAlternative                        // Children, one of which matches
	PatQuantified                         // Children[0] repeated: Text is "optional", "zero or more", "one or more", "exactly", "between", "at least", "at most"; Min, Max
	PatCapture                            // capture { Children[0] } as Name
	PatBackref                            // same as captured "Name"
	PatAnchor                             // start of text / end of text; Text
	PatLookaround                         // check [not] ahead|behind for { Children[0] }; Text is "ahead", "not ahead", "behind", "not behind"
	PatListRef                            // a list variable of texts; Name
)

// A PatternNode is one element of a pattern definition's body.
type PatternNode struct {
	Range
	Kind     PatternKind
	Text     string
	Arg      string
	Name     *Ident
	Min, Max int64
	Children []*PatternNode
}

// PatternDecl is `create pattern N: … end pattern` (46).
type PatternDecl struct {
	Range
	Doc  *CommentGroup
	Name *Ident
	Body *PatternNode // or nil when the body is empty or broken
}

// ---- files and directories ----

// FileMode is how [OpenFileStmt] opens a file.
type FileMode int

const (
	ModeRead FileMode = iota + 1
	ModeWrite
	ModeAppend
	ModeReadBinary
	ModeWriteBinary
)

// OpenFileStmt is `open file at P [for MODE] as F` (47, 49), `open file P as
// F` (50) and `open file at P and read content as V` (48, ReadContent set:
// V receives the content).
type OpenFileStmt struct {
	Range
	Path        Expr
	Mode        FileMode
	ReadContent bool
	Name        *Ident
}

// CloseKind tells the forms of [CloseStmt] apart.
type CloseKind int

const (
	CloseFile     CloseKind = iota + 1 // close [file] E (51)
	CloseServer                        // close server E (90)
	CloseDatabase                      // close database E (94)
)

// CloseStmt is `close [file|server|database] E`.
type CloseStmt struct {
	Range
	Kind CloseKind
	X    Expr
}

// WriteKind tells the forms of [WriteStmt] apart.
type WriteKind int

const (
	WriteContent       WriteKind = iota + 1 // write content E into T (52)
	WriteBinaryContent                      // write binary E into T (53)
	WriteTo                                 // write E to T (54)
	WriteLine                               // write line E to T (83), a stream write
	WriteChunk                              // write chunk E to T (83)
	WriteFileContent                        // write content E into T inside `wait for` (61)
	AppendFileContent                       // append content E into T inside `wait for` (62)
)

// WriteStmt is one of the write forms.
type WriteStmt struct {
	Range
	Kind    WriteKind
	Content Expr
	Target  Expr
	// Classic, in `write line|chunk NAME … to T` where the lexer merged the
	// marker with the name, is the merged words (`line NAME`) as one name:
	// the classic file write of a variable so named, which reads it where
	// Content's leftmost name (the stream write's) stands. The runtime takes
	// that reading when T is not a response stream. Nil when there is one
	// reading. Walk does not visit it: it spells the text of Content's lead.
	Classic *Ident
}

// CreateDirStmt is `create directory at P` (55).
type CreateDirStmt struct {
	Range
	Path Expr
}

// CreateFileStmt is `create file at P with E` (56).
type CreateFileStmt struct {
	Range
	Path    Expr
	Content Expr
}

// DeleteStmt is `delete file at P` (57) or `delete directory at P` (58).
type DeleteStmt struct {
	Range
	Dir  bool
	Path Expr
}

// ---- waiting ----

// WaitForStmt is `wait for <statement>` (61, 62, 68).
type WaitForStmt struct {
	Range
	Inner Stmt
}

// WaitDurationStmt is `wait for E milliseconds|seconds` (67).
type WaitDurationStmt struct {
	Range
	Duration Expr
	Unit     string // "milliseconds" or "seconds"
}

// WaitProcessStmt is `wait for process P to complete [as V]` (63).
type WaitProcessStmt struct {
	Range
	Process Expr
	Name    *Ident // or nil
}

// WaitRequestStmt is `wait for request [that] comes in on S as R [with
// timeout E]` (64).
type WaitRequestStmt struct {
	Range
	Server  Expr
	Name    *Ident
	Timeout Expr // or nil
}

// WaitNextStmt is `wait for next chunk|line from S as V` (65, 66).
type WaitNextStmt struct {
	Range
	Line   bool
	Source Expr
	Name   *Ident
}

// ---- processes ----

// ExecCommandStmt is `execute command C [with arguments A] [using shell] [as
// V]` (69) and `spawn command C … as V` (71, Spawn set).
type ExecCommandStmt struct {
	Range
	Spawn   bool
	Command Expr
	Args    Expr // or nil
	Shell   bool
	Name    *Ident // or nil (never nil for spawn)
}

// ExecFileStmt is `execute [wfl] file at P [with R] [and read output as V]` (70).
type ExecFileStmt struct {
	Range
	Path    Expr
	Request Expr   // or nil
	Name    *Ident // or nil
}

// ReadOutputStmt is `read output from process P as V` (72).
type ReadOutputStmt struct {
	Range
	Process Expr
	Name    *Ident
}

// KillStmt is `kill process P` (73).
type KillStmt struct {
	Range
	Process Expr
}

// ---- web ----

// ListenStmt is `listen on port E [secured [with certificate C and key K] |
// redirecting to port Q] as S` (74–76) and `listen for websockets on port E
// as S` (77, WebSocket set).
type ListenStmt struct {
	Range
	WebSocket bool
	Port      Expr
	Secured   bool
	Cert, Key Expr // or nil
	Redirect  Expr // or nil
	Name      *Ident
}

// RespondStmt is `respond to R with E [and status E] [and content_type E]
// [and headers E]` (78).
type RespondStmt struct {
	Range
	Request     Expr
	Content     Expr
	Status      Expr // or nil
	ContentType Expr // or nil
	Headers     Expr // or nil
}

// HTTPKind tells the forms of [HTTPStmt] apart.
type HTTPKind int

const (
	HTTPGet     HTTPKind = iota + 1 // open url at U [and read content] as V (79)
	HTTPRequest                     // with method/headers/body or read response (80)
	HTTPStream                      // and stream response as V (81)
)

// HTTPStmt is `open url at U … as V`.
type HTTPStmt struct {
	Range
	Kind         HTTPKind
	URL          Expr
	Method       Expr // or nil
	Headers      Expr // or nil
	Body         Expr // or nil
	FullResponse bool // `read response`
	Name         *Ident
}

// StartStreamStmt is `start streaming response to R [with status …] [and
// content type …] [and headers …] as V` (82).
type StartStreamStmt struct {
	Range
	Request     Expr
	Status      Expr // or nil
	ContentType Expr // or nil
	Headers     Expr // or nil
	Name        *Ident
}

// FlushStmt is `flush T` (84).
type FlushStmt struct {
	Range
	Target Expr
	// Legacy is the statement's first words as one name (`flush cache`, or
	// `flush` alone): when that name is bound, to a user action or a
	// variable, the statement is the expression it begins (Target with its
	// leftmost name read as Legacy), as before streams; else a stream flush.
	// Walk does not visit it: it spells the text of Target's lead.
	Legacy *Ident
}

// WebSocketHandlerStmt is `on websocket connect|message|disconnect to|from
// S as X: … end on` (85).
type WebSocketHandlerStmt struct {
	Range
	Event  string // "connect", "message" or "disconnect"
	Server Expr
	Name   *Ident
	Body   *Block
}

// WebSocketSendStmt is `send websocket message M to C` (86) or `broadcast
// websocket message M to S` (87, Broadcast set).
type WebSocketSendStmt struct {
	Range
	Broadcast bool
	Message   Expr
	Target    Expr
}

// SignalStmt is `register signal handler for SIG as H` (88).
type SignalStmt struct {
	Range
	Signal  *Ident
	Handler *Ident
}

// StopAcceptingStmt is `stop accepting connections on S` (89).
type StopAcceptingStmt struct {
	Range
	Server Expr
}

// ---- databases ----

// OpenDatabaseStmt is `open database at U as D` (91) or `connect to database
// at U as D` (92).
type OpenDatabaseStmt struct {
	Range
	URL  Expr
	Name *Ident
}

// TransactionStmt is `in transaction on D: … end transaction` (93).
type TransactionStmt struct {
	Range
	DB   Expr
	Body *Block
}

// ---- modules ----

// LoadStmt is `load module from P` (95) or `include from P` (96, Include set).
type LoadStmt struct {
	Range
	Include bool
	Path    Expr
}

// ExportStmt is `export container|action|constant N` (97).
type ExportStmt struct {
	Range
	Kind string // "container", "action" or "constant"
	Name *Ident
}

// ---- testing ----

// DescribeStmt is `describe "…": … end describe` (98). Body holds its
// *HookStmt, *TestStmt and nested *DescribeStmt in source order.
type DescribeStmt struct {
	Range
	Desc *BasicLit
	Body *Block
}

// HookStmt is `setup: … end setup` (99) or `teardown: … end teardown` (100)
// inside a describe.
type HookStmt struct {
	Range
	Teardown bool
	Body     *Block
}

// TestStmt is `test "…": … end test` (101).
type TestStmt struct {
	Range
	Desc *BasicLit
	Body *Block
}

// AssertKind is what an [ExpectStmt] asserts.
type AssertKind int

const (
	AssertEqual       AssertKind = iota + 1 // to equal E
	AssertBe                                // to be E
	AssertGreaterThan                       // to [be] greater than E
	AssertLessThan                          // to [be] less than E
	AssertBeYes                             // to be yes|true
	AssertBeNo                              // to be no|false
	AssertExist                             // to exist
	AssertContain                           // to contain E
	AssertBeEmpty                           // to be empty
	AssertHaveLength                        // to have length E
	AssertBeOfType                          // to be of type "Name"
)

// ExpectStmt is `expect E to <assertion>` (102).
type ExpectStmt struct {
	Range
	Subject  Expr
	Kind     AssertKind
	Value    Expr      // the assertion's operand, or nil
	TypeName *BasicLit // for AssertBeOfType
}

// ---- expression statement ----

// ExprStmt is an expression used as a statement (104), including the
// file-system call sugar (59, 60).
type ExprStmt struct {
	Range
	X Expr
}

func (*BadStmt) stmtNode()              {}
func (*VarDecl) stmtNode()              {}
func (*AssignStmt) stmtNode()           {}
func (*AddStmt) stmtNode()              {}
func (*DisplayStmt) stmtNode()          {}
func (*IfStmt) stmtNode()               {}
func (*SingleIfStmt) stmtNode()         {}
func (*RouteStmt) stmtNode()            {}
func (*CountStmt) stmtNode()            {}
func (*ForEachStmt) stmtNode()          {}
func (*RepeatStmt) stmtNode()           {}
func (*MainLoopStmt) stmtNode()         {}
func (*BranchStmt) stmtNode()           {}
func (*ExitStmt) stmtNode()             {}
func (*ActionDecl) stmtNode()           {}
func (*ReturnStmt) stmtNode()           {}
func (*TryStmt) stmtNode()              {}
func (*CreateListStmt) stmtNode()       {}
func (*CreateMapStmt) stmtNode()        {}
func (*PushStmt) stmtNode()             {}
func (*RemoveStmt) stmtNode()           {}
func (*ClearStmt) stmtNode()            {}
func (*CreateDateStmt) stmtNode()       {}
func (*ContainerDecl) stmtNode()        {}
func (*PropertyDecl) stmtNode()         {}
func (*EventDecl) stmtNode()            {}
func (*InterfaceDecl) stmtNode()        {}
func (*NewStmt) stmtNode()              {}
func (*TriggerStmt) stmtNode()          {}
func (*OnEventStmt) stmtNode()          {}
func (*ParentCallStmt) stmtNode()       {}
func (*PatternDecl) stmtNode()          {}
func (*OpenFileStmt) stmtNode()         {}
func (*CloseStmt) stmtNode()            {}
func (*WriteStmt) stmtNode()            {}
func (*CreateDirStmt) stmtNode()        {}
func (*CreateFileStmt) stmtNode()       {}
func (*DeleteStmt) stmtNode()           {}
func (*WaitForStmt) stmtNode()          {}
func (*WaitDurationStmt) stmtNode()     {}
func (*WaitProcessStmt) stmtNode()      {}
func (*WaitRequestStmt) stmtNode()      {}
func (*WaitNextStmt) stmtNode()         {}
func (*ExecCommandStmt) stmtNode()      {}
func (*ExecFileStmt) stmtNode()         {}
func (*ReadOutputStmt) stmtNode()       {}
func (*KillStmt) stmtNode()             {}
func (*ListenStmt) stmtNode()           {}
func (*RespondStmt) stmtNode()          {}
func (*HTTPStmt) stmtNode()             {}
func (*StartStreamStmt) stmtNode()      {}
func (*FlushStmt) stmtNode()            {}
func (*WebSocketHandlerStmt) stmtNode() {}
func (*WebSocketSendStmt) stmtNode()    {}
func (*SignalStmt) stmtNode()           {}
func (*StopAcceptingStmt) stmtNode()    {}
func (*OpenDatabaseStmt) stmtNode()     {}
func (*TransactionStmt) stmtNode()      {}
func (*LoadStmt) stmtNode()             {}
func (*ExportStmt) stmtNode()           {}
func (*DescribeStmt) stmtNode()         {}
func (*HookStmt) stmtNode()             {}
func (*TestStmt) stmtNode()             {}
func (*ExpectStmt) stmtNode()           {}
func (*ExprStmt) stmtNode()             {}
