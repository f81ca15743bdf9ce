package main

// BenchmarkServerTyping measures what an editor waits for while someone
// types: the server runs as a process of its own (this test binary run
// again as `wfl-lsp --stdio`, as in BenchmarkServerDidChange) and
// internal/typingbench types into a document, one keystroke an op: a
// didChange, then at once completion, signature help, hover, semantic
// tokens and inlay hints of the visible range; it reports the p50 and p99 of
// each request and of the publishDiagnostics that follows, and the machine's
// floor under them (typingbench.Floor: a hover request's round trip through
// cat, measured right after), and prints the requests' figures as a table
// at the end. The documents: benchdoc's dense and clean documents of 1,000 and
// 10,000 lines, the clean one of 10,000 lines with a block typed by hand
// (its closer not typed) or a line with a string (its quote open while it
// is typed), and the corpus's largest program. bench/typing measures the
// same beside gopls on an equal Go file.
//
//	go test -run '^$' -bench ServerTyping -benchtime 1000x .

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/internal/typingbench"
)

func BenchmarkServerTyping(b *testing.B) {
	type doc struct {
		name string
		make func(b *testing.B, dir string) (typingbench.Doc, error)
	}
	var docs []doc
	for _, clean := range []bool{false, true} {
		for _, lines := range []int{1000, 10000} {
			name := fmt.Sprintf("lines=%d", lines)
			if clean {
				name = "clean/" + name
			}
			docs = append(docs, doc{name, func(_ *testing.B, dir string) (typingbench.Doc, error) { return typingbench.WFLDoc(dir, clean, lines) }})
		}
	}
	docs = append(docs, doc{"block/lines=10000", func(_ *testing.B, dir string) (typingbench.Doc, error) { return typingbench.BlockDoc(dir, 10000) }})
	docs = append(docs, doc{"quote/lines=10000", func(_ *testing.B, dir string) (typingbench.Doc, error) { return typingbench.QuoteDoc(dir, 10000) }})
	docs = append(docs, doc{"tests/lines=10000", func(_ *testing.B, dir string) (typingbench.Doc, error) { return typingbench.TestsDoc(dir, 10000) }})
	docs = append(docs, doc{"corpus=" + filepath.Base(typingbench.CorpusProgram), func(b *testing.B, dir string) (typingbench.Doc, error) {
		return typingbench.CorpusDoc(dir, filepath.Join(testcorpus.Dir(b), "wfl"))
	}})
	// The last run of each document (the one with the most keystrokes),
	// printed as one table once every document has run.
	last := make([]*typingbench.Result, len(docs))
	for i, d := range docs {
		b.Run(d.name, func(b *testing.B) {
			dir := workspace(b)
			doc, err := d.make(b, dir)
			if err != nil {
				b.Fatal(err)
			}
			res, err := typingbench.Run(serverProcess(), dir, doc, typingbench.Options{Keystrokes: b.N, Measuring: b.ResetTimer})
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			for name, v := range res.Metrics() {
				b.ReportMetric(v, name)
			}
			// The machine's floor under those figures, right after them.
			if floor, err := typingbench.Floor(res.Keystrokes, res.KeystrokeMedian()); err != nil {
				b.Logf("the machine's floor not measured: %v", err)
			} else {
				b.ReportMetric(float64(floor.Percentile(0.5).Nanoseconds())/1e3, "floor-p50-µs")
				b.ReportMetric(float64(floor.Percentile(0.99).Nanoseconds())/1e3, "floor-p99-µs")
			}
			b.ReportMetric(0, "ns/op")
			last[i] = res
		})
	}
	var results []*typingbench.Result
	for _, r := range last {
		if r != nil {
			results = append(results, r)
		}
	}
	if len(results) > 0 {
		fmt.Println()
		typingbench.Explain(os.Stdout, results[0].Keystrokes, false)
		fmt.Println()
		typingbench.WriteTable(os.Stdout, results)
		fmt.Println()
		typingbench.WriteUsage(os.Stdout, results)
		fmt.Println()
	}
}

// TestTypingDriver types a few keystrokes into a small document through the
// benchmark's driver, so that the benchmark keeps working: every request is
// answered, each kind with something at least once (a hover on a statement
// that does not parse, `1+`, finds nothing), and every keystroke's
// diagnostics are published.
func TestTypingDriver(t *testing.T) {
	dir := workspace(t)
	doc, err := typingbench.WFLDoc(dir, true, 120)
	if err != nil {
		t.Fatal(err)
	}
	res, err := typingbench.Run(serverProcess(), dir, doc, typingbench.Options{Keystrokes: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range typingbench.Kinds {
		s := res.Stats[k]
		if k == typingbench.Diagnostics {
			if len(s.Samples) != 4 || res.Missed != 0 {
				t.Errorf("%d publishes, %d missed; want 4", len(s.Samples), res.Missed)
			}
			continue
		}
		if len(s.Samples) != 4 || s.Errors != 0 || s.Said == 0 {
			t.Errorf("%s: %d answers, %d errors, %d that said something; want 4 answers, some saying something", k, len(s.Samples), s.Errors, s.Said)
		}
	}
	// What the process used: some processor time, and where the system
	// tells them (Linux), its memory and its page faults.
	if u := res.Usage; u.CPU <= 0 || runtime.GOOS == "linux" && (u.MaxRSS < 1<<20 || u.Faults <= 0) {
		t.Errorf("the server's usage: %+v; want some CPU time, and on Linux a peak of 1 MB or more and some page faults", u)
	}
}

// serverProcess returns the command that runs this test binary as the server.
func serverProcess() typingbench.Server {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "WFL_LSP_TEST_SERVER=1")
	cmd.Stderr = os.Stderr
	return typingbench.Server{Name: "wfl-lsp", Cmd: cmd}
}

// workspace returns a new empty folder, removed at the end of the test: a
// path of plain characters, which a file URI spells as it is.
func workspace(tb testing.TB) string {
	dir, err := os.MkdirTemp("", "typingbench")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
