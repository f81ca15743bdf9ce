package core

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"wfl-lsp/core/internal/coretest"
	"wfl-lsp/internal/benchdoc"
	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/token"
)

// partialEverywhere is PartialEverywhere.
func partialEverywhere(tb testing.TB) {
	tb.Helper()
	PartialEverywhere(tb)
}

// TestQueryEqualsFull edits each sampled corpus program (coretest.Programs) (and a sample of the
// mutants) at random, a chain of edits each, as an editor does (the
// diagnostics of most versions computed, now and then a full analysis),
// and after each edit asks every position query at random places of the
// text through Snapshot.Query and QueryName, comparing each answer with
// a full analysis's of the same text.
//
//	go test -run QueryEqualsFull -stress N ./core
func TestQueryEqualsFull(t *testing.T) {
	partialEverywhere(t)
	stride, edits, places, seed := 12, 8, 4, uint64(11)
	if testing.Short() {
		stride, edits = 60, 6
	}
	if *stress > 0 {
		stride, edits, places, seed = 1, 40, 8, uint64(*stress)
	}
	progs := corpusOrSkip(t, stride)
	var c queryCounts
	for n, path := range slices.Sorted(mapsKeys(progs)) {
		rng := rand.New(rand.NewPCG(uint64(n), seed))
		ws, uri, s := openAnalysed(path, progs[path])
		for k := 0; k < edits; k++ {
			var e Edit
			s, e = changeAtRandom(t, ws, s, rng)
			c.edits++
			switch rng.IntN(8) {
			case 0:
				continue // a version the editor asked nothing of
			case 1:
				s.Analysis() // a whole-document request: the next base
			}
			full := (&Snapshot{URI: uri, Text: s.Text, src: ws}).Analysis()
			for range places {
				if d := compareQueries(s, full, rng.IntN(len(s.Text)+1), ws, &c); d != "" {
					t.Fatalf("%s, edit %d ([%d,%d) ← %q): %s\ntext after:\n%s", path, k, e.Start, e.End, e.Text, d, s.Text)
				}
			}
		}
	}
	t.Logf("%d programs, %d edits; %d answers compared, %d of them from a partial analysis (%d partial analyses, %d units in all)",
		len(progs), c.edits, c.answers, c.partial, c.analyses, c.units)
	if c.partial < c.answers/2 {
		t.Errorf("only %d of %d answers came from a partial analysis", c.partial, c.answers)
	}
}

type queryCounts struct {
	edits, answers, partial, analyses, units int
	verbose                                  bool
	seen                                     map[*Analysis]bool
}

func (c *queryCounts) count(a *Analysis) {
	c.answers++
	if a.part == nil {
		return
	}
	c.partial++
	if c.seen == nil {
		c.seen = map[*Analysis]bool{}
	}
	if !c.seen[a] {
		c.seen[a] = true
		c.analyses++
		c.units += len(a.File.Stmts)
	}
}

func mapsKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// compareQueries asks every query at offset of s (and of the lines around
// it, for the range queries) and of full, and describes the first
// difference.
func compareQueries(s *Snapshot, full *Analysis, offset int, ws *Workspace, c *queryCounts) string {
	at := token.Span{Start: offset, End: offset}
	path := s.URI.Path()
	type query struct {
		name string
		a    *Analysis
		ask  func(a *Analysis) any
	}
	lines := full.Lines
	line := lines.Line(offset)
	rng := token.Span{Start: lines.LineStart(max(0, line-7)), End: len(s.Text)}
	if line+8 < lines.Count() {
		rng.End = lines.LineStart(line + 8)
	}
	q := s.Query(at)
	qr := s.Query(rng)
	qn := s.QueryName(offset) // may compute the full analysis
	var queries []query
	if featureQueries != nil {
		for _, f := range featureQueries(offset, rng, path, ws) {
			a := map[queryOn]*Analysis{onCursor: q, onName: qn, onRange: qr}[f.On]
			queries = append(queries, query{f.Name, a, f.Ask})
		}
	}
	for _, x := range queries {
		c.count(x.a)
		if c.verbose && x.a.part == nil {
			fmt.Printf("%s: full\n", x.name)
		}
		got, want := x.ask(x.a), x.ask(full)
		if !reflect.DeepEqual(got, want) {
			return fmt.Sprintf("%s at %d (line %d, partial %v): %s", x.name, offset, line+1, x.a.part != nil, difference(got, want))
		}
	}
	return ""
}

