package format

import (
	"io/fs"
	"maps"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// corpusFiles returns the corpus programs, or skips the test without them
// (see testcorpus.Dir).
func corpusFiles(tb testing.TB) map[string]string {
	tb.Helper()
	testcorpus.Dir(tb)
	return testcorpus.Programs(tb)
}

func parses(src string) bool {
	_, diags := parser.Parse(src)
	for _, d := range diags {
		if d.Severity == diag.Error {
			return false
		}
	}
	return true
}

// verdict is a program's class the way the parity script computes it: the
// first of parse, semantic and type that has an error, else "valid".
func verdict(src string) string {
	f, pd := parser.Parse(src)
	_, cd := check.Check(f, src)
	has := map[diag.Category]bool{}
	for _, d := range append(pd, cd...) {
		if d.Severity == diag.Error {
			has[d.Category] = true
		}
	}
	for _, c := range []diag.Category{diag.Parse, diag.Semantic, diag.Type} {
		if has[c] {
			return c.String()
		}
	}
	return "valid"
}

// commentTexts lists the text of every comment, in order.
func commentTexts(src string) []string {
	var out []string
	for _, c := range lexer.Lex(src).Comments {
		out = append(out, strings.TrimRight(src[c.Start:c.End], " \t\f"))
	}
	return out
}

// checkInvariants asserts the formatter's promises on one text that parses
// (no fallback layout needed, same tree, same comments, same check verdict,
// fixed point) and returns a description of the first one broken, or "".
func checkInvariants(src string) string {
	p, err := newPrinter(src, Options{})
	if err != nil {
		return "Source failed: " + err.Error()
	}
	if p.fellBack {
		return "the full layout changed the tree; fell back to indentation only"
	}
	out := p.result
	f, _ := parser.Parse(src)
	g, diags := parser.Parse(out)
	for _, d := range diags {
		if d.Severity == diag.Error {
			return "output does not parse: " + d.Message
		}
	}
	if Dump(f) != Dump(g) {
		return "output parses to a different tree"
	}
	if a, b := commentTexts(src), commentTexts(out); strings.Join(a, "\n") != strings.Join(b, "\n") {
		return "comments changed"
	}
	if v, w := verdict(src), verdict(out); v != w {
		return "verdict " + v + " became " + w
	}
	again, err := Source(out, Options{})
	if err != nil || again != out {
		return "not a fixed point"
	}
	return ""
}

// TestCorpus is the Done-when of issue 5: for every corpus program that
// parses, the formatted text parses to the same tree, keeps the comments in
// order, gets the same check verdict and is a fixed point.
func TestCorpus(t *testing.T) {
	t.Parallel()
	files := corpusFiles(t)
	var total, parsing, sameTree, sameComments, sameVerdict, fixed, changed int
	for path, src := range files {
		total++
		if !parses(src) {
			continue
		}
		parsing++
		out, err := Source(src, Options{})
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if out != src {
			changed++
		}
		f, _ := parser.Parse(src)
		g, _ := parser.Parse(out)
		if parses(out) && Dump(f) == Dump(g) {
			sameTree++
		} else {
			t.Errorf("%s: formatted text parses to a different tree", path)
		}
		if a, b := commentTexts(src), commentTexts(out); strings.Join(a, "\n") == strings.Join(b, "\n") {
			sameComments++
		} else {
			t.Errorf("%s: comments changed: %d before, %d after", path, len(a), len(b))
		}
		if v, w := verdict(src), verdict(out); v == w {
			sameVerdict++
		} else {
			t.Errorf("%s: verdict %s became %s", path, v, w)
		}
		if again, err := Source(out, Options{}); err == nil && again == out {
			fixed++
		} else {
			t.Errorf("%s: not a fixed point", path)
		}
		if msg := checkInvariants(src); msg != "" {
			t.Errorf("%s: %s", path, msg)
		}
	}
	t.Logf("corpus: %d programs, %d parse; of those: same tree %d, same comments %d, same verdict %d, fixed point %d; %d changed by formatting",
		total, parsing, sameTree, sameComments, sameVerdict, fixed, changed)
}

func FuzzFormat(f *testing.F) {
	for _, s := range []string{
		"store x as 1\ndisplay x\n",
		"check if x is 1:\n  display 1 // c\notherwise:\n\n\n display 2\nend check\n",
		"create container P:\nproperty n: Text\naction a:\ndisplay n\nend\nend\n",
		"display \"a\n  b  \n\" # c\n",
		"store l as [1,2 ,3]\nstore y as -1+2\ndisplay l[0] l.length\n",
		"try:\ndisplay 1\nwhen error:\ndisplay error\nend try\r\n",
	} {
		f.Add(s)
	}
	for _, s := range corpusSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if !parses(src) {
			out, err := Source(src, Options{})
			if err == nil || out != src {
				t.Fatalf("a text that does not parse was formatted")
			}
			if !utf8.ValidString(err.Error()) {
				t.Fatalf("the formatter's error is not UTF-8: %q", err)
			}
			return
		}
		if msg := checkInvariants(src); msg != "" {
			t.Fatalf("%s\ninput: %q", msg, src)
		}
	})
}

