package parser

import (
	"fmt"
	goparser "go/parser"
	gotoken "go/token"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"wfl-lsp/internal/benchdoc"
)

// Run both with: go test -run '^$' -bench Parse ./lang/parser
// and read the ratio of the MB/s columns (WFL over Go).

func corpusSources(b *testing.B) ([]string, int) {
	dir := filepath.Join(corpusDir(b), "wfl")
	var srcs []string
	n := 0
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".wfl") {
			if data, err := os.ReadFile(path); err == nil {
				srcs = append(srcs, string(data))
				n += len(data)
			}
		}
		return nil
	})
	return srcs, n
}

// goSources reads Go files from GOROOT until they hold at least n bytes.
func goSources(b *testing.B, n int) ([][]byte, int) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	root := filepath.Join(strings.TrimSpace(string(out)), "src", "go")
	var paths []string
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".go") && !strings.Contains(path, "testdata") {
			paths = append(paths, path)
		}
		return nil
	})
	sort.Strings(paths)
	var srcs [][]byte
	total := 0
	for _, p := range paths {
		if total >= n {
			break
		}
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		srcs = append(srcs, data)
		total += len(data)
	}
	if total < n {
		b.Skip("not enough Go source in GOROOT")
	}
	return srcs, total
}

// BenchmarkParseWFL lexes and parses every corpus program.
func BenchmarkParseWFL(b *testing.B) {
	srcs, n := corpusSources(b)
	b.SetBytes(int64(n))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range srcs {
			Parse(s)
		}
	}
}

// BenchmarkParseGo parses about as many bytes of Go with go/parser.
func BenchmarkParseGo(b *testing.B) {
	_, n := corpusSources(b)
	srcs, total := goSources(b, n)
	b.SetBytes(int64(total))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		fset := gotoken.NewFileSet()
		for _, s := range srcs {
			goparser.ParseFile(fset, "", s, goparser.ParseComments)
		}
	}
}

// BenchmarkParseRatio alternates the two workloads inside one loop and
// reports each one's MB/s and their ratio (wfl/go), from each one's fastest
// pass (benchdoc.Ratio).
func BenchmarkParseRatio(b *testing.B) {
	wfl, n := corpusSources(b)
	gosrc, total := goSources(b, n)
	benchdoc.Ratio(b, n, func() {
		for _, s := range wfl {
			Parse(s)
		}
	}, total, func() {
		fset := gotoken.NewFileSet()
		for _, s := range gosrc {
			goparser.ParseFile(fset, "", s, goparser.ParseComments)
		}
	})
}

// BenchmarkParseDescribesLeftOpen parses describes left open one after
// another, each holding a test left open, before an `end action`, 320 and
// four times as many (describesLeftOpen): the cost a token stays the same
// (the parse reaches the bound on the work of reading ahead, and the
// frames around the closer are each asked once, noneCloses).
func BenchmarkParseDescribesLeftOpen(b *testing.B) {
	for _, n := range []int{320, 1280} {
		src := describesLeftOpen(n, "end action\n")
		b.Run(fmt.Sprintf("describes=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Parse(src)
			}
		})
	}
}

// BenchmarkParseMangled parses lines of container, action and check
// headers, closers, members and statements in random order and
// indentation (mangledLines), 4,000 and twice as many: many statements are
// parsed ahead and kept (memoTable), and forgetting some of them reads only
// theirs, so the cost a line grows with the work of reading ahead, not
// with the statements kept.
func BenchmarkParseMangled(b *testing.B) {
	for _, n := range []int{4000, 8000} {
		src := mangledLines(n)
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Parse(src)
			}
		})
	}
}

// mangledLines returns n lines of container, action and check headers,
// closers, members and statements in random order and indentation.
func mangledLines(n int) string {
	lines := []string{
		"create container c:", "property p: Text", "define action called m:", "end action",
		"end container", "display 1", "check if x:", "create new c as z:", "end",
	}
	rng := rand.New(rand.NewPCG(3, 17))
	var sb strings.Builder
	for range n {
		sb.WriteString(strings.Repeat("    ", rng.IntN(4)))
		sb.WriteString(lines[rng.IntN(len(lines))])
		sb.WriteByte('\n')
	}
	return sb.String()
}

// BenchmarkParsePatternsLeftOpen parses patterns left open one after
// another, 2,000 and four times as many: each is read to the end of the
// text, as the reference reads it, but its closer is looked up
// (patternIndex), so the cost a token stays the same.
func BenchmarkParsePatternsLeftOpen(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "create pattern p%d:\n    one or more digit\n", i)
		}
		src := sb.String()
		b.Run(fmt.Sprintf("patterns=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				Parse(src)
			}
		})
	}
}
