package ast

// This file walks trees.

// A Visitor's Visit method is called for each node [Walk] encounters. If the
// result w is not nil, Walk visits each child of node with w, then calls
// w.Visit(nil).
type Visitor interface {
	Visit(node Node) (w Visitor)
}

// Walk traverses the tree rooted at node in depth-first preorder, children
// in source order. node must not be nil.
func Walk(v Visitor, node Node) {
	if v = v.Visit(node); v == nil {
		return
	}
	eachChild(node, func(c Node) { Walk(v, c) })
	v.Visit(nil)
}

type inspector func(Node) bool

func (f inspector) Visit(node Node) Visitor {
	if f(node) {
		return f
	}
	return nil
}

// Inspect traverses the tree rooted at node in depth-first preorder: it calls
// f(node); if f returns true, Inspect visits each child of node, then calls
// f(nil).
func Inspect(node Node, f func(Node) bool) {
	// Walk(inspector(f), node), without a method call through an
	// interface a node.
	if !f(node) {
		return
	}
	eachChild(node, func(c Node) { Inspect(c, f) })
	f(nil)
}

// Preorder calls f for every node of the tree rooted at node, parents before
// children, children in source order.
func Preorder(node Node, f func(Node)) {
	f(node)
	eachChild(node, func(c Node) { Preorder(c, f) })
}

// Deeper returns the first node, in source order, that lies more than
// limit levels below node (node itself is level 1), or nil when the tree
// is no deeper than limit. It walks with a stack of its own, not by
// recursion, so it measures any tree: the parser gives up on a statement
// deeper than its limit, and every pass that recurses over trees then
// recurses at most that deep.
func Deeper(node Node, limit int) Node {
	type level struct {
		n     Node
		depth int
	}
	if limit < 1 {
		return node
	}
	// Leaves are looked at where they are found, not pushed: a chain of
	// operators, whose every right operand is a leaf, then keeps one
	// entry on the stack, not one a level.
	stack := []level{{node, 1}}
	var kids []Node
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		kids = kids[:0]
		eachChild(top.n, func(c Node) { kids = append(kids, c) })
		for i := len(kids) - 1; i >= 0; i-- {
			if top.depth+1 <= limit {
				if !isLeaf(kids[i]) {
					stack = append(stack, level{kids[i], top.depth + 1})
				}
				continue
			}
			// kids[i] is too deep; the first such child in source order.
			return kids[0]
		}
	}
	return nil
}

// isLeaf reports whether eachChild finds no child in n.
func isLeaf(n Node) bool {
	switch n.(type) {
	case *Ident, *BasicLit, *Comment, *BadExpr, *BadStmt, *BranchStmt, *ExitStmt:
		return true
	}
	return false
}

// Children calls f for each direct child of node, in source order. Absent
// optional children are skipped.
func Children(node Node, f func(Node)) { eachChild(node, f) }

