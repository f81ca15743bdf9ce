package check_test

import (
	"testing"
	"unicode/utf8"

	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/parser"
)

var fuzzSeeds = []string{
	"store x as 1\ndisplay x\n",
	"define action called f with parameters a and b:\n    return a plus b\nend action\ndisplay f of 1 and 2\n",
	"check if x is nothing:\n    store y as 1\notherwise:\n    store y as 2\nend check\ndisplay y\n",
	"create container A extends A:\n    property p: Number\n    action m needs q: Text\n        change p to q\n    end\nend\ncreate new A as a:\n    p is 1\nend\na.m(1)\n",
	"try:\n    display nowhere\nwhen error as e:\n    display e\nfinally:\n    display error\nend try\n",
	"count from 1 to 3:\n    count from 1 to 2:\n        change count to 1\n    end count\nend count\n",
	"listen on port 80 as s\nmain loop concurrently:\n    wait for request comes in on s as r\n    display method of r\n    respond to r with header \"a\" of r\nend loop\n",
	"create pattern p:\n    one or more of letters then capture { digit } as d\nend pattern\ndisplay \"a1\" matches p\n",
	"store new constant L as [1]\npush with L[0] and 2\nadd 1 to L\nclear L\n",
	"route x:\nwhen 1 or 2:\n    store z as 1\notherwise:\n    store z as 2\nend route\n",
}

// FuzzCheck checks that parsing and checking never panic and that every
// diagnostic and definition lies inside the source.
func FuzzCheck(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	for _, src := range testcorpus.Programs(f) {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		tree, _ := parser.Parse(src)
		info, diags := check.Check(tree, src)
		if info == nil || info.Global == nil {
			t.Fatal("nil info")
		}
		for _, d := range diags {
			if d.Span.Start < 0 || d.Span.End > len(src) || d.Span.Start > d.Span.End {
				t.Fatalf("diagnostic %q span %v outside [0,%d]", d.Message, d.Span, len(src))
			}
			if d.Message == "" || d.Code == "" {
				t.Fatalf("diagnostic without message or code: %+v", d)
			}
			if !utf8.ValidString(d.Message) {
				t.Fatalf("diagnostic message is not UTF-8: %q", d.Message)
			}
		}
		for id, sym := range info.Defs {
			if id.Pos() < 0 || id.End() > len(src) || sym == nil {
				t.Fatalf("bad definition %q", id.Name)
			}
		}
		for id, sym := range info.Uses {
			if sym == nil {
				t.Fatalf("nil use for %q", id.Name)
			}
		}
		for e, typ := range info.Typed() {
			if e == nil || typ == nil || info.TypeOf(e) != typ {
				t.Fatal("nil type entry")
			}
		}
		// Checking the same tree again gives the same diagnostics.
		_, again := check.Check(tree, src)
		if len(again) != len(diags) {
			t.Fatalf("nondeterministic: %d then %d diagnostics", len(diags), len(again))
		}
		for i := range diags {
			if diags[i].Message != again[i].Message || diags[i].Span != again[i].Span {
				t.Fatalf("nondeterministic diagnostic %d: %q vs %q", i, diags[i].Message, again[i].Message)
			}
		}
		_ = ast.Node(tree)
	})
}
