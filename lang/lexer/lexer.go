// Package lexer turns WFL source text into tokens, the way the reference WFL
// lexer does: keywords are whole lower-case words, consecutive identifier
// words merge into one multi-word identifier, characters the language does
// not know are dropped (and reported separately), comments are skipped (and
// reported separately).
//
// Start with [Lex]. It never fails: every input yields a token list.
package lexer

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"wfl-lsp/lang/token"
)

// Result is what [Lex] found.
type Result struct {
	Tokens   []token.Token // the tokens the parser reads; no Illegal tokens, no comments
	Comments []token.Span  // every `//` and `#` comment, without its line break
	Dropped  []token.Span  // characters (a run side by side as one span) and malformed literals the lexer dropped, as the reference does
}

// Lex scans src.
func Lex(src string) *Result {
	return LexInto(src, nil)
}

// estimate is the token capacity reserved for src: the corpus averages 8.6
// bytes a token and dense code about 5.3, so one token per 5 bytes rarely
// needs to grow, and then once. Growing the buffer of a large file by
// doubling copies and clears it again and again (and runs write barriers
// while the GC marks); reserving far too much clears memory for nothing.
// Past 65,536 tokens the buffer grows to what the rest of the text needs
// at the density seen so far (grow): a large text of mostly blanks does
// not reserve a token for every 5 of them.
func estimate(src string) int { return min(len(src)/5, 1<<16) + 16 }

// LexInto is Lex appending the tokens to buf[:0], so a caller that is done
// with the tokens of one scan can reuse their memory for the next. A buffer
// too small for src is replaced by one of the estimated size.
func LexInto(src string, buf []token.Token) *Result {
	return LexFrom(src, 0, buf)
}

// LexFrom is LexInto scanning src[from:] only, as if it were the whole
// text, with positions that are offsets of src: a caller that knows a line
// starts at from (nothing before it carries into it) scans one stretch of a
// large text without copying it. from must lie in [0, len(src)].
func LexFrom(src string, from int, buf []token.Token) *Result {
	return LexFromUntil(src, from, buf, nil)
}

// LexFromUntil is LexFrom that stops, at a line break, soon after done is
// closed (nil: never): the tokens are then those of the text up to there,
// for a caller that no longer wants them.
func LexFromUntil(src string, from int, buf []token.Token, done <-chan struct{}) *Result {
	if n := estimate(src[from:]); cap(buf) < n {
		buf = make([]token.Token, 0, n)
	}
	l := lexer{src: src, toks: buf[:0], done: done, from: from}
	l.run(from)
	return &Result{Tokens: l.toks, Comments: l.comments, Dropped: l.dropped}
}

type lexer struct {
	src      string
	toks     []token.Token
	comments []token.Span
	dropped  []token.Span
	// unknownEnd is where the last run of unknown characters dropped
	// ends (the last span of dropped, while nothing else was dropped);
	// onLine counts the spans dropped on the line so far.
	unknownEnd int
	onLine     int
	from       int             // where the scan starts
	done       <-chan struct{} // closed: stop (LexFromUntil)
	breaks     int             // line breaks so far, when done is set

	// the identifier being accumulated
	idOn     bool
	idStart  int
	idEnd    int
	idSimple bool   // src[idStart:idEnd] is exactly the joined text
	idBuf    []byte // the joined text when not simple
}

func (l *lexer) flush() {
	if !l.idOn {
		return
	}
	text := l.src[l.idStart:l.idEnd]
	if !l.idSimple {
		text = string(l.idBuf)
	}
	l.toks = append(l.toks, token.Token{Kind: token.Identifier, Start: l.idStart, End: l.idEnd, Text: text})
	l.idOn = false
}

// word adds one identifier word [start, end) to the identifier run.
func (l *lexer) word(start, end int) {
	if !l.idOn {
		l.idOn, l.idStart, l.idEnd, l.idSimple = true, start, end, true
		l.idBuf = l.idBuf[:0]
		return
	}
	if l.idSimple && start == l.idEnd+1 && l.src[l.idEnd] == ' ' {
		l.idEnd = end
		return
	}
	if l.idSimple {
		l.idSimple = false
		l.idBuf = append(l.idBuf[:0], l.src[l.idStart:l.idEnd]...)
	}
	l.idBuf = append(l.idBuf, ' ')
	l.idBuf = append(l.idBuf, l.src[start:end]...)
	l.idEnd = end
}