// eachChild calls f for each child of node. Every walk holds its frame once
// a level of the tree, so it is kept small: the helpers below are not
// inlined (inlined at each of their hundred calls, they made it 1.2 KB).
func eachChild(node Node, f func(Node)) {
	switch n := node.(type) {
	case *File:
		for _, st := range n.Stmts {
			visitStmt(st, f)
		}
	case *CommentGroup:
		for _, c := range n.List {
			f(c)
		}
	case *Comment, *Ident, *BadExpr, *BadStmt, *BasicLit, *BranchStmt, *ExitStmt:
	case *Block:
		for _, st := range n.Stmts {
			visitStmt(st, f)
		}

	// expressions
	case *PatternLit:
		visitLit(n.Lit, f)
	case *ListLit:
		visitExprs(n.Elems, f)
	case *ParenExpr:
		visitExpr(n.X, f)
	case *BinaryExpr:
		visitExpr(n.X, f)
		visitExpr(n.Y, f)
	case *BetweenExpr:
		visitExpr(n.X, f)
		visitExpr(n.Lo, f)
		visitExpr(n.Hi, f)
	case *UnaryExpr:
		visitExpr(n.X, f)
	case *ConcatExpr:
		visitExpr(n.X, f)
		visitExpr(n.Y, f)
	case *Arg:
		visitIdent(n.Name, f)
		visitExpr(n.Value, f)
	case *CallExpr:
		callChildren(n, f)
	case *ActionCallExpr:
		visitIdent(n.Name, f)
		for _, a := range n.Args {
			f(a)
		}
	case *IndexExpr:
		visitExpr(n.X, f)
		visitExpr(n.Index, f)
	case *PropertyExpr:
		visitExpr(n.X, f)
		visitIdent(n.Prop, f)
	case *StaticMemberExpr:
		visitIdent(n.Container, f)
		visitIdent(n.Member, f)
	case *MethodCallExpr:
		visitExpr(n.X, f)
		visitIdent(n.Method, f)
		for _, a := range n.Args {
			f(a)
		}
	case *MatchesExpr:
		visitExpr(n.X, f)
		visitExpr(n.Pattern, f)
	case *FindExpr:
		visitExpr(n.Discarded, f)
		visitExpr(n.Pattern, f)
		visitExpr(n.Text, f)
	case *ReplaceExpr:
		visitExpr(n.Discarded, f)
		visitExpr(n.Pattern, f)
		visitExpr(n.Replacement, f)
		visitExpr(n.Text, f)
	case *SplitExpr:
		visitExpr(n.Discarded, f)
		visitExpr(n.Text, f)
		visitExpr(n.Delim, f)
	case *HeaderExpr:
		visitLit(n.Name, f)
		visitExpr(n.Request, f)
	case *CurrentTimeExpr:
		visitLit(n.Format, f)
	case *FileExistsExpr:
		visitExpr(n.Path, f)
	case *FileSizeExpr:
		visitExpr(n.File, f)
	case *ListFilesExpr:
		visitExpr(n.Path, f)
		visitExprs(n.Extensions, f)
	case *ReadContentExpr:
		visitExpr(n.Count, f)
		visitExpr(n.File, f)
	case *ProcessRunningExpr:
		visitExpr(n.Process, f)
	case *DatabaseQueryExpr:
		visitExpr(n.DB, f)
		visitExpr(n.SQL, f)
		visitExpr(n.Params, f)

	// statements
	case *VarDecl:
		visitDoc(n.Doc, f)
		visitIdent(n.Name, f)
		visitExpr(n.Value, f)
	case *AssignStmt:
		if n.Kind == AssignSubtract {
			visitExpr(n.Value, f)
			visitIdent(n.Name, f)
		} else {
			visitIdent(n.Name, f)
			visitExpr(n.Value, f)
		}
	case *AddStmt:
		visitExpr(n.Value, f)
		visitIdent(n.List, f)
	case *DisplayStmt:
		visitExprs(n.Values, f)
	case *IfStmt:
		visitExpr(n.Cond, f)
		visitBlock(n.Then, f)
		visitStmt(n.Else, f)
	case *SingleIfStmt:
		visitExpr(n.Cond, f)
		visitStmt(n.Then, f)
	case *RouteStmt:
		visitExpr(n.Subject, f)
		for _, a := range n.Arms {
			f(a)
		}
		visitBlock(n.Otherwise, f)
	case *RouteArm:
		visitExprs(n.Values, f)
		visitBlock(n.Body, f)
	case *CountStmt:
		visitExpr(n.From, f)
		visitExpr(n.To, f)
		visitExpr(n.Step, f)
		visitIdent(n.Var, f)
		visitBlock(n.Body, f)
	case *ForEachStmt:
		visitIdent(n.Var, f)
		visitExpr(n.Coll, f)
		visitBlock(n.Body, f)
	case *RepeatStmt:
		if n.Kind == RepeatDoUntil {
			visitBlock(n.Body, f)
			visitExpr(n.Cond, f)
		} else {
			visitExpr(n.Cond, f)
			visitBlock(n.Body, f)
		}
	case *MainLoopStmt:
		visitBlock(n.Body, f)
	case *TypeExpr:
		visitIdent(n.Ident, f)
		for _, a := range n.Args {
			f(a)
		}
	case *Param:
		visitIdent(n.Name, f)
		visitType(n.Type, f)
		visitExpr(n.Default, f)
	case *ActionDecl:
		visitDoc(n.Doc, f)
		visitIdent(n.Name, f)
		for _, p := range n.Params {
			f(p)
		}
		visitType(n.ReturnType, f)
		visitBlock(n.Body, f)
	case *ReturnStmt:
		visitExpr(n.Value, f)
	case *CatchClause:
		visitIdent(n.Name, f)
		visitBlock(n.Body, f)
	case *TryStmt:
		tryChildren(n, f)
	case *CreateListStmt:
		visitIdent(n.Name, f)
		visitExprs(n.Values, f)
	case *MapEntry:
		visitExpr(n.Key, f)
		visitExpr(n.Value, f)
	case *CreateMapStmt:
		visitIdent(n.Name, f)
		for _, e := range n.Entries {
			f(e)
		}
	case *PushStmt:
		visitExpr(n.List, f)
		visitExpr(n.Value, f)
	case *RemoveStmt:
		visitExpr(n.Value, f)
		visitIdent(n.List, f)
	case *ClearStmt:
		visitIdent(n.List, f)
	case *CreateDateStmt:
		visitIdent(n.Name, f)
		visitExpr(n.Value, f)
	case *ContainerDecl:
		visitDoc(n.Doc, f)
		visitIdent(n.Name, f)
		visitIdent(n.Extends, f)
		for _, i := range n.Implements {
			visitIdent(i, f)
		}
		for _, m := range n.Members {
			visitStmt(m, f)
		}
	case *PropertyDecl:
		visitDoc(n.Doc, f)
		visitIdent(n.Name, f)
		visitType(n.Type, f)
		visitExpr(n.Default, f)
	case *EventDecl:
		visitIdent(n.Name, f)
		for _, p := range n.Params {
			f(p)
		}
	case *ActionSig:
		visitIdent(n.Name, f)
		for _, p := range n.Params {
			f(p)
		}
		visitType(n.ReturnType, f)
	case *InterfaceDecl:
		visitDoc(n.Doc, f)
		visitIdent(n.Name, f)
		for _, i := range n.Extends {
			visitIdent(i, f)
		}
		for _, a := range n.Actions {
			f(a)
		}
	case *PropInit:
		visitIdent(n.Name, f)
		visitExpr(n.Value, f)
	case *NewStmt:
		visitIdent(n.Container, f)
		visitIdent(n.Name, f)
		for _, p := range n.Inits {
			f(p)
		}
	case *TriggerStmt:
		visitIdent(n.Name, f)
	case *OnEventStmt:
		visitExpr(n.Source, f)
		visitIdent(n.Event, f)
	case *ParentCallStmt:
		visitIdent(n.Method, f)
	case *PatternNode:
		visitIdent(n.Name, f)
		for _, c := range n.Children {
			f(c)
		}
	case *PatternDecl:
		visitDoc(n.Doc, f)
		visitIdent(n.Name, f)
		if n.Body != nil {
			f(n.Body)
		}
	case *OpenFileStmt:
		visitExpr(n.Path, f)
		visitIdent(n.Name, f)
	case *CloseStmt:
		visitExpr(n.X, f)
	case *WriteStmt:
		visitExpr(n.Content, f)
		visitExpr(n.Target, f)
	case *CreateDirStmt:
		visitExpr(n.Path, f)
	case *CreateFileStmt:
		visitExpr(n.Path, f)
		visitExpr(n.Content, f)
	case *DeleteStmt:
		visitExpr(n.Path, f)
	case *WaitForStmt:
		visitStmt(n.Inner, f)
	case *WaitDurationStmt:
		visitExpr(n.Duration, f)
	case *WaitProcessStmt:
		visitExpr(n.Process, f)
		visitIdent(n.Name, f)
	case *WaitRequestStmt:
		visitExpr(n.Server, f)
		visitIdent(n.Name, f)
		visitExpr(n.Timeout, f)
	case *WaitNextStmt:
		visitExpr(n.Source, f)
		visitIdent(n.Name, f)
	case *ExecCommandStmt:
		visitExpr(n.Command, f)
		visitExpr(n.Args, f)
		visitIdent(n.Name, f)
	case *ExecFileStmt:
		visitExpr(n.Path, f)
		visitExpr(n.Request, f)
		visitIdent(n.Name, f)
	case *ReadOutputStmt:
		visitExpr(n.Process, f)
		visitIdent(n.Name, f)
	case *KillStmt:
		visitExpr(n.Process, f)
	case *ListenStmt:
		visitExpr(n.Port, f)
		visitExpr(n.Cert, f)
		visitExpr(n.Key, f)
		visitExpr(n.Redirect, f)
		visitIdent(n.Name, f)
	case *RespondStmt:
		visitExpr(n.Request, f)
		visitExpr(n.Content, f)
		visitExpr(n.Status, f)
		visitExpr(n.ContentType, f)
		visitExpr(n.Headers, f)
	case *HTTPStmt:
		visitExpr(n.URL, f)
		visitExpr(n.Method, f)
		visitExpr(n.Headers, f)
		visitExpr(n.Body, f)
		visitIdent(n.Name, f)
	case *StartStreamStmt:
		visitExpr(n.Request, f)
		visitExpr(n.Status, f)
		visitExpr(n.ContentType, f)
		visitExpr(n.Headers, f)
		visitIdent(n.Name, f)
	case *FlushStmt:
		visitExpr(n.Target, f)
	case *WebSocketHandlerStmt:
		visitExpr(n.Server, f)
		visitIdent(n.Name, f)
		visitBlock(n.Body, f)
	case *WebSocketSendStmt:
		visitExpr(n.Message, f)
		visitExpr(n.Target, f)
	case *SignalStmt:
		visitIdent(n.Signal, f)
		visitIdent(n.Handler, f)
	case *StopAcceptingStmt:
		visitExpr(n.Server, f)
	case *OpenDatabaseStmt:
		visitExpr(n.URL, f)
		visitIdent(n.Name, f)
	case *TransactionStmt:
		visitExpr(n.DB, f)
		visitBlock(n.Body, f)
	case *LoadStmt:
		visitExpr(n.Path, f)
	case *ExportStmt:
		visitIdent(n.Name, f)
	case *DescribeStmt:
		visitLit(n.Desc, f)
		visitBlock(n.Body, f)
	case *HookStmt:
		visitBlock(n.Body, f)
	case *TestStmt:
		visitLit(n.Desc, f)
		visitBlock(n.Body, f)
	case *ExpectStmt:
		visitExpr(n.Subject, f)
		visitExpr(n.Value, f)
		visitLit(n.TypeName, f)
	case *ExprStmt:
		visitExpr(n.X, f)
	}
}

