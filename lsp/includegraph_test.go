package lsp

// This file measures what opening files that include one another costs the
// server: analyses (core.Analyses) and diagnostics published, at n and 4n
// files, for an include cycle, a chain and files that each include all the
// others.

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"testing"

	"go.lsp.dev/uri"

	"wfl-lsp/core"
)

// includeGraph writes n files f0.wfl … in dir that include one another in
// shape (cycle: each the next, the last the first; chain: each the next;
// mesh: each all the others), each using the variable of one it includes,
// and returns their paths and the number of includes.
func includeGraph(t testing.TB, dir string, n int, shape string) (paths []string, edges int) {
	t.Helper()
	for i := range n {
		var b []byte
		switch shape {
		case "cycle":
			b = fmt.Appendf(b, "include from \"f%d.wfl\"\n", (i+1)%n)
			edges++
		case "chain":
			if i+1 < n {
				b = fmt.Appendf(b, "include from \"f%d.wfl\"\n", i+1)
				edges++
			}
		case "mesh":
			for j := range n {
				if j != i {
					b = fmt.Appendf(b, "include from \"f%d.wfl\"\n", j)
					edges++
				}
			}
		}
		b = fmt.Appendf(b, "store v%d as %d\n", i, i)
		if shape != "chain" || i+1 < n {
			b = fmt.Appendf(b, "display v%d\n", (i+1)%n)
		}
		p := filepath.Join(dir, fmt.Sprintf("f%d.wfl", i))
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths, edges
}

// graphCost opens the files one after the other in a new server and
// returns the analyses it made and the diagnostics it published until
// every one is published.
func graphCost(t testing.TB, paths []string) (analyses int64, published int) {
	t.Helper()
	c := newClient(t, func(o *Options) { o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil)) })
	c.initialize(nil)
	before := core.Spent().Analyses
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		c.open(string(uri.File(p)), string(b), 1)
	}
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
	analyses = core.Spent().Analyses - before
	for _, m := range c.drained() {
		if m.Method == "textDocument/publishDiagnostics" {
			published++
		}
	}
	return analyses, published
}

// leastCost is graphCost's least of three runs: the analyses are counted
// for the whole process, and work left running by earlier tests only adds
// to them.
func leastCost(t testing.TB, paths []string) (analyses int64, published int) {
	analyses, published = graphCost(t, paths)
	for range 2 {
		a, p := graphCost(t, paths)
		analyses, published = min(analyses, a), max(published, p)
	}
	return analyses, published
}

// drained returns the messages received and not yet awaited, once the
// server has stopped.
func (c *client) drained() []*msg {
	out := c.seen
	c.seen = nil
	for m := range c.inbox {
		out = append(out, m)
	}
	return out
}

// TestIncludeGraphScales opens n and 4n files that include one another:
// the analyses and the diagnostics published grow no faster than
// (n + includes) log (n + includes), whatever the shape.
func TestIncludeGraphScales(t *testing.T) {
	for _, tt := range []struct {
		shape string
		n     int
	}{{"cycle", 25}, {"chain", 25}, {"mesh", 6}} {
		t.Run(tt.shape, func(t *testing.T) {
			small, e1 := includeGraph(t, t.TempDir(), tt.n, tt.shape)
			large, e4 := includeGraph(t, t.TempDir(), 4*tt.n, tt.shape)
			a1, p1 := leastCost(t, small)
			a4, p4 := leastCost(t, large)
			s1, s4 := float64(tt.n+e1), float64(4*tt.n+e4)
			limit := s4 * math.Log2(s4) / (s1 * math.Log2(s1))
			t.Logf("n=%d: %d analyses, %d published; n=%d: %d analyses, %d published; growth allowed %.1fx",
				tt.n, a1, p1, 4*tt.n, a4, p4, limit)
			if g := float64(a4) / float64(a1); g > limit {
				t.Errorf("analyses grew %.1fx from %d to %d files, more than (n+includes) log(n+includes) allows (%.1fx)", g, tt.n, 4*tt.n, limit)
			}
			if g := float64(p4) / float64(p1); g > limit {
				t.Errorf("diagnostics published grew %.1fx from %d to %d files, more than %.1fx", g, tt.n, 4*tt.n, limit)
			}
		})
	}
}

