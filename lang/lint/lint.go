// Package lint implements WFL's six style rules, the reference linter's,
// configured by a [config.Config] read from `.wflcfg`.
//
// Start with [Check]. Every finding is a [diag.Diagnostic] of category
// [diag.Lint] and severity [diag.Warning], with a LINT-* code:
//
//	LINT-LENGTH      a line longer than max_line_length characters
//	LINT-WHITESPACE  spaces or tabs at the end of a line (unless trailing_whitespace = true)
//	LINT-KEYWORD     a keyword written with capitals (`Display`, `Yes`): WFL
//	                 keywords are lower-case; a capitalised one is not a keyword
//	                 (type names such as `Text` and `Number` are exempt)
//	LINT-INDENT      a line not indented the way `wfl-lsp fmt` indents it
//	LINT-NAME        a declared variable (`store`/`create … as`) or action whose
//	                 name is not snake_case, reported once where it is declared
//	                 (UPPER_SNAKE constants are exempt)
//	LINT-COMPLEX     conditionals and loops nested deeper than max_nesting_depth
//
// The first three look at the text and its tokens and run on any document;
// the last three need a syntax tree and run only on a document that parses,
// as the reference linter does. Text inside string literals is never judged
// (a multi-line string's trailing blanks are part of its value).
//
// Where the reference's rules were crude, these follow its intent rather
// than its letter: lengths count characters, indentation follows the real
// block structure (bare `end`, `when`, `catch`, continuation lines) and
// indent_size, and the configured limits are honoured (the reference
// hard-codes 100 and 5).
package lint

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/config"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/format"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/token"
)

// The rule codes: the linter's names of lang/diag's Lint* codes.
const (
	CodeLength     = diag.LintLength
	CodeWhitespace = diag.LintWhitespace
	CodeKeyword    = diag.LintKeyword
	CodeIndent     = diag.LintIndent
	CodeName       = diag.LintName
	CodeComplex    = diag.LintComplex
)

// Check lints src. file is its syntax tree, or nil when src does not parse
// (then only the text rules run). lex is src's tokens, or nil to lex here.
// The findings are sorted by position.
func Check(src string, file *ast.File, lex *lexer.Result, cfg config.Config) []diag.Diagnostic {
	out, _ := check(src, file, lex, cfg, false, nil)
	return out
}

// CheckUntil is Check, or CheckModes with both, that stops between its
// rules once done is closed: the findings are then incomplete, for a
// caller that no longer wants them.
func CheckUntil(src string, file *ast.File, lex *lexer.Result, cfg config.Config, both bool, done <-chan struct{}) (tree, tok []diag.Diagnostic) {
	return check(src, file, lex, cfg, both, done)
}

// CheckModes returns both what Check returns with file (tree) and what it
// returns without it (tok), doing once what the two share: the line table,
// the lexing, the lengths and the search for capitalised keywords. A
// document that stops parsing while it is edited is judged by the text
// rules alone, and its findings are kept for both cases.
func CheckModes(src string, file *ast.File, lex *lexer.Result, cfg config.Config) (tree, tok []diag.Diagnostic) {
	return check(src, file, lex, cfg, true, nil)
}

