// Package format is WFL's canonical formatter: one layout for every program,
// as gofmt gives Go one.
//
// Start with [Source] (whole text in, whole text out) or [Edits] (the
// changes as byte-offset edits, for a whole document or a range of lines).
// Only a text that parses is formatted: formatting a broken program would
// guess at its structure, so [Source] refuses it with a [*SyntaxError].
//
// The layout:
//   - each line indented by its block depth × indent size spaces (4 by default,
//     `indent_size` in `.wflcfg`); a statement continued on further lines
//     indents them one level more; see [LineDepths];
//   - one space between tokens, none inside brackets and parentheses or before
//     `,` and `:`, one after them, one around symbolic binary operators
//     (`+ - / % =`); a space before `[` or `(` is kept or left out as written,
//     because WFL reads `a.b [1]` and `a.b[1]` differently;
//   - boolean literals in lower case (`Yes` → `yes`), `divided  by` as
//     `divided by`, and the optional `:` written after `check if`,
//     `otherwise`, `for each`, `count`, `repeat while|until`, `route` and
//     `when` headers whose body starts on the next line;
//   - no trailing white space, at most one blank line in a row, none at the
//     start or end, and a final line break; line breaks keep their kind
//     (LF, CRLF or CR);
//   - comments stay on their lines, in their order, with their text;
//   - string literals, multi-line ones included, are never touched.
//
// Long lines are not broken: WFL ends a statement at a line break, even
// inside parentheses, so no expression can be split without changing the
// program (LINT-LENGTH reports them instead).
//
// The formatter checks its own work: it re-parses its output and compares
// the tree with the input's (see [Dump]). If they differ it tries the same
// layout without adding a final line break (a few statements read
// differently at the very end of a file), then indentation and blank lines
// only; if even that would change the tree it returns an error and leaves
// the text alone. So formatting never changes what a program means, and
// formatting twice changes nothing.
package format

