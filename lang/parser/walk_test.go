package parser

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
)

// closerLine matches a line that holds only a block's closer.
var closerLine = regexp.MustCompile(`(?m)^[ \t]*end( [a-z]+)?[ \t]*\r?\n`)

// corpusTexts returns the corpus programs and a sample of the mutants (one
// in 8*stride). Under the race detector it takes one program in 32 and one
// mutant in 128*stride: the parser runs no goroutines, so the race detector
// has nothing to find in these properties that a small sample would not
// show, and it makes each about ten times slower; CI runs them on the
// larger sample without it.
func corpusTexts(t *testing.T, stride int) (programs, mutants []string) {
	dir := corpusDir(t)
	stride *= 8 * testcorpus.RaceStride(16)
	n, m := 0, 0
	for _, sub := range []string{"wfl", "wfl-mutants"} {
		filepath.WalkDir(filepath.Join(dir, sub), func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".wfl") {
				return nil
			}
			if sub == "wfl-mutants" {
				if n++; n%stride != 0 {
					return nil
				}
			} else if m++; m%testcorpus.RaceStride(32) != 0 {
				return nil
			}
			b, _ := os.ReadFile(path)
			if sub == "wfl" {
				programs = append(programs, string(b))
			} else {
				mutants = append(mutants, string(b))
			}
			return nil
		})
	}
	return programs, mutants
}

// closersDeleted returns texts, each as it is and with every closer
// deleted.
func closersDeleted(texts ...[]string) []string {
	var out []string
	for _, ts := range texts {
		for _, src := range ts {
			out = append(out, src, closerLine.ReplaceAllString(src, ""))
		}
	}
	return out
}

// A parse is what the tests that parse a text two ways compare: the tree,
// the units (but for their Work, which the ways differ by) and the
// dropped characters' findings, and whether the parse reached the bound
// on the work of reading ahead.
type parse struct {
	f       *ast.File
	units   []Unit
	dropped []diag.Diagnostic
	capped  bool
}

// parseWith parses src with readAhead as set leaves it, restored after.
func parseWith(src string, set func()) parse {
	saved := readAhead
	defer func() { readAhead = saved }()
	set()
	f, units, dropped, _, p := unitsWindowParser(src, 0, len(src), nil, false, nil)
	for i := range units {
		units[i].Work = 0
	}
	return parse{f, units, dropped, p.walked >= WorkBound(len(p.toks))}
}

func (x parse) same(y parse) bool {
	return reflect.DeepEqual(x.f, y.f) && reflect.DeepEqual(x.units, y.units) && reflect.DeepEqual(x.dropped, y.dropped)
}

// TestWalksTakenOver parses the corpus programs, a sample of the mutants,
// each of them with every closer deleted (as while a program is typed
// without its ends), and blocks left open one after another, with the
// walks of bodies past their layout end taken over and without, under the
// bound on statements read ahead one inside another the parser had before
// walks were taken over (64) and under today's: the trees, the units and
// the diagnostics must be the same, wherever the parse without them stays
// within the bound on the work.
func TestWalksTakenOver(t *testing.T) {
	programs, mutants := corpusTexts(t, 1)
	srcs := closersDeleted(programs, mutants)
	var open strings.Builder
	for i := range 300 {
		fmt.Fprintf(&open, "define action called a%d:\n    display %d\n", i, i)
		if i%7 == 0 {
			open.WriteString("check if x is 1:\n    display x\n")
		}
		if i%50 == 49 {
			open.WriteString("end action\n")
		}
	}
	srcs = append(srcs, open.String(), strings.Repeat("check if x:\n", 500))
	for _, aheads := range []int{64, maxAheads} {
		differ, capped := 0, 0
		for _, src := range srcs {
			walked := parseWith(src, func() { readAhead.aheads, readAhead.jump = aheads, false })
			taken := parseWith(src, func() { readAhead.aheads = aheads })
			if walked.capped {
				capped++
				continue
			}
			if !walked.same(taken) {
				if differ++; differ <= 3 {
					t.Errorf("%d aheads: the parse differs when walks are taken over:\n%.300s…", aheads, src)
				}
			}
		}
		if differ > 0 {
			t.Errorf("%d aheads: %d of %d texts parse otherwise when walks are taken over", aheads, differ, len(srcs))
		}
		if capped > len(srcs)/100+2 { // one in a hundred, and a small sample's slack
			t.Errorf("%d aheads: %d of %d texts reach the bound on the work without taking walks over", aheads, capped, len(srcs))
		}
		t.Logf("%d aheads: %d texts compared, %d past the bound on the work without taking walks over", aheads, len(srcs)-capped, capped)
	}
}