func (l *lexer) emit(k token.Kind, start, end int, text string) {
	if k == token.Eol {
		l.onLine = 0
	}
	l.flush()
	if len(l.toks) == cap(l.toks) {
		l.grow(start)
	}
	l.toks = append(l.toks, token.Token{Kind: k, Start: start, End: end, Text: text})
}

// grow makes room for the tokens of the rest of the text when the
// estimate fell short (text far denser than code, as `1+1+1…`): as many
// again, a token, as the text so far has a byte, and an eighth more;
// doubling would copy and clear a large buffer several times.
func (l *lexer) grow(at int) {
	n := len(l.toks)
	done := max(at-l.from, 1)
	want := n + (n*(len(l.src)-at)/done)*9/8 + 16
	l.toks = append(make([]token.Token, 0, want), l.toks...)
}

// stopped reports, every 1,024 line breaks, whether l.done is closed.
func (l *lexer) stopped() bool {
	if l.breaks++; l.breaks%1024 != 0 {
		return false
	}
	select {
	case <-l.done:
		return true
	default:
		return false
	}
}

func (l *lexer) drop(start, end int) {
	l.dropped = append(l.dropped, token.Span{Start: start, End: end})
	l.onLine++
}

// MaxDroppedOnLine is how many spans of dropped text a line gets before
// the characters WFL does not know that follow on the line, apart from
// the last span by blanks only, join that span: 16 MB of `@ ` made 8
// million spans. (The count is the line's alone, so that a stretch lexed
// again after an edit drops its lines' text as the whole text's lexing
// does.)
const MaxDroppedOnLine = 10

// blanks reports whether s holds only spaces, tabs and form feeds.
func blanks(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != ' ' && c != '\t' && c != '\f' {
			return false
		}
	}
	return true
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isWordByte(c byte) bool {
	return isLetter(c) || isDigit(c) || c == '_'
}

var punct = [256]token.Kind{
	':': token.Colon, ',': token.Comma, '+': token.Plus, '-': token.Minus, '%': token.Percent,
	'.': token.Dot, '=': token.Equals, '[': token.LeftBracket, ']': token.RightBracket,
	'{': token.LeftBrace, '}': token.RightBrace, '(': token.LeftParen, ')': token.RightParen,
}

func (l *lexer) run(from int) {
	src := l.src
	i := from
	for i < len(src) {
		c := src[i]
		switch {
		case c == ' ' || c == '\t' || c == '\f':
			i++
		case c == '\n':
			l.emit(token.Eol, i, i+1, "")
			i++
			if l.done != nil && l.stopped() {
				i = len(src)
			}
		case c == '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				l.emit(token.Eol, i, i+2, "")
				i += 2
			} else {
				l.emit(token.Eol, i, i+1, "")
				i++
			}
		case c == '#' || (c == '/' && i+1 < len(src) && src[i+1] == '/'):
			j := i
			for j < len(src) && src[j] != '\n' && src[j] != '\r' {
				j++
			}
			l.comments = append(l.comments, token.Span{Start: i, End: j})
			i = j
		case c == '/':
			l.emit(token.Slash, i, i+1, "")
			i++
		case isLetter(c):
			j := i + 1
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			w := src[i:j]
			if w == "divided" && j+3 <= len(src) && src[j:j+3] == " by" && (j+3 == len(src) || !isWordByte(src[j+3])) {
				l.emit(token.KeywordDividedBy, i, j+3, "")
				i = j + 3
				continue
			}
			if k := token.Lookup(w); k != token.Identifier {
				l.emit(k, i, j, "")
			} else if b, ok := boolWord(w); ok {
				l.emit(token.BooleanLiteral, i, j, b)
			} else if w == "nothing" || w == "missing" || w == "undefined" {
				l.emit(token.NothingLiteral, i, j, "")
			} else {
				l.word(i, j)
			}
			i = j
		case isDigit(c):
			j := i + 1
			for j < len(src) && isDigit(src[j]) {
				j++
			}
			if j+1 < len(src) && src[j] == '.' && isDigit(src[j+1]) {
				k := j + 1
				for k < len(src) && isDigit(src[k]) {
					k++
				}
				if _, err := strconv.ParseFloat(src[i:k], 64); err == nil {
					l.emit(token.FloatLiteral, i, k, src[i:k])
				} else {
					l.drop(i, k)
				}
				i = k
				continue
			}
			if _, err := strconv.ParseInt(src[i:j], 10, 64); err == nil {
				l.emit(token.IntLiteral, i, j, src[i:j])
			} else {
				l.drop(i, j)
			}
			i = j
		case c == '"':
			i = l.str(i)
		case punct[c] != 0:
			l.emit(punct[c], i, i+1, "")
			i++
		case c == '_' && l.idOn:
			// An underscore while an identifier is being built is glued to
			// it, as in the reference lexer.
			if l.idSimple {
				l.idSimple = false
				l.idBuf = append(l.idBuf[:0], l.src[l.idStart:l.idEnd]...)
			}
			l.idBuf = append(l.idBuf, '_')
			l.idEnd = i + 1
			i++
		default:
			// A run of characters WFL does not know is dropped as one
			// span (a line of `@@@@…` made a finding a byte, 16 MB of
			// them gigabytes), and past MaxDroppedOnLine spans on a line
			// one apart from the last by blanks only joins it too.
			_, size := utf8.DecodeRuneInString(src[i:])
			if n := len(l.dropped); n > 0 && l.unknownEnd == l.dropped[n-1].End &&
				(l.unknownEnd == i || l.onLine >= MaxDroppedOnLine && blanks(src[l.unknownEnd:i])) {
				l.dropped[n-1].End = i + size
			} else {
				l.drop(i, i+size)
			}
			i += size
			l.unknownEnd = i
		}
	}
	l.flush()
}

