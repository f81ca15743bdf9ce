package core

// This file holds the scaling tests of the shapes an input can take to
// make the work grow faster than it does: long chains of operators, many
// findings on one line. Each measures what does not depend on the machine
// (bytes allocated, bytes held) at n and 4n and fails when it grows more
// than n log n; the benchmarks (BenchmarkGrowth) measure the time at larger
// n, and report how much it grows.

import (
	"fmt"
	"math"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"wfl-lsp/internal/benchdoc"
)

// growthShapes are texts of n units of a shape.
var growthShapes = []struct {
	name string
	text func(n int) string
	n    int // the n of the test (4n is measured too)
}{
	{"chain", func(n int) string { return "store x as 1" + strings.Repeat(" + 1", n) + "\ndisplay x\n" }, 2000},
	{"chain of words", func(n int) string { return "store x as 1" + strings.Repeat(" plus 1", n) + "\ndisplay x\n" }, 2000},
	{"chain past the limit", func(n int) string { return "store x as 1" + strings.Repeat(" + 1", n) + "\ndisplay x\n" }, 20000},
	{"findings on one line", func(n int) string { return "store x as 1 " + strings.Repeat("@", n) + "\ndisplay x\n" }, 10000},
	{"findings on one line of wide characters", func(n int) string { return "store x as 1 " + strings.Repeat("é😀", n) + "\ndisplay x\n" }, 5000},
	{"statements", func(n int) string { return benchdoc.Dense(n) }, 500},
}

// openAndShow does what opening a document in an editor does: its
// diagnostics with their positions in UTF-16 and in characters, its
// outline, folding and semantic tokens.
func openAndShow(text string) int {
	s := NewSnapshot(FileURI("/tmp/growth.wfl"), 1, text)
	lines, diags := s.Diagnostics()
	sum := 0
	for _, d := range diags {
		for _, off := range []int{d.Span.Start, d.Span.End} {
			l, col := lines.OffsetPosition(off)
			_, units := lines.Column(l-1, off)
			sum += col + units
		}
	}
	s.Tolerant()
	showOpened(s)
	return sum
}

// nlogn is how much n log n grows from n to 4n.
func nlogn(n int) float64 { return 4 * math.Log(float64(4*n)) / math.Log(float64(n)) }

// TestGrowthAllocations measures the bytes allocated to open each shape
// at n and 4n: they grow at most as n log n.
func TestGrowthAllocations(t *testing.T) {
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(t.TempDir(), "none"))
	allocated := func(text string) uint64 {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		openAndShow(text)
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	for _, sh := range growthShapes {
		t.Run(sh.name, func(t *testing.T) {
			small, large := sh.text(sh.n), sh.text(4*sh.n)
			allocated(small) // the first use of each table
			a, b := allocated(small), allocated(large)
			// 10% of slack for what does not grow with n.
			if ratio := float64(b) / float64(a); ratio > 1.1*nlogn(sh.n) {
				t.Errorf("%d bytes allocated at n=%d, %d at 4n: %.1f times, more than n log n (%.1f)", a, sh.n, b, ratio, nlogn(sh.n))
			}
		})
	}
}

// TestChainsHeldAsCode holds the analysis of a long chain and of ordinary
// code of the same size, and compares the heap each keeps a source byte:
// a chain (the densest text there is, two tokens and two nodes every four
// bytes) keeps at most three times what code does. 160,000 'plus 1' held
// 1.08 GB before (980 bytes a byte), most of it a stack grown by recursion.
func TestChainsHeldAsCode(t *testing.T) {
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(t.TempDir(), "none"))
	held := func(text string) float64 {
		runtime.GC()
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		s := NewSnapshot(FileURI("/tmp/held.wfl"), 1, strings.Clone(text))
		s.Diagnostics()
		s.Analysis()
		runtime.GC()
		runtime.ReadMemStats(&b)
		runtime.KeepAlive(s)
		return float64(int64(b.HeapAlloc)-int64(a.HeapAlloc)) / float64(len(text))
	}
	code := benchdoc.Dense(2000)
	var chains strings.Builder
	for chains.Len() < len(code) {
		fmt.Fprintf(&chains, "store x%d as 1%s\ndisplay x%d\n", chains.Len(), strings.Repeat(" plus 1", 2000), chains.Len())
	}
	c, k := held(code), held(chains.String())
	t.Logf("held a source byte: code %.1f, chains %.1f", c, k)
	if k > 3*c {
		t.Errorf("a chain holds %.1f bytes a source byte, code %.1f: more than three times", k, c)
	}
}

// BenchmarkGrowth times opening each shape at n and 4n (n larger than the
// tests'), and reports the two times and how much the time grows.
func BenchmarkGrowth(b *testing.B) {
	b.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(b.TempDir(), "none"))
	for _, sh := range growthShapes {
		b.Run(sh.name, func(b *testing.B) {
			n := 4 * sh.n
			small, large := sh.text(n), sh.text(4*n)
			var ts, tl time.Duration
			for b.Loop() {
				t0 := time.Now()
				openAndShow(small)
				t1 := time.Now()
				openAndShow(large)
				ts, tl = ts+t1.Sub(t0), tl+time.Since(t1)
			}
			b.ReportMetric(float64(ts.Microseconds())/float64(b.N), "µs/n")
			b.ReportMetric(float64(tl.Microseconds())/float64(b.N), "µs/4n")
			b.ReportMetric(float64(tl)/float64(ts), "growth")
			b.ReportMetric(nlogn(n), "nlogn")
		})
	}
}