// TestOpenBlocksOneAfterAnother parses blocks left open one after another,
// thousands of them: each ends where the next begins, as the layout says.
func TestOpenBlocksOneAfterAnother(t *testing.T) {
	for _, tc := range []struct {
		name string
		line string
		n    int
	}{
		{"actions", "define action called a%d:\n    display %[1]d\n", 2000},
		{"checks", "check if x is %d:\n    display x\n", 2000},
		{"unindented checks", "check if x is %d:\n", 2000},
	} {
		var b strings.Builder
		for i := range tc.n {
			fmt.Fprintf(&b, tc.line, i)
		}
		f, _ := Parse(b.String())
		if len(f.Stmts) != tc.n {
			t.Errorf("%s: %d statements at the top, want %d", tc.name, len(f.Stmts), tc.n)
		}
		if deep := ast.Deeper(f, 8); deep != nil {
			t.Errorf("%s: a %T nested deeper than the blocks are", tc.name, deep)
		}
	}
}

// TestOpenBlocksBeforeAMistypedEnd parses an action whose body holds a
// hundred loops left open one after another, closed by its `end action`
// (as when the action's closer was typed, or put in by the editor, before
// the loops'): each loop reads on to the `end action`, where the reference
// stops its body, and ends where the next begins, as the layout says.
// Before the parser kept the loops it read ahead as they were (keep), each
// was parsed again inside the one before, twice the work at each loop,
// and from twelve of them on the blocks nested.
func TestOpenBlocksBeforeAMistypedEnd(t *testing.T) {
	var b strings.Builder
	b.WriteString("define action called f:\n")
	for i := range 100 {
		fmt.Fprintf(&b, "    count from 1 to 3:\n        display count\n    display %d\n", i)
	}
	b.WriteString("end action\ndisplay 2\n")
	f, diags := Parse(b.String())
	if len(f.Stmts) != 2 {
		t.Fatalf("%d statements at the top, want 2", len(f.Stmts))
	}
	if act, ok := f.Stmts[0].(*ast.ActionDecl); !ok || len(act.Body.Stmts) != 200 {
		t.Errorf("the action's body holds %v, want 200 statements", f.Stmts[0])
	}
	if deep := ast.Deeper(f, 8); deep != nil {
		t.Errorf("a %T nested deeper than the blocks are", deep)
	}
	if len(diags) == 0 || !strings.Contains(diags[0].Message, "expected 'count' after 'end'") {
		t.Errorf("diagnostics %v, want the reference's first: the last loop's `end count` is mistyped", diags)
	}
}

// headers lists the block statements of f in order, each as its depth
// and the words of its header line.
func headers(f *ast.File, src string) []string {
	var out []string
	depth := 0
	visit := func(n ast.Node) bool {
		if n == nil {
			depth--
			return false
		}
		if _, ok := n.(ast.Expr); ok {
			return false
		}
		if _, ok := n.(*ast.Block); !ok && n.Pos() < len(src) {
			if _, isFile := n.(*ast.File); !isFile {
				line := src[n.Pos():]
				if i := strings.IndexAny(line, "\r\n"); i >= 0 {
					line = line[:i]
				}
				if strings.HasSuffix(strings.TrimSpace(line), ":") {
					out = append(out, fmt.Sprintf("%d %s", depth, strings.TrimSpace(line)))
				}
			}
		}
		depth++
		return true
	}
	ast.Inspect(f, visit)
	return out
}

