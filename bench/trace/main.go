// Command trace explains, from an execution trace of wfl-lsp taken while
// it is typed into, where the time of one request went on each keystroke:
// its critical path, followed back from the moment its answer was written,
// through the goroutines that made one another runnable, to the moment the
// keystroke's didChange was read. Each stretch of the path is named by what
// ran (the innermost trace region of the goroutine, or the function it was
// started with) or by why it waited (for a processor, in a system call, or
// blocked on something no goroutine released).
//
// The server marks what the analysis reads: a region for each stage (the
// derivation, the query state, the partial and the full analyses, each
// notification, each request's work, the diagnostics' list) and a log for
// each message read ("recv") and written ("sent"), recorded only while a
// trace runs. To take a trace and read it:
//
//	WFL_LSP_TEST_TRACE=/tmp/typing.trace go test -run '^$' -bench 'ServerTyping/clean/lines=10000' -benchtime 1000x .
//	cd bench/trace && go run . -req textDocument/hover /tmp/typing.trace
//
// It prints the percentiles of the request's latency from the didChange,
// the mean composition of its path over all keystrokes, the median band,
// the p85-p95 band and the slowest 2%, and the slowest paths stretch by
// stretch. It is its own module, so that golang.org/x/exp stays out of the
// product's go.mod.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"golang.org/x/exp/trace"
)

func main() {
	req := flag.String("req", "textDocument/hover", "the request whose paths are explained")
	from := flag.Int("from", 0, "leave out this many first keystrokes (the warm-up)")
	detail := flag.Int("detail", 3, "print this many of the slowest paths stretch by stretch")
	regions := flag.Bool("regions", false, "print the percentiles of each region's wall time too")
	buckets := flag.Int("buckets", 0, "print the latency by keystrokes, this many a line")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run . [flags] TRACE")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	t, err := read(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "trace:", err)
		os.Exit(1)
	}
	if *regions {
		t.printRegions(os.Stdout)
	}
	paths := t.paths(*req)
	if len(paths) <= *from {
		fmt.Fprintf(os.Stderr, "trace: %d keystrokes answered %s in the trace\n", len(paths), *req)
		os.Exit(1)
	}
	paths = paths[*from:]
	if *buckets > 0 {
		printBuckets(os.Stdout, paths, *buckets)
	}
	report(os.Stdout, *req, paths, *detail)
}

// A stretch is part of a goroutine's life in one state.
type stretch struct {
	from, to trace.Time
	state    trace.GoState
	// For a stretch blocked: the goroutine that made it runnable at its
	// end (trace.NoGoroutine: none, as for a timer or the network), and
	// why it blocked.
	unblocker trace.GoID
	reason    string
	// For a system call: where it was made.
	where string
}

// A region is a trace region of a goroutine.
type region struct {
	from, to trace.Time // to < 0: not ended in the trace
	name     string
}

// A goroutine is what the trace says of one.
type goroutine struct {
	id        trace.GoID
	stretches []stretch
	regions   []region
	open      []int // indices of the regions not ended yet
	started   string
	parent    trace.GoID // the goroutine that created it
	born      trace.Time

	state trace.GoState // at the latest event read
	since trace.Time
	why   string // why it blocked, while it is blocked
	where string // where its system call is, while it is in one
}

type logEvent struct {
	at       trace.Time
	g        trace.GoID
	category string
	message  string
}

type traceData struct {
	goroutines map[trace.GoID]*goroutine
	logs       []logEvent
	gcs        [][2]trace.Time // the collector's mark phases
}

func read(path string) (*traceData, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := trace.NewReader(f)
	if err != nil {
		return nil, err
	}
	t := &traceData{goroutines: map[trace.GoID]*goroutine{}}
	get := func(id trace.GoID) *goroutine {
		g := t.goroutines[id]
		if g == nil {
			g = &goroutine{id: id, parent: trace.NoGoroutine}
			t.goroutines[id] = g
		}
		return g
	}
	var last trace.Time
	markFrom := trace.Time(-1)
	for {
		ev, err := r.ReadEvent()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		at := ev.Time()
		last = at
		switch ev.Kind() {
		case trace.EventStateTransition:
			st := ev.StateTransition()
			if st.Resource.Kind != trace.ResourceGoroutine {
				continue
			}
			g := get(st.Resource.Goroutine())
			old, now := st.Goroutine()
			if old == trace.GoNotExist && now == trace.GoRunnable {
				g.started = topFunc(st.Stack, 1)
				g.parent, g.born = ev.Goroutine(), at
			}
			if g.since != 0 {
				s := stretch{from: g.since, to: at, state: g.state, where: g.where}
				if g.state == trace.GoWaiting {
					s.unblocker, s.reason = ev.Goroutine(), g.why
				}
				g.stretches = append(g.stretches, s)
			}
			g.state, g.since = now, at
			switch now {
			case trace.GoWaiting:
				g.why = st.Reason + " " + topFunc(st.Stack, 4)
			case trace.GoSyscall:
				g.where = topFunc(ev.Stack(), 6)
			}
		case trace.EventRegionBegin:
			g := get(ev.Goroutine())
			g.regions = append(g.regions, region{from: at, to: -1, name: ev.Region().Type})
			g.open = append(g.open, len(g.regions)-1)
		case trace.EventRegionEnd:
			g := get(ev.Goroutine())
			if n := len(g.open); n > 0 {
				g.regions[g.open[n-1]].to = at
				g.open = g.open[:n-1]
			}
		case trace.EventLog:
			l := ev.Log()
			t.logs = append(t.logs, logEvent{at, ev.Goroutine(), l.Category, l.Message})
		case trace.EventRangeBegin:
			if strings.Contains(ev.Range().Name, "GC concurrent mark") {
				markFrom = at
			}
		case trace.EventRangeEnd:
			if strings.Contains(ev.Range().Name, "GC concurrent mark") && markFrom >= 0 {
				t.gcs = append(t.gcs, [2]trace.Time{markFrom, at})
				markFrom = -1
			}
		}
	}
	for _, g := range t.goroutines {
		if g.since != 0 {
			g.stretches = append(g.stretches, stretch{from: g.since, to: last + 1, state: g.state})
		}
	}
	return t, nil
}