//go:noinline
func visitExpr(e Expr, f func(Node)) {
	if e != nil {
		f(e)
	}
}

//go:noinline
func visitStmt(st Stmt, f func(Node)) {
	if st != nil {
		f(st)
	}
}

//go:noinline
func visitIdent(i *Ident, f func(Node)) {
	if i != nil {
		f(i)
	}
}

//go:noinline
func visitBlock(b *Block, f func(Node)) {
	if b != nil {
		f(b)
	}
}

//go:noinline
func visitType(t *TypeExpr, f func(Node)) {
	if t != nil {
		f(t)
	}
}

//go:noinline
func visitLit(l *BasicLit, f func(Node)) {
	if l != nil {
		f(l)
	}
}

//go:noinline
func visitDoc(g *CommentGroup, f func(Node)) {
	if g != nil {
		f(g)
	}
}

//go:noinline
func visitExprs(es []Expr, f func(Node)) {
	for _, e := range es {
		if e != nil {
			f(e)
		}
	}
}

// callChildren is eachChild of a call. Sugar calls may put arguments
// before the function name (`p starts with "a"`); visit in source order.
// (Apart from eachChild, whose frame every walk holds once a level.)
func callChildren(n *CallExpr, f func(Node)) {
	var pending []Node
	if n.Fun != nil {
		pending = append(pending, n.Fun)
	}
	for _, a := range n.Args {
		pending = append(pending, a)
	}
	sortByPos(pending)
	for _, c := range pending {
		f(c)
	}
}

// tryChildren is eachChild of a try. Clauses, otherwise and finally may
// come in any order before finally; visit in source order.
func tryChildren(n *TryStmt, f func(Node)) {
	pending := []Node{}
	if n.Body != nil {
		pending = append(pending, n.Body)
	}
	for _, c := range n.Clauses {
		pending = append(pending, c)
	}
	if n.Otherwise != nil {
		pending = append(pending, n.Otherwise)
	}
	if n.Finally != nil {
		pending = append(pending, n.Finally)
	}
	sortByPos(pending)
	for _, c := range pending {
		f(c)
	}
}

// sortByPos orders a few nodes by start offset (insertion sort: the lists are
// tiny and mostly sorted already).
func sortByPos(ns []Node) {
	for i := 1; i < len(ns); i++ {
		for j := i; j > 0 && ns[j].Pos() < ns[j-1].Pos(); j-- {
			ns[j], ns[j-1] = ns[j-1], ns[j]
		}
	}
}
