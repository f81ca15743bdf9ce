package fixes

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/core/completion"
	"wfl-lsp/core/internal/coretest"
	"wfl-lsp/core/navigation"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lint"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// lineRef matches a line named in a diagnostic's message.
var lineRef = regexp.MustCompile(`line [0-9]+`)

// closerLine matches a line that holds only a block's closer.
var closerLine = regexp.MustCompile(`^[ \t]*end( [a-z]+)?[ \t]*\r?$`)

// A deletion is a corpus program with the closer of one of its blocks
// deleted, as while the block is being typed: its line removed.
type deletion struct {
	text, cut   string // the program, and the program without the closer's line
	header      int    // offset of the block's first word
	headerLine  int    // offset of its line
	closer      int    // offset of the closer's line, and its length with its line break
	closerLen   int
	blockLines  [2]int // the block's lines in the program, 0-based: header to closer
	closerWords string
	// insideTo is where the lines the deletion touches end in the program
	// (the block's: after the closer's line), cutTo in the program
	// without it; linesGone is how many lines it deletes.
	insideTo, cutTo, linesGone int
}

// at maps an offset of the program to the program without the closer, or
// -1 inside the deleted line.
func (d deletion) at(off int) int {
	switch {
	case off < d.closer:
		return off
	case off >= d.closer+d.closerLen:
		return off - d.closerLen
	}
	return -1
}

// inside reports whether an offset of the program lies on the block's
// lines.
func (d deletion) inside(off int) bool {
	return off >= d.headerLine && off < d.insideTo
}

// deletions returns every deletion of a closer of text, a program that
// parses: each line that holds only `end …` and ends a statement of the tree.
func deletions(text string, f *ast.File, lines *token.Lines) []deletion {
	var out []deletion
	for l := 0; l < lines.Count(); l++ {
		ls, le := lines.LineStart(l), lines.LineEnd(l)
		if !closerLine.MatchString(text[ls:le]) {
			continue
		}
		end := ls + len(strings.TrimRight(text[ls:le], " \t\r"))
		var st ast.Stmt
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil || n.Pos() >= end || n.End() < end {
				return false
			}
			if s, ok := n.(ast.Stmt); ok && n.End() == end && n.Pos() < ls {
				st = s
			}
			return true
		})
		if st == nil {
			continue
		}
		next := len(text)
		if l+1 < lines.Count() {
			next = lines.LineStart(l + 1)
		}
		out = append(out, deletion{
			text: text, cut: text[:ls] + text[next:], header: st.Pos(), headerLine: lines.LineStart(lines.Line(st.Pos())), closer: ls, closerLen: next - ls,
			blockLines: [2]int{lines.Line(st.Pos()), l}, closerWords: strings.TrimSpace(text[ls:le]),
			insideTo: next, cutTo: ls, linesGone: 1,
		})
	}
	return out
}

