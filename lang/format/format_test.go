package format

import (
	"errors"
	"flag"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"wfl-lsp/internal/txtar"
	"wfl-lsp/lang/parser"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/format")

// TestGolden formats input.wfl of every testdata/format/*.txtar and
// compares with output.wfl; an optional file "indent" holds the indent size.
// The output must also be a fixed point.
func TestGolden(t *testing.T) {
	txtar.Run(t, filepath.Join("..", "..", "testdata", "format", "*.txtar"), *update, func(t *testing.T, a *txtar.Archive) {
		in, ok := a.Get("input.wfl")
		if !ok {
			t.Fatal("no input.wfl")
		}
		opt := Options{}
		if s, ok := a.Get("indent"); ok {
			opt.IndentSize, _ = strconv.Atoi(strings.TrimSpace(s))
		}
		p, err := newPrinter(in, opt)
		if err != nil {
			t.Fatalf("Source: %v", err)
		}
		if p.fellBack {
			t.Errorf("the full layout changed the tree; the formatter fell back to indentation only")
		}
		got := p.result
		if *update {
			a.Set("output.wfl", got)
			return
		}
		if want, _ := a.Get("output.wfl"); got != want {
			t.Errorf("formatted:\n%s\nwant:\n%s", got, want)
		}
		again, err := Source(got, opt)
		if err != nil || again != got {
			t.Errorf("not a fixed point (err %v):\n%s", err, again)
		}
	})
}

func TestSyntaxErrorRefused(t *testing.T) {
	src := "store x as\ndisplay   x\n"
	got, err := Source(src, Options{})
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v, want a *SyntaxError", err)
	}
	if got != src {
		t.Errorf("a text that does not parse came back changed: %q", got)
	}
	if se.Line != 1 && se.Line != 2 {
		t.Errorf("error line %d, want 1 or 2", se.Line)
	}
}

func TestEditsRange(t *testing.T) {
	src := "check if x is 1:\ndisplay  1\ndisplay 2  \nend check\n"
	src = "store x as 1\n" + src
	// Only line 2 (0-based) is in range.
	edits, err := Edits(src, Options{}, 2, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(edits) != 1 {
		t.Fatalf("edits = %+v, want one", edits)
	}
	got := src[:edits[0].Start] + edits[0].Text + src[edits[0].End:]
	want := "store x as 1\ncheck if x is 1:\n    display 1\ndisplay 2  \nend check\n"
	if got != want {
		t.Errorf("after range edit:\n%q\nwant\n%q", got, want)
	}
	// The whole text: applying every edit gives Source's result.
	all, err := Edits(src, Options{}, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	out := src
	for i := len(all) - 1; i >= 0; i-- {
		out = out[:all[i].Start] + all[i].Text + out[all[i].End:]
	}
	if whole, _ := Source(src, Options{}); out != whole {
		t.Errorf("edits give\n%q\nSource gives\n%q", out, whole)
	}
}

func TestDumpIgnoresLayout(t *testing.T) {
	a, _ := parser.Parse("store x as 1 plus 2 // c\ndisplay x\n")
	b, _ := parser.Parse("\n\nstore   x as 1+2\n    display x\n")
	if Dump(a) != Dump(b) {
		t.Errorf("dumps differ:\n%s\n%s", Dump(a), Dump(b))
	}
	c, _ := parser.Parse("store x as 1 plus 3\ndisplay x\n")
	if Dump(a) == Dump(c) {
		t.Error("dump does not see a changed literal")
	}
}

func TestLineBreaks(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"empty", "", ""},
		{"only blank lines", "\n\n  \n", ""},
		{"no final line break", "display 1", "display 1\n"},
		{"CRLF kept", "check if 1 is 1:\r\ndisplay 1\r\nend check\r\n", "check if 1 is 1:\r\n    display 1\r\nend check\r\n"},
		{"lone CR", "display 1\rdisplay 2\r", "display 1\rdisplay 2\r"},
		{"string line breaks are content", "store s as \"a\nb\"\r\ndisplay s\r\n", "store s as \"a\nb\"\r\ndisplay s\r\n"},
		{"only a comment", "   // hello   ", "// hello\n"},
		// A byte order mark stays first, the text after it formatted as
		// without one.
		{"byte order mark, blank lines after", "\uFEFF\n\nstore x as 1\n", "\uFEFFstore x as 1\n"},
		{"byte order mark, indented line", "\uFEFF    store x as 1\ndisplay x\n", "\uFEFFstore x as 1\ndisplay x\n"},
		{"byte order mark, canonical", "\uFEFFstore x as 1\n", "\uFEFFstore x as 1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Source(tt.in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("Source(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestDeepBlocksRefused formats blocks nested so deep that the formatted
// text, each line indented by its depth, would be quadratic in the depth:
// it is refused, whereas blocks as deep as real code nests are formatted.
// 4,922 levels nested four times (470 KB) made 194 MB and took 1.7 GB.
func TestDeepBlocksRefused(t *testing.T) {
	nest := func(d int) string {
		return strings.Repeat("check if yes:\n", d) + "display 1\n" + strings.Repeat("end check\n", d)
	}
	if _, err := Source(strings.Repeat(nest(4900)+"\n", 4), Options{}); err == nil || !strings.Contains(err.Error(), "nested too deep") {
		t.Errorf("blocks 4,900 deep: %v, want a refusal", err)
	}
	out, err := Source(nest(60), Options{})
	if err != nil || !strings.Contains(out, strings.Repeat(" ", 59*4)+"check if yes:\n") {
		t.Errorf("blocks 60 deep: %v", err)
	}
}
