package lint

import (
	"fmt"
	"strings"
	"testing"

	"wfl-lsp/lang/config"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// run lints src the way core does (no tree when it does not parse) and
// returns "line:col CODE" for each finding with code, or every finding when
// code is "".
func run(t *testing.T, src string, cfg config.Config, code string) []string {
	t.Helper()
	f, diags := parser.Parse(src)
	for _, d := range diags {
		if d.Severity == diag.Error {
			f = nil
			break
		}
	}
	lines := token.NewLines(src)
	var got []string
	for _, d := range Check(src, f, nil, cfg) {
		if d.Category != diag.Lint || d.Severity != diag.Warning {
			t.Errorf("finding %+v: want category lint, severity warning", d)
		}
		if code != "" && d.Code != code {
			continue
		}
		l, c := lines.OffsetPosition(d.Span.Start)
		got = append(got, fmt.Sprintf("%d:%d %s", l, c, d.Code))
	}
	return got
}

func TestRules(t *testing.T) {
	def := config.Default()
	long := "display \"" + strings.Repeat("a", 95) + "\""
	tests := []struct {
		name string
		code string
		cfg  func(*config.Config)
		src  string
		want []string
	}{
		// LINT-LENGTH
		{name: "long line", code: CodeLength, src: long + "\n", want: []string{"1:101 LINT-LENGTH"}},
		{name: "line at the limit", code: CodeLength, src: long[:99] + "\"\n"},
		{name: "limit from config", code: CodeLength, cfg: func(c *config.Config) { c.MaxLineLength = 20 },
			src: "display \"0123456789abcdef\"\n", want: []string{"1:21 LINT-LENGTH"}},
		{name: "characters, not bytes", code: CodeLength, cfg: func(c *config.Config) { c.MaxLineLength = 20 },
			src: "display \"éééééééééé\"\n"},

		// LINT-WHITESPACE
		{name: "trailing blanks", code: CodeWhitespace, src: "display 1  \nstore x as 2\t\n",
			want: []string{"1:10 LINT-WHITESPACE", "2:13 LINT-WHITESPACE"}},
		{name: "clean lines", code: CodeWhitespace, src: "display 1\n\nstore x as 2\n"},
		{name: "blanks inside a multi-line string", code: CodeWhitespace, src: "display \"a  \nb\"\n"},
		{name: "allowed by config", code: CodeWhitespace, cfg: func(c *config.Config) { c.TrailingWhitespace = true },
			src: "display 1  \n"},

		// LINT-KEYWORD
		{name: "capitalised keyword", code: CodeKeyword, src: "Display 1\nstore x as Yes\n",
			want: []string{"1:1 LINT-KEYWORD", "2:12 LINT-KEYWORD"}},
		{name: "capitalised name that is no keyword", code: CodeKeyword, src: "store Total as 1\ndisplay Total\n"},
		{name: "keyword words in strings and comments", code: CodeKeyword, src: "display \"Display\" // Store\n"},
		{name: "type names keep their capitals", code: CodeKeyword,
			src: "create container Box:\n    property label: Text\nend\n"},
		{name: "keyword case off", code: CodeKeyword, cfg: func(c *config.Config) { c.ConsistentKeywordCase = false },
			src: "store x as TRUE\n"},

		// LINT-INDENT
		{name: "wrong indentation", code: CodeIndent,
			src:  "check if 1 is 1:\ndisplay 1\n      display 2\n  end check\n",
			want: []string{"2:1 LINT-INDENT", "3:1 LINT-INDENT", "4:1 LINT-INDENT"}},
		{name: "canonical indentation", code: CodeIndent,
			src: "define action called f:\n    check if 1 is 1:\n        display 1\n    otherwise:\n        // note\n        display 2\n    end check\nend action\n"},
		{name: "indent size from config", code: CodeIndent, cfg: func(c *config.Config) { c.IndentSize = 2 },
			src: "count from 1 to 3:\n  display count\nend count\n"},
		{name: "container members and bare end", code: CodeIndent,
			src: "create container Box:\n    property size: Number\n    action area:\n        display size\n    end\nend\n"},

		// LINT-NAME
		{name: "names not in snake_case", code: CodeName,
			src:  "store userName as 1\nstore first name as 2\ndefine action called Greet:\n    display 1\nend action\n",
			want: []string{"1:7 LINT-NAME", "2:7 LINT-NAME", "3:22 LINT-NAME"}},
		{name: "snake_case names", code: CodeName, src: "store user_name as 1\nchange user_name to 2\n"},
		{name: "constants in upper case", code: CodeName, src: "store new constant MAX_SIZE as 1\ndisplay MAX_SIZE\n"},
		{name: "constant in mixed case", code: CodeName, src: "store new constant MaxSize as 1\ndisplay MaxSize\n",
			want: []string{"1:20 LINT-NAME"}},
		{name: "names off", code: CodeName, cfg: func(c *config.Config) { c.SnakeCaseVariables = false },
			src: "store userName as 1\n"},

		// LINT-COMPLEX
		{name: "too deep", code: CodeComplex, cfg: func(c *config.Config) { c.MaxNestingDepth = 2 },
			src:  "check if 1 is 1:\n    count from 1 to 2:\n        for each x in [1]:\n            display x\n        end for\n    end count\nend check\n",
			want: []string{"3:9 LINT-COMPLEX"}},
		{name: "deep enough", code: CodeComplex, cfg: func(c *config.Config) { c.MaxNestingDepth = 2 },
			src: "check if 1 is 1:\n    count from 1 to 2:\n        display 1\n    end count\notherwise check if 2 is 2:\n    display 2\nend check\n"},

		// Rules that need a tree stay quiet on a text that does not parse.
		{name: "no tree rules without a tree", src: "store userName as\n  display 1   \n",
			want: []string{"2:12 LINT-WHITESPACE"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := def
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			got := run(t, tt.src, cfg, tt.code)
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{
		"userName":   "user_name",
		"first name": "first_name",
		"Total":      "total",
		"item2Count": "item2_count",
		"HTTPServer": "httpserver",
		"already_ok": "already_ok",
	} {
		if got := SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%q) = %q, want %q", in, got, want)
		}
		if !IsSnakeCase(SnakeCase(in)) {
			t.Errorf("SnakeCase(%q) is not snake_case", in)
		}
	}
	// SnakeCase reserves the length snakeCaseLen computes.
	for _, in := range []string{"", "userName", "first name", "ÄrgerÖl", "\xffAb\xfe", "İstanbulName", "ǅungla", "a1B2 c3D", "ΣΑΣ"} {
		if got, n := SnakeCase(in), snakeCaseLen(in); len(got) != n {
			t.Errorf("SnakeCase(%q) = %q, %d bytes, snakeCaseLen %d", in, got, len(got), n)
		}
	}
}

// TestKeywordWordLowersAsUnicode checks the lower-casing on the stack
// against strings.ToLower (keywordWordUnicode): every keyword capitalised
// in several ways, words that are not keywords, and words with the Kelvin
// sign, which lower-cases to k.
func TestKeywordWordLowersAsUnicode(t *testing.T) {
	words := []string{"", "A", "X", "Yes", "NO", "True", "NOTHING", "Undefined", "Missing", "Store", "STORE",
		"store", "Display", "Kelvin", "\u212Aeep", "brea\u212A", "Ünter", "Café", "Total_C4", "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
		"E", "Is", "OR", "And", "Check", "Otherwise", "End", "Action", "Container", "Wait", "Pattern"}
	for k := token.Kind(0); k < 255; k++ {
		if w := k.Spelling(); k.IsKeyword() && w != "" {
			words = append(words, strings.ToUpper(w[:1])+w[1:], strings.ToUpper(w), w)
		}
	}
	for _, w := range words {
		if got, want := KeywordWord(w), keywordWordUnicode(w); got != want {
			t.Errorf("KeywordWord(%q) = %v, want %v", w, got, want)
		}
	}
}
