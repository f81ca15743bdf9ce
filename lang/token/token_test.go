package token

import "testing"

func TestLookup(t *testing.T) {
	for k := keywordBase + 1; k < kindCount; k++ {
		w := k.Spelling()
		if w == "divided by" {
			continue
		}
		if got := Lookup(w); got != k {
			t.Errorf("Lookup(%q) = %v, want %v", w, got, k)
		}
	}
	for _, w := range []string{"Store", "stores", "x", "", "content_type", "yes", "nothing", "zzzzzzzzzzzzzzzzzzzz"} {
		if got := Lookup(w); got != Identifier {
			t.Errorf("Lookup(%q) = %v, want Identifier", w, got)
		}
	}
	if !KeywordStore.IsStructural() || KeywordStore.IsContextual() || !KeywordCount.IsContextual() || !KeywordAny.IsStructural() || !KeywordAny.IsContextual() {
		t.Error("keyword classes are wrong")
	}
	if KeywordStore.String() != "KeywordStore" || (Token{Kind: Identifier, Text: "a b"}).String() != `Identifier("a b")` {
		t.Error("names are wrong")
	}
}
