// Package coretest holds what the tests of core and of its feature
// packages (completion, navigation, fixes) share: the corpus sample,
// random edits as an editor makes them, the first difference of two
// answers, a needle's offset in a text, and the TestMain they run under.
// It imports nothing of core, so that core's own tests (package core) can
// import it; what needs core's state (a document opened and analysed,
// edited at random) is in featuretest. Only tests import it
// (architecture_test.go).
package coretest

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/internal/gcpolicy"
	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

// Stress is the -stress flag of the property tests: edit every program and
// mutant 60 times with this seed.
var Stress = flag.Int("stress", 0, "edit every program and mutant 60 times with this seed")

// Programs returns every fourth corpus program and every stride-th
// mutant, by path; nil when ../shared is absent (failing tb under CI=true,
// see testcorpus). Under the race detector, which makes them about ten
// times slower, it returns every 32nd program and every 16*stride-th
// mutant in path order (CI runs the tests without it too). With -stress it
// returns every program.
func Programs(tb testing.TB, stride int) map[string]string {
	tb.Helper()
	out := map[string]string{}
	root, ok := testcorpus.Optional(tb)
	if !ok {
		return nil
	}
	progStride := 4
	if testcorpus.Race {
		progStride = 32
	}
	if *Stress > 0 {
		progStride = 1
	}
	stride *= testcorpus.RaceStride(16)
	n, m := 0, 0
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".wfl") {
			return nil
		}
		if strings.Contains(path, "wfl-mutants") {
			n++
			if n%stride != 0 {
				return nil
			}
		} else if m++; m%progStride != 0 {
			return nil
		}
		if data, err := os.ReadFile(path); err == nil {
			out[path] = string(data)
		}
		return nil
	})
	return out
}

// OrSkip is Programs, skipping the test when there is no
// corpus beside the project.
func OrSkip(tb testing.TB, stride int) map[string]string {
	tb.Helper()
	progs := Programs(tb, stride)
	if len(progs) == 0 {
		tb.SkipNow()
	}
	return progs
}

// Snippets are texts an edit may insert: whole statements, block openers
// and closers, declarations that collide with existing names, lines that
// make later statements unreachable or change the file's context.
var Snippets = []string{
	"\n", " ", "x", "\"", ":", "end", "end check\n", "end action\n",
	"store total as 1\n", "display total\n", "change total to 2\n", "change total to nothing\n",
	"define action called helper with a:\n    return a\nend action\n",
	"check if yes:\n", "count from 1 to 3:\n", "otherwise:\n",
	"return 1\n", "include from \"other.wfl\"\n", "load module from \"m.wfl\"\n",
	"store new constant LIMIT as 10\n", "create container Box:\n    property size: Number\nend container\n",
	"display call helper with 1\n", "store x as 1\nstore x as 2\n",
	"try:\n    display nowhere\nwhen error:\n    display error\nend try\n",
	"    ", "\t", "Display 1\n", "store", "with", "plus", "1", "é", "\r\n",
}

// OnRunes widens the range from-to of text to whole characters.
func OnRunes(text string, from, to int) (int, int) {
	for !onRune(text, from) {
		from--
	}
	for !onRune(text, to) {
		to++
	}
	return from, to
}

