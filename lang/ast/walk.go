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
	stack := []level{{node, 1}}
	var kids []Node
	for len(stack) > 0 {
		top := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if top.depth > limit {
			return top.n
		}
		kids = kids[:0]
		eachChild(top.n, func(c Node) { kids = append(kids, c) })
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, level{kids[i], top.depth + 1})
		}
	}
	return nil
}

// Children calls f for each direct child of node, in source order. Absent
// optional children are skipped.
func Children(node Node, f func(Node)) { eachChild(node, f) }

func eachChild(node Node, f func(Node)) {
	x := func(e Expr) {
		if e != nil {
			f(e)
		}
	}
	s := func(st Stmt) {
		if st != nil {
			f(st)
		}
	}
	id := func(i *Ident) {
		if i != nil {
			f(i)
		}
	}
	blk := func(b *Block) {
		if b != nil {
			f(b)
		}
	}
	typ := func(t *TypeExpr) {
		if t != nil {
			f(t)
		}
	}
	lit := func(l *BasicLit) {
		if l != nil {
			f(l)
		}
	}
	doc := func(g *CommentGroup) {
		if g != nil {
			f(g)
		}
	}
	args := func(as []*Arg) {
		for _, a := range as {
			f(a)
		}
	}
	params := func(ps []*Param) {
		for _, p := range ps {
			f(p)
		}
	}
	exprs := func(es []Expr) {
		for _, e := range es {
			x(e)
		}
	}

	switch n := node.(type) {
	case *File:
		for _, st := range n.Stmts {
			s(st)
		}
	case *CommentGroup:
		for _, c := range n.List {
			f(c)
		}
	case *Comment, *Ident, *BadExpr, *BadStmt, *BasicLit, *BranchStmt, *ExitStmt:
	case *Block:
		for _, st := range n.Stmts {
			s(st)
		}

	// expressions
	case *PatternLit:
		lit(n.Lit)
	case *ListLit:
		exprs(n.Elems)
	case *ParenExpr:
		x(n.X)
	case *BinaryExpr:
		x(n.X)
		x(n.Y)
	case *BetweenExpr:
		x(n.X)
		x(n.Lo)
		x(n.Hi)
	case *UnaryExpr:
		x(n.X)
	case *ConcatExpr:
		x(n.X)
		x(n.Y)
	case *Arg:
		id(n.Name)
		x(n.Value)
	case *CallExpr:
		// Sugar calls may put arguments before the function name
		// (`p starts with "a"`); visit in source order.
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
	case *ActionCallExpr:
		id(n.Name)
		args(n.Args)
	case *IndexExpr:
		x(n.X)
		x(n.Index)
	case *PropertyExpr:
		x(n.X)
		id(n.Prop)
	case *StaticMemberExpr:
		id(n.Container)
		id(n.Member)
	case *MethodCallExpr:
		x(n.X)
		id(n.Method)
		args(n.Args)
	case *MatchesExpr:
		x(n.X)
		x(n.Pattern)
	case *FindExpr:
		x(n.Discarded)
		x(n.Pattern)
		x(n.Text)
	case *ReplaceExpr:
		x(n.Discarded)
		x(n.Pattern)
		x(n.Replacement)
		x(n.Text)
	case *SplitExpr:
		x(n.Discarded)
		x(n.Text)
		x(n.Delim)
	case *HeaderExpr:
		lit(n.Name)
		x(n.Request)
	case *CurrentTimeExpr:
		lit(n.Format)
	case *FileExistsExpr:
		x(n.Path)
	case *FileSizeExpr:
		x(n.File)
	case *ListFilesExpr:
		x(n.Path)
		exprs(n.Extensions)
	case *ReadContentExpr:
		x(n.Count)
		x(n.File)
	case *ProcessRunningExpr:
		x(n.Process)
	case *DatabaseQueryExpr:
		x(n.DB)
		x(n.SQL)
		x(n.Params)

	// statements
	case *VarDecl:
		doc(n.Doc)
		id(n.Name)
		x(n.Value)
	case *AssignStmt:
		if n.Kind == AssignSubtract {
			x(n.Value)
			id(n.Name)
		} else {
			id(n.Name)
			x(n.Value)
		}
	case *AddStmt:
		x(n.Value)
		id(n.List)
	case *DisplayStmt:
		exprs(n.Values)
	case *IfStmt:
		x(n.Cond)
		blk(n.Then)
		s(n.Else)
	case *SingleIfStmt:
		x(n.Cond)
		s(n.Then)
	case *RouteStmt:
		x(n.Subject)
		for _, a := range n.Arms {
			f(a)
		}
		blk(n.Otherwise)
	case *RouteArm:
		exprs(n.Values)
		blk(n.Body)
	case *CountStmt:
		x(n.From)
		x(n.To)
		x(n.Step)
		id(n.Var)
		blk(n.Body)
	case *ForEachStmt:
		id(n.Var)
		x(n.Coll)
		blk(n.Body)
	case *RepeatStmt:
		if n.Kind == RepeatDoUntil {
			blk(n.Body)
			x(n.Cond)
		} else {
			x(n.Cond)
			blk(n.Body)
		}
	case *MainLoopStmt:
		blk(n.Body)
	case *TypeExpr:
		id(n.Ident)
		for _, a := range n.Args {
			f(a)
		}
	case *Param:
		id(n.Name)
		typ(n.Type)
		x(n.Default)
	case *ActionDecl:
		doc(n.Doc)
		id(n.Name)
		params(n.Params)
		typ(n.ReturnType)
		blk(n.Body)
	case *ReturnStmt:
		x(n.Value)
	case *CatchClause:
		id(n.Name)
		blk(n.Body)
	case *TryStmt:
		// Clauses, otherwise and finally may come in any order before
		// finally; visit in source order.
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
	case *CreateListStmt:
		id(n.Name)
		exprs(n.Values)
	case *MapEntry:
		x(n.Key)
		x(n.Value)
	case *CreateMapStmt:
		id(n.Name)
		for _, e := range n.Entries {
			f(e)
		}
	case *PushStmt:
		x(n.List)
		x(n.Value)
	case *RemoveStmt:
		x(n.Value)
		id(n.List)
	case *ClearStmt:
		id(n.List)
	case *CreateDateStmt:
		id(n.Name)
		x(n.Value)
	case *ContainerDecl:
		doc(n.Doc)
		id(n.Name)
		id(n.Extends)
		for _, i := range n.Implements {
			id(i)
		}
		for _, m := range n.Members {
			s(m)
		}
	case *PropertyDecl:
		doc(n.Doc)
		id(n.Name)
		typ(n.Type)
		x(n.Default)
	case *EventDecl:
		id(n.Name)
		params(n.Params)
	case *ActionSig:
		id(n.Name)
		params(n.Params)
		typ(n.ReturnType)
	case *InterfaceDecl:
		doc(n.Doc)
		id(n.Name)
		for _, i := range n.Extends {
			id(i)
		}
		for _, a := range n.Actions {
			f(a)
		}
	case *PropInit:
		id(n.Name)
		x(n.Value)
	case *NewStmt:
		id(n.Container)
		id(n.Name)
		for _, p := range n.Inits {
			f(p)
		}
	case *TriggerStmt:
		id(n.Name)
	case *OnEventStmt:
		x(n.Source)
		id(n.Event)
	case *ParentCallStmt:
		id(n.Method)
	case *PatternNode:
		id(n.Name)
		for _, c := range n.Children {
			f(c)
		}
	case *PatternDecl:
		doc(n.Doc)
		id(n.Name)
		if n.Body != nil {
			f(n.Body)
		}
	case *OpenFileStmt:
		x(n.Path)
		id(n.Name)
	case *CloseStmt:
		x(n.X)
	case *WriteStmt:
		x(n.Content)
		x(n.Target)
	case *CreateDirStmt:
		x(n.Path)
	case *CreateFileStmt:
		x(n.Path)
		x(n.Content)
	case *DeleteStmt:
		x(n.Path)
	case *WaitForStmt:
		s(n.Inner)
	case *WaitDurationStmt:
		x(n.Duration)
	case *WaitProcessStmt:
		x(n.Process)
		id(n.Name)
	case *WaitRequestStmt:
		x(n.Server)
		id(n.Name)
		x(n.Timeout)
	case *WaitNextStmt:
		x(n.Source)
		id(n.Name)
	case *ExecCommandStmt:
		x(n.Command)
		x(n.Args)
		id(n.Name)
	case *ExecFileStmt:
		x(n.Path)
		x(n.Request)
		id(n.Name)
	case *ReadOutputStmt:
		x(n.Process)
		id(n.Name)
	case *KillStmt:
		x(n.Process)
	case *ListenStmt:
		x(n.Port)
		x(n.Cert)
		x(n.Key)
		x(n.Redirect)
		id(n.Name)
	case *RespondStmt:
		x(n.Request)
		x(n.Content)
		x(n.Status)
		x(n.ContentType)
		x(n.Headers)
	case *HTTPStmt:
		x(n.URL)
		x(n.Method)
		x(n.Headers)
		x(n.Body)
		id(n.Name)
	case *StartStreamStmt:
		x(n.Request)
		x(n.Status)
		x(n.ContentType)
		x(n.Headers)
		id(n.Name)
	case *FlushStmt:
		x(n.Target)
	case *WebSocketHandlerStmt:
		x(n.Server)
		id(n.Name)
		blk(n.Body)
	case *WebSocketSendStmt:
		x(n.Message)
		x(n.Target)
	case *SignalStmt:
		id(n.Signal)
		id(n.Handler)
	case *StopAcceptingStmt:
		x(n.Server)
	case *OpenDatabaseStmt:
		x(n.URL)
		id(n.Name)
	case *TransactionStmt:
		x(n.DB)
		blk(n.Body)
	case *LoadStmt:
		x(n.Path)
	case *ExportStmt:
		id(n.Name)
	case *DescribeStmt:
		lit(n.Desc)
		blk(n.Body)
	case *HookStmt:
		blk(n.Body)
	case *TestStmt:
		lit(n.Desc)
		blk(n.Body)
	case *ExpectStmt:
		x(n.Subject)
		x(n.Value)
		lit(n.TypeName)
	case *ExprStmt:
		x(n.X)
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
