package ast

import (
	"reflect"
	"testing"
)

func TestInspectSourceOrder(t *testing.T) {
	// display a with "b"   (offsets are made up but ordered)
	a := &Ident{Range: Range{8, 9}, Name: "a"}
	b := &BasicLit{Range: Range{15, 18}, Kind: LitString, Value: "b"}
	cat := &ConcatExpr{Range: Range{8, 18}, X: a, WithPos: 10, Y: b}
	d := &DisplayStmt{Range: Range{0, 18}, Values: []Expr{cat}}
	f := &File{Range: Range{0, 18}, Stmts: []Stmt{d}}

	var got []string
	Inspect(f, func(n Node) bool {
		if n != nil {
			got = append(got, reflect.TypeOf(n).Elem().Name())
		}
		return true
	})
	want := []string{"File", "DisplayStmt", "ConcatExpr", "Ident", "BasicLit"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Inspect order = %v, want %v", got, want)
	}

	// Sugar calls put the receiver before the function name.
	p := &Ident{Range: Range{0, 1}, Name: "p"}
	fn := &Ident{Range: Range{2, 13}, Name: "starts_with"}
	arg := &BasicLit{Range: Range{14, 17}, Kind: LitString, Value: "a"}
	call := &CallExpr{Range: Range{0, 17}, Fun: fn, Sugar: true,
		Args: []*Arg{{Range: p.Range, Value: p}, {Range: arg.Range, Value: arg}}}
	var pos []int
	Children(call, func(n Node) { pos = append(pos, n.Pos()) })
	if !reflect.DeepEqual(pos, []int{0, 2, 14}) {
		t.Errorf("CallExpr children at %v, want [0 2 14]", pos)
	}
}

func TestCommentGroupText(t *testing.T) {
	g := &CommentGroup{List: []*Comment{{Text: "// Adds two numbers."}, {Text: "#  indented"}, {Text: "//"}}}
	if got, want := g.Text(), "Adds two numbers.\n indented\n"; got != want {
		t.Errorf("Text() = %q, want %q", got, want)
	}
	var nilGroup *CommentGroup
	if nilGroup.Text() != "" {
		t.Error("nil group has text")
	}
}
