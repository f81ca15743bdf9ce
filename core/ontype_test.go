package core

import "testing"

// TestCloseBlock covers what the txtar scenarios cannot write: texts
// without a final line break, CRLF, the cursor elsewhere than after Enter.
// The cursor is at the | of each text, which is removed.
func TestCloseBlock(t *testing.T) {
	tests := []struct {
		name string
		text string
		want string // the text after the edit, or "" for none
	}{
		{name: "at the end of a text without a final line break",
			text: "check if 1 is 1:\n    |",
			want: "check if 1 is 1:\n    \nend check"},
		{name: "nested at the end of the text",
			text: "define action called f:\n    for each x in [1]:\n        |",
			want: "define action called f:\n    for each x in [1]:\n        \n    end for"},
		{name: "crlf",
			text: "check if 1 is 1:\r\n|\r\ndisplay 2\r\n",
			want: "check if 1 is 1:\r\n\r\nend check\r\ndisplay 2\r\n"},
		{name: "crlf at the end",
			text: "display \"é\"\r\ncount from 1 to 2:\r\n|",
			want: "display \"é\"\r\ncount from 1 to 2:\r\n\r\nend count"},
		{name: "multi-byte characters in the header",
			text: "store name as \"é😀\"\ncheck if name is \"é😀\":\n    |\n",
			want: "store name as \"é😀\"\ncheck if name is \"é😀\":\n    \nend check\n"},
		{name: "a tab indented header",
			text: "define action called f:\n\tcheck if 1 is 1:\n\t\t|\nend action\n",
			want: "define action called f:\n\tcheck if 1 is 1:\n\t\t\n\tend check\nend action\n"},
		{name: "on the first line", text: "|check if 1 is 1:\n"},
		{name: "two lines below the header", text: "check if 1 is 1:\n\n|"},
		{name: "after a comment", text: "// check if 1 is 1:\n|"},
		{name: "after a one-line if", text: "if 1 is 1 then display 1\n|"},
		{name: "closed further down", text: "repeat forever:\n|\n    break\nend repeat\n"},
		{name: "a closer of the wrong kind follows", text: "check if 1 is 1:\n|\nend for\n",
			want: "check if 1 is 1:\n\nend check\nend for\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			at := 0
			for i := range tt.text {
				if tt.text[i] == '|' {
					at = i
				}
			}
			text := tt.text[:at] + tt.text[at+1:]
			a := NewSnapshot("file:///tmp/enter.wfl", 1, text).Analysis()
			e, ok := CloseBlock(a.Lines, at)
			got := ""
			if ok {
				var err error
				if got, err = ApplyEdits(text, e); err != nil {
					t.Fatal(err)
				}
				if e.Start <= at && e.Start != len(text) {
					t.Errorf("the closer is inserted at %d, not after the cursor's line (cursor %d)", e.Start, at)
				}
			}
			if got != tt.want {
				t.Errorf("CloseBlock: got %q, want %q", got, tt.want)
			}
		})
	}
}