import (
	"fmt"
	"sort"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// Options configure the layout.
type Options struct {
	IndentSize int // spaces per block level; 0 means 4
}

// A SyntaxError is returned for a text that does not parse.
type SyntaxError struct {
	Diag  diag.Diagnostic // the first parse error
	Line  int             // its 1-based line
	Col   int             // its 1-based column in characters
	Count int             // how many errors the parser reported
}

func (e *SyntaxError) Error() string {
	more := ""
	if e.Count > 1 {
		more = fmt.Sprintf(" (and %d more)", e.Count-1)
	}
	return fmt.Sprintf("%d:%d: %s%s", e.Line, e.Col, e.Diag.Message, more)
}

// An Edit replaces the bytes [Start, End) of the input with Text.
type Edit struct {
	Start, End int
	Text       string
}

// Source returns the canonical form of src.
func Source(src string, opt Options) (string, error) {
	p, err := newPrinter(src, opt)
	if err != nil {
		return src, err
	}
	return p.result, nil
}

// Edits returns the edits that turn src into its canonical form, limited to
// the 0-based lines [startLine, endLine] (pass 0 and -1 for the whole text).
// The edits do not overlap and are sorted; apply them from last to first,
// or in order while tracking the shift. Each edit replaces whole lines.
func Edits(src string, opt Options, startLine, endLine int) ([]Edit, error) {
	p, err := newPrinter(src, opt)
	if err != nil {
		return nil, err
	}
	if endLine < 0 || endLine >= len(p.out) {
		endLine = len(p.out) - 1
	}
	// An edit spans a run of changed lines; its text is joined once the
	// run ends (adding each line to the text made so far copied it again:
	// 40,000 changed lines took 12 s).
	var edits []Edit
	first, runEnd := -1, 0 // the run's first line (-1: none) and where its text ends
	flush := func(last int) {
		if first >= 0 {
			edits = append(edits, Edit{Start: p.lines.LineStart(first), End: runEnd, Text: strings.Join(p.out[first:last+1], "")})
			first = -1
		}
	}
	for i := max(startLine, 0); i <= endLine; i++ {
		start, end := p.lines.LineStart(i), p.lines.LineStart(i+1)
		if i == len(p.out)-1 {
			end = len(src)
		}
		if src[start:end] == p.out[i] {
			flush(i - 1)
			continue
		}
		if first < 0 {
			first = i
		}
		runEnd = end
	}
	flush(endLine)
	return edits, nil
}

// printer formats one text.
type printer struct {
	src    string
	opt    Options
	lines  *token.Lines
	lex    *lexer.Result
	depths []int
	binops map[int]bool // offsets of symbolic binary operators
	colons map[int]bool // ends of headers that lack their optional `:`
	eol    string       // the line break added at the end of a text that lacks one
	out    []string     // the output for each input line, line break included
	result string

	fellBack bool // the full layouts changed the tree; only indentation was changed
}

func newPrinter(src string, opt Options) (*printer, error) {
	if opt.IndentSize <= 0 {
		opt.IndentSize = 4
	}
	f, diags := parser.Parse(src)
	lines := token.NewLines(src)
	if err := syntaxError(diags, lines); err != nil {
		return nil, err
	}
	p := &printer{src: src, opt: opt, lines: lines, lex: lexer.Lex(src)}
	p.depths = LineDepths(f, src, lines)
	if size := p.size(); size > maxOutput(src) {
		return nil, fmt.Errorf("the formatted text would be %d MB, more than %d MB: its blocks are nested too deep to indent", size>>20, maxOutput(src)>>20)
	}
	p.binops = binaryOperators(f, src)
	p.colons = p.missingColons(f)
	p.eol = p.lineBreak()
	want := Dump(f)
	// The full layout; the same without adding a final line break (WFL
	// reads a few statements differently at the very end of a file, such as
	// the single-line `if … then …`); indentation and blank lines only.
	for i, l := range []layout{{spacing: true, finalBreak: true}, {spacing: true}, {}} {
		p.fellBack = i == 2
		p.print(l)
		if p.result == src {
			return p, nil // already canonical: nothing to verify
		}
		g, diags := parser.Parse(p.result)
		if syntaxError(diags, token.NewLines(p.result)) == nil && Dump(g) == want {
			return p, nil
		}
	}
	return nil, fmt.Errorf("format: internal error: every layout changes the program's syntax tree; text left unchanged")
}

// maxOutput is the largest formatted text of src Source and Edits make:
// sixteen times src, and at least 16 MB. Real code stays far below it (ten
// levels of blocks indent a line by 40 bytes); blocks nested thousands
// deep, each line indented by its depth, would make a text quadratic in
// its depth (4,922 nested four times, 470 KB, made 194 MB and took 1.7 GB).
func maxOutput(src string) int { return max(16<<20, 16*len(src)) }

// size is about the size of the formatted text: the text and the
// indentation of each line (the spacing inside lines changes it little).
func (p *printer) size() int {
	n := len(p.src)
	for _, d := range p.depths {
		if d != Verbatim {
			n += d * p.opt.IndentSize
		}
	}
	return n
}

func syntaxError(diags []diag.Diagnostic, lines *token.Lines) error {
	var first *diag.Diagnostic
	n := 0
	for i := range diags {
		if diags[i].Severity != diag.Error {
			continue
		}
		n++
		if first == nil || diags[i].Span.Start < first.Span.Start {
			first = &diags[i]
		}
	}
	if first == nil {
		return nil
	}
	line, col := lines.OffsetPosition(first.Span.Start)
	return &SyntaxError{Diag: *first, Line: line, Col: col, Count: n}
}

// lineBreak returns the document's first line break outside string
// literals, or "\n": the break written at the end of a text that lacks one.
// Other line breaks are kept as they are: in WFL the kind of a line break
// can matter (a lone "\r" after a backslash changes how a malformed string
// is dropped), so mixed line breaks are not unified.
func (p *printer) lineBreak() string {
	for i := 0; i < p.lines.Count()-1; i++ {
		if end := p.lines.LineEnd(i); !p.inString(end) {
			return p.src[end:p.lines.LineStart(i+1)]
		}
	}
	return "\n"
}

// binaryOperators returns the offsets of the operators of binary
// expressions written with a symbol: those get a space on each side. (An
// operator written in words starts with a letter, so its first byte tells
// the two apart.)
func binaryOperators(f *ast.File, src string) map[int]bool {
	ops := map[int]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if b, ok := n.(*ast.BinaryExpr); ok && b.OpPos >= 0 && b.OpPos < len(src) {
			switch src[b.OpPos] {
			case '+', '-', '/', '%', '=':
				ops[b.OpPos] = true
			}
		}
		return true
	})
	return ops
}

