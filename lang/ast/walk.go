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

// Inspect traverses the tree rooted at node in depth-first preorder: it calls
// f(node); if f returns true, Inspect visits each child of node, then calls
// f(nil).
func Inspect(node Node, f func(Node) bool) {
	// Walk with a Visitor that calls f, without a method call through an
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
		visitAll(n.Stmts, f)
	case *CommentGroup:
		visitAll(n.List, f)
	case *Comment, *Ident, *BadExpr, *BadStmt, *BasicLit, *BranchStmt, *ExitStmt:
	case *Block:
		visitAll(n.Stmts, f)

	// expressions
	case *PatternLit:
		visit(n.Lit, f)
	case *ListLit:
		visitAll(n.Elems, f)
	case *ParenExpr:
		visit(n.X, f)
	case *BinaryExpr:
		visit(n.X, f)
		visit(n.Y, f)
	case *BetweenExpr:
		visit(n.X, f)
		visit(n.Lo, f)
		visit(n.Hi, f)
	case *UnaryExpr:
		visit(n.X, f)
	case *ConcatExpr:
		visit(n.X, f)
		visit(n.Y, f)
	case *Arg:
		visit(n.Name, f)
		visit(n.Value, f)
	case *CallExpr:
		callChildren(n, f)
	case *ActionCallExpr:
		visit(n.Name, f)
		visitAll(n.Args, f)
	case *IndexExpr:
		visit(n.X, f)
		visit(n.Index, f)
	case *PropertyExpr:
		visit(n.X, f)
		visit(n.Prop, f)
	case *StaticMemberExpr:
		visit(n.Container, f)
		visit(n.Member, f)
	case *MethodCallExpr:
		visit(n.X, f)
		visit(n.Method, f)
		visitAll(n.Args, f)
	case *MatchesExpr:
		visit(n.X, f)
		visit(n.Pattern, f)
	case *FindExpr:
		visit(n.Discarded, f)
		visit(n.Pattern, f)
		visit(n.Text, f)
	case *ReplaceExpr:
		visit(n.Discarded, f)
		visit(n.Pattern, f)
		visit(n.Replacement, f)
		visit(n.Text, f)
	case *SplitExpr:
		visit(n.Discarded, f)
		visit(n.Text, f)
		visit(n.Delim, f)
	case *HeaderExpr:
		visit(n.Name, f)
		visit(n.Request, f)
	case *CurrentTimeExpr:
		visit(n.Format, f)
	case *FileExistsExpr:
		visit(n.Path, f)
	case *FileSizeExpr:
		visit(n.File, f)
	case *ListFilesExpr:
		visit(n.Path, f)
		visitAll(n.Extensions, f)
	case *ReadContentExpr:
		visit(n.Count, f)
		visit(n.File, f)
	case *ProcessRunningExpr:
		visit(n.Process, f)
	case *DatabaseQueryExpr:
		visit(n.DB, f)
		visit(n.SQL, f)
		visit(n.Params, f)

	// statements
	case *VarDecl:
		visit(n.Doc, f)
		visit(n.Name, f)
		visit(n.Value, f)
	case *AssignStmt:
		if n.Kind == AssignSubtract {
			visit(n.Value, f)
			visit(n.Name, f)
		} else {
			visit(n.Name, f)
			visit(n.Value, f)
		}
	case *AddStmt:
		visit(n.Value, f)
		visit(n.List, f)
	case *DisplayStmt:
		visitAll(n.Values, f)
	case *IfStmt:
		visit(n.Cond, f)
		visit(n.Then, f)
		visit(n.Else, f)
	case *SingleIfStmt:
		visit(n.Cond, f)
		visit(n.Then, f)
	case *RouteStmt:
		visit(n.Subject, f)
		visitAll(n.Arms, f)
		visit(n.Otherwise, f)
	case *RouteArm:
		visitAll(n.Values, f)
		visit(n.Body, f)
	case *CountStmt:
		visit(n.From, f)
		visit(n.To, f)
		visit(n.Step, f)
		visit(n.Var, f)
		visit(n.Body, f)
	case *ForEachStmt:
		visit(n.Var, f)
		visit(n.Coll, f)
		visit(n.Body, f)
	case *RepeatStmt:
		if n.Kind == RepeatDoUntil {
			visit(n.Body, f)
			visit(n.Cond, f)
		} else {
			visit(n.Cond, f)
			visit(n.Body, f)
		}
	case *MainLoopStmt:
		visit(n.Body, f)
	case *TypeExpr:
		visit(n.Ident, f)
		visitAll(n.Args, f)
	case *Param:
		visit(n.Name, f)
		visit(n.Type, f)
		visit(n.Default, f)
	case *ActionDecl:
		visit(n.Doc, f)
		visit(n.Name, f)
		visitAll(n.Params, f)
		visit(n.ReturnType, f)
		visit(n.Body, f)
	case *ReturnStmt:
		visit(n.Value, f)
	case *CatchClause:
		visit(n.Name, f)
		visit(n.Body, f)
	case *TryStmt:
		tryChildren(n, f)
	case *CreateListStmt:
		visit(n.Name, f)
		visitAll(n.Values, f)
	case *MapEntry:
		visit(n.Key, f)
		visit(n.Value, f)
	case *CreateMapStmt:
		visit(n.Name, f)
		visitAll(n.Entries, f)
	case *PushStmt:
		visit(n.List, f)
		visit(n.Value, f)
	case *RemoveStmt:
		visit(n.Value, f)
		visit(n.List, f)
	case *ClearStmt:
		visit(n.List, f)
	case *CreateDateStmt:
		visit(n.Name, f)
		visit(n.Value, f)
	case *ContainerDecl:
		visit(n.Doc, f)
		visit(n.Name, f)
		visit(n.Extends, f)
		visitAll(n.Implements, f)
		visitAll(n.Members, f)
	case *PropertyDecl:
		visit(n.Doc, f)
		visit(n.Name, f)
		visit(n.Type, f)
		visit(n.Default, f)
	case *EventDecl:
		visit(n.Name, f)
		visitAll(n.Params, f)
	case *ActionSig:
		visit(n.Name, f)
		visitAll(n.Params, f)
		visit(n.ReturnType, f)
	case *InterfaceDecl:
		visit(n.Doc, f)
		visit(n.Name, f)
		visitAll(n.Extends, f)
		visitAll(n.Actions, f)
	case *PropInit:
		visit(n.Name, f)
		visit(n.Value, f)
	case *NewStmt:
		visit(n.Container, f)
		visit(n.Name, f)
		visitAll(n.Inits, f)
	case *TriggerStmt:
		visit(n.Name, f)
	case *OnEventStmt:
		visit(n.Source, f)
		visit(n.Event, f)
	case *ParentCallStmt:
		visit(n.Method, f)
	case *PatternNode:
		visit(n.Name, f)
		visitAll(n.Children, f)
	case *PatternDecl:
		visit(n.Doc, f)
		visit(n.Name, f)
		if n.Body != nil {
			f(n.Body)
		}
	case *OpenFileStmt:
		visit(n.Path, f)
		visit(n.Name, f)
	case *CloseStmt:
		visit(n.X, f)
	case *WriteStmt:
		visit(n.Content, f)
		visit(n.Target, f)
	case *CreateDirStmt:
		visit(n.Path, f)
	case *CreateFileStmt:
		visit(n.Path, f)
		visit(n.Content, f)
	case *DeleteStmt:
		visit(n.Path, f)
	case *WaitForStmt:
		visit(n.Inner, f)
	case *WaitDurationStmt:
		visit(n.Duration, f)
	case *WaitProcessStmt:
		visit(n.Process, f)
		visit(n.Name, f)
	case *WaitRequestStmt:
		visit(n.Server, f)
		visit(n.Name, f)
		visit(n.Timeout, f)
	case *WaitNextStmt:
		visit(n.Source, f)
		visit(n.Name, f)
	case *ExecCommandStmt:
		visit(n.Command, f)
		visit(n.Args, f)
		visit(n.Name, f)
	case *ExecFileStmt:
		visit(n.Path, f)
		visit(n.Request, f)
		visit(n.Name, f)
	case *ReadOutputStmt:
		visit(n.Process, f)
		visit(n.Name, f)
	case *KillStmt:
		visit(n.Process, f)
	case *ListenStmt:
		visit(n.Port, f)
		visit(n.Cert, f)
		visit(n.Key, f)
		visit(n.Redirect, f)
		visit(n.Name, f)
	case *RespondStmt:
		visit(n.Request, f)
		visit(n.Content, f)
		visit(n.Status, f)
		visit(n.ContentType, f)
		visit(n.Headers, f)
	case *HTTPStmt:
		visit(n.URL, f)
		visit(n.Method, f)
		visit(n.Headers, f)
		visit(n.Body, f)
		visit(n.Name, f)
	case *StartStreamStmt:
		visit(n.Request, f)
		visit(n.Status, f)
		visit(n.ContentType, f)
		visit(n.Headers, f)
		visit(n.Name, f)
	case *FlushStmt:
		visit(n.Target, f)
	case *WebSocketHandlerStmt:
		visit(n.Server, f)
		visit(n.Name, f)
		visit(n.Body, f)
	case *WebSocketSendStmt:
		visit(n.Message, f)
		visit(n.Target, f)
	case *SignalStmt:
		visit(n.Signal, f)
		visit(n.Handler, f)
	case *StopAcceptingStmt:
		visit(n.Server, f)
	case *OpenDatabaseStmt:
		visit(n.URL, f)
		visit(n.Name, f)
	case *TransactionStmt:
		visit(n.DB, f)
		visit(n.Body, f)
	case *LoadStmt:
		visit(n.Path, f)
	case *ExportStmt:
		visit(n.Name, f)
	case *DescribeStmt:
		visit(n.Desc, f)
		visit(n.Body, f)
	case *HookStmt:
		visit(n.Body, f)
	case *TestStmt:
		visit(n.Desc, f)
		visit(n.Body, f)
	case *ExpectStmt:
		visit(n.Subject, f)
		visit(n.Value, f)
		visit(n.TypeName, f)
	case *ExprStmt:
		visit(n.X, f)
	}
}

// visit calls f with n unless n is absent: a nil Expr or Stmt, or a nil
// pointer to a node, which f must not see as a node.
//
//go:noinline
func visit[N interface {
	Node
	comparable
}](n N, f func(Node)) {
	if present(n) {
		f(n)
	}
}

// visitAll calls visit for each node of ns, in order.
//
//go:noinline
func visitAll[N interface {
	Node
	comparable
}](ns []N, f func(Node)) {
	for _, n := range ns {
		if present(n) {
			f(n)
		}
	}
}

// present reports whether n is neither a nil interface nor a nil pointer.
// A nil interface is told apart first: comparing it with the zero N would
// call the runtime's interface equality.
func present[N comparable](n N) bool {
	var absent N
	return any(n) != nil && n != absent
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
