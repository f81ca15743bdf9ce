package core

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lint"
)

// TestTolerantWhileALineIsTyped types a new line into the corpus programs
// the reference finds no error in, as a user types a statement: a prefix
// of one of the program's own lines (its words are the program's), on a
// line of its own above a random line, indented as an editor indents a
// new line (newLineIndent). While the
// new line does not parse, the tolerant list (what editors show) holds no
// semantic or type error: the statement being typed is not yet anything;
// nor a warning or lint finding off that line that the program's own list
// does not hold (by line and code, the lines below shifted), and every
// line the program's list says is too long still says so (a line's length
// is the text's however the rest is read). Above the statement that holds
// the new line, the program's lint stays; other findings may wait while
// it does not parse (unused variables, and below it indentation).
// (TestTolerantAddsNothingFalse breaks the lines a program has; this one
// adds the line being written.) Not a closer: `end acti` typed in a body
// closes the block there as `end action` does, and what follows is read
// outside it.
//
// A program laid out otherwise than its blocks, whose list then says a
// block was read by its layout, is counted, not held to the rule, as there.
//
// A sample of the programs and mutants in CI; every one, more lines, with
// -stress.
func TestTolerantWhileALineIsTyped(t *testing.T) {
	t.Parallel()
	progs, perProgram, seed := typingSample(t, 5)
	const uri = URI("file:///nowhere/typing.wfl")
	programs, typed, laidOut, above := 0, 0, 0, 0
	for _, p := range progs {
		n, path, text, shown, misindented := p.n, p.path, p.text, p.shown, p.misindented
		programs++
		lines := strings.SplitAfter(text, "\n")
		var code []string // the program's lines of code, trimmed, but closers
		for _, l := range lines {
			if s := strings.TrimSpace(l); len(s) > 1 && !strings.HasPrefix(s, "//") && !strings.HasPrefix(s, "#") && !strings.HasPrefix(s, "end") {
				code = append(code, s)
			}
		}
		if len(code) == 0 {
			continue
		}
		starts := NewSnapshot(uri, 1, text).diagState().starts // the program's top-level statements
		rng := rand.New(rand.NewPCG(uint64(n), seed))
		for range perProgram {
			stmt := code[rng.IntN(len(code))]
			cut := 1 + rng.IntN(len(stmt)-1)
			for cut > 0 && !utf8.RuneStart(stmt[cut]) {
				cut--
			}
			at := rng.IntN(len(lines) + 1) // the new line goes above line at
			line := newLineIndent(lines, at) + stmt[:cut]
			before := strings.Join(lines[:at], "")
			if at == len(lines) && !strings.HasSuffix(text, "\n") && text != "" {
				before = text + "\n"
			}
			next := before + line + "\n" + strings.Join(lines[at:], "")
			typedLine := strings.Count(before, "\n") // the new line's, from 0
			_, ds := NewSnapshot(uri, 2, next).Tolerant()
			if !parseFails(ds) {
				continue // it parses as it is: not a statement being typed
			}
			if _, alone := NewSnapshot(uri, 3, strings.TrimLeft(line, " \t")+"\n").Diagnostics(); !parseFails(alone) {
				continue // a statement already (`expect y to be gre`): what it says, it says
			}
			typed++
			for k := 1; k < len(ds); k++ { // (a parse error raised twice is the parser's, in check's list too)
				if a, b := ds[k-1], ds[k]; a.Category != diag.Parse && a.Span == b.Span && a.Code == b.Code && a.Message == b.Message {
					t.Errorf("%s: %q typed above line %d: %s at %d twice: %s", path, line, at+1, b.Code, b.Span.Start, b.Message)
				}
			}
			got := checkErrors(ds)
			if len(got) == 0 {
				// Nor a warning or a lint finding elsewhere that the
				// program does not have (its lines below the new one
				// shifted); and its lines' lengths stay.
				if misindented && layoutRead(ds) {
					continue
				}
				had := map[string]bool{}
				lengths := map[string]bool{}
				for _, f := range lineFindings(text, shown, -1, 0) {
					had[shifted(f.text, typedLine)] = true
					if f.code == lint.CodeLength {
						lengths[shifted(f.text, typedLine)] = true
					}
				}
				for _, f := range lineFindings(next, ds, typedLine, 0) {
					delete(lengths, f.text)
					if !had[f.text] {
						t.Errorf("%s: %q typed above line %d: %s, which the program does not have", path, line, at+1, f.text)
						break
					}
				}
				for f := range lengths {
					t.Errorf("%s: %q typed above line %d: %s is not shown", path, line, at+1, f)
					break
				}
				// Above the statement that holds the new line, the
				// program's lint stays (its other findings about names
				// the line may name wait: TestTolerantCases,
				// TestTolerantStaticCases), where its statements are
				// laid out as its blocks are (a statement indented at
				// the top level floats, as lines out of a broken block).
				from := starts[max(unitAt(starts, min(len(before), len(text))), 0)]
				now := map[string]bool{}
				for _, f := range lineFindings(next, ds, typedLine, 0) {
					now[f.text] = true
				}
				for _, d := range shown {
					if d.Category != diag.Lint || d.Span.End > from || misindented {
						continue
					}
					above++
					if f := lineFindings(text, []diag.Diagnostic{d}, -1, 0)[0]; !now[f.text] {
						t.Errorf("%s: %q typed above line %d (in the statement of line %d): above it, %s is not shown",
							path, line, at+1, strings.Count(text[:from], "\n")+1, f.text)
					}
				}
				continue
			}
			if misindented && layoutRead(ds) {
				laidOut++
				continue
			}
			t.Errorf("%s: %q typed above line %d: %d semantic or type errors, the first %s", path, line, at+1, len(got), got[0])
		}
	}
	t.Logf("%d programs without errors; %d lines typed that do not parse (%d in misindented programs read by their layout show an error); %d findings of the programs above the statements typed into kept", programs, typed, laidOut, above)
	if typed == 0 {
		t.Error("nothing typed")
	}
}