// TestUnclosedBlockKeepsTheRest deletes, in each sampled corpus program (coretest.Programs) that parses
// (and a sample of the mutants), the closer of each block in turn, as while
// the block is typed before its closer, and checks that the tree recovers
// by the layout:
//
//   - outside the block, hover, definition, references, the outline,
//     folding, semantic tokens and inlay hints answer as with the closer
//     (places moved by the deleted line);
//   - no finding of the checker's passes or the linter appears outside the
//     block that the program does not have;
//   - completion on a new line at the end of the block's body offers the
//     names it offers with the closer;
//   - the preferred fix of the missing closer restores the program (exactly,
//     or but for blank lines around the closer).
//
// go test -run UnclosedBlockKeepsTheRest ./core/fixes -args -stress=1 takes every
// mutant and every closer.
func TestUnclosedBlockKeepsTheRest(t *testing.T) {
	t.Parallel()
	progs, perProgram := deletionSample(t, 6)
	const uri = core.URI("file:///nowhere/unclosed.wfl")
	var n struct {
		programs, misindented, deleted, queries, restored, blanks, completions, sameNames int
	}
	for k, path := range slices.Sorted(maps.Keys(progs)) {
		text := progs[path]
		s0 := core.NewSnapshot(uri, 1, text)
		a0 := s0.Analysis()
		if hasParseError(a0) || strayEnds(text) {
			continue // a closer too many: which one closes what is the reference's guess
		}
		if slices.ContainsFunc(a0.Diagnostics, func(d diag.Diagnostic) bool { return d.Code == lint.CodeIndent }) {
			n.misindented++
			continue // laid out otherwise than its blocks: the layout cannot tell where one ends
		}
		n.programs++
		ds := deletions(text, a0.File, a0.Lines)
		rng := rand.New(rand.NewPCG(uint64(k), 27))
		rng.Shuffle(len(ds), func(i, j int) { ds[i], ds[j] = ds[j], ds[i] })
		_, shown0 := s0.Tolerant()
		for _, d := range ds[:min(len(ds), perProgram)] {
			n.deleted++
			where := fmt.Sprintf("%s: %q of lines %d-%d deleted", path, d.closerWords, d.blockLines[0]+1, d.blockLines[1]+1)
			s1, shown1 := openCut(d, uri, a0, shown0, rng, &n.queries, func(msg string) { t.Errorf("%s: %s", where, msg) })
			// The preferred fix of the missing closer.
			fixed := false
			for _, x := range shown1 {
				if x.Kind != diag.Unclosed || len(x.Related) == 0 || x.Related[0].Span.Start != d.header {
					continue
				}
				for _, f := range At(t.Context(), s1, x.Span) {
					if fixed || !f.Preferred || f.Kind != InsertCloser || f.Diagnostic.Span != x.Span {
						continue
					}
					fixed = true
					out, err := core.ApplyEdits(d.cut, f.Edits...)
					switch {
					case err != nil:
						t.Errorf("%s: the fix %q: %v", where, f.Title, err)
					case out == d.text:
						n.restored++
					case noBlankLines(out) == noBlankLines(d.text):
						n.blanks++
					default:
						t.Errorf("%s: the fix %q makes\n%s\nnot\n%s", where, f.Title, out, d.text)
					}
				}
			}
			if !fixed {
				t.Errorf("%s: no preferred fix inserts the closer; shown %v", where, codesAt(d.cut, shown1))
			}
			// Completion on a new line at the end of the body.
			indent := strings.Repeat(" ", indentAt(text, d.header)+4)
			with := d.text[:d.closer] + indent + "\n" + d.text[d.closer:]
			without := d.cut[:d.closer] + indent + "\n" + d.cut[d.closer:]
			at := d.closer + len(indent)
			n.completions++
			if got, want := completionNames(without, at), completionNames(with, at); slices.Equal(got, want) {
				n.sameNames++
			} else {
				t.Errorf("%s: completion at the end of the body offers %d names, with the closer %d; missing %q, extra %q",
					where, len(got), len(want), minus(want, got), minus(got, want))
			}
		}
	}
	t.Logf("%d programs (%d laid out otherwise than their blocks left out), %d closers deleted: %d queries outside the block compared; the preferred fix restored %d exactly, %d but for blank lines; completion at the end of the body offered the same names in %d of %d",
		n.programs, n.misindented, n.deleted, n.queries, n.restored, n.blanks, n.sameNames, n.completions)
	if n.deleted == 0 {
		t.Error("no closer deleted")
	}
	if n.restored+n.blanks < n.deleted {
		t.Errorf("the preferred fix restored %d of %d programs", n.restored+n.blanks, n.deleted)
	}
}

// deletionSample returns the corpus programs (coretest.OrSkip) that the
// deletion properties (TestUnclosedBlockKeepsTheRest,
// TestOpenQuoteKeepsTheRest) take, and how many of a program's deletions
// they check: every tenth mutant and perProgram deletions; every 60th and
// 2 with -short; every mutant and every deletion with -stress.
func deletionSample(t *testing.T, perProgram int) (map[string]string, int) {
	t.Helper()
	stride := 10
	if testing.Short() {
		stride, perProgram = 60, 2
	}
	if *coretest.Stress > 0 {
		stride, perProgram = 1, 1<<30
	}
	return coretest.OrSkip(t, stride), perProgram
}

// openCut opens d.cut, the program without the deletion, as version 2 of
// uri, and reports through fail what differs outside the lines d touches:
// the first answer that is not the program's (a0, sameOutside; queries
// counts the queries made), then a finding the program's tolerant list
// shown0 does not have (noNewFindings). It returns the snapshot and its
// tolerant list.
func openCut(d deletion, uri core.URI, a0 *core.Analysis, shown0 []diag.Diagnostic, rng *rand.Rand, queries *int, fail func(msg string)) (*core.Snapshot, []diag.Diagnostic) {
	s1 := core.NewSnapshot(uri, 2, d.cut)
	if msg := sameOutside(d, a0, s1.Analysis(), rng, queries); msg != "" {
		fail(msg)
	}
	_, shown1 := s1.Tolerant()
	if msg := noNewFindings(d, shown0, shown1); msg != "" {
		fail(msg)
	}
	return s1, shown1
}

// strayEnds reports whether stray `end` lines follow a statement of text.
func strayEnds(text string) bool {
	_, units, _ := parser.Units(text)
	return slices.ContainsFunc(units, func(u parser.Unit) bool { return u.Stray })
}