// missingColons returns the ends of the block headers written without
// their optional `:` (`check if`, `otherwise`, `for each`, `count`, `repeat
// while|until`, `route`, `when` arms): the canonical form has one. A header
// is only completed when its body starts on a later line.
func (p *printer) missingColons(f *ast.File) map[int]bool {
	colons := map[int]bool{}
	// header completes the header that starts on the line of from, when the
	// body starts on a later line and the line's last token is not `:`.
	header := func(from int, body *ast.Block) {
		if body == nil {
			return
		}
		line := p.lines.Line(from)
		if len(body.Stmts) > 0 && p.lines.Line(body.Stmts[0].Pos()) == line {
			return
		}
		if t, ok := p.lastToken(line); ok && t.Kind != token.Colon && t.End <= body.To {
			colons[t.End] = true
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IfStmt:
			if x.Check {
				header(x.Pos(), x.Then)
			}
			if b, ok := x.Else.(*ast.Block); ok && x.Check {
				if o, ok := p.tokenBefore(b.From, token.KeywordOtherwise); ok {
					header(o.Start, b)
				}
			}
		case *ast.ForEachStmt:
			header(x.Pos(), x.Body)
		case *ast.CountStmt:
			header(x.Pos(), x.Body)
		case *ast.RepeatStmt:
			if x.Kind == ast.RepeatWhile || x.Kind == ast.RepeatUntil {
				header(x.Pos(), x.Body)
			}
		case *ast.RouteStmt:
			if len(x.Arms) > 0 && p.lines.Line(x.Arms[0].Pos()) > p.lines.Line(x.Pos()) {
				if t, ok := p.lastToken(p.lines.Line(x.Pos())); ok && t.Kind != token.Colon {
					colons[t.End] = true
				}
			}
			for _, arm := range x.Arms {
				header(arm.Pos(), arm.Body)
			}
			if x.Otherwise != nil {
				if o, ok := p.tokenBefore(x.Otherwise.From, token.KeywordOtherwise); ok {
					header(o.Start, x.Otherwise)
				}
			}
		}
		return n != nil
	})
	return colons
}

// lastToken returns the last token on a 0-based line, line breaks aside.
func (p *printer) lastToken(line int) (token.Token, bool) {
	end := p.lines.LineEnd(line)
	toks := p.lex.Tokens
	i := sort.Search(len(toks), func(i int) bool { return toks[i].Start >= end }) - 1
	for ; i >= 0 && toks[i].Kind == token.Eol; i-- {
	}
	if i < 0 || toks[i].Start < p.lines.LineStart(line) || toks[i].End > end {
		return token.Token{}, false
	}
	return toks[i], true
}

// tokenBefore returns the last token of kind k before offset, if only line
// breaks and colons lie between.
func (p *printer) tokenBefore(offset int, k token.Kind) (token.Token, bool) {
	toks := p.lex.Tokens
	for i := sort.Search(len(toks), func(i int) bool { return toks[i].Start >= offset }) - 1; i >= 0; i-- {
		switch toks[i].Kind {
		case k:
			return toks[i], true
		case token.Eol, token.Colon:
			continue
		}
		break
	}
	return token.Token{}, false
}

// A layout says how much print may change.
type layout struct {
	spacing    bool // normalize the space between tokens, write header colons
	finalBreak bool // end the text with a line break
}

// lineBreakAfter returns the line break that ends 0-based line i.
func (p *printer) lineBreakAfter(i int) string {
	end := p.lines.LineEnd(i)
	if i+1 >= p.lines.Count() {
		return p.src[end:]
	}
	return p.src[end:p.lines.LineStart(i+1)]
}

// print lays out every line into p.out and p.result. Indentation, blanks at
// line ends and blank lines are always normalized; the rest as l says.
func (p *printer) print(l layout) {
	spacing := l.spacing
	n := p.lines.Count()
	p.out = make([]string, n)
	var b strings.Builder
	started := false   // a non-blank line has been printed
	pending := []int{} // blank input lines waiting to know if they are kept
	for i := range n {
		start, end := p.lines.LineStart(i), p.lines.LineEnd(i)
		brk := p.lineBreakAfter(i)
		// A byte order mark starts the text as it did, before the first
		// line's indentation; the blank lines after it go as at the start
		// of any text.
		bom := ""
		if i == 0 && strings.HasPrefix(p.src, byteOrderMark) {
			bom, start = byteOrderMark, start+len(byteOrderMark)
		}
		var text string
		if p.depths[i] == Verbatim {
			text = p.src[start:end]
			if !p.inString(end) {
				text = strings.TrimRight(text, " \t\f")
			}
		} else {
			body := strings.Trim(p.src[start:end], " \t\f")
			if body == "" {
				if bom != "" {
					p.out[i] = bom
					b.WriteString(bom)
					continue
				}
				pending = append(pending, i)
				continue
			}
			first := start + strings.Index(p.src[start:end], body[:1])
			text = bom + strings.Repeat(" ", p.depths[i]*p.opt.IndentSize) + p.line(first, end, spacing)
		}
		// A printed line: settle the blank lines before it.
		for k, j := range pending {
			if started && k == len(pending)-1 {
				p.out[j] = p.lineBreakAfter(j)
				b.WriteString(p.out[j])
			}
		}
		pending = pending[:0]
		started = true
		if brk == "" && l.finalBreak {
			brk = p.eol
		}
		p.out[i] = text + brk
		b.WriteString(p.out[i])
	}
	if !started {
		// Nothing but blank lines: the canonical form is empty.
		for i := range p.out {
			p.out[i] = ""
		}
		p.result = ""
		return
	}
	p.result = b.String()
}

// byteOrderMark is U+FEFF in UTF-8, which some editors write at the start
// of a file.
const byteOrderMark = "\uFEFF"