var difference = coretest.Difference

// TestQueryConcurrent asks the queries of several places of each version
// at once, as an editor's requests after a keystroke do (partial analyses
// built side by side, one waiting for another that takes its units), and
// compares each answer with a full analysis's; under -race it also checks
// that they share what they build safely.
func TestQueryConcurrent(t *testing.T) {
	partialEverywhere(t)
	progs := corpusOrSkip(t, 120)
	paths := slices.Sorted(mapsKeys(progs))
	if testing.Short() || len(paths) > 60 {
		paths = paths[:min(len(paths), 60)]
	}
	for n, path := range paths {
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		ws, uri, s := openAnalysed(path, progs[path])
		for k := 0; k < 4; k++ {
			s, _ = changeAtRandom(t, ws, s, rng)
			s.Diagnostics()
			full := (&Snapshot{URI: uri, Text: s.Text, src: ws}).Analysis()
			offsets := make([]int, 4)
			for i := range offsets {
				offsets[i] = rng.IntN(len(s.Text) + 1)
			}
			offsets[1] = offsets[0] // two requests at one place
			diffs := make([]string, len(offsets))
			var wg sync.WaitGroup
			for i, off := range offsets {
				wg.Go(func() {
					var c queryCounts
					diffs[i] = compareQueries(s, full, off, ws, &c)
				})
			}
			wg.Wait()
			for _, d := range diffs {
				if d != "" {
					t.Fatalf("%s, edit %d: %s\ntext after:\n%s", path, k, d, s.Text)
				}
			}
		}
	}
}

// TestQueryCases walks through edits after which a query's answer depends
// on statements the edit did not touch, and checks that the answer is a
// full analysis's and came from a partial one.
func TestQueryCases(t *testing.T) {
	partialEverywhere(t)
	filler := strings.Repeat("display \"filler\"\n", 20)
	tests := []struct {
		name          string
		before, after string
		at            string // the query's place: the '|' in this text of after
	}{
		{"completion offers the names declared far above",
			"store total as 1\n" + filler + "display 1\n",
			"store total as 1\n" + filler + "display t\n",
			"display t|"},
		{"hover on a use shows the declaration's doc comment and line",
			"// The sum.\nstore total as 1\n" + filler + "display 1\n",
			"// The sum.\nstore total as 1\n" + filler + "display total\n",
			"display to|tal"},
		{"a doc comment edited above a declaration",
			"// The sum.\nstore total as 1\n" + filler + "display total\n",
			"// The whole sum.\nstore total as 1\n" + filler + "display total\n",
			"display to|tal"},
		{"signature help of an action declared below the call",
			filler + "display 1\ndefine action called combine with a and b:\n    return a plus b\nend action\n",
			filler + "display combine of 1 and \ndefine action called combine with a and b:\n    return a plus b\nend action\n",
			"display combine of 1 and |"},
		{"a word typed at the start of the line after a statement the parser could not read",
			"display 1\n" + filler + "create new Box as b1:\n    size is 1\n\ncreate new Box as b2:\n    size is 2\nend\n",
			"display 2\n" + filler + "create new Box as b1:\n    size is 1\n\ncreate new Box as b2:\n    size is 2\nend\n",
			"cre|ate new Box as b2"},
		{"a block whose closer is missing read ahead, past the units after it, to where its body stops",
			"display 1\n" + readsAhead,
			"display 2\n" + readsAhead,
			"    |otherwise check"},
		{"members of a container after a dot",
			"create container Box:\n    property size: Number\nend container\ncreate new Box as b\n" + filler + "display 1\n",
			"create container Box:\n    property size: Number\nend container\ncreate new Box as b\n" + filler + "display b.\n",
			"display b.|"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := NewWorkspace()
			uri := URI("file:///nowhere/cases.wfl")
			s := ws.Open(uri, 1, tt.before)
			s.Diagnostics()
			s.Analysis()
			from, oldEnd, newEnd := diffRange(tt.before, tt.after, sameEnds{})
			s, err := ws.Change(uri, 2, Edit{Start: from, End: oldEnd, Text: tt.after[from:newEnd]})
			if err != nil {
				t.Fatal(err)
			}
			off := strings.Index(tt.after, strings.Replace(tt.at, "|", "", 1)) + strings.Index(tt.at, "|")
			full := (&Snapshot{URI: uri, Text: s.Text, src: ws}).Analysis()
			c := queryCounts{verbose: testing.Verbose()}
			if d := compareQueries(s, full, off, ws, &c); d != "" {
				t.Fatal(d)
			}
			if c.partial < c.answers-3 { // highlights, references and their count may need the full analysis
				t.Errorf("%d of %d answers from a partial analysis", c.partial, c.answers)
			}
		})
	}
}

