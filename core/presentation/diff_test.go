package presentation

import (
	"math/rand/v2"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"wfl-lsp/core"
)

// patch applies a unified diff made by UnifiedDiff to old, every line
// break written as \n: what `patch` would make of it (the break after the
// last line aside).
func patch(t *testing.T, old, diff string) string {
	t.Helper()
	oldLines := strings.Split(strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(old), "\n")
	lastBroken := strings.HasSuffix(old, "\n") || strings.HasSuffix(old, "\r") || old == ""
	if lastBroken {
		oldLines = oldLines[:len(oldLines)-1]
	}
	hunk := regexp.MustCompile(`^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$`)
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	if len(lines) < 3 || !strings.HasPrefix(lines[1], "--- ") || !strings.HasPrefix(lines[2], "+++ ") {
		t.Fatalf("no header:\n%s", diff)
	}
	var out []string
	pos := 0                 // next old line to copy
	broken := map[int]bool{} // out lines without a line break
	for i := 3; i < len(lines); {
		m := hunk.FindStringSubmatch(lines[i])
		if m == nil {
			t.Fatalf("line %d of the diff is not a hunk header: %q\n%s", i+1, lines[i], diff)
		}
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		d, _ := strconv.Atoi(m[4])
		start := a - 1
		if b == 0 {
			start = a
		}
		out = append(out, oldLines[pos:start]...)
		pos = start
		i++
		nOld, nNew := 0, 0
		for ; i < len(lines) && !strings.HasPrefix(lines[i], "@@"); i++ {
			l := lines[i]
			switch l[0] {
			case ' ':
				if oldLines[pos] != l[1:] {
					t.Fatalf("context %q is not old line %d %q\n%s", l[1:], pos+1, oldLines[pos], diff)
				}
				out = append(out, l[1:])
				pos++
				nOld++
				nNew++
			case '-':
				if oldLines[pos] != l[1:] {
					t.Fatalf("removed %q is not old line %d %q\n%s", l[1:], pos+1, oldLines[pos], diff)
				}
				pos++
				nOld++
			case '+':
				out = append(out, l[1:])
				nNew++
			case '\\':
				if lines[i-1][0] != '-' {
					broken[len(out)-1] = true
				}
			default:
				t.Fatalf("bad diff line %q", l)
			}
		}
		if nOld != b || nNew != d {
			t.Fatalf("a hunk says -%d +%d and has -%d +%d\n%s", b, d, nOld, nNew, diff)
		}
	}
	out = append(out, oldLines[pos:]...)
	text := strings.Join(out, "\n")
	if len(out) > 0 && !broken[len(out)-1] {
		text += "\n"
	}
	return text
}

// TestUnifiedDiffApplies makes random texts (\n, \r\n and \r line breaks,
// with or without a last one) and random edits (inside lines, across
// them, insertions, whole lines): the diff, applied to the text, gives
// the edited text, line breaks aside.
func TestUnifiedDiffApplies(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "bb", "store x", "", "  ", "é", "display y"}
	breaks := []string{"\n", "\n", "\r\n", "\r"}
	norm := strings.NewReplacer("\r\n", "\n", "\r", "\n")
	for n := range 3000 {
		var b strings.Builder
		for range rng.IntN(30) {
			b.WriteString(words[rng.IntN(len(words))])
			b.WriteString(breaks[rng.IntN(len(breaks))])
		}
		if rng.IntN(3) == 0 {
			b.WriteString("tail")
		}
		text := b.String()
		// Random cut points on rune boundaries, paired into edits.
		var cuts []int
		for range rng.IntN(8) {
			c := rng.IntN(len(text) + 1)
			for c < len(text) && text[c]&0xC0 == 0x80 {
				c++
			}
			cuts = append(cuts, c)
		}
		sort.Ints(cuts)
		var edits []core.Edit
		for i := 0; i+1 < len(cuts); i += 2 {
			if i > 0 && cuts[i] == cuts[i-1] {
				continue // edits must not overlap, nor share an insertion point
			}
			edits = append(edits, core.Edit{Start: cuts[i], End: cuts[i+1], Text: []string{"", "z", "new line\n", "q\r\nr"}[rng.IntN(4)]})
		}
		rng.Shuffle(len(edits), func(i, j int) { edits[i], edits[j] = edits[j], edits[i] })
		want, err := core.ApplyEdits(text, sortedLastFirst(edits)...)
		if err != nil {
			t.Fatal(err)
		}
		diff := UnifiedDiff("f.wfl", text, edits)
		got := patch(t, text, diff)
		if norm.Replace(got) != norm.Replace(want) && norm.Replace(got) != norm.Replace(want)+"\n" && norm.Replace(got)+"\n" != norm.Replace(want) {
			t.Fatalf("case %d: %q with %v:\ndiff:\n%s\npatched %q, want %q", n, text, edits, diff, got, want)
		}
		if len(edits) == 0 && diff != "diff f.wfl.orig f.wfl\n--- f.wfl.orig\n+++ f.wfl\n" {
			t.Fatalf("no edits, diff %q", diff)
		}
	}
}

func sortedLastFirst(edits []core.Edit) []core.Edit {
	out := append([]core.Edit(nil), edits...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start > out[j].Start })
	return out
}