func indentAt(text string, off int) int {
	ls := strings.LastIndexAny(text[:off], "\n\r") + 1
	return len(text[ls:]) - len(strings.TrimLeft(text[ls:], " \t"))
}

var blankLines = regexp.MustCompile(`\n[ \t]*\n`)

func noBlankLines(s string) string {
	for {
		t := blankLines.ReplaceAllString(s, "\n")
		if t == s {
			return strings.TrimRight(s, "\n")
		}
		s = t
	}
}

// sameOutside compares what the analyses answer outside the block, a0 the
// program's, a1 the program's without the closer; queries counts the
// position queries made.
func sameOutside(d deletion, a0, a1 *core.Analysis, rng *rand.Rand, queries *int) string {
	// Positions: some of the names outside the block.
	var names []int
	ast.Inspect(a0.File, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && !d.inside(id.Pos()) && d.at(id.Pos()) >= 0 {
			names = append(names, id.Pos())
		}
		return true
	})
	rng.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	spans := func(ss []token.Span) []token.Span {
		out := make([]token.Span, 0, len(ss))
		for _, s := range ss {
			out = append(out, token.Span{Start: d.at(s.Start), End: d.at(s.End)})
		}
		return out
	}
	line := func(l int) int { // 1-based
		if l > d.blockLines[1] {
			return l - d.linesGone
		}
		return l
	}
	for _, off := range names[:min(len(names), 6)] {
		*queries++
		h0, h1 := navigation.Hover(a0, off), navigation.Hover(a1, d.at(off))
		if h0 != nil {
			c := *h0
			c.Span = token.Span{Start: d.at(c.Span.Start), End: d.at(c.Span.End)}
			if c.DeclLine > 0 {
				c.DeclLine = line(c.DeclLine)
			}
			h0 = &c
		}
		if !reflect.DeepEqual(h0, h1) {
			return fmt.Sprintf("hover at %q (offset %d): %+v, with the closer %+v", wordAt(d.text, off), off, h1, h0)
		}
		if got, want := navigation.Definition(a1, d.at(off)), spans(navigation.Definition(a0, off)); !slices.Equal(got, want) {
			return fmt.Sprintf("definition of %q: %v, with the closer %v", wordAt(d.text, off), got, want)
		}
		var want []navigation.Reference
		for _, r := range navigation.References(a0, off, true) {
			r.Span = token.Span{Start: d.at(r.Span.Start), End: d.at(r.Span.End)}
			want = append(want, r)
		}
		if got := navigation.References(a1, d.at(off), true); !slices.Equal(got, want) {
			return fmt.Sprintf("references of %q: %v, with the closer %v", wordAt(d.text, off), got, want)
		}
	}
	// The outline's symbols named outside the block.
	outline := func(a *core.Analysis, outside func(int) bool, at func(int) int) []string {
		var out []string
		var walk func([]presentation.DocumentSymbol)
		walk = func(ss []presentation.DocumentSymbol) {
			for _, s := range ss {
				if outside(s.NameSpan.Start) {
					out = append(out, fmt.Sprintf("%s %v %d-%d %d", s.Name, s.Kind, at(s.NameSpan.Start), at(s.Span.Start), at(s.Span.End)))
				}
				walk(s.Children)
			}
		}
		walk(presentation.DocumentSymbols(a))
		return out
	}
	outside1 := func(off int) bool { return off < d.headerLine || off >= d.cutTo }
	same := func(off int) int { return off }
	if got, want := outline(a1, outside1, same), outline(a0, func(off int) bool { return !d.inside(off) }, d.at); !slices.Equal(got, want) {
		return fmt.Sprintf("outline outside the block: missing %q, extra %q", minus(want, got), minus(got, want))
	}
	// Folding ranges that start outside the block, by lines (a range that
	// ends on the closer's line ends on the line before it without it).
	folds := func(a *core.Analysis, outside func(int) bool, lineAt func(int) int) []string {
		var out []string
		for _, f := range presentation.FoldingRanges(&core.Syntax{File: a.File, Lines: a.Lines}) {
			if outside(f.Start) {
				out = append(out, fmt.Sprintf("%d-%d", lineAt(a.Lines.Line(f.Start)), lineAt(a.Lines.Line(f.End))))
			}
		}
		return out
	}
	sameLine := func(l int) int { return l }
	lineAt := func(l int) int {
		if l >= d.blockLines[1]+1-d.linesGone {
			return l - d.linesGone
		}
		return l
	}
	if got, want := folds(a1, outside1, sameLine), folds(a0, func(off int) bool { return !d.inside(off) }, lineAt); !slices.Equal(got, want) {
		return fmt.Sprintf("folding outside the block: missing %q, extra %q", minus(want, got), minus(got, want))
	}
	// Semantic tokens and inlay hints outside the block.
	toks := func(a *core.Analysis, outside func(int) bool, at func(int) int) []string {
		var out []string
		for _, s := range presentation.SemanticTokens(a, token.Span{Start: 0, End: len(a.Lines.Text())}) {
			if outside(s.Span.Start) {
				out = append(out, fmt.Sprintf("%d %d %v %v", at(s.Span.Start), s.Span.End-s.Span.Start, s.Type, s.Mods))
			}
		}
		for _, h := range presentation.InlayHints(a, token.Span{Start: 0, End: len(a.Lines.Text())}) {
			if outside(h.Offset) {
				out = append(out, fmt.Sprintf("hint %d %s", at(h.Offset), h.Label))
			}
		}
		return out
	}
	if got, want := toks(a1, outside1, same), toks(a0, func(off int) bool { return !d.inside(off) }, d.at); !slices.Equal(got, want) {
		return fmt.Sprintf("semantic tokens and inlay hints outside the block: missing %q, extra %q", minus(want, got), minus(got, want))
	}
	return ""
}