// readsAhead is a try whose inner blocks' closers are missing: its parse
// reads ahead, past the three units after it, to the last line, and what
// it finds there decides how its own lines read (completion at
// `otherwise` offers `catch:` first).
const readsAhead = `try:
    check if a is 1:
        try:
    otherwise check if a is 2:
            end try
display 1
display 2
display 3
    end check
end try
`

// TestAlignShared compares alignShared with the exact alignment (a map of
// the old units) on random edits of a list of units: every unit it says is
// shared is, at the index it says; one it says is not may be shared only
// where the edit moved it within a run it replaced; and where the edits
// replace runs of 16 units or fewer by as many, it finds every shared unit.
func TestAlignShared(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 2000; round++ {
		old := make([]*unit, 1+rng.IntN(200))
		for i := range old {
			old[i] = &unit{}
		}
		replaceOnly := rng.IntN(2) == 0
		units := slices.Clone(old)
		for e := rng.IntN(6); e > 0; e-- {
			at := rng.IntN(len(units) + 1)
			n := rng.IntN(17)
			del := min(n, len(units)-at)
			add := n
			if !replaceOnly {
				del, add = min(rng.IntN(17), len(units)-at), rng.IntN(17)
			}
			var fresh []*unit
			for range add {
				fresh = append(fresh, &unit{})
			}
			if replaceOnly && rng.IntN(4) == 0 && del >= 2 {
				fresh[0], fresh[1] = units[at+1], units[at] // two units swap places
			}
			units = slices.Concat(units[:at], fresh, units[at+del:])
		}
		exact := map[*unit]int32{}
		for k, u := range old {
			exact[u] = int32(k)
		}
		to := make([]int32, len(units))
		alignShared(units, false, old, to, 0)
		for i, u := range units {
			want, shared := exact[u]
			switch {
			case to[i] >= 0 && (!shared || to[i] != want):
				t.Fatalf("round %d: unit %d said to be old's %d, is %v %d", round, i, to[i], shared, want)
			case to[i] < 0 && shared && replaceOnly && !swapped(units, old, i):
				t.Fatalf("round %d: unit %d, old's %d, not found", round, i, want)
			}
		}
	}
}

// swapped reports whether units[i] is an old unit out of its place (a
// swap the edits made, which alignShared may take as changed).
func swapped(units, old []*unit, i int) bool {
	k := slices.Index(old, units[i])
	return k != i
}