// boolWord reports whether w is yes/no/true/false in any letter case.
func boolWord(w string) (string, bool) {
	switch len(w) {
	case 2, 3, 4, 5:
	default:
		return "", false
	}
	var b [5]byte
	for i := 0; i < len(w); i++ {
		b[i] = w[i] | 0x20
	}
	switch string(b[:len(w)]) {
	case "yes", "true":
		return "true", true
	case "no", "false":
		return "false", true
	}
	return "", false
}

// str scans a string literal starting at the quote at i and returns the
// offset after it. A literal with an unknown escape is dropped whole; an
// unterminated quote is dropped alone.
func (l *lexer) str(i int) int {
	src := l.src
	j := i + 1
	escapes := false
	for j < len(src) {
		c := src[j]
		if c == '"' {
			break
		}
		if c == '\\' {
			if j+1 >= len(src) || src[j+1] == '\n' {
				// A backslash before a line break or the end matches no
				// string form: the quote alone is an error.
				l.drop(i, i+1)
				return i + 1
			}
			escapes = true
			_, size := utf8.DecodeRuneInString(src[j+1:])
			j += 1 + size
			continue
		}
		j++
	}
	if j >= len(src) {
		l.drop(i, i+1)
		return i + 1
	}
	end := j + 1
	body := src[i+1 : j]
	if !escapes {
		l.emit(token.StringLiteral, i, end, body)
		return end
	}
	val, ok := unescape(body)
	if !ok {
		l.drop(i, end)
		return end
	}
	l.emit(token.StringLiteral, i, end, val)
	return end
}

// escaper writes what unescape reads.
var escaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`, "\r", `\r`, "\x00", `\0`)

// Escape returns s as it is written between the quotes of a string
// literal, its escapes written (\n \t \r \\ \0 \"): what the lexer reads
// back as s.
func Escape(s string) string { return escaper.Replace(s) }

// unescape returns body, a string literal's text between its quotes, with
// its escapes read (\n \t \r \\ \0 \"). An unknown escape fails it, as the
// reference lexer fails the literal.
func unescape(body string) (string, bool) {
	buf := make([]byte, 0, len(body))
	for k := 0; k < len(body); k++ {
		c := body[k]
		if c != '\\' {
			buf = append(buf, c)
			continue
		}
		k++
		switch body[k] {
		case 'n':
			buf = append(buf, '\n')
		case 't':
			buf = append(buf, '\t')
		case 'r':
			buf = append(buf, '\r')
		case '\\':
			buf = append(buf, '\\')
		case '0':
			buf = append(buf, 0)
		case '"':
			buf = append(buf, '"')
		default:
			return "", false
		}
	}
	return string(buf), true
}
