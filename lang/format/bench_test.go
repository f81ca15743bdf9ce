package format

import (
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
