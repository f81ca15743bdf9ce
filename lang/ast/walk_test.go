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

func TestDeeper(t *testing.T) {
	// 1 + 1 + … + 1 with n operators: a left-deep chain, the statement on
	// level 1, the first operand on level n+2.
	chain := func(n int) Stmt {
		var x Expr = &BasicLit{Range: Range{11, 12}, Kind: LitInt, Value: "1"}
		for i := range n {
			y := &BasicLit{Range: Range{15 + 4*i, 16 + 4*i}, Kind: LitInt, Value: "1"}
			x = &BinaryExpr{Range: Range{11, y.To}, X: x, Op: OpPlus, Y: y}
		}
		return &VarDecl{Range: Range{0, x.End()}, Name: &Ident{Range: Range{6, 7}, Name: "x"}, Value: x}
	}
	for _, tt := range []struct {
		ops, limit int
		deeper     bool
	}{
		{0, 2, false}, {0, 1, true}, {1, 3, false}, {1, 2, true},
		{200000, 200002, false}, {200000, 200001, true}, {200000, 10000, true},
	} {
		st := chain(tt.ops)
		got := Deeper(st, tt.limit)
		if (got != nil) != tt.deeper {
			t.Errorf("%d operators, limit %d: Deeper = %v, want deeper %t", tt.ops, tt.limit, got, tt.deeper)
		}
		if got != nil && tt.ops > 0 && got.Pos() != 11 {
			t.Errorf("%d operators, limit %d: the deeper node starts at %d, want the first operand's 11", tt.ops, tt.limit, got.Pos())
		}
	}
}
