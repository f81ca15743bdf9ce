package core

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"wfl-lsp/lang/diag"
)

// TestTolerantWhileABlockIsTyped types a block of a corpus program again
// as a user writes it, its closer last: the block is taken out, its header
// and first lines are typed back whole, and the next of its lines is being
// typed, a prefix of it on its own line where it stands, no closer below.
// While that line does not parse, the tolerant list (what editors show)
// holds no finding but those of the same text with the block closed where
// the typing has reached (the line being typed replaced by the block's
// closer, and by those of the blocks inside it whose header is typed, the
// lines below counted back to the line typed): the line being
// written adds nothing, and the block left open costs nothing, to the rest
// of the program. Errors are compared by line, code and message; warnings,
// hints and lint findings by line and code (`Unused variable 'x'` says
// more when the line being typed reads x in an `expect`). The findings of
// the line being typed are not compared, nor a line that is a statement
// there already (the text parses with the closer below it: `requires
// action dra` in an interface says what it says, as in a closed block).
//
// Only the programs the reference finds no error in, and the states whose
// closed text parses (not where a program's layout is not its blocks').
// A sample of the programs and mutants in CI; every one, more blocks, with
// -stress.
func TestTolerantWhileABlockIsTyped(t *testing.T) {
	t.Parallel()
	progs, perProgram, seed := typingSample(t, 7)
	const uri = URI("file:///nowhere/block.wfl")
	programs, typed, laidOut, nested := 0, 0, 0, 0
	for _, p := range progs {
		n, path, text, misindented := p.n, p.path, p.text, p.misindented
		lines := strings.SplitAfter(text, "\n")
		if !strings.HasSuffix(text, "\n") {
			lines[len(lines)-1] += "\n"
		}
		blocks := closedBlocks(lines)
		if len(blocks) == 0 {
			continue
		}
		programs++
		rng := rand.New(rand.NewPCG(uint64(n), seed))
		for range perProgram {
			b := blocks[rng.IntN(len(blocks))]
			k := b.header + 1 + rng.IntN(b.closer-b.header-1) // the line being typed
			want := strings.TrimSpace(lines[k])
			if len(want) < 2 || strings.HasPrefix(want, "//") || strings.HasPrefix(want, "#") {
				continue
			}
			cut := 1 + rng.IntN(len(want)-1)
			for cut > 0 && !utf8.RuneStart(want[cut]) {
				cut--
			}
			indent := lines[k][:len(lines[k])-len(strings.TrimLeft(lines[k], " \t"))]
			line := indent + want[:cut] + "\n"
			// The closers of the blocks open at line k: b's, and those of
			// the blocks inside it whose header is typed, innermost first.
			var closers []string
			seen := map[int]bool{}
			for _, o := range slices.Backward(blocks) {
				if o.header >= b.header && o.header < k && o.closer >= k && o.closer <= b.closer && !seen[o.closer] {
					seen[o.closer] = true
					closers = append(closers, lines[o.closer])
				}
			}
			before := strings.Join(lines[:k], "")
			after := strings.Join(lines[b.closer+1:], "")
			typing := before + line + after
			closed := before + strings.Join(closers, "") + after
			_, ds := NewSnapshot(uri, 2, typing).Tolerant()
			if !parseFails(ds) {
				continue // it parses as it is: not a statement being typed
			}
			if _, whole := NewSnapshot(uri, 3, before+line+strings.Join(closers, "")+after).Diagnostics(); !parseFails(whole) {
				continue // a statement already, there: what it says, it says
			}
			_, cds := NewSnapshot(uri, 4, closed).Diagnostics()
			if parseFails(cds) {
				continue // the program's layout is not its blocks'
			}
			typed++
			nested += len(closers) - 1
			have := map[string]bool{}
			for _, f := range lineFindings(closed, cds, k, len(closers)-1) {
				have[f.text] = true
			}
			// The closed text is not the program: where it has semantic
			// errors (a name its branches no longer all declare), the
			// static pass's findings wait in it and not in the text typed.
			static := len(checkErrors(cds)) == 0
			var extra []string
			for _, f := range lineFindings(typing, ds, k, 0) {
				switch {
				case have[f.text]:
				case !static && (f.code == diag.AnalyzeUnused || f.code == diag.AnalyzeUnreachable):
				default:
					extra = append(extra, f.text)
				}
			}
			if len(extra) == 0 {
				continue
			}
			if misindented && layoutRead(ds) {
				laidOut++
				continue
			}
			t.Errorf("%s: the block at line %d typed up to %q (line %d), its closer not typed: %d findings the block closed there does not have, the first %s",
				path, b.header+1, strings.TrimSpace(line), k+1, len(extra), extra[0])
		}
	}
	t.Logf("%d programs without errors; %d block lines typed that do not parse, %d blocks inside them left open too (%d in misindented programs read by their layout show an error)", programs, typed, nested, laidOut)
	if typed == 0 {
		t.Error("nothing typed")
	}
}

// A closedBlock is a block of a program's lines: its header (a line ending
// with a colon) and its closer (the first line below at the header's
// indentation, an `end`), with only its own continuations (`otherwise`,
// `catch`, `when`, ...) at that indentation between them and at least one
// line inside.
type closedBlock struct{ header, closer int }

// closedBlocks returns the blocks of lines laid out as closedBlock says.
func closedBlocks(lines []string) []closedBlock {
	var out []closedBlock
	indentOf := func(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }
	for h, l := range lines {
		s := strings.TrimSpace(l)
		if !strings.HasSuffix(s, ":") || strings.HasPrefix(s, "//") || strings.HasPrefix(s, "#") {
			continue
		}
		for i := h + 1; i < len(lines); i++ {
			s := strings.TrimSpace(lines[i])
			if s == "" || indentOf(lines[i]) > indentOf(l) {
				continue
			}
			if indentOf(lines[i]) < indentOf(l) {
				break
			}
			if s == "end" || strings.HasPrefix(s, "end ") {
				if i > h+1 {
					out = append(out, closedBlock{h, i})
				}
				break
			}
			first, _, _ := strings.Cut(s, " ")
			if !slices.Contains([]string{"otherwise", "otherwise:", "catch", "catch:", "when", "finally:", "setup:", "teardown:"}, first) {
				break
			}
		}
	}
	return out
}

// A lineFinding is a finding as lineFindings renders it.
type lineFinding struct {
	text  string // its line (1-based), code and message, or for a warning or a hint, severity
	code  string
	error bool
}

// lineFindings renders the findings of ds in text but the parse's, by line
// (1-based), code and message (warnings and hints: line, code and
// severity), leaving out those on line skip (0-based) and the shift lines
// after it, and counting the lines below those shift fewer (the closers
// that stand for the line being typed), sorted.
func lineFindings(text string, ds []diag.Diagnostic, skip, shift int) []lineFinding {
	var out []lineFinding
	for _, d := range ds {
		if d.Category == diag.Parse {
			continue
		}
		line := strings.Count(text[:min(d.Span.Start, len(text))], "\n")
		if line >= skip && line <= skip+shift {
			continue
		}
		if skip >= 0 && line > skip {
			line -= shift
		}
		f := lineFinding{text: fmt.Sprintf("line %d: %s (%s)", line+1, d.Code, d.Severity), code: d.Code, error: d.Severity == diag.Error}
		if f.error {
			f.text = fmt.Sprintf("line %d: %s: %s", line+1, d.Code, d.Message)
		}
		out = append(out, f)
	}
	slices.SortFunc(out, func(a, b lineFinding) int { return strings.Compare(a.text, b.text) })
	return out
}