// check is Check, and with both, also Check without the tree; it stops
// between rules once done is closed.
func check(src string, file *ast.File, lex *lexer.Result, cfg config.Config, both bool, done <-chan struct{}) (out, tok []diag.Diagnostic) {
	stopped := func() bool {
		select {
		case <-done:
			return true
		default:
			return false
		}
	}
	l := &linter{src: src, lines: token.NewLines(src), lex: lex, cfg: cfg}
	var tree treeFindings
	if file != nil {
		l.tree = true
		l.walk(file, 0, false, &tree)
	}
	if stopped() {
		return nil, nil
	}
	l.length()
	lengths := len(l.out)
	if !cfg.TrailingWhitespace {
		l.whitespace()
	}
	if stopped() {
		return nil, nil
	}
	var cands []keywordCand
	if cfg.ConsistentKeywordCase {
		cands = l.keywordCands()
		l.keywordCase(cands, true)
	}
	if stopped() {
		return nil, nil
	}
	if both {
		// The text rules again, without the tree: the lengths are the
		// same, the strings and the exempt types are not.
		t := &linter{src: src, lines: l.lines, lex: l.lex, cfg: cfg}
		t.out = slices.Clone(l.out[:lengths])
		if !cfg.TrailingWhitespace {
			t.whitespace()
		}
		if cfg.ConsistentKeywordCase {
			t.keywordCase(cands, false)
		}
		sort.SliceStable(t.out, func(i, j int) bool { return t.out[i].Span.Start < t.out[j].Span.Start })
		tok = slices.Clip(t.out)
		if len(tok) == 0 {
			tok = nil
		}
	}
	if file != nil {
		l.indent(file)
		if n := tree.names.n + tree.nesting.n; n > 0 {
			l.out = tree.nesting.appendTo(tree.names.appendTo(slices.Grow(l.out, n)))
		}
	}
	sort.SliceStable(l.out, func(i, j int) bool { return l.out[i].Span.Start < l.out[j].Span.Start })
	return l.out, tok
}

type linter struct {
	src   string
	lines *token.Lines
	lex   *lexer.Result // nil until a rule needs the tokens
	cfg   config.Config
	out   []diag.Diagnostic

	tree  bool         // strs and types come from the syntax tree
	strs  []token.Span // string literals, in order (with a tree)
	types []token.Span // written types, in order (with a tree)
}

// treeFindings are the findings of the name and nesting rules, each in
// the order of the tree, kept apart until the other rules have reported.
type treeFindings struct {
	names, nesting findingList
}

// findingList collects diagnostics in chunks, so that a long list is not
// copied again and again as it grows (a slice grown by append allocates
// about four times its final size).
type findingList struct {
	chunks [][]diag.Diagnostic
	n      int
}

func (f *findingList) add(d diag.Diagnostic) {
	if len(f.chunks) == 0 || len(f.chunks[len(f.chunks)-1]) == cap(f.chunks[len(f.chunks)-1]) {
		f.chunks = append(f.chunks, make([]diag.Diagnostic, 0, min(8<<len(f.chunks), 1024)))
	}
	c := &f.chunks[len(f.chunks)-1]
	*c = append(*c, d)
	f.n++
}

// appendTo appends the findings to out in the order they were added.
func (f *findingList) appendTo(out []diag.Diagnostic) []diag.Diagnostic {
	for _, c := range f.chunks {
		out = append(out, c...)
	}
	return out
}

// walk visits the tree rooted at n in preorder, in one pass for what needs
// the tree but the indentation: it records the string literals and written
// types (the text rules look them up) and runs the name rule (when
// configured) and the nesting rule. depth is the number of conditionals and
// loops around n; muted is set below a statement the nesting rule reported
// (it reports only the outermost statement of a subtree that nests too
// deep).
func (l *linter) walk(n ast.Node, depth int, muted bool, out *treeFindings) {
	switch x := n.(type) {
	case *ast.BasicLit:
		if x.Kind == ast.LitString {
			l.strs = append(l.strs, token.Span{Start: x.From, End: x.To})
		}
	case *ast.PatternNode:
		if x.Kind == ast.PatLiteral && x.From < len(l.src) && l.src[x.From] == '"' {
			l.strs = append(l.strs, token.Span{Start: x.From, End: x.To})
		}
	case *ast.TypeExpr:
		// Its parts are names and types: no literal, declaration or
		// statement.
		l.types = append(l.types, token.Span{Start: x.From, End: x.To})
		return
	case *ast.VarDecl:
		if l.cfg.SnakeCaseVariables {
			if x.Constant {
				l.name(&out.names, "constant", x.Name)
			} else {
				l.name(&out.names, "variable", x.Name)
			}
		}
	case *ast.ActionDecl:
		if l.cfg.SnakeCaseVariables && !x.Method {
			l.name(&out.names, "action", x.Name)
		}
	}
	if s, ok := n.(ast.Stmt); ok && !muted && nests(s) {
		depth++
		if max := l.cfg.MaxNestingDepth; depth > max {
			end := l.lines.LineEnd(l.lines.Line(s.Pos()))
			if e := s.End(); e < end {
				end = e
			}
			out.nesting.add(finding(s.Pos(), end, CodeComplex,
				"blocks are nested "+strconv.Itoa(depth)+" deep, more than the maximum of "+strconv.Itoa(max)))
			muted = true
		}
	}
	ast.Children(n, func(c ast.Node) { l.walk(c, depth, muted, out) })
}

