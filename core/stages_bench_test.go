package core

import (
	"fmt"
	"testing"

	"wfl-lsp/lang/check"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/lint"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// BenchmarkStages measures each front-end stage of an analysis separately,
// on the generated documents of BenchmarkAnalysis, to show where a
// didChange's time goes.
func BenchmarkStages(b *testing.B) {
	for _, lines := range []int{1000, 10000} {
		text := benchText(lines)
		f, _ := parser.Parse(text)
		stages := []struct {
			name string
			run  func()
		}{
			{"Lex", func() { lexer.Lex(text) }},
			{"Parse", func() { parser.Parse(text) }},
			{"Check", func() { check.Check(f, text) }},
			{"Lint", func() { lint.Check(text, f, nil, ConfigFor("file:///bench.wfl")) }},
			{"Lines", func() { token.NewLines(text) }},
			{"Analyze", func() { analyze("file:///bench.wfl", text, disk) }},
		}
		for _, s := range stages {
			b.Run(fmt.Sprintf("%s/lines=%d", s.name, lines), func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				for i := 0; i < b.N; i++ {
					s.run()
				}
			})
		}
	}
}
