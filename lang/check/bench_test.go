package check_test

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/internal/testcorpus"
	wflast "wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	wflparser "wfl-lsp/lang/parser"
)

// BenchmarkCheckCorpus parses and checks every corpus program.
func BenchmarkCheckCorpus(b *testing.B) {
	srcs, n := corpus(b)
	b.SetBytes(int64(n))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range srcs {
			f, _ := wflparser.Parse(s)
			check.Check(f, s)
		}
	}
}

// BenchmarkCheckOnly checks the pre-parsed corpus: the checker's share.
func BenchmarkCheckOnly(b *testing.B) {
	srcs, n := corpus(b)
	type parsed struct {
		f   *wflast.File
		src string
	}
	var ps []parsed
	for _, s := range srcs {
		f, _ := wflparser.Parse(s)
		ps = append(ps, parsed{f, s})
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range ps {
			check.Check(p.f, p.src)
		}
	}
}

// corpus returns the corpus programs, in the order of their paths, and
// their size in bytes; it skips b when the corpus is not found.
func corpus(b *testing.B) ([]string, int) {
	progs := testcorpus.Programs(b)
	paths := slices.Sorted(maps.Keys(progs))
	srcs := make([]string, len(paths))
	n := 0
	for i, path := range paths {
		srcs[i] = progs[path]
		n += len(srcs[i])
	}
	if n == 0 {
		b.Skip("corpus not found")
	}
	return srcs, n
}

// goPackages are GOROOT packages whose imports are all in the standard
// library; enough of them are taken to match the corpus size.
var goPackages = []string{
	"go/scanner", "go/token", "go/ast", "go/parser", "text/template/parse",
	"strconv", "bufio", "encoding/csv", "net/url", "encoding/base64", "regexp/syntax",
	"text/tabwriter", "container/list", "path", "html", "encoding/json",
}

type goPkg struct {
	path  string
	files map[string][]byte
}

// goWorkload loads GOROOT packages of about want bytes (whole packages,
// taken in goPackages' order until they hold at least want bytes) and
// returns a function that parses and type-checks them with go/parser and
// go/types, and their size. Imports come from a source importer, warmed
// here, so only the packages themselves are measured.
func goWorkload(b *testing.B, want int) (run func(), n int) {
	var pkgs []goPkg
	for _, path := range goPackages {
		if n >= want {
			break
		}
		bp, err := build.Default.Import(path, "", 0)
		if err != nil {
			b.Skip(err)
		}
		p := goPkg{path: path, files: map[string][]byte{}}
		for _, name := range bp.GoFiles {
			data, err := os.ReadFile(filepath.Join(bp.Dir, name))
			if err != nil {
				b.Skip(err)
			}
			p.files[name] = data
			n += len(data)
		}
		pkgs = append(pkgs, p)
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	run = func() {
		for _, p := range pkgs {
			var names []string
			for name := range p.files {
				names = append(names, name)
			}
			sort.Strings(names)
			var files []*ast.File
			for _, name := range names {
				f, err := parser.ParseFile(fset, name, p.files[name], parser.SkipObjectResolution)
				if err != nil {
					b.Fatal(err)
				}
				files = append(files, f)
			}
			conf := types.Config{Importer: imp}
			if _, err := conf.Check(p.path, fset, files, nil); err != nil {
				b.Fatal(err)
			}
		}
	}
	run() // warm the importer's cache
	return run, n
}

// BenchmarkGoParserTypes parses and type-checks GOROOT packages of about the
// corpus's size with go/parser and go/types, for comparison (see
// goWorkload; BenchmarkCheckRatio runs both in one loop).
func BenchmarkGoParserTypes(b *testing.B) {
	_, want := corpus(b)
	run, n := goWorkload(b, want)
	b.SetBytes(int64(n))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		run()
	}
}

// BenchmarkCheckRatio measures our front end beside Go's on about the same
// number of bytes, in one run: each iteration lexes, parses and checks every
// corpus program (as BenchmarkCheckCorpus does), then parses and
// type-checks GOROOT packages of at least the corpus's size (as
// BenchmarkGoParserTypes does). It reports each workload's MB/s and their
// ratio, wfl/go (above 1: ours is faster per byte). Each workload's speed is
// taken from its fastest pass, because load from other processes only ever
// adds time (benchdoc.Ratio). Run it with
//
//	go test -run '^$' -bench CheckRatio -count 5 ./lang/check
func BenchmarkCheckRatio(b *testing.B) {
	srcs, n := corpus(b)
	goRun, total := goWorkload(b, n)
	benchdoc.Ratio(b, n, func() {
		for _, s := range srcs {
			f, _ := wflparser.Parse(s)
			check.Check(f, s)
		}
	}, total, goRun)
}

// BenchmarkCheckMethodCalls checks files of n variables, each changed
// after a method's call, for n of 1,000 and 4,000: after each call every
// variable may hold anything (the reference's boundary of code it does
// not follow), and the cost a line stays about the same, as a call visits
// only the variables set since the last one (env.since), not all of them.
func BenchmarkCheckMethodCalls(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		var sb strings.Builder
		sb.WriteString("create container T:\n    property p: Number\n    action go:\n        display p\n    end\nend\ncreate new T as t:\n    p is 1\nend\n")
		for i := range n {
			fmt.Fprintf(&sb, "store v%d as %d\n", i, i)
		}
		for i := range n {
			fmt.Fprintf(&sb, "t.go()\nchange v%d to \"%d\"\n", i, i)
		}
		src := sb.String()
		f, _ := wflparser.Parse(src)
		b.Run(fmt.Sprintf("variables=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				check.Check(f, src)
			}
		})
	}
}

// BenchmarkCheckDeepNesting checks blocks nested 500 and 2,000 deep, each
// declaring a name (deepNesting): the cost a block stays about the same,
// as each block's names are dropped when it ends.
func BenchmarkCheckDeepNesting(b *testing.B) {
	for _, depth := range []int{500, 2000} {
		src := deepNesting(depth)
		f, _ := wflparser.Parse(src)
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				check.Check(f, src)
			}
		})
	}
}
