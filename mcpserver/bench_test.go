package mcpserver

// This file benchmarks the server in process: one request handled from its
// line to its answer line, without a transport. bench/mcp compares the
// whole server with other servers over stdio.

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"wfl-lsp/internal/benchdoc"
)

// benchServer runs s on pipes and returns how to send it one request
// line and read its answer line.
func benchServer(b *testing.B, s *Server) func(line []byte) []byte {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	go s.ServeStream(ctx, inR, outW)
	b.Cleanup(func() { cancel(); inW.Close() })
	out := bufio.NewReader(outR)
	return func(line []byte) []byte {
		if _, err := inW.Write(append(line, '\n')); err != nil {
			b.Fatal(err)
		}
		ans, err := out.ReadBytes('\n')
		if err != nil {
			b.Fatal(err)
		}
		return ans
	}
}

// BenchmarkAnalyzeSmall runs analyze_wfl on a two-line program, over
// pipes (mcp's BenchmarkEchoCall is the same call of a tool that does
// nothing).
func BenchmarkAnalyzeSmall(b *testing.B) {
	s, err := New(Options{Root: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	call := benchServer(b, s)
	in := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"analyze_wfl","arguments":{"source":"store x as 1\ndisplay x\n"}}}`)
	b.ReportAllocs()
	for b.Loop() {
		call(in)
	}
}

// BenchmarkFixBesideAnalyze runs fix_wfl with its default arguments beside
// analyze_wfl on the same workspace file, from 1,250 to 20,000 lines: a
// document of warnings (benchdoc's dense one) and the corpus's programs
// one after another (parse errors among them, whose fixes are checked on
// the program each makes). fix_wfl was quadratic: 15.4 s at 20,000 lines
// of the corpus, where analyze_wfl took 0.44 s.
func BenchmarkFixBesideAnalyze(b *testing.B) {
	docs := map[string]func(lines int) string{"dense": benchdoc.Dense}
	if corpus := corpusText(); corpus != "" {
		docs["corpus"] = func(lines int) string { return firstLines(corpus, lines) }
	}
	for _, doc := range []string{"dense", "corpus"} {
		gen := docs[doc]
		if gen == nil {
			continue
		}
		for _, lines := range []int{1250, 5000, 10000, 20000} {
			root := b.TempDir()
			if err := os.WriteFile(filepath.Join(root, "big.wfl"), []byte(gen(lines)), 0o644); err != nil {
				b.Fatal(err)
			}
			for _, tool := range []string{"analyze_wfl", "fix_wfl"} {
				b.Run(fmt.Sprintf("%s/%s/%d", doc, tool, lines), func(b *testing.B) {
					in := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":{"path":"big.wfl"}}}`)
					for b.Loop() {
						// A server of its own each time, so that the file's
						// analysis is never one made before.
						b.StopTimer()
						s, err := New(Options{Root: root})
						if err != nil {
							b.Fatal(err)
						}
						call := benchServer(b, s)
						b.StartTimer()
						line := call(in)
						if bytes.Contains(line, []byte(`"isError":true`)) {
							b.Fatalf("%s failed: %.300s", tool, line)
						}
					}
				})
			}
		}
	}
}

// corpusText is the corpus's programs one after another, or "" without
// the corpus.
func corpusText() string {
	var sb strings.Builder
	filepath.WalkDir(filepath.Join("..", "..", "shared", "corpus", "wfl"), func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".wfl") {
			if b, err := os.ReadFile(p); err == nil && utf8.Valid(b) {
				sb.Write(b)
				sb.WriteString("\n")
			}
		}
		return nil
	})
	return sb.String()
}

// firstLines is the first n lines of text, repeated as needed.
func firstLines(text string, n int) string {
	var sb strings.Builder
	for count := 0; count < n; {
		for line := range strings.Lines(text) {
			if count == n {
				break
			}
			sb.WriteString(line)
			count++
		}
	}
	return sb.String()
}
