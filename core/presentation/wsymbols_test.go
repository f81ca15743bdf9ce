package presentation

import (
	"strconv"
	"strings"
	"testing"
)

// TestFuzzyMatchAbbreviations checks the abbreviation tier: runs of the
// query each starting a word of the name, in order.
func TestFuzzyMatchAbbreviations(t *testing.T) {
	tests := []struct {
		query, name string
		tier        int // 0: no match
	}{
		{"gtot", "grand total", 2},
		{"gto", "grand_total", 2},
		{"gt", "grandTotal", 2},
		{"tg", "grand total", 0},  // out of order
		{"gat", "grand total", 0}, // three runs for three letters: scattered
		{"grt", "greet", 1},
	}
	for _, tt := range tests {
		score, ok := FuzzyMatch(tt.query, tt.name)
		if got := score>>20 + 1; ok != (tt.tier > 0) || ok && got != tt.tier {
			t.Errorf("FuzzyMatch(%q, %q) = tier %d, %v; want tier %d", tt.query, tt.name, got, ok, tt.tier)
		}
	}
}

// BenchmarkFuzzyMatchLongNames matches a query that nearly abbreviates a
// name of many one-letter words (`a_a_…_a_1` against `a_…_a_9`), at 50 and
// 200 words: the cost grows with the product of the lengths. (A search
// that remembered only part of what it tried took 0.5 s at 100 words, and
// a workspace of a hundred such names minutes.)
func BenchmarkFuzzyMatchLongNames(b *testing.B) {
	for _, words := range []int{50, 200} {
		name := strings.Repeat("a_", words) + "1"
		query := strings.Repeat("a_", words-1) + "9"
		b.Run(strconv.Itoa(words), func(b *testing.B) {
			for b.Loop() {
				if _, ok := FuzzyMatch(query, name); ok {
					b.Fatal("matched")
				}
			}
		})
	}
}