// TestReachMatchesScan checks what a reach takes through an index of units
// by the names they hold (mentions.go) against a reach that visits every
// unit, on random edits of corpus programs: a partial analysis's (through
// its base's index, from the seeds and the units at a random place) and a
// derived state's (through the index it carries, from an edit of random
// units). Both take the same units, in the same roles, and both say
// whether they are too many.
func TestReachMatchesScan(t *testing.T) {
	t.Parallel()
	stride, edits, seed := 6, 10, uint64(5)
	if testing.Short() {
		stride = 30
	}
	if *stress > 0 {
		stride, edits, seed = 1, 40, uint64(*stress)
	}
	progs := corpusOrSkip(t, stride)
	var queries, derived, over int
	compare := func(where string, st *diagState, v *indexView, limit int, start func(r *reach)) {
		t.Helper()
		indexed, scan := newReach(v, limit), reachOver(st.units, scanHolders(st.units), limit)
		start(indexed)
		start(scan)
		okIndexed, okScan := indexed.close(), scan.close()
		if okScan != okIndexed {
			t.Fatalf("%s, limit %d: scan says %v, index %v", where, limit, okScan, okIndexed)
		}
		if !okScan {
			over++
			return
		}
		if !slices.Equal(scan.role, indexed.role) {
			t.Fatalf("%s: scan reaches %v, index %v", where, scan.role, indexed.role)
		}
	}
	for n, path := range slices.Sorted(mapsKeys(progs)) {
		rng := rand.New(rand.NewPCG(uint64(n), seed))
		ws, _, s := openAnalysed(path, progs[path])
		for k := 0; k < edits; k++ {
			s, _ = changeAtRandom(t, ws, s, rng)
			if rng.IntN(6) == 0 {
				s.Analysis() // the next base
				continue
			}
			where := fmt.Sprintf("%s, edit %d", path, k)
			st := s.diagState()
			if x := st.mentionIx; x != nil && len(st.units) > 0 {
				// An edit of the units [at, to), which replaced a unit
				// that declared and named what the next one does.
				at := rng.IntN(len(st.units))
				to := min(at+1+rng.IntN(3), len(st.units))
				var gone, goneNames []uint32
				if to < len(st.units) {
					gone, goneNames = st.units[to].keys(), st.units[to].names()
				}
				moved := rng.IntN(2) == 0
				limit := len(st.units)/2 + 8
				if rng.IntN(4) == 0 {
					limit = rng.IntN(len(st.units) + 1) // a limit that cuts more often
				}
				compare(where+", derived", st, x.view(st.units, false), limit, func(r *reach) {
					st.reachEdit(r, st.withFindings(), at, to, gone, goneNames, moved, !moved, st.starts[at])
				})
				derived++
			}
			q := s.query()
			if q == nil {
				continue
			}
			at := unitAt(q.st.starts, rng.IntN(len(s.Text)+1))
			limit := q.limit
			if rng.IntN(4) == 0 {
				limit = rng.IntN(len(q.st.units) + 1)
			}
			var uses uint32
			if names := q.st.units[at].names(); len(names) > 0 && rng.IntN(2) == 0 {
				uses = names[rng.IntN(len(names))] // the name references ask about
			}
			compare(where+", query", q.st, q.view, limit, func(r *reach) {
				for _, i := range q.seeds {
					r.raise(i, roleContext)
				}
				r.raise(at, roleContext)
				if uses != 0 {
					r.holders(uses, holdAny, func(i int) { r.raise(i, roleContext) })
				}
			})
			queries++
		}
	}
	t.Logf("%d programs, %d reaches of partial analyses and %d of derived states compared, %d of them over the limit", len(progs), queries, derived, over)
	if queries == 0 || derived == 0 {
		t.Error("no reach compared")
	}
}