// topFunc returns the first n function names of a stack, innermost first.
func topFunc(s trace.Stack, n int) string {
	var names []string
	for f := range s.Frames() {
		names = append(names, short(f.Func))
		if len(names) == n {
			break
		}
	}
	return strings.Join(names, "<")
}

func short(fn string) string {
	if i := strings.LastIndex(fn, "/"); i >= 0 {
		return fn[i+1:]
	}
	return fn
}

// A path is one keystroke's critical path for the request.
type path struct {
	keystroke int
	total     trace.Time
	steps     []step // from the answer back to the didChange
	duringGC  bool
}

// A step is a stretch of the path, named.
type step struct {
	at, d trace.Time // at: from the didChange
	g     trace.GoID
	what  string
}

// paths returns a path for each keystroke whose request req was answered:
// from the last didChange read before the request to its answer written.
func (t *traceData) paths(req string) []path {
	type answered struct {
		from, to trace.Time
		g        trace.GoID
	}
	var keys []answered
	changed := trace.Time(-1)
	pending := map[string]bool{}
	for _, l := range t.logs {
		switch {
		case l.category == "recv" && l.message == "textDocument/didChange":
			changed = l.at
		case l.category == "recv" && strings.HasPrefix(l.message, req+" ") && changed >= 0:
			pending[strings.TrimPrefix(l.message, req+" ")] = true
		case l.category == "sent" && strings.HasPrefix(l.message, "response "):
			if id := strings.TrimPrefix(l.message, "response "); pending[id] {
				delete(pending, id)
				keys = append(keys, answered{changed, l.at, l.g})
			}
		}
	}
	out := make([]path, len(keys))
	for i, k := range keys {
		p := path{keystroke: i, total: k.to - k.from, steps: t.back(k.g, k.to, k.from)}
		for _, gc := range t.gcs {
			p.duringGC = p.duringGC || gc[0] < k.to && gc[1] > k.from
		}
		out[i] = p
	}
	return out
}

// back walks from goroutine g at time at back to from: running stretches
// are named by their regions, runnable ones are waits for a processor,
// and a blocked stretch is followed into the goroutine that ended it.
func (t *traceData) back(g trace.GoID, at, from trace.Time) []step {
	var out []step
	for n := 0; at > from && n < 100000; n++ {
		G := t.goroutines[g]
		if G == nil {
			return append(out, step{0, at - from, g, "a goroutine the trace does not describe"})
		}
		// The stretch holding at: the last one starting before it.
		i := sort.Search(len(G.stretches), func(i int) bool { return G.stretches[i].from >= at }) - 1
		if i < 0 && G.parent != trace.NoGoroutine && G.parent != g && G.born >= at-1 {
			g, at = G.parent, G.born // made before at: follow its maker
			continue
		}
		if i < 0 || G.stretches[i].to < at {
			return append(out, step{0, at - from, g, "outside the goroutine's known life"})
		}
		s := G.stretches[i]
		start := max(s.from, from)
		switch s.state {
		case trace.GoRunning:
			out = append(out, G.running(start, at, from)...)
		case trace.GoRunnable:
			out = append(out, step{start - from, at - start, g, "waiting for a processor: " + G.label(start)})
		case trace.GoSyscall:
			out = append(out, step{start - from, at - start, g, "system call: " + G.label(start) + " " + s.where})
		case trace.GoWaiting:
			if s.to == at && s.unblocker != trace.NoGoroutine && s.unblocker != g {
				g = s.unblocker
				continue
			}
			out = append(out, step{start - from, at - start, g, "blocked: " + s.reason})
		default:
			out = append(out, step{start - from, at - start, g, s.state.String()})
		}
		at = start
	}
	return out
}

