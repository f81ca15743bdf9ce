package parser

import (
	"strconv"
	"strings"
	"testing"

	"wfl-lsp/lang/diag"
)

// TestDroppedFindings checks what the findings of dropped text say and
// cover: a run of unknown characters is one finding, a line's findings
// past MaxDroppedOnLine are one more, and each kind of dropped text says
// what it is.
func TestDroppedFindings(t *testing.T) {
	many := "display 1" + strings.Repeat(" @", MaxDroppedOnLine+5) + "\ndisplay 2 @\n"
	tests := []struct {
		name, src string
		want      []string // "line:col-col message" of each PARSE-DROPPED-CHAR finding, cols 1-based, end exclusive
	}{
		{"one character", "display 1 * 2\n", []string{`1:11-12 the character "*" is not part of WFL and is ignored`}},
		{"a run", "display 1 @@@ 2\n", []string{`1:11-14 the 3 characters "@@@" are not part of WFL and are ignored`}},
		{"a long run quoted short", "display 1 " + strings.Repeat("@", 1000) + "\n",
			[]string{`1:11-1011 the 1000 characters "` + strings.Repeat("@", droppedShown) + `…" are not part of WFL and are ignored`}},
		{"runs apart", "display 1 @ @\n", []string{
			`1:11-12 the character "@" is not part of WFL and is ignored`,
			`1:13-14 the character "@" is not part of WFL and is ignored`}},
		{"a quote never closed", "display \"hello\n", []string{
			`1:9-10 the quote opens a string that is never closed (no '"' follows it), so the quote is ignored`}},
		{"an unknown escape", "display \"a\\qb\"\n", []string{
			`1:9-15 the string holds the unknown escape \q, so the whole string is ignored (WFL's escapes are \n, \t, \r, \\, \0 and \")`}},
		{"a number too large", "display 99999999999999999999\n", []string{
			`1:9-29 the number 99999999999999999999 is too large for WFL and is ignored`}},
		{"a byte order mark", "\uFEFFdisplay 1\n", []string{`1:1-4 the byte order mark (U+FEFF) is not part of WFL and is ignored`}},
		{"NUL written so", "display 1 \x00\n", []string{`1:11-12 the character "\x00" is not part of WFL and is ignored`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Parse(tt.src)
			got := droppedOf(tt.src, diags)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}

	t.Run("many on a line", func(t *testing.T) {
		_, diags := Parse(many)
		got := droppedOf(many, diags)
		if len(got) != MaxDroppedOnLine+1 {
			t.Fatalf("%d findings, want %d:\n%s", len(got), MaxDroppedOnLine+1, strings.Join(got, "\n"))
		}
		first := 11 + 2*(MaxDroppedOnLine-1)
		want := []string{
			strconv.Itoa(1) + ":" + strconv.Itoa(first) + "-" + strconv.Itoa(11+2*(MaxDroppedOnLine+4)+1) + " this and later characters on the line are not part of WFL and are ignored (a line gets at most " + strconv.Itoa(MaxDroppedOnLine) + " findings of them)",
			`2:11-12 the character "@" is not part of WFL and is ignored`,
		}
		if strings.Join(got[MaxDroppedOnLine-1:], "\n") != strings.Join(want, "\n") {
			t.Errorf("got\n%s\nwant\n%s", strings.Join(got[MaxDroppedOnLine-1:], "\n"), strings.Join(want, "\n"))
		}
	})

	// A stretch parsed from a line's start (as the incremental
	// derivation parses one) words its lines' findings as the whole
	// text's parse does.
	t.Run("a stretch as the whole", func(t *testing.T) {
		src := "store a as 1\n" + many
		_, _, whole := Units(src)
		_, _, part := UnitsFrom(src, len("store a as 1\n"))
		if len(whole) != len(part) {
			t.Fatalf("whole %d findings, stretch %d", len(whole), len(part))
		}
		for i := range whole {
			if whole[i].Span != part[i].Span || whole[i].Message != part[i].Message {
				t.Errorf("finding %d: whole %v %q, stretch %v %q", i, whole[i].Span, whole[i].Message, part[i].Span, part[i].Message)
			}
		}
	})
}

// droppedOf lists the PARSE-DROPPED-CHAR findings of diags as
// "line:col-col message" (one line of src to a finding).
func droppedOf(src string, diags []diag.Diagnostic) []string {
	var out []string
	for _, d := range diags {
		if d.Code != CodeDropped {
			continue
		}
		line := strings.Count(src[:d.Span.Start], "\n") + 1
		ls := strings.LastIndexByte(src[:d.Span.Start], '\n') + 1
		out = append(out, strconv.Itoa(line)+":"+strconv.Itoa(d.Span.Start-ls+1)+"-"+strconv.Itoa(d.Span.End-ls+1)+" "+d.Message)
	}
	return out
}
