package core

import (
	"strings"

	"wfl-lsp/lang/parser"
)

// deepTexts are texts as deep as the parser accepts (their statements
// MaxDepth levels deep, or one level less) and deeper, in the shapes that
// nest: chains of operators, brackets, unary operators, calls, indexes,
// blocks, patterns. A chain of 291,000 operators ended the process with a
// stack overflow (fatal in Go: no recover catches it) in the linter.
func deepTexts() map[string]string {
	const d = parser.MaxDepth
	rep := strings.Repeat
	return map[string]string{
		"chain at the limit":        "store x as 1" + rep(" + 1", d-2) + "\ndisplay x\n",
		"chain of 291,000":          "store x as 1" + rep(" + 1", 291000) + "\ndisplay x\n",
		"concatenation":             "store x as \"a\"" + rep(" with \"b\"", d-3) + "\ndisplay x\n",
		"parentheses":               "store x as " + rep("(", d-3) + "1" + rep(")", d-3) + "\ndisplay x\n",
		"lists":                     "store x as " + rep("[", d-3) + "1" + rep("]", d-3) + "\ndisplay x\n",
		"calls":                     "store x as " + rep("length of ", d/2-2) + "\"a\"\ndisplay x\n",
		"indexes":                   "store l as [1]\nstore x as l" + rep("[0]", d-3) + "\ndisplay x\n",
		"blocks at the limit":       rep("check if yes:\n", d/2-1) + "display 1\n" + rep("end check\n", d/2-1),
		"blocks past the limit":     rep("check if yes:\n", d/2+1) + "display 1\n" + rep("end check\n", d/2+1),
		"pattern groups":            "create pattern p:\n    " + rep("(", d-4) + "digit" + rep(")", d-4) + "\nend pattern\n",
		"chain in an action":        "define action called f with parameters n:\n    return n" + rep(" times n", d-5) + "\nend action\ndisplay f of 2\n",
		"chains, one too deep":      "store y as 1" + rep(" + 1", d-1) + "\nstore x as 1" + rep(" + 1", 100) + "\ndisplay x\ndisplay y\n",
		"unclosed deep parentheses": "display " + rep("(", 3*d),
	}
}

// shapes are the forms FuzzShapes repeats: each is the text before a
// repeated part, the part, the text after it, and the closing part
// repeated as often (for brackets and blocks).
var shapes = []struct{ Before, Part, After, Close string }{
	{"store x as 1", " + 1", "\ndisplay x\n", ""},
	{"store x as 1", " plus 1", "\n", ""},
	{"check if yes", " and yes", ":\n    display 1\nend check\n", ""},
	{"store x as \"a\"", " with \"b\"", "\n", ""},
	{"store x as ", "(", "1", ")"},
	{"store x as ", "not ", "yes\n", ""},
	{"store x as ", "-", "1\n", ""},
	{"store x as ", "[", "1", "]"},
	{"display ", "length of ", "\"a\"\n", ""},
	{"store l as [1]\ndisplay l", "[0]", "\n", ""},
	{"display x", " 1", "\n", ""},
	{"", "check if yes:\n", "display 1\n", "end check\n"},
	{"", "count from 1 to 2:\n", "display count\n", "end count\n"},
	{"", "try:\n", "display 1\n", "when error:\ndisplay 2\nend try\n"},
	{"create pattern p:\n", "(", "digit", ")"},
	{"create pattern p:\n", "one or more of ", "digit\nend pattern\n", ""},
	{"store x as 1 ", "@", "\n", ""},
	{"store x as 1 ", "é😀", "\n", ""},
	{"", "store v as 1\n", "", ""},
	{"define action called f:\n", "    return 1 + f of 1\n", "end action\n", ""},
}