// label names what goroutine G does at a time: its innermost region then,
// or the function it was started with.
func (G *goroutine) label(at trace.Time) string {
	name := ""
	for _, r := range G.regions {
		if r.from <= at && (r.to < 0 || r.to >= at) {
			name = r.name // a later region that holds at is inside the earlier ones
		}
	}
	if name == "" {
		return "[" + G.started + "]"
	}
	return name
}

// running splits a running stretch [start, end) of G at its regions'
// bounds, latest first.
func (G *goroutine) running(start, end, from trace.Time) []step {
	cuts := []trace.Time{start, end}
	for _, r := range G.regions {
		for _, c := range []trace.Time{r.from, r.to} {
			if c > start && c < end {
				cuts = append(cuts, c)
			}
		}
	}
	sort.Slice(cuts, func(i, j int) bool { return cuts[i] > cuts[j] })
	var out []step
	for i := 0; i+1 < len(cuts); i++ {
		hi, lo := cuts[i], cuts[i+1]
		if hi > lo {
			out = append(out, step{lo - from, hi - lo, G.id, "running: " + G.label(lo+(hi-lo)/2)})
		}
	}
	return out
}

func ms(t trace.Time) float64 { return float64(t) / 1e6 }

func report(w io.Writer, req string, paths []path, detail int) {
	sorted := append([]path(nil), paths...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].total < sorted[j].total })
	n := len(sorted)
	q := func(f float64) float64 { return ms(sorted[int(float64(n-1)*f)].total) }
	fmt.Fprintf(w, "%d keystrokes; %s, from the didChange read to the answer written: p50 %.3f ms, p90 %.3f, p99 %.3f, max %.3f\n",
		n, req, q(0.5), q(0.9), q(0.99), q(1))
	band := func(title string, ps []path) {
		if len(ps) == 0 {
			return
		}
		sum := map[string]trace.Time{}
		var total trace.Time
		gc := 0
		for _, p := range ps {
			total += p.total
			if p.duringGC {
				gc++
			}
			for _, s := range p.steps {
				sum[s.what] += s.d
			}
		}
		names := make([]string, 0, len(sum))
		for k := range sum {
			names = append(names, k)
		}
		sort.Slice(names, func(i, j int) bool { return sum[names[i]] > sum[names[j]] })
		fmt.Fprintf(w, "\n%s: %d keystrokes, mean %.3f ms, %d during a collection's marking; mean ms a keystroke:\n", title, len(ps), ms(total/trace.Time(len(ps))), gc)
		for _, k := range names {
			if m := ms(sum[k] / trace.Time(len(ps))); m >= 0.005 {
				fmt.Fprintf(w, "  %8.3f  %s\n", m, k)
			}
		}
	}
	band("all", sorted)
	band("median band (p45-p55)", sorted[n*45/100:n*55/100])
	band("p85-p95", sorted[n*85/100:n*95/100])
	band("slowest 2%", sorted[n-max(1, n/50):])
	for i := 0; i < detail && i < n; i++ {
		p := sorted[n-1-i]
		fmt.Fprintf(w, "\nkeystroke %d: %.3f ms (during a collection: %v), from the didChange on:\n", p.keystroke, ms(p.total), p.duringGC)
		for k := len(p.steps) - 1; k >= 0; k-- {
			s := p.steps[k]
			fmt.Fprintf(w, "  +%.3f  %.3f ms  g%d %s\n", ms(s.at), ms(s.d), s.g, s.what)
		}
	}
}

func printBuckets(w io.Writer, paths []path, size int) {
	for b := 0; b*size < len(paths); b++ {
		var v []float64
		for _, p := range paths[b*size : min(len(paths), (b+1)*size)] {
			v = append(v, ms(p.total))
		}
		sort.Float64s(v)
		fmt.Fprintf(w, "keystrokes %5d-: p50 %.3f  p90 %.3f  max %.3f\n", paths[b*size].keystroke, v[len(v)/2], v[len(v)*9/10], v[len(v)-1])
	}
}

func (t *traceData) printRegions(w io.Writer) {
	byName := map[string][]float64{}
	for _, g := range t.goroutines {
		for _, r := range g.regions {
			if r.to > 0 {
				byName[r.name] = append(byName[r.name], ms(r.to-r.from))
			}
		}
	}
	names := make([]string, 0, len(byName))
	for k := range byName {
		names = append(names, k)
	}
	sort.Strings(names)
	fmt.Fprintln(w, "region wall times, ms:")
	for _, k := range names {
		v := byName[k]
		sort.Float64s(v)
		fmt.Fprintf(w, "  %-36s n %6d  p50 %.3f  p90 %.3f  p99 %.3f  max %.3f\n", k, len(v), v[len(v)/2], v[len(v)*9/10], v[len(v)*99/100], v[len(v)-1])
	}
	fmt.Fprintln(w)
}