// TestEveryCloserDeleted deletes every closer of each corpus program that
// parses, as a program typed without its ends, and compares the blocks of
// the tree (each header, in order, at its depth) with the program's own.
func TestEveryCloserDeleted(t *testing.T) {
	programs, _ := corpusTexts(t, 1)
	same, tried := 0, 0
	for _, src := range programs {
		f, diags := Parse(src)
		if len(diags) > 0 {
			continue
		}
		tried++
		g, _ := Parse(closerLine.ReplaceAllString(src, ""))
		want, got := headers(f, src), headers(g, closerLine.ReplaceAllString(src, ""))
		if reflect.DeepEqual(want, got) {
			same++
		} else if testing.Verbose() {
			for i := range min(len(want), len(got)) {
				if want[i] != got[i] {
					t.Logf("%.60q: block %d is %q, want %q", src, i, got[i], want[i])
					break
				}
			}
		}
	}
	t.Logf("%d of %d programs keep their blocks with every closer deleted", same, tried)
	// One program, of describes one after another, each holding tests,
	// reached the bound on reading ahead (walkPerToken) with its closers
	// deleted: each describe read the rest again for each one around it,
	// as the reference nests them. They take over the walk of the one
	// inside them now (pastWalk), and keep what was parsed ahead before
	// (dropRaisedSince): see TestDescribesWithTestsLeftOpen.
	if tried-same > 0 {
		t.Errorf("%d of %d programs lose blocks with every closer deleted", tried-same, tried)
	}
}

// describesWithTests returns n describes one after another, each holding
// two tests and a describe holding a test, all closed.
func describesWithTests(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "describe \"d%d\":\n\n", i)
		b.WriteString("    test \"a\":\n        store x as 1\n        expect x to equal 1\n    end test\n\n")
		b.WriteString("    test \"b\":\n        expect 2 to be greater than 1\n    end test\n\n")
		b.WriteString("    describe \"inner\":\n        test \"c\":\n            expect 3 to exist\n        end test\n    end describe\n\n")
		b.WriteString("end describe\n\n")
	}
	return b.String()
}

// TestDescribesWithTestsLeftOpen deletes every closer of describes one
// after another, each holding tests and a describe (as the corpus program
// test_framework_validation.wfl does): they keep their blocks, and the
// parse stays far within the bound on reading ahead. Each describe, read
// as the reference nests them, read the rest past its layout end again
// for each one around it, and each test read ahead what the describe
// after it had forgotten: the work doubled with each describe, and eight
// of them reached the bound, the blocks after read as the reference
// nests them.
func TestDescribesWithTestsLeftOpen(t *testing.T) {
	for _, n := range []int{8, 32} {
		src := describesWithTests(n)
		f, diags := Parse(src)
		if len(diags) > 0 {
			t.Fatalf("%d describes, closed: %v", n, diags)
		}
		open := closerLine.ReplaceAllString(src, "")
		g, _, _, lx, p := unitsWindowParser(open, 0, len(open), nil, true, nil)
		if !reflect.DeepEqual(headers(f, src), headers(g, open)) {
			t.Errorf("%d describes left open lose their blocks:\n%v\nwant\n%v", n, headers(g, open), headers(f, src))
		}
		// Well below the bound. (It still grows as the square of the
		// describes, by a step for each statement a body's walk takes as
		// it was parsed ahead: 32 of them read ahead 13 steps a token,
		// and 256 reach the bound.)
		if bound, toks := WorkBound(len(lx.Tokens)), len(lx.Tokens); p.walked > bound/2 {
			t.Errorf("%d describes left open read ahead %d steps, the bound is %d (%d tokens)", n, p.walked, bound, toks)
		} else {
			t.Logf("%d describes left open read ahead %d steps, the bound is %d (%d tokens)", n, p.walked, bound, toks)
		}
	}
}

// TestUnitsCountWork checks what the units say of the parse's size, which
// core sums to know how far the parse of an edited text is from the bound
// on the work of reading ahead (WorkBound): their Tokens add up to the
// text's tokens but the line breaks before the first unit, and their Work
// to the steps the parse read ahead, in the corpus programs and a sample of the
// mutants, each also with every closer deleted, and in a stretch parsed
// alone. (A text of line breaks alone has no unit to count its tokens.)
func TestUnitsCountWork(t *testing.T) {
	programs, mutants := corpusTexts(t, 1)
	for _, src := range append(programs, mutants...) {
		for _, text := range []string{src, closerLine.ReplaceAllString(src, "")} {
			_, units, _, lx, p := unitsWindowParser(text, 0, len(text), nil, true, nil)
			if len(units) == 0 {
				continue // line breaks alone: nothing counts them, nothing reads ahead
			}
			toks, work := 0, 0
			for _, u := range units {
				toks, work = toks+u.Tokens, work+u.Work
			}
			if toks != len(lx.Tokens)-p.leadTok || work != p.walked {
				t.Fatalf("the units count %d tokens and %d steps read ahead, the parse %d and %d:\n%.300s…", toks, work, len(lx.Tokens), p.walked, text)
			}
			// The second half of the text alone, from a unit's start.
			if len(units) < 2 {
				continue
			}
			from := units[len(units)/2].Start
			_, half, _ := UnitsFrom(text, from)
			toks = 0
			for _, u := range half {
				toks += u.Tokens
			}
			for _, u := range units[len(units)/2:] {
				toks -= u.Tokens
			}
			if toks != 0 {
				t.Fatalf("the units from %d count %+d tokens more alone than in the whole text:\n%.300s…", from, toks, text)
			}
		}
	}
}