// noNewFindings reports a finding of the checker's passes or the linter
// outside the block of the program without its closer (shown1) that the
// program (shown0) does not have.
func noNewFindings(d deletion, shown0, shown1 []diag.Diagnostic) string {
	key := func(x diag.Diagnostic, at int) string { return fmt.Sprintf("%d %s %s", at, x.Code, x.Message) }
	had := map[string]bool{}
	for _, x := range shown0 {
		if x.Category != diag.Parse && !d.inside(x.Span.Start) {
			// Lines named in the message move with the deleted line.
			x.Message = lineRef.ReplaceAllStringFunc(x.Message, func(m string) string {
				var l int
				fmt.Sscanf(m, "line %d", &l)
				if l > d.blockLines[1]+1 {
					l -= d.linesGone
				}
				return fmt.Sprintf("line %d", l)
			})
			had[key(x, d.at(x.Span.Start))] = true
		}
	}
	for _, x := range shown1 {
		if x.Category == diag.Parse || x.Span.Start >= d.headerLine && x.Span.Start < d.cutTo {
			continue
		}
		if !had[key(x, x.Span.Start)] {
			return fmt.Sprintf("a finding outside the block: %s at %d: %s", x.Code, x.Span.Start, x.Message)
		}
	}
	return ""
}

// completionNames returns the names (not the keywords) completion offers at
// offset of text.
func completionNames(text string, offset int) []string {
	a := core.NewSnapshot(core.URI("file:///nowhere/complete.wfl"), 1, text).Analysis()
	_, items := completion.List(a, offset, completion.Options{})
	var out []string
	for _, it := range items {
		if it.Kind != completion.Keyword {
			out = append(out, it.Label)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func wordAt(text string, off int) string {
	end := off
	for end < len(text) && wordByte(text[end]) {
		end++
	}
	return text[off:end]
}

// codesAt lists the diagnostics for a failure message: line, code, kind.
func codesAt(text string, ds []diag.Diagnostic) []string {
	lines := token.NewLines(text)
	var out []string
	for _, x := range ds {
		l, _ := lines.OffsetPosition(x.Span.Start)
		out = append(out, fmt.Sprintf("%d:%s:%v:%q", l+1, x.Code, x.Kind, x.Message))
	}
	return out
}

// TestCompletionInUnfinishedBlock: completion at the end of the last line
// of a block whose closer is not typed yet offers the block's parameters
// and the names it stores, after blanks too (`display ‸`), as with the
// closer in place.
func TestCompletionInUnfinishedBlock(t *testing.T) {
	for _, tc := range []struct {
		text string // ‸ is the cursor
		want []string
	}{
		{"define action called tally with parameters scores:\n    store total as 0\n    display ‸\n", []string{"scores", "total"}},
		{"define action called tally with parameters scores:\n    store total as 0\n    display ‸\n\nstore zzz as 1\ndisplay zzz\n", []string{"scores", "total"}},
		{"define action called tally with parameters scores:\n    store total as 0\n    for each s in scores:\n        change total to total plus ‸\n", []string{"s", "scores", "total"}},
		{"check if 1 is 1:\n    store inner as 2\n    display ‸  \ndisplay 3\n", []string{"inner"}},
	} {
		at := strings.Index(tc.text, "‸")
		text := tc.text[:at] + tc.text[at+len("‸"):]
		got := completionNames(text, at)
		if missing := minus(tc.want, got); len(missing) > 0 {
			t.Errorf("%q: completion misses %q", tc.text, missing)
		}
	}
}

func wordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}