// inString reports whether offset lies strictly inside a string literal.
func (p *printer) inString(offset int) bool {
	toks := p.lex.Tokens
	i := sort.Search(len(toks), func(i int) bool { return toks[i].End > offset })
	return i < len(toks) && toks[i].Kind == token.StringLiteral && toks[i].Start < offset
}

// An item is one piece of a line: a token, a dropped character or a comment.
type item struct {
	start, end int
	kind       token.Kind // token.Illegal for dropped text, token.EOF for a comment
}

const commentKind = token.EOF

// line returns the canonical text of the line content [from, to): its
// tokens with canonical spacing, then its comment. A string literal that
// runs past the line's end is copied to the end as it is.
func (p *printer) line(from, to int, spacing bool) string {
	items := p.items(from, to)
	var b strings.Builder
	for k, it := range items {
		end := it.end
		if end > to {
			end = to // a string literal continuing on the next line
		}
		if k > 0 {
			b.WriteString(p.gap(items[k-1], it, spacing))
		}
		text := p.src[it.start:end]
		switch it.kind {
		case token.Identifier:
			if spacing {
				text = strings.Join(strings.Fields(text), " ")
			}
		case token.BooleanLiteral:
			text = strings.ToLower(text)
		case commentKind:
			text = strings.TrimRight(text, " \t\f")
		}
		b.WriteString(text)
		if spacing && p.colons[it.end] {
			b.WriteString(":")
		}
	}
	return b.String()
}

// items lists the tokens, dropped text and comment that start in [from, to).
func (p *printer) items(from, to int) []item {
	var items []item
	toks := p.lex.Tokens
	for i := sort.Search(len(toks), func(i int) bool { return toks[i].Start >= from }); i < len(toks) && toks[i].Start < to; i++ {
		if toks[i].Kind != token.Eol {
			items = append(items, item{toks[i].Start, toks[i].End, toks[i].Kind})
		}
	}
	for _, s := range spansIn(p.lex.Dropped, from, to) {
		items = append(items, item{s.Start, s.End, token.Illegal})
	}
	for _, s := range spansIn(p.lex.Comments, from, to) {
		items = append(items, item{s.Start, s.End, commentKind})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].start < items[j].start })
	// Drop items inside an earlier one (a dropped character inside a
	// multi-word identifier is part of the identifier's text).
	kept := items[:0]
	for _, it := range items {
		if n := len(kept); n > 0 && it.start < kept[n-1].end {
			continue
		}
		kept = append(kept, it)
	}
	// Anything else on the line (it should not happen) is kept by
	// treating it as dropped text.
	var full []item
	pos := from
	for _, it := range kept {
		if gap := p.src[pos:it.start]; strings.Trim(gap, " \t\f") != "" {
			a := pos + strings.Index(gap, strings.TrimLeft(gap, " \t\f"))
			full = append(full, item{a, a + len(strings.TrimRight(p.src[a:it.start], " \t\f")), token.Illegal})
		}
		full = append(full, it)
		pos = it.end
	}
	if pos < to {
		if gap := p.src[pos:to]; strings.Trim(gap, " \t\f") != "" {
			a := pos + strings.Index(gap, strings.TrimLeft(gap, " \t\f"))
			full = append(full, item{a, a + len(strings.TrimRight(p.src[a:to], " \t\f")), token.Illegal})
		}
	}
	return full
}

func spansIn(spans []token.Span, from, to int) []token.Span {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].Start >= from })
	j := i
	for j < len(spans) && spans[j].Start < to {
		j++
	}
	return spans[i:j]
}

// gap returns the white space to print between two items of a line.
func (p *printer) gap(a, b item, spacing bool) string {
	orig := p.src[a.end:b.start]
	if !spacing || a.kind == token.Illegal || b.kind == token.Illegal {
		if orig == "" {
			return ""
		}
		return " "
	}
	switch {
	case b.kind == commentKind:
		return " "
	case a.kind == token.Dot || b.kind == token.Dot:
		if orig == "" {
			return ""
		}
		return " "
	case p.binops[a.start] || p.binops[b.start]:
		return " "
	case b.kind == token.Comma || b.kind == token.Colon || b.kind == token.RightParen || b.kind == token.RightBracket:
		return ""
	case a.kind == token.LeftParen || a.kind == token.LeftBracket:
		return ""
	case a.kind == token.Comma || a.kind == token.Colon:
		return " "
	case orig == "" && (punct(a.kind) || punct(b.kind)):
		return ""
	}
	return " "
}

// punct reports whether k is a punctuation token (words and literals are
// not): between two words a space is always safe, next to punctuation a
// missing space may be significant (`a.b[1]`, `-1`).
func punct(k token.Kind) bool { return k >= token.Colon && k <= token.RightParen }
