package format

import (
	"strconv"
	"strings"
	"testing"
)

// bigProgram concatenates the corpus programs that parse, each wrapped so
// names do not clash, until the text has at least n lines.
func bigProgram(b *testing.B, n int) string {
	files := corpusFiles(b)
	var parts []string
	for _, src := range files {
		if parses(src) {
			parts = append(parts, src)
		}
	}
	var sb strings.Builder
	lines := 0
	for lines < n {
		for _, p := range parts {
			sb.WriteString(p)
			if !strings.HasSuffix(p, "\n") {
				sb.WriteString("\n")
			}
			lines += strings.Count(p, "\n") + 1
			if lines >= n {
				break
			}
		}
	}
	return sb.String()
}

// BenchmarkSource formats about 10,000 lines of corpus programs (the text
// need not check; it must parse).
func BenchmarkSource(b *testing.B) {
	src := bigProgram(b, 10000)
	if !parses(src) {
		b.Skip("the concatenated corpus does not parse")
	}
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := Source(src, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEditsRange formats 20 lines of the same text, as an editor's
// range formatting does.
func BenchmarkEditsRange(b *testing.B) {
	src := bigProgram(b, 10000)
	if !parses(src) {
		b.Skip("the concatenated corpus does not parse")
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := Edits(src, Options{}, 5000, 5020); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEditsEveryLine formats a whole text whose every line is indented
// by a stray space, at 10,000 and 40,000 lines: one edit of every line, whose
// cost grows with the text (its text was made by adding each line to what
// came before: 40,000 lines took 12 s, four times 10,000 sixteen times the
// time).
func BenchmarkEditsEveryLine(b *testing.B) {
	for _, n := range []int{10000, 40000} {
		src := strings.Repeat(" store x as 1\n display x\n", n/2)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				edits, err := Edits(src, Options{}, 0, -1)
				if err != nil || len(edits) != 1 {
					b.Fatalf("%d edits, %v", len(edits), err)
				}
			}
		})
	}
}
