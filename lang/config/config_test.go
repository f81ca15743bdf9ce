package config

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		text string
		want func(*Config)
		errs []string // Error() of each problem, in order
	}{
		{name: "empty", text: ""},
		{name: "comments and blanks", text: "# a comment\n\n   # indented comment\n"},
		{
			name: "every lint key",
			text: "max_line_length = 80\nmax_nesting_depth=3\nindent_size = 2\n" +
				"snake_case_variables = false\ntrailing_whitespace = TRUE\nconsistent_keyword_case = false\n",
			want: func(c *Config) {
				c.MaxLineLength, c.MaxNestingDepth, c.IndentSize = 80, 3, 2
				c.SnakeCaseVariables, c.TrailingWhitespace, c.ConsistentKeywordCase = false, true, false
			},
		},
		{name: "runtime keys accepted silently", text: "timeout_seconds = 60\nweb_socket_max_frames = 3\n"},
		{name: "CRLF and BOM", text: "\uFEFFindent_size = 8\r\nmax_line_length = 120\r\n",
			want: func(c *Config) { c.IndentSize, c.MaxLineLength = 8, 120 }},
		{name: "value keeps text after a second =", text: "log_level = a=b\n"},
		{
			name: "bad values keep the previous value",
			text: "indent_size = four\nmax_line_length = 5\nsnake_case_variables = yes\nindent_size = 2\n",
			want: func(c *Config) { c.IndentSize = 2 },
			errs: []string{
				`line 1: indent_size: expected a whole number, found "four" (value ignored)`,
				`line 2: max_line_length: 5 is out of range 20..10000 (value ignored)`,
				`line 3: snake_case_variables: expected true or false, found "yes" (value ignored)`,
			},
		},
		{
			name: "malformed lines",
			text: "indent_size 4\n= 3\nmax_line_lenght = 90\n",
			errs: []string{
				"line 1: expected `key = value`, found \"indent_size 4\"",
				"line 2: missing key before `=`",
				"line 3: max_line_lenght: unknown key (ignored)",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := Default()
			if tt.want != nil {
				tt.want(&want)
			}
			got, errs := Parse(Default(), tt.text)
			if got != want {
				t.Errorf("config = %+v, want %+v", got, want)
			}
			var gotErrs []string
			for _, e := range errs {
				gotErrs = append(gotErrs, e.Error())
			}
			if strings.Join(gotErrs, "\n") != strings.Join(tt.errs, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(gotErrs, "\n"), strings.Join(tt.errs, "\n"))
			}
		})
	}
}

func TestParseLayers(t *testing.T) {
	global, _ := Parse(Default(), "indent_size = 2\nmax_line_length = 90\n")
	local, _ := Parse(global, "max_line_length = 120\n")
	if local.IndentSize != 2 || local.MaxLineLength != 120 {
		t.Errorf("layered config = %+v, want indent 2 from the global file and length 120 from the local one", local)
	}
}

func TestUnknownFlag(t *testing.T) {
	_, errs := Parse(Default(), "colour = blue\nindent_size = x\n")
	if len(errs) != 2 || !errs[0].Unknown || errs[1].Unknown {
		t.Fatalf("errs = %v, want an unknown-key error then a value error", errs)
	}
}
