package core

import (
	"testing"

	"wfl-lsp/lang/lint"
	"wfl-lsp/lang/parser"
)

func TestExplain(t *testing.T) {
	for _, code := range []string{
		parser.CodeExpected, parser.CodeUnexpected, parser.CodeReserved, parser.CodeStrayEnd, parser.CodeEOF,
		parser.CodeTry, parser.CodePattern, parser.CodeUnsupported, parser.CodeDuplicate, parser.CodeDepth, parser.CodeDropped,
		lint.CodeLength, lint.CodeWhitespace, lint.CodeKeyword, lint.CodeIndent, lint.CodeName, lint.CodeComplex,
		"ANALYZE-SEMANTIC", "ANALYZE-UNUSED", "TYPE-OPERAND", "TYPE-ARITY",
	} {
		e, ok := Explain(code)
		if !ok {
			t.Errorf("no explanation for %s", code)
			continue
		}
		if e.Title == "" || e.Meaning == "" || e.Fix == "" || e.Category == "" {
			t.Errorf("%s: incomplete explanation %+v", code, e)
		}
	}
	if _, ok := Explain("NOPE"); ok {
		t.Error("an unknown code has an explanation")
	}
	if codes := ExplainedCodes(); len(codes) != len(explanations) || codes[0] > codes[len(codes)-1] {
		t.Errorf("ExplainedCodes %v", codes)
	}
}