// RandomEdit returns a plausible edit of text: typing, deleting, pasting a
// statement, renaming a word, duplicating or removing a line. Its ends may
// fall inside a character (see OnRunes).
func RandomEdit(rng *rand.Rand, text string) (from, to int, ins string) {
	pos := func() int { return rng.IntN(len(text) + 1) }
	lineAt := func(off int) (int, int) {
		s := strings.LastIndexByte(text[:off], '\n') + 1
		e := strings.IndexByte(text[off:], '\n')
		if e < 0 {
			return s, len(text)
		}
		return s, off + e + 1
	}
	switch rng.IntN(10) {
	case 8: // delete several lines at once
		s, _ := lineAt(pos())
		e := s
		for k := rng.IntN(6); k >= 0 && e < len(text); k-- {
			_, e = lineAt(e)
		}
		return s, e, ""
	case 9: // replace a stretch by a snippet
		p := pos()
		return p, min(len(text), p+rng.IntN(40)), Snippets[rng.IntN(len(Snippets))]
	case 0, 1: // type or paste
		p := pos()
		return p, p, Snippets[rng.IntN(len(Snippets))]
	case 2: // delete a few bytes
		p := pos()
		return p, min(len(text), p+rng.IntN(12)), ""
	case 3: // paste a snippet at a line start
		s, _ := lineAt(pos())
		return s, s, Snippets[rng.IntN(len(Snippets))]
	case 4: // delete a line
		s, e := lineAt(pos())
		return s, e, ""
	case 5: // duplicate a line elsewhere
		s, e := lineAt(pos())
		t, _ := lineAt(pos())
		return t, t, text[s:e]
	case 6: // replace a word by another word of the text
		words := strings.Fields(text)
		if len(words) == 0 {
			return 0, 0, "store a as 1\n"
		}
		target := words[rng.IntN(len(words))]
		p := strings.Index(text, target)
		return p, p + len(target), words[rng.IntN(len(words))]
	default: // change one character
		p := rng.IntN(max(len(text), 1))
		return p, min(p+1, len(text)), string(rune('a' + rng.IntN(26)))
	}
}

// Difference describes the first difference of got and want, slices (of
// slices) compared element by element.
func Difference(got, want any) string {
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	for g.Kind() == w.Kind() && (g.Kind() == reflect.Slice || g.Kind() == reflect.Interface) {
		if g.Kind() == reflect.Interface {
			g, w = g.Elem(), w.Elem()
			continue
		}
		i := 0
		for i < g.Len() && i < w.Len() && reflect.DeepEqual(g.Index(i).Interface(), w.Index(i).Interface()) {
			i++
		}
		switch {
		case i == g.Len() && i == w.Len():
			return "equal?"
		case i == g.Len():
			return fmt.Sprintf("element %d missing: want %+v", i, w.Index(i))
		case i == w.Len():
			return fmt.Sprintf("element %d extra: got %+v", i, g.Index(i))
		}
		g, w = g.Index(i), w.Index(i)
		if g.Kind() != reflect.Slice && g.Kind() != reflect.Interface {
			return fmt.Sprintf("element %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
	return fmt.Sprintf("\n got %+v\nwant %+v", got, want)
}

func onRune(s string, i int) bool { return i == 0 || i == len(s) || s[i]&0xC0 != 0x80 }

// Main runs the tests of core and of a feature package with no global
// configuration file (a test that wants one sets WFL_GLOBAL_CONFIG_PATH
// itself), so that the tests that run in parallel need not set it, and
// with the collector set as the server runs it (main calls
// gcpolicy.ForServer before serving), which spares the corpus properties
// about a sixth of their time. The benchmarks keep the default collector,
// as their figures in the README were measured with it. A package's
// TestMain calls it.
func Main(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "wfl-core-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	if flag.Lookup("test.bench").Value.String() == "" {
		gcpolicy.ForServer()
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// At returns the offset of the nth occurrence of needle plus delta.
func At(t *testing.T, src, needle string, nth, delta int) int {
	t.Helper()
	i := -1
	for k := 0; k <= nth; k++ {
		j := strings.Index(src[i+1:], needle)
		if j < 0 {
			t.Fatalf("%q #%d not found", needle, nth)
		}
		i += 1 + j
	}
	return i + delta
}

// SpanOf returns the span of the nth occurrence of needle.
func SpanOf(t *testing.T, src, needle string, nth int) token.Span {
	s := At(t, src, needle, nth, 0)
	return token.Span{Start: s, End: s + len(needle)}
}

// HasError reports whether diags holds an error.
func HasError(diags []diag.Diagnostic) bool {
	return slices.ContainsFunc(diags, func(d diag.Diagnostic) bool { return d.Severity == diag.Error })
}