// within reports whether offset lies in one of the sorted spans; strictly
// inside when strict is set.
func within(spans []token.Span, offset int, strict bool) bool {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].End > offset })
	if i == len(spans) {
		return false
	}
	if strict {
		return spans[i].Start < offset
	}
	return spans[i].Start <= offset
}

// tokens returns src's tokens, lexing on first use: most documents need
// none (no trailing blanks, no capitalised keywords), and lexing is the
// linter's largest cost.
func (l *linter) tokens() []token.Token {
	if l.lex == nil {
		l.lex = lexer.Lex(l.src)
	}
	return l.lex.Tokens
}

func (l *linter) report(start, end int, code, msg string) {
	l.out = append(l.out, finding(start, end, code, msg))
}

func finding(start, end int, code, msg string) diag.Diagnostic {
	return diag.Diagnostic{
		Span:     token.Span{Start: start, End: end},
		Severity: diag.Warning,
		Category: diag.Lint,
		Code:     code,
		Message:  msg,
	}
}

// inString reports whether offset lies strictly inside a string literal,
// that is, after its opening quote and before its closing one.
func (l *linter) inString(offset int) bool {
	if l.tree {
		return within(l.strs, offset, true)
	}
	toks := l.tokens()
	i := sort.Search(len(toks), func(i int) bool { return toks[i].End > offset })
	return i < len(toks) && toks[i].Kind == token.StringLiteral && toks[i].Start < offset
}

// length reports lines longer than max_line_length characters.
func (l *linter) length() {
	max := l.cfg.MaxLineLength
	for i := range l.lines.Count() {
		start, end := l.lines.LineStart(i), l.lines.LineEnd(i)
		if end-start <= max {
			continue
		}
		line := l.src[start:end]
		if utf8.RuneCountInString(line) <= max {
			continue
		}
		cut := start
		for n := 0; n < max; n++ {
			_, size := utf8.DecodeRuneInString(l.src[cut:])
			cut += size
		}
		l.report(cut, end, CodeLength, "line is "+strconv.Itoa(utf8.RuneCountInString(line))+
			" characters long, more than the maximum of "+strconv.Itoa(max))
	}
}

