package check

import "testing"

// TestSymbolCopyKeepsItsOwn: a copy of a symbol (an included file's copy,
// a branch's merged one) shares its rare fields until one of the two sets
// one, which the other then does not see, as when they were fields of the
// struct itself.
func TestSymbolCopyKeepsItsOwn(t *testing.T) {
	orig := &Symbol{Name: "Shape", Kind: SymContainer}
	orig.setDoc("A shape.")
	orig.SetMembers(map[string]*Symbol{"area": {Name: "area", Kind: SymProperty}})
	orig.own().extends = "Thing"

	c := *orig
	c.SetFrom("/lib/shapes.wfl")
	c.setDoc("Copied.")
	base := &Symbol{Name: "Thing", Kind: SymContainer}
	c.SetBase(base)

	if orig.From() != "" || orig.Doc() != "A shape." || orig.Base() != nil {
		t.Errorf("the original changed with its copy: from %q, doc %q, base %v", orig.From(), orig.Doc(), orig.Base())
	}
	if c.From() != "/lib/shapes.wfl" || c.Doc() != "Copied." || c.Base() != base || c.Extends() != "Thing" {
		t.Errorf("the copy: from %q, doc %q, base %v, extends %q", c.From(), c.Doc(), c.Base(), c.Extends())
	}
	if c.Members()["area"] == nil {
		t.Error("the copy lost the members it was made with")
	}

	// A symbol with none of them set keeps none: the struct a variable
	// pays for is not made.
	v := &Symbol{Name: "x", Kind: SymVariable}
	v.setDoc("")
	if v.ext != nil || v.Doc() != "" || v.Members() != nil || v.Builtin() != nil || v.Nested() != nil {
		t.Errorf("a variable without a doc comment has %+v", v.ext)
	}
}