// TestReadAheadKept parses the texts of TestWalksTakenOver with and
// without taking a statement parsed ahead as it is where the blocks
// around it it needed are still there (keep): the trees, the units and
// the diagnostics must be the same, wherever the parse without it stays
// within the bound on the work of reading ahead. Blocks left open one
// after another before a mistyped `end` parse each block ahead inside
// the one before: parsing each again where it is taken doubled the work
// at each block, and twelve of them reached the bound.
func TestReadAheadKept(t *testing.T) {
	programs, mutants := corpusTexts(t, 1)
	srcs := closersDeleted(programs, mutants)
	var loops strings.Builder
	loops.WriteString("define action called f:\n")
	for i := range 12 {
		fmt.Fprintf(&loops, "    count from 1 to 3:\n        display count\n    display %d\n", i)
	}
	loops.WriteString("end action\ndisplay 2\n")
	srcs = append(srcs, loops.String())
	differ, capped, still := 0, 0, 0
	for i, src := range srcs {
		again := parseWith(src, func() { readAhead.reuse = false })
		kept := parseWith(src, func() {})
		c0, c1 := again.capped, kept.capped
		if c1 && (!c0 || i == len(srcs)-1) {
			t.Errorf("the parse reaches the bound on the work of reading ahead when statements parsed ahead are kept:\n%.300s…", src)
		}
		if c1 {
			still++
		}
		if c0 {
			capped++
			continue
		}
		if !again.same(kept) {
			if differ++; differ <= 3 {
				t.Errorf("the parse differs when statements parsed ahead are kept:\n%.300s…", src)
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d texts parse otherwise when statements parsed ahead are kept", differ, len(srcs))
	}
	if capped == 0 {
		t.Error("no text reaches the bound on the work when statements parsed ahead are parsed again")
	}
	t.Logf("%d texts compared, %d past the bound on the work without keeping statements parsed ahead, %d with", len(srcs)-capped, capped, still)
}

// TestReadAheadKeptEdited is TestReadAheadKept over texts the corpus does
// not hold: each program and sampled mutant, with every closer deleted
// and as it is, edited at random ten times in a row (a line deleted,
// duplicated, indented or outdented; a block's header, a closer or a
// statement typed at a line's start; a few bytes deleted), each version
// parsed both ways. Where a statement is taken as it was parsed ahead, what
// it reported must come in the order parsing it again would raise it: the
// first error raised is the verdict.
func TestReadAheadKeptEdited(t *testing.T) {
	// One mutant in eight: all of them (62,515 edited texts) take a minute.
	programs, mutants := corpusTexts(t, 8)
	snippets := []string{
		"count from 1 to 3:\n", "check if x is 1:\n", "otherwise:\n", "try:\n", "when error:\n",
		"define action called f:\n", "end\n", "end check\n", "end action\n", "end count\n",
		"end try\n", "display x\n", "    display 1\n", "store y as 2\n", "repeat while x:\n",
		"describe \"d\":\n", "test \"t\":\n", "end describe\n", "end test\n",
	}
	differ, compared := 0, 0
	for n, text := range closersDeleted(programs, mutants) {
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		for range 10 {
			lines := strings.SplitAfter(text, "\n")
			i := rng.IntN(len(lines))
			switch rng.IntN(6) {
			case 0:
				lines = slices.Delete(lines, i, i+1)
			case 1:
				lines = slices.Insert(lines, rng.IntN(len(lines)+1), lines[i])
			case 2:
				lines[i] = "    " + lines[i]
			case 3:
				lines[i] = strings.TrimLeft(lines[i], " \t")
			case 4:
				lines = slices.Insert(lines, i, snippets[rng.IntN(len(snippets))])
			case 5:
				if k := rng.IntN(len(lines[i]) + 1); k < len(lines[i]) {
					lines[i] = lines[i][:k] + lines[i][min(len(lines[i]), k+1+rng.IntN(6)):]
				}
			}
			text = strings.Join(lines, "")
			again := parseWith(text, func() { readAhead.reuse = false })
			if again.capped {
				continue
			}
			compared++
			if !again.same(parseWith(text, func() {})) {
				if differ++; differ <= 3 {
					t.Errorf("the parse differs when statements parsed ahead are kept:\n%s", text)
				}
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d edited texts parse otherwise when statements parsed ahead are kept", differ, compared)
	}
	t.Logf("%d edited texts compared", compared)
}

// TestClosersRemembered parses the texts of TestWalksTakenOver with and
// without remembering the frames found not to close a token (noneCloses):
// the trees, the units (their work too) and the diagnostics must be the
// same.
func TestClosersRemembered(t *testing.T) {
	programs, mutants := corpusTexts(t, 1)
	srcs := closersDeleted(programs, mutants)
	srcs = append(srcs, describesLeftOpen(40, "end action\n"), describesLeftOpen(40, ""))
	differ := 0
	for _, src := range srcs {
		saved := readAhead
		readAhead.remember = false
		f0, u0, d0, _, p0 := unitsWindowParser(src, 0, len(src), nil, false, nil)
		readAhead = saved
		f1, u1, d1, _, p1 := unitsWindowParser(src, 0, len(src), nil, false, nil)
		if !reflect.DeepEqual(f0, f1) || !reflect.DeepEqual(u0, u1) || !reflect.DeepEqual(d0, d1) || p0.walked != p1.walked {
			if differ++; differ <= 3 {
				t.Errorf("the parse differs when the frames that close no token are remembered:\n%.300s…", src)
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d of %d texts parse otherwise when the frames that close no token are remembered", differ, len(srcs))
	}
}

// describesLeftOpen returns n describes, each holding a test, none closed,
// then the line end (a closer, or nothing) and ten lines after.
func describesLeftOpen(n int, end string) string {
	return strings.Repeat("describe \"d\":\n    test \"t\":\n        display 1\n", n) + end + strings.Repeat("display 2\n", 10)
}

// TestDescribesLeftOpenWithinTheBound parses describes left open one after
// another, each holding a test left open, before the end of the text, an
// `end describe` or an `end action`. Each describe reads the rest of them
// as its members, as the reference nests them, to find where the reference
// fails, and the statement lists around read them again: that work, three
// times as much for each describe, was not counted, so a few hundred of
// them took seconds. It counts now against the bound on the work of
// reading ahead (walkPerToken), and past it the blocks are read as the
// reference reads them (withinTheBound).
func TestDescribesLeftOpenWithinTheBound(t *testing.T) {
	for _, end := range []string{"", "end describe\n", "end action\n"} {
		for _, n := range []int{8, 64, 512} {
			withinTheBound(t, fmt.Sprintf("%d describes before %q", n, end), describesLeftOpen(n, end))
		}
	}
}

// TestLargeTextsReadAheadLittle parses texts of a few hundred kilobytes
// that read ahead as much as they may (describes left open one after
// another, each holding a test and a setup left open): the bound on that
// work stops growing with the text at maxWork steps, so such a text reads
// ahead a few times its tokens, not 64 times. A step keeps a few hundred
// bytes until the parse ends: at 64 steps a token, 1.1 MB of such
// describes took 26 s and 3.2 GB, and 8 MB would not fit in this machine.
func TestLargeTextsReadAheadLittle(t *testing.T) {
	if testcorpus.Race {
		t.Skip("two parses of 2 s each; run without the race detector (CI runs both)")
	}
	// Past 43,690 tokens, 64 steps a token would exceed maxWork and the
	// 16 steps a token the statements being read ahead may add.
	var b strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&b, "describe \"d%d\":\n    setup:\n        display %d\n    test \"t\":\n        display 1\n", i, i)
	}
	for _, src := range []string{describesLeftOpen(5000, ""), b.String()} {
		_, _, _, lx, p := unitsWindowParser(src, 0, len(src), nil, true, nil)
		n := len(lx.Tokens)
		if WorkBound(n) != maxWork {
			t.Fatalf("the bound for %d tokens is %d, want maxWork (%d)", n, WorkBound(n), maxWork)
		}
		if p.walked > maxWork+16*n {
			t.Errorf("%d tokens read ahead %d steps, want at most %d", n, p.walked, maxWork+16*n)
		}
	}
}

// TestTooDeepStopsReadingAhead parses 5,000 actions left open one after
// another, each holding a count loop, and an `end count` at the end: the
// blocks, read ahead one inside another and then as the reference nests
// them, reach MaxDepth, and the parse goes on past that finding. It then
// reads ahead no more (as past the bound on that work): the statements
// being read ahead each kept what those inside it raised and raised it
// again where taken, so their findings grew as the square of the depth
// (5,000 such actions ran past a minute and 3 GB; 4,999 took 0.2 s).
func TestTooDeepStopsReadingAhead(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "define action called f%d:\n    count from 1 to 3:\n        display count\n", i)
	}
	b.WriteString("        end count\n")
	src := b.String()
	_, _, _, lx, p := unitsWindowParser(src, 0, len(src), nil, true, nil)
	deep := false
	for _, d := range p.diags {
		deep = deep || d.Code == CodeDepth
	}
	if !deep {
		t.Errorf("no %s finding among %d", CodeDepth, len(p.diags))
	}
	if n := len(lx.Tokens); len(p.diags) > n || p.walked > WorkBound(n)+16*n {
		t.Errorf("%d tokens raised %d findings and read ahead %d steps (bound %d)", n, len(p.diags), p.walked, WorkBound(n))
	}
}

// TestRandomLinesWithinTheBound parses lines of block headers, clauses,
// bare `end`s and plain statements in random order and indentation, as a
// hostile or mangled file holds them, and the corpus programs and mutants
// with every closer deleted: the work of reading ahead stays within its
// bound (withinTheBound). Among 3,000 such random lines, each bare `end`
// made the parser read the rest of the text to learn whether a block
// around took it (takenFrom), past the bound too, and a block reading
// ahead read on past it: 4,000 lines read 12.9 million steps where the
// bound is 1.1 million, and took 20 s.
func TestRandomLinesWithinTheBound(t *testing.T) {
	lines := []string{
		"check if x:", "count from 1 to 3:", "try:", "when error:", "otherwise:",
		"define action called f:", "describe \"d\":", "test \"t\":", "repeat while x:",
		"for each y in z:", "create container c:", "end", "display 1", "store q as 2",
		"end check", "end try", "setup:", "property p: Text",
	}
	for seed := range 4 / testcorpus.RaceStride(2) { // one seed of each parity under the race detector
		rng := rand.New(rand.NewPCG(uint64(seed), 11))
		var b strings.Builder
		for range 3000 / testcorpus.RaceStride(3) {
			b.WriteString(strings.Repeat("    ", rng.IntN(4)))
			b.WriteString(lines[rng.IntN(len(lines)-4*(seed%2))])
			b.WriteByte('\n')
		}
		withinTheBound(t, fmt.Sprintf("random lines, seed %d", seed), b.String())
	}
	programs, mutants := corpusTexts(t, 1)
	for _, src := range closersDeleted(programs, mutants) {
		withinTheBound(t, fmt.Sprintf("%.60q", src), src)
	}
}

// withinTheBound checks that the parse of src reads ahead at most the
// bound on that work (WorkBound) and a few times the text's tokens: the
// bound is looked at before each statement read ahead, and the statements
// being read ahead when it is reached, one inside another, each finish,
// reading at most the rest of the text (those read to learn whether a
// closer is a block's around, takenFrom, again after it).
func withinTheBound(t *testing.T, what, src string) {
	t.Helper()
	_, _, _, lx, p := unitsWindowParser(src, 0, len(src), nil, true, nil)
	if bound, n := WorkBound(len(lx.Tokens)), len(lx.Tokens); p.walked > bound+16*n {
		t.Errorf("%s: %d steps read ahead, the bound is %d (%d tokens)", what, p.walked, bound, n)
	}
}