// TestReady checks what the LSP layer's read loop relies on: Ready makes
// the partial analysis a query after an edit answers from, and Query then
// answers from it without analysing more; with no analysed version before,
// or when the statements of the span reach most of the text, it says so
// and starts no full analysis.
func TestReady(t *testing.T) {
	text := benchdoc.Clean(1000)
	at := strings.Index(text, "total_c41 as 0\n") + len("total_c41 as ")
	uri := URI("file:///nowhere/ready.wfl")
	cursor := token.Span{Start: at + 1, End: at + 1}

	ws := NewWorkspace()
	ws.Open(uri, 1, text) // nothing computed: no analysed version
	s, _ := ws.Change(uri, 2, Edit{Start: at, End: at + 1, Text: "7"})
	if s.Ready(cursor) {
		t.Error("Ready with no analysed version before: true, want false")
	}
	if s.analysed.Load() {
		t.Error("Ready with no analysed version before started the full analysis")
	}

	s.Diagnostics()
	s.Analysis()
	for v := int32(3); v < 6; v++ {
		s, _ = ws.Change(uri, v, Edit{Start: at, End: at + 1, Text: string(rune('0' + v))})
		if !s.Ready(cursor) {
			t.Fatalf("version %d: Ready after an edit of an analysed version: false, want true", v)
		}
		a := s.Query(cursor)
		if !a.Partial() || s.analysed.Load() {
			t.Fatalf("version %d: Query after Ready: partial %v, full analysis made %v; want a partial one only", v, a.Partial(), s.analysed.Load())
		}
		if b := s.Query(cursor); b != a {
			t.Fatalf("version %d: a second Query made another analysis", v)
		}
	}

	defer func(most float64) { partialMax = most }(partialMax)
	partialMax = 0 // no closure is small enough
	s, _ = ws.Change(uri, 6, Edit{Start: at, End: at + 1, Text: "1"})
	if s.Ready(cursor) || s.analysed.Load() {
		t.Errorf("Ready when the closure is too large: %v, full analysis made %v; want false, none", s.Ready(cursor), s.analysed.Load())
	}
}

// TestQueriesOfConnectedProgram asks every query at the start of every word
// of the corpus's nexus.wfl after a keystroke (see
// TestEditsOfConnectedProgramsDerive): its statements all call one logging
// action, and its actions have locals of the same names, so that the
// statements sharing a declared name with any statement are most of the
// file. The answers must equal a full analysis's, and most must come from
// partial analyses. It takes every third word (every word: 17 s), every
// 24th under the race detector.
func TestQueriesOfConnectedProgram(t *testing.T) {
	t.Parallel()
	path, text := nexusProgram(t)
	typed := "store add_result2 as sum_numbers of 10 and 15"
	at := strings.Index(text, typed) + len(typed)
	next := text[:at] + " " + text[at:]
	full, _ := analyze(FileURI(path), next, disk)
	var c queryCounts
	words, stride := 0, 3*testcorpus.RaceStride(8)
	for off := 1; off < len(next); off++ {
		if !isWordByte(next[off]) || isWordByte(next[off-1]) {
			continue
		}
		if words++; words%stride != 0 {
			continue
		}
		// A query that needs the full analysis makes it, and the
		// snapshot's later queries use it: each word gets a keystroke
		// of its own.
		ws, uri, s := openAnalysed(path, text)
		s, err := ws.Change(uri, s.Version+1, Edit{Start: at, End: at, Text: " "})
		if err != nil {
			t.Fatal(err)
		}
		if d := compareQueries(s, full, off, ws, &c); d != "" {
			t.Fatal(d)
		}
	}
	t.Logf("%d answers, %d of them from %d partial analyses (%d statements in all)", c.answers, c.partial, c.analyses, c.units)
	if c.partial < c.answers*3/4 {
		t.Errorf("only %d of %d answers came from a partial analysis", c.partial, c.answers)
	}
}

// featureQueries are the position queries of the feature packages
// (completion, navigation, presentation) compareQueries asks at offset of
// the document at path (rng: the lines around it), the other files loaded
// from ws: set by queries_features_test.go,
// in the external test package, which imports them.
var featureQueries func(offset int, rng token.Span, path string, ws *Workspace) []positionQuery

// outlineOf and documentSymbols are presentation's outline of a snapshot
// and of an analysis, and showOpened asks what an editor shows of a
// document it opens (the outline, folding ranges, semantic tokens): set
// by queries_features_test.go.
var (
	outlineOf       func(s *Snapshot) any
	documentSymbols func(a *Analysis) any
	showOpened      func(s *Snapshot)
)

// A positionQuery is a query compareQueries asks of a partial analysis
// (that of the cursor, of the name at it, or of the lines around it: On)
// and of the full one.
type positionQuery struct {
	Name string
	On   queryOn
	Ask  func(a *Analysis) any
}

type queryOn int

const (
	onCursor queryOn = iota
	onName
	onRange
)
