package core

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestIncludeWordFollowsEdits: where the edits since a document was opened
// say its text holds no `include`, none holds it; and the word typed or
// made by a deletion is seen.
func TestIncludeWordFollowsEdits(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		e          Edit
		want       wordKnown
	}{
		{"a letter elsewhere", "display \"a\"\n", Edit{Start: 9, End: 9, Text: "b"}, wordAbsent},
		{"its last letter typed", "includ from \"a.wfl\"\n", Edit{Start: 6, End: 6, Text: "e"}, wordPresent},
		{"its first letter typed", "nclude from \"a.wfl\"\n", Edit{Start: 0, End: 0, Text: "i"}, wordPresent},
		{"a letter deleted inside it", "inclXude from \"a.wfl\"\n", Edit{Start: 4, End: 5}, wordPresent},
		{"pasted whole", "display 1\n", Edit{Start: 0, End: 0, Text: "include from \"a.wfl\"\n"}, wordPresent},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text, err := ApplyEdits(tt.text, tt.e)
			if err != nil {
				t.Fatal(err)
			}
			if got := includeIn(tt.text).after(text, []Edit{tt.e}); got != tt.want {
				t.Errorf("after %+v: %d, want %d", tt.e, got, tt.want)
			}
		})
	}
	if got := wordPresent.after("x", []Edit{{Start: 0, End: 1, Text: "x"}}); got != wordPresent {
		t.Errorf("a text that held the word: %d, want it taken to hold it still", got)
	}
	if got := wordAbsent.after("ab", []Edit{{Start: 0, End: 0, Text: "a"}, {Start: 1, End: 1, Text: "b"}}); got != wordUnknown {
		t.Errorf("two edits at once: %d, want not known", got)
	}
	// Random typing and deleting among the word's letters: absent only
	// where a scan finds none.
	rng := rand.New(rand.NewPCG(3, 7))
	text, known := "in clu de", wordAbsent
	for range 20000 {
		var e Edit
		if len(text) > 0 && rng.IntN(2) == 0 {
			at := rng.IntN(len(text))
			e = Edit{Start: at, End: at + 1}
		} else {
			at := rng.IntN(len(text) + 1)
			e = Edit{Start: at, End: at, Text: string("include "[rng.IntN(8)])}
		}
		next, _ := ApplyEdits(text, e)
		known = known.after(next, []Edit{e})
		if known == wordAbsent && strings.Contains(next, "include") {
			t.Fatalf("%q after %+v in %q: taken for absent", next, e, text)
		}
		if known == wordPresent && !strings.Contains(next, "include") {
			known = wordAbsent // start again from a scan, as an opened version does
		}
		text = next
	}
}