// corpusSeeds reads the corpus for fuzz seeds, or returns nil (see
// testcorpus.Optional).
func corpusSeeds(tb testing.TB) []string {
	var out []string
	dir, ok := testcorpus.Optional(tb)
	if !ok {
		return nil
	}
	filepath.WalkDir(filepath.Join(dir, "wfl"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".wfl") {
			if data, err := os.ReadFile(path); err == nil {
				out = append(out, string(data))
			}
		}
		return nil
	})
	return out
}

// TestMutants asserts the same invariants on the 3,000 mutated corpus
// programs, for those that parse (every 32nd under the race detector: the
// formatter runs no goroutines).
func TestMutants(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("short")
	}
	paths := testcorpus.Glob(t, "wfl-mutants/*.wfl")
	if len(paths) == 0 {
		t.SkipNow()
	}
	var sampled, parsing, ok int
	for i, path := range paths {
		if i%testcorpus.RaceStride(32) != 0 {
			continue
		}
		sampled++
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src := string(data)
		if !parses(src) {
			continue
		}
		parsing++
		if msg := checkInvariants(src); msg != "" {
			t.Errorf("%s: %s", path, msg)
			continue
		}
		ok++
	}
	t.Logf("mutants: %d programs, %d parse, invariants hold on %d", sampled, parsing, ok)
}

// TestAnyLayoutFormatsTheSame: the format of a program is its tree's, not
// its layout's. Every corpus program and mutant that parses, each line
// outside a multi-line string (Verbatim) indented by a random 0 to 12 spaces (4
// layouts a program, each its own seed), formats to the same text as the
// program as written: an editor's "Format Document" on pasted or
// hand-misaligned code gives the canonical layout, not one the layout
// recovery read another way.
func TestAnyLayoutFormatsTheSame(t *testing.T) {
	t.Parallel()
	progs := corpusFiles(t)
	for _, path := range testcorpus.Glob(t, "wfl-mutants/*.wfl") {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		progs[path] = string(data)
	}
	paths := slices.Sorted(maps.Keys(progs))
	checked := 0
	for i, path := range paths {
		src := progs[path]
		if i%testcorpus.RaceStride(8) != 0 || !parses(src) {
			continue
		}
		want, err := Source(src, Options{})
		if err != nil {
			continue // TestCorpus and TestMutants say why
		}
		f, _ := parser.Parse(src)
		depths := LineDepths(f, src, token.NewLines(src))
		lines := strings.Split(src, "\n")
		for seed := range int64(4) {
			r := rand.New(rand.NewSource(seed))
			moved := slices.Clone(lines)
			for k, l := range moved {
				if k < len(depths) && depths[k] != Verbatim {
					moved[k] = strings.Repeat(" ", r.Intn(13)) + strings.TrimLeft(l, " \t")
				}
			}
			got, err := Source(strings.Join(moved, "\n"), Options{})
			if err != nil {
				t.Errorf("%s laid out at random (seed %d): %v", path, seed, err)
			} else if got != want {
				t.Errorf("%s laid out at random (seed %d): formats to another text", path, seed)
			}
		}
		checked++
	}
	t.Logf("%d programs, each in 4 random layouts", checked)
}