// newLineIndent returns the indentation an editor gives a new line typed
// above line at of lines (Enter pressed at the end of the line before):
// the line before's, one level deeper after a header's colon; at the top
// of the text, none.
func newLineIndent(lines []string, at int) string {
	for i := at - 1; i >= 0; i-- {
		l := strings.TrimRight(lines[i], " \t\r\n")
		if strings.TrimSpace(l) == "" {
			continue
		}
		indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if strings.HasSuffix(l, ":") {
			indent += "    "
		}
		return indent
	}
	return ""
}

// shifted returns a finding rendered by lineFindings as it reads once a
// line is added above line at (from 0).
func shifted(f string, at int) string {
	var n int
	if _, err := fmt.Sscanf(f, "line %d:", &n); err != nil || n-1 < at {
		return f
	}
	return fmt.Sprintf("line %d%s", n+1, f[strings.IndexByte(f, ':'):])
}

// A typedProgram is a program the typing properties type into.
type typedProgram struct {
	n           int // its index among the programs sampled: its draws' seed
	path, text  string
	shown       []diag.Diagnostic // the editor's list (Tolerant)
	misindented bool              // its list says a line is not indented as its blocks are
}

// typingSample returns what the typing properties type into: the sampled
// programs the reference finds no error in, but those that hold a string
// over lines and those whose editor's list shows an error or a quote left
// open, in the order of their paths; how many lines to type in each; and
// the seed of the draws. A sample and defaultSeed in CI; every program,
// more lines and the seed it gives with -stress.
func typingSample(t *testing.T, defaultSeed uint64) (progs []typedProgram, perProgram int, seed uint64) {
	stride, perProgram, seed := sampleSizes(defaultSeed)
	all := corpusOrSkip(t, stride)
	const uri = URI("file:///nowhere/sample.wfl")
	for n, path := range slices.Sorted(maps.Keys(all)) {
		text := all[path]
		_, base := NewSnapshot(uri, 1, text).Diagnostics()
		if parseFails(base) || len(checkErrors(base)) > 0 || multilineString(text) >= 0 {
			continue
		}
		_, shown := NewSnapshot(uri, 1, text).Tolerant()
		if len(checkErrors(shown)) > 0 || slices.ContainsFunc(shown, func(d diag.Diagnostic) bool { return d.Kind == diag.OpenQuote }) {
			continue
		}
		misindented := slices.ContainsFunc(base, func(d diag.Diagnostic) bool { return d.Code == lint.CodeIndent })
		progs = append(progs, typedProgram{n, path, text, shown, misindented})
	}
	return progs, perProgram, seed
}

// sampleSizes returns how the tolerant properties sample the corpus: every
// stride-th program, perProgram draws in each, and the seed of the draws
// (defaultSeed but with -stress, which takes every program, more draws and
// its own seed; fewer with -short).
func sampleSizes(defaultSeed uint64) (stride, perProgram int, seed uint64) {
	stride, perProgram, seed = 3, 4, defaultSeed
	if testing.Short() {
		stride, perProgram = 30, 2
	}
	if *stress > 0 {
		stride, perProgram, seed = 1, 16, uint64(*stress)
	}
	return stride, perProgram, seed
}