// TestEditInIncludeCycle edits one file of an include cycle without
// changing what it gives the others: the edit costs the same analyses
// whatever the size of the cycle, its files looked up in the workspace
// grow no faster than n log n, and only the edited file is published
// again.
func TestEditInIncludeCycle(t *testing.T) {
	cost := func(n int) (core.Costs, int) {
		paths, _ := includeGraph(t, t.TempDir(), n, "cycle")
		c := newClient(t, func(o *Options) { o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil)) })
		c.initialize(nil)
		for _, p := range paths {
			b, _ := os.ReadFile(p)
			c.open(string(uri.File(p)), string(b), 1)
		}
		for _, p := range paths {
			c.diagnostics(string(uri.File(p)), 1)
		}
		// Wait for any republished diagnostics by a request answered after them.
		c.call("workspace/symbol", map[string]any{"query": "zzz"})
		c.seen = nil
		before := core.Spent()
		u := string(uri.File(paths[0]))
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": u, "version": 2},
			"contentChanges": []any{map[string]any{"range": wireRange{Start: wirePos{Line: 3}, End: wirePos{Line: 3}}, "text": "display v0\n"}},
		})
		c.diagnostics(u, 2)
		// The diagnostics may be published before the analysis the
		// features read ends (incremental.go): a request that reads it
		// waits for it, so that a loaded machine counts the same work.
		c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}})
		after := core.Spent()
		if err := c.finish(); err != nil {
			t.Fatal(err)
		}
		others := 0
		for _, m := range c.drained() {
			var p publishParams
			if m.Method == "textDocument/publishDiagnostics" && json.Unmarshal(m.Params, &p) == nil && p.URI != u {
				others++
			}
		}
		return core.Costs{Analyses: after.Analyses - before.Analyses, Lookups: after.Lookups - before.Lookups}, others
	}
	// The counters are the process's: work left running by the tests
	// before (a warm-up, an index) only adds to them, so each size takes
	// the least of three runs.
	least := func(n int) (core.Costs, int) {
		c, o := cost(n)
		for range 2 {
			ci, oi := cost(n)
			c.Analyses, c.Lookups, o = min(c.Analyses, ci.Analyses), min(c.Lookups, ci.Lookups), max(o, oi)
		}
		return c, o
	}
	c1, o1 := least(25)
	c4, o4 := least(100)
	t.Logf("one edit: %+v with 25 files open, %+v with 100", c1, c4)
	if c4.Analyses > c1.Analyses || o1+o4 > 0 {
		t.Errorf("one edit that changes nothing the other files read: %d analyses with 25 files, %d with 100; %d and %d other files published",
			c1.Analyses, c4.Analyses, o1, o4)
	}
	if limit := 4 * math.Log2(100) / math.Log2(25); float64(c4.Lookups) > limit*float64(c1.Lookups) {
		t.Errorf("one edit looked up %d files with 25 open, %d with 100: more than n log n allows (%.1fx)", c1.Lookups, c4.Lookups, limit)
	}
}

// BenchmarkIncludeGraph opens the graphs of issue 32 (an include cycle of
// 200 files, a chain of 200, 80 files that each include all the others)
// and reports the analyses and diagnostics published per opening.
func BenchmarkIncludeGraph(b *testing.B) {
	for _, tt := range []struct {
		shape string
		n     int
	}{{"cycle", 200}, {"chain", 200}, {"mesh", 80}} {
		b.Run(fmt.Sprintf("%s/files=%d", tt.shape, tt.n), func(b *testing.B) {
			paths, _ := includeGraph(b, b.TempDir(), tt.n, tt.shape)
			var analyses int64
			var published int
			for b.Loop() {
				a, p := graphCost(b, paths)
				analyses += a
				published += p
			}
			b.ReportMetric(float64(analyses)/float64(b.N), "analyses/op")
			b.ReportMetric(float64(published)/float64(b.N), "published/op")
		})
	}
}