// whitespace reports blanks at the end of lines, except where the line
// break is inside a string literal.
func (l *linter) whitespace() {
	for i := range l.lines.Count() {
		start, end := l.lines.LineStart(i), l.lines.LineEnd(i)
		ws := end
		for ws > start && isBlank(l.src[ws-1]) {
			ws--
		}
		if ws == end || l.inString(end) {
			continue
		}
		l.report(ws, end, CodeWhitespace, "line has trailing whitespace")
	}
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\f' }

// A keywordCand is a word with capitals that would be a keyword, a
// boolean or a nothing literal in lower case.
type keywordCand struct {
	token.Span
	typ bool // in a written type (with a tree): exempt
}

// keywordCands finds the words keywordCase judges in the raw text: most
// documents have none and need no lexing. A candidate is a word (a run of
// word bytes that starts with a letter) with a capital: the scan goes from
// capital to capital and looks around each for its word.
func (l *linter) keywordCands() []keywordCand {
	var cands []keywordCand
	src := l.src
	for i := 0; i < len(src); {
		for i < len(src) && !(src[i] >= 'A' && src[i] <= 'Z') {
			i++
		}
		if i == len(src) {
			break
		}
		start, j := i, i+1
		for start > 0 && isWordByte(src[start-1]) {
			start--
		}
		for j < len(src) && isWordByte(src[j]) {
			j++
		}
		if isWordStart(src[start]) && KeywordWord(src[start:j]) {
			cands = append(cands, keywordCand{token.Span{Start: start, End: j}, within(l.types, start, false)})
		}
		i = j
	}
	return cands
}

// keywordCase reports the candidates (keywordCands) written as keywords
// would be, were they lower-case: `Display` is an identifier in WFL, and
// `Yes` a boolean that reads better as `yes`. With exempt, type names are
// not reported: `Text`, `Number` and `List` are how types are usually
// written (`property name: Text`).
func (l *linter) keywordCase(cands []keywordCand, exempt bool) {
	if len(cands) == 0 {
		return
	}
	// Keep the words that are (part of) identifier or boolean tokens.
	src := l.src
	toks := l.tokens()
	for _, c := range cands {
		if exempt && c.typ {
			continue
		}
		k := sort.Search(len(toks), func(k int) bool { return toks[k].End > c.Start })
		if k == len(toks) || toks[k].Start > c.Start {
			continue // in a string, a comment or dropped text
		}
		w := src[c.Start:c.End]
		if !l.tree && k > 0 && typeName[strings.ToLower(w)] {
			// Without a tree (the text does not parse), a type name after
			// ':', 'as' or 'of' is taken for a written type.
			if p := toks[k-1].Kind; p == token.Colon || p == token.KeywordAs || p == token.KeywordOf {
				continue
			}
		}
		switch toks[k].Kind {
		case token.BooleanLiteral:
			l.report(c.Start, c.End, CodeKeyword, "keyword '"+w+"' should be lower-case: '"+strings.ToLower(w)+"'")
		case token.Identifier:
			l.report(c.Start, c.End, CodeKeyword, "keyword '"+w+"' should be lower-case: '"+strings.ToLower(w)+"' (capitalised, it is read as a name)")
		}
	}
}

// typeName holds the keywords that name types, written capitalised in
// types (`property name: Text`, `List of Number`).
var typeName = map[string]bool{"text": true, "number": true, "boolean": true, "list": true, "map": true,
	"date": true, "time": true, "any": true, "pattern": true}

// KeywordWord reports whether w has capitals and its lower-case form is a
// keyword, a boolean or a nothing literal.
func KeywordWord(w string) bool {
	// Lower-cased on the stack: capitalised words are common in strings
	// and comments, and this runs for each on every analysis.
	var buf [16]byte
	if len(w) > len(buf) {
		for i := 0; i < len(w); i++ {
			if w[i] >= 0x80 {
				return keywordWordUnicode(w)
			}
		}
		return false // longer than any keyword
	}
	lw, upper := buf[:len(w)], false
	for i := 0; i < len(w); i++ {
		c := w[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
			upper = true
		} else if c >= 0x80 {
			return keywordWordUnicode(w)
		}
		lw[i] = c
	}
	if !upper {
		return false
	}
	switch string(lw) {
	case "yes", "no", "true", "false", "nothing", "missing", "undefined":
		return true
	}
	return token.Lookup(string(lw)) != token.Identifier
}

// keywordWordUnicode is KeywordWord of a word with a byte past ASCII,
// lower-cased as Unicode says (the Kelvin sign lower-cases to k).
func keywordWordUnicode(w string) bool {
	lw := strings.ToLower(w)
	if lw == w {
		return false
	}
	switch lw {
	case "yes", "no", "true", "false", "nothing", "missing", "undefined":
		return true
	}
	return token.Lookup(lw) != token.Identifier
}

func isWordStart(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isWordByte(c byte) bool {
	return isWordStart(c) || c >= '0' && c <= '9' || c == '_'
}

// indent reports lines whose leading white space is not the canonical
// indentation: depth × indent_size spaces.
func (l *linter) indent(file *ast.File) {
	depths := format.LineDepths(file, l.src, l.lines)
	for i, d := range depths {
		if d == format.Verbatim {
			continue
		}
		start, end := l.lines.LineStart(i), l.lines.LineEnd(i)
		ws := start
		for ws < end && isBlank(l.src[ws]) {
			ws++
		}
		if ws == end {
			continue // blank line
		}
		want := d * l.cfg.IndentSize
		got := l.src[start:ws]
		if len(got) == want && strings.Count(got, " ") == want {
			continue
		}
		found := strconv.Itoa(len(got))
		if strings.ContainsAny(got, "\t\f") {
			found = strconv.Quote(got)
		}
		// The span runs over the indentation and the first word, so that
		// it is visible even when the indentation is missing.
		word := ws
		for word < end && !isBlank(l.src[word]) {
			word++
		}
		l.report(start, word, CodeIndent, "line should be indented with "+strconv.Itoa(want)+" spaces, found "+found)
	}
}

// name reports to out a declared variable or action (kind) whose name id
// is not snake_case (see walk: each declaration is reported once, where it
// is declared).
func (l *linter) name(out *findingList, kind string, id *ast.Ident) {
	if id == nil || token.Lookup(id.Name) != token.Identifier || IsSnakeCase(id.Name) {
		return
	}
	if kind == "constant" && isUpperSnake(id.Name) {
		return // MAX_SIZE is the usual spelling of a constant
	}
	out.add(finding(id.From, id.To, CodeName, kind+" name '"+id.Name+"' should be snake_case: '"+SnakeCase(id.Name)+"'"))
}

// IsSnakeCase reports whether name has no capitals and no spaces.
func IsSnakeCase(name string) bool {
	for _, r := range name {
		if r == ' ' || unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// isUpperSnake reports whether name is UPPER_SNAKE_CASE: capitals, digits
// and underscores, starting with a capital.
func isUpperSnake(name string) bool {
	for i, r := range name {
		if !(r >= 'A' && r <= 'Z' || i > 0 && (r >= '0' && r <= '9' || r == '_')) {
			return false
		}
	}
	return name != ""
}

// SnakeCase converts a name to snake_case: spaces become `_`, capitals are
// lowered and a `_` is put where a lower-case letter or digit is followed by
// a capital (`userName` → `user_name`, `first name` → `first_name`).
func SnakeCase(name string) string {
	var b strings.Builder
	b.Grow(snakeCaseLen(name))
	prevLowerOrDigit := false
	for _, r := range name {
		switch {
		case r == ' ':
			b.WriteByte('_')
			prevLowerOrDigit = false
		case unicode.IsUpper(r):
			if prevLowerOrDigit {
				b.WriteByte('_')
			}
			b.WriteRune(unicode.ToLower(r))
			prevLowerOrDigit = false
		default:
			b.WriteRune(r)
			prevLowerOrDigit = unicode.IsLower(r) || unicode.IsDigit(r)
		}
	}
	return b.String()
}

// snakeCaseLen returns the length in bytes of SnakeCase(name).
func snakeCaseLen(name string) int {
	n := 0
	prevLowerOrDigit := false
	for _, r := range name {
		switch {
		case r == ' ':
			n++
			prevLowerOrDigit = false
		case unicode.IsUpper(r):
			if prevLowerOrDigit {
				n++
			}
			n += utf8.RuneLen(unicode.ToLower(r))
			prevLowerOrDigit = false
		default:
			n += utf8.RuneLen(r)
			prevLowerOrDigit = unicode.IsLower(r) || unicode.IsDigit(r)
		}
	}
	return n
}

// nests reports whether s counts for the nesting rule (see walk), which
// reports the outermost conditional or loop of every subtree that nests
// deeper than max_nesting_depth. Conditionals, loops and transactions
// count; action bodies do not, and an `otherwise check if` link is part of
// its chain.
func nests(s ast.Stmt) bool {
	switch x := s.(type) {
	case *ast.IfStmt:
		return !x.Chained
	case *ast.RouteStmt, *ast.CountStmt, *ast.ForEachStmt, *ast.RepeatStmt,
		*ast.MainLoopStmt, *ast.TransactionStmt:
		return true
	}
	return false
}
