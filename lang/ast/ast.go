// Package ast declares the syntax tree of WFL programs, as lang/parser builds
// it: one struct per production, every node with its byte-offset extent.
//
// Start with [File]: its Stmts are the top-level statements, its Comments
// every comment of the document. Statements implement [Stmt], expressions
// [Expr]; both are [Node]s. [Inspect] and [Walk] visit a tree in preorder.
//
// Invariants the parser keeps (and its fuzz test checks):
//   - Pos() <= End() for every node; both are byte offsets into the source,
//     End one past the last byte of the node's last token.
//   - A child's extent lies inside its parent's (except Doc comment groups,
//     which precede their declaration).
//   - No field that holds a node interface (Expr, Stmt, Node) is a typed nil:
//     an absent optional child is a plain nil interface.
//   - Text that could not be parsed becomes a [BadExpr] or [BadStmt] whose
//     extent covers the skipped tokens; the parser reports a diagnostic for it.
//
// Multi-word identifiers are single names, as the WFL lexer makes them:
// `first name` is one [Ident] whose Name is "first name" (words joined by one
// space) and whose extent runs from the first word to the last.
//
// The tree follows the reference WFL parser's structure with a few
// deliberate differences that keep one source node per tree node (so side
// tables keyed by node stay unambiguous):
//   - `display a b c` is one [DisplayStmt] with three Values (the reference
//     folds them into nested concatenations);
//   - `x is between a and b` is a [BetweenExpr] (the reference duplicates x
//     into `x >= a and x <= b`);
//   - `route` is a [RouteStmt] (the reference desugars it into if-chains);
//   - `describe` keeps `setup:` and `teardown:` as [HookStmt]s in its body in
//     source order.
package ast

import "strings"

// A Node is any element of the tree.
type Node interface {
	Pos() int // byte offset of the node's first byte
	End() int // byte offset one past the node's last byte
}

// An Expr is an expression node.
type Expr interface {
	Node
	exprNode()
}

// A Stmt is a statement node (and a few statement-like members, such as
// container properties, that only appear in specific bodies).
type Stmt interface {
	Node
	stmtNode()
}

// Range is the extent embedded in every node: [From, To) in bytes. It
// provides the Pos and End methods.
type Range struct {
	From int // offset of the first byte
	To   int // offset one past the last byte
}

// Pos returns the offset of the node's first byte.
func (r Range) Pos() int { return r.From }

// End returns the offset one past the node's last byte.
func (r Range) End() int { return r.To }

// A File is the tree of one WFL document. It is never nil after parsing.
type File struct {
	Range                    // the whole text: From is 0, To is len(src)
	Stmts    []Stmt          // top-level statements in source order
	Comments []*CommentGroup // every comment of the document, in source order
}

// A Comment is one `//` or `#` comment, from its marker to the end of its
// line (the line break is not part of it).
type Comment struct {
	Range
	Text string // the comment's source text including the marker, e.g. "// note"
}

// A CommentGroup is a run of comments on consecutive lines with nothing but
// white space between them. A comment after code on the same line (`display x
// // note`) forms a group of its own.
type CommentGroup struct {
	Range
	List []*Comment // at least one
}

// Text returns the comments' contents without their markers and one leading
// space, joined by newlines: the text hover shows for a doc comment.
func (g *CommentGroup) Text() string {
	if g == nil {
		return ""
	}
	n := len(g.List) - 1 // the line breaks
	for _, c := range g.List {
		n += len(content(c.Text))
	}
	if n <= 0 {
		return ""
	}
	// One allocation of the exact size; the result does not share the
	// source's memory (a symbol's doc may outlive its document's text).
	var b strings.Builder
	b.Grow(n)
	for i, c := range g.List {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(content(c.Text))
	}
	return b.String()
}

// content returns a comment's text without its marker and one leading
// space.
func content(t string) string {
	switch {
	case len(t) >= 2 && t[0] == '/' && t[1] == '/':
		t = t[2:]
	case len(t) >= 1 && t[0] == '#':
		t = t[1:]
	}
	if len(t) > 0 && t[0] == ' ' {
		t = t[1:]
	}
	return t
}

// An Ident is a name: a variable, action, container, property, parameter or
// other declared or referenced name. It may be multi-word ("first name").
// Keywords used as names (`count`, `text`, `error` in expressions, or the
// contextual keywords of declarations) are Idents too, named by their
// spelling; no other Ident has a keyword's spelling as its name, since the
// lexer makes every keyword word a keyword token. (An Ident is small on
// purpose: a document has one per name written.)
type Ident struct {
	Range
	Name string // words joined by single spaces
}

// Block is a sequence of statements: the body of a compound statement. Its
// extent runs from the end of the header (after the `:` or the header line's
// break) to the end of the body's last line, line break included, so a cursor
// on an empty body line lies inside it.
type Block struct {
	Range
	Stmts []Stmt
}

func (*Block) stmtNode() {}
