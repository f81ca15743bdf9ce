package core

// This file implements the tolerant diagnostics: what an editor shows
// while a line is being typed (diagState.tolerant), and what it knows of
// the text that does not parse (broken).

import (
	"cmp"
	"iter"
	"maps"
	"slices"
	"strings"
	"unicode"

	"wfl-lsp/lang/builtins"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

// tolerant yields the units' findings as an editor shows them while a
// line is being typed: the parse findings as all gives them, and the
// analyzer's and type checker's findings of the statements that parse (the
// reference drops them all when one statement does not), and the type
// findings of statements without semantic errors. Left out, as findings
// the broken text may make false:
//   - those of a top-level statement that does not parse (of a stray
//     `end` on a line after a statement that parsed, only the line's:
//     strayFrom), of lines
//     floating as statements of their own (indented, or starting with
//     `end`, `otherwise`, `catch`, …), of the lines a broken block held up
//     to its closer read as a stray `end` (findHeld), and of the lines
//     after a string that spans lines (a quote being typed pairs with the
//     next line's), and there the characters the lexer drops and the
//     lint of the tokens too, but the lines' lengths: the text from there
//     is lexed otherwise (`Container` inside a string read as a
//     capitalised keyword);
//   - a statement's type findings while it has a semantic error shown, or
//     names a name a semantic error names (shown, or hidden and not about
//     a name not declared: `change` of a constant) or a statement with
//     one declares
//     (the reference holds back the whole file's while it has one semantic
//     error; tolerant only those that may follow from it, even when the
//     text parses), or, while the text is broken, a name whose type the
//     broken text may give otherwise (broken.misread), or reads as a value
//     a builtin a variable it may be declaring would shadow
//     (broken.shadowed), or any builtin below a declaration whose name is
//     not typed at all (`store` alone, broken.nameless);
//   - those of a top-level statement holding a block's header being
//     typed (its closer missing, its colon not typed yet: `check if p`),
//     as of one that does not parse (typingHeaders), and the lint of the
//     tree meanwhile (the text's instead), as while a statement is broken,
//     and while a closer is typed where one is missing (closerTyped), but
//     of the units the broken text does not reach (cleanUnits);
//   - the static pass's (unused variables, unreachable code), which are
//     about the whole file: they wait until it parses, but those of the
//     units the broken text does not reach that are not about a name the
//     broken statements name (about);
//   - those about a name (their ProgramNames) that the broken statements
//     name, or that a statement declares on its first line from one of
//     those (of redeclarations, which no value makes false, only those of
//     names the lines floating out of a broken block declare); that the
//     word being typed at the end of a broken line starts;
//     that is alone on its line and starts a statement's keyword (`tr` of
//     `try:`); or that no statement declares, when an earlier broken line
//     may declare a name it does not yet spell (`store`, `create new P
//     as`, an include) and the finding says the name is not declared
//     (Kind.Undeclared) or a word alone on its line starts a declaring
//     keyword (`cr`), and those about a name stored from such a name
//     or from one the word being typed starts (`store f as sum_two`). A
//     line starting with a literal (a map's entry) declares nothing.
//
// TestTolerantAddsNothingFalse holds it to that on the corpus. Sorted as
// all.
func (s *diagState) tolerant() iter.Seq[diag.Diagnostic] { return s.diagnosticsOf(s.tolerantRefs()) }

// tolerantRefs yields the findings tolerant yields, in its order.
func (s *diagState) tolerantRefs() iter.Seq[ref] {
	return func(yield func(ref) bool) {
		b := s.brokenText()
		if b == nil && !s.gated() {
			for r := range s.allRefs() {
				if !yield(r) {
					return
				}
			}
			return
		}
		// Without a broken statement the tree is whole (a block whose
		// closer is missing is closed where the indentation ends it), and
		// its findings are shown as if it parsed, with the closers', but
		// for those about a word being typed.
		parses := b == nil || b.whole
		// The linter's rules that read the tree wait while a block's
		// header is typed, as for a broken statement: what the block
		// holds is a guess (the lines below read as its body are
		// judged indented wrongly).
		treeLint := parses && (b == nil || len(b.headers) == 0 && !b.closerTyped)
		// Outside the units the broken text reaches, the tree is the one
		// the text will have once it parses: the tree's lint and the
		// static pass's findings stay there (cleanUnits).
		cleanBefore, cleanAfter := 0, len(s.units)
		if b != nil {
			cleanBefore, cleanAfter = s.cleanUnits(b)
		}
		semErr, held := false, false
		for _, i := range s.withFindings() {
			semErr = semErr || s.units[i].d.semErr
			held = held || s.units[i].d.staticHeld
		}
		// First which findings are shown, but for the type findings of the
		// units a semantic error reaches (known once every unit is seen);
		// then the list, in the units' order, which is the canonical one
		// unless a parse error lies past its unit (then it is sorted).
		shown := make([]bool, s.count())
		unitErr := make([]bool, len(s.units))
		named := map[string]bool{} // the names the semantic errors shown name
		bad := map[uint32]bool{}   // those, and what the units with such errors declare
		sorted := true
		var last finding // the last finding shown, and its unit's start
		lastAt := -1
		k := 0
		for _, j := range s.withFindings() {
			i, u := int(j), s.units[j]
			at := s.starts[i]
			// A unit holding a block's header being typed is read as if
			// that line did not parse (typingHeaders).
			whole := !parses && (u.d.broken() || b.held[i] || s.indented(i)) || b != nil && b.headers[i]
			from := 0 // where in the unit what it holds is left out
			if whole && !parses && !b.held[i] && !s.indented(i) && !b.headers[i] {
				from = b.stray[i] // (0 when none: strayFrom)
			}
			clean := i < cleanBefore || i >= cleanAfter
			for _, x := range u.d.list {
				whole := whole && x.Span.Start >= from
				var keep bool
				switch x.from {
				case fromParse:
					keep = parses || x.Span.Start+at >= b.first
				case fromDropped:
					keep = parses || !b.afterQuote(x.Span.Start+at)
				case fromLintTok:
					// A line's length is the text's, however it is lexed.
					keep = !treeLint && !clean && (x.Code == diag.LintLength || !b.afterQuote(x.Span.Start+at))
				case fromLintTree:
					keep = treeLint || clean
				case fromStatic:
					// (Below the broken text, what is unreachable depends
					// on what it returns from.)
					keep = !semErr && !held && (parses || (i < cleanBefore || clean && x.Kind == diag.Unused) && !b.about(s, x.Diagnostic, x.Span.Start+at))
				case fromAnalyzer, fromType, fromRetold:
					keep = b == nil || !whole && !b.about(s, x.Diagnostic, x.Span.Start+at) &&
						!b.afterQuote(x.Span.Start+at)
				}
				shown[k] = keep
				k++
				// A semantic error holds back the type findings about its
				// names, also while the broken text hides it, unless it
				// says a name is not declared (which a declaration being
				// typed may make false): `change` of a constant stays one.
				if (x.from == fromAnalyzer || x.from == fromStatic) && x.Severity == diag.Error && (keep || !x.Kind.Undeclared()) {
					unitErr[i] = unitErr[i] || keep
					for _, n := range x.ProgramNames() {
						named[n] = true
					}
				}
				if !keep {
					continue
				}
				if lastAt >= 0 && compareAt(last.Diagnostic, lastAt, x.Diagnostic, at) > 0 {
					sorted = false
				}
				last, lastAt = x, at
			}
			if unitErr[i] {
				// A unit's type findings wait for its semantic errors
				// to be fixed (the reference's: the whole file's), and
				// so do those of the units that use what it declares.
				for _, k := range u.keys() {
					bad[k] = true
				}
			}
		}
		for n := range named {
			bad[nameHash(n)] = true
		}
		emit := yield
		var gathered []ref
		if !sorted {
			emit = func(r ref) bool { gathered = append(gathered, r); return true }
		}
		k = 0
		for _, i := range s.withFindings() {
			u := s.units[i]
			typed := -1 // whether its type findings are shown, once known
			for j, x := range u.d.list {
				keep := shown[k]
				k++
				if keep && (x.from == fromType || x.from == fromRetold) {
					if typed < 0 {
						// Not those of units that name a name a semantic
						// error names (a refused redeclaration, an
						// undefined name), or one a unit with a semantic
						// error declares.
						// Nor, while the text is broken, those of units
						// that name a name whose type the broken text may
						// give otherwise, or read as a value a builtin a
						// variable it may be declaring would shadow
						// (findMisread).
						// A declaration whose name is not typed at all
						// (`store` alone) may be shadowing any builtin:
						// what a later statement reads as one waits too
						// (broken.nameless).
						typed = 0
						if !unitErr[i] && !slices.ContainsFunc(u.names(), func(h uint32) bool { return bad[h] || !parses && b.misread[h] }) &&
							(parses || !slices.ContainsFunc(u.facts().values, func(h uint32) bool { return b.shadowed[h] })) &&
							(parses || b.nameless < 0 || b.nameless >= s.starts[i] || len(u.facts().values) == 0) {
							typed = 1
						}
					}
					// A retold warning shows while its type finding waits.
					keep = typed == 1 == (x.from == fromType)
				}
				if keep && !emit(ref{int32(i), int32(j)}) {
					return
				}
			}
		}
		if !sorted {
			s.sortRefs(gathered)
			for _, r := range gathered {
				if !yield(r) {
					return
				}
			}
		}
	}
}

// compareAt is compareDiagnostics of x and y, their spans relative to
// offsets atX and atY.
func compareAt(x diag.Diagnostic, atX int, y diag.Diagnostic, atY int) int {
	// The places first, and the rest only when they tie (cmp.Or would
	// compare the messages of every pair).
	if c := cmp.Compare(x.Span.Start+atX, y.Span.Start+atY); c != 0 {
		return c
	}
	if c := cmp.Compare(x.Span.End+atX, y.Span.End+atY); c != 0 {
		return c
	}
	if c := cmp.Or(
		cmp.Compare(x.Severity, y.Severity),
		cmp.Compare(x.Code, y.Code),
		cmp.Compare(x.Message, y.Message),
		cmp.Compare(len(x.Related), len(y.Related)),
	); c != 0 || len(x.Related) == 0 {
		return c
	}
	// Two blocks without their closer at the end of the file: by the
	// blocks' places.
	return cmp.Compare(x.Related[0].Span.Start+atX, y.Related[0].Span.Start+atY)
}

// strayFrom returns where, in unit i, the line of its first parse error
// starts when that error is a stray `end` at the start of a line after the
// unit's first, and the first the text raises (at offset first): the
// statement before it, which the unit holds too, parsed whole (`store
// list1 as create list` above `end add "a" to list1`), and what it says
// and declares is read. Else -1. (After an earlier error, that statement
// may be a line of a broken block read on its own.)
func (s *diagState) strayFrom(i, first int) int {
	u := s.units[i]
	if !u.d.broken() {
		return -1
	}
	x, at := u.d.list[u.d.firstParse], s.starts[i]
	if x.Code != diag.ParseStrayEnd || at+x.Span.Start != first || first >= len(s.text) {
		return -1
	}
	l := s.lines.Line(at + x.Span.Start)
	if l == s.lines.Line(at) || s.lines.LineStart(l) != at+x.Span.Start {
		return -1
	}
	// Nor when it names a block (`end on`): it is that block's closer,
	// whose header above is broken (`on websocket connect …:` cut to
	// `o`), and the lines before it were the block's.
	if ws := codeWords(s.lineText(l)); len(ws) > 1 && slices.Contains(blockWords, ws[1]) {
		return -1
	}
	// Nor when the parse found anything before it, even what it drops:
	// a block ended there by the layout (`end test` typed `end`) leaves
	// its lines as statements of their own.
	for _, j := range s.withFindings() {
		if int(j) > i {
			break
		}
		for _, y := range s.units[j].d.list {
			if (y.from == fromParse || y.from == fromDropped) && s.starts[j]+y.Span.Start < first {
				return -1
			}
		}
	}
	return x.Span.Start
}

// gated reports whether all holds back findings because of a semantic or
// static error: the type checker's.
func (s *diagState) gated() bool {
	held := s.staticHeld()
	for _, i := range s.withFindings() {
		if d := s.units[i].d; d.semErr || d.staticErr && !held {
			return true
		}
	}
	return false
}

// afterQuote reports whether the text at off is lexed otherwise than meant:
// it is past the line where a quote being typed pairs with a later one.
func (b *broken) afterQuote(off int) bool { return b.quoteFrom >= 0 && off >= b.quoteFrom }

// broken is what tolerant knows of the text that does not parse.
type broken struct {
	first     int             // offset of the first parse error raised (as all keeps them)
	lines     map[int]bool    // the lines with a parse error, each read once
	words     map[string]bool // the words of the broken units
	tainted   map[uint32]bool // the hashes of those words and of the names declared from them
	floated   map[uint32]bool // the hashes of the names the lines floating as statements of their own declare (taint, findHeld)
	typing    []string        // the last word of each broken line, when a name (typeAt)
	anonymous int             // the start of the first broken line that may declare something whose name cannot be read, or -1
	nameless  int             // the start of the first broken line of a declaration whose name is not typed at all (`store`, `open file at "f" as`), or -1
	declared  map[string]bool // declares' answers so far
	declaring []string        // the words being typed at the end of broken declarations' lines
	misread   map[uint32]bool // names whose types the broken text may be giving otherwise (findMisread)
	shadowed  map[uint32]bool // builtins a variable the broken text may be declaring would shadow: read as values, their types may be other (findMisread)
	held      map[int]bool    // units a broken block most likely held, up to its closer read as a stray `end` (findHeld)
	headers   map[int]bool    // units holding a block's header being typed (typingHeaders): their findings wait
	// closerTyped is set when a closer is being typed where the parser
	// expected one (`en` of `end describe`, alone on its line): which
	// block it will close, and so how the lines around are indented, is
	// not known yet (typingHeaders).
	closerTyped bool
	stray       map[int]int // of units broken by a stray `end` after a statement that parsed, where the stray line starts in them (strayFrom)
	quoteFrom   int         // the start of the line where the first string spanning lines starts, or -1: the rest of the text is lexed otherwise
	// whole is set when no statement is broken: the parse errors are
	// about blocks' closers (diag.Kind.Recovered), and the tree is whole.
	whole bool
	// closing holds the words after `end` of the closers missing
	// (`transaction` of `end transaction`): alone on a line, such a word
	// is the closer whose `end` is not typed yet, not a name.
	closing map[string]bool
}

// cleanUnits returns the units the broken text b leaves read as they
// will be once the text parses: those before the first unit b may read
// otherwise (before), and those from after on, past the last. A unit may
// be read otherwise when it holds a parse finding, a block's header being
// typed or lines held by a broken block, when it floats as a statement of
// its own (indented: a broken block's lines, or a statement's
// continuation lines below a line typed at their left), and from a string
// that spans lines on. Below a header being typed or a closer typed where
// one is missing (its body, as the layout reads it) and below such a
// string, none is (after is len(s.units)).
func (s *diagState) cleanUnits(b *broken) (before, after int) {
	before, after = len(s.units), 0
	dirty := func(i int) {
		before, after = min(before, i), max(after, i+1)
	}
	// (Only the units that may be: a keystroke's list visits no other.)
	for _, i := range s.withFindings() {
		if s.units[i].d.firstParse >= 0 {
			dirty(int(i))
		}
	}
	for i := range b.held {
		dirty(i)
	}
	for i := range b.headers {
		dirty(i)
	}
	if len(s.units) > 0 && s.indented(0) {
		dirty(0)
	}
	for _, i := range s.indents {
		dirty(int(i))
	}
	if b.quoteFrom >= 0 {
		dirty(unitAt(s.starts, b.quoteFrom))
	}
	if after == 0 || len(b.headers) > 0 || b.closerTyped || b.quoteFrom >= 0 {
		after = len(s.units)
	}
	return before, after
}

// brokenText gathers it, or returns nil when the text parses.
func (s *diagState) brokenText() *broken {
	var b *broken
	for _, j := range s.withFindings() {
		i, u := int(j), s.units[j]
		if !u.d.broken() {
			continue
		}
		if b == nil {
			b = &broken{first: s.firstParseError(),
				lines: map[int]bool{}, words: map[string]bool{}, quoteFrom: -1, anonymous: -1, nameless: -1}
		}
		// Every word of a broken unit: the names it declares are
		// unread while it is broken, and the later uses of them are
		// not the user's mistake. Of a unit broken by a stray `end` at
		// the start of a later line, the words from that line: the
		// statement before it, which its unit holds, parsed whole
		// (`store list1 as create list` above `end add "a" to list1`).
		if at := s.strayFrom(i, b.first); at > 0 {
			if b.stray == nil {
				b.stray = map[int]int{}
			}
			b.stray[i] = at
		}
		for _, w := range codeWords(s.text[s.starts[i]+b.stray[i] : s.end(i)]) {
			b.words[w] = true
		}
		for _, x := range u.d.list {
			if x.from != fromParse {
				continue
			}
			l := s.lines.Line(min(x.Span.Start+s.starts[i], len(s.text)))
			if b.lines[l] {
				continue
			}
			b.lines[l] = true
			text := s.lineText(l)
			// Its words, those its quotes hold too: a quote typed before a
			// statement turns the statement into a string (`" store x as
			// "…`), and the names it declares are unread.
			for _, w := range strings.FieldsFunc(text, notWordRune) {
				b.words[w] = true
			}
			ws := codeWords(text)
			if len(ws) > 0 {
				b.typeAt(ws)
				if x.Code == diag.ParsePattern && !(len(ws) > 1 && ws[0] == "create" && ws[1] == "pattern") {
					continue // a pattern's body, which declares nothing
				}
				if w := ws[len(ws)-1]; len(ws) > 1 && startsDeclaration(ws) && (token.Lookup(w) == token.Identifier || mayDeclareUnread(ws) && token.Lookup(w).IsKeyword()) {
					b.declaring = append(b.declaring, ws[len(ws)-1])
				}
				if (!leadsWithValue(text) && (mayDeclareUnread(ws) || injects(ws)) || strings.Contains(text, ".wfl\"")) && (b.anonymous < 0 || s.lines.LineStart(l) < b.anonymous) {
					b.anonymous = s.lines.LineStart(l)
				}
				if mayDeclareUnread(ws) && token.Lookup(ws[len(ws)-1]).IsKeyword() && (b.nameless < 0 || s.lines.LineStart(l) < b.nameless) {
					b.nameless = s.lines.LineStart(l)
				}
			}
		}
		// A statement of several lines broken on a later one (`open url
		// at …` whose `and read response as resp` is being typed) is
		// judged by its words up to the first error; not a block's header
		// (`try:`), whose body declares for itself.
		at := s.starts[i]
		head := strings.TrimRight(s.text[at:s.lines.LineEnd(s.lines.Line(at))], " \t\r")
		if el := s.lines.Line(min(at+u.d.list[u.d.firstParse].Span.Start, len(s.text))); el > s.lines.Line(at) && !strings.HasSuffix(head, ":") {
			to := s.lines.LineEnd(el)
			if ws := codeWords(s.text[at:to]); (mayDeclareUnread(ws) || injects(ws)) && (b.anonymous < 0 || at < b.anonymous) {
				b.anonymous = at
			}
		}
	}
	if b != nil {
		b.closing = s.closingWords()
		// A word alone on its line that starts a declaring keyword (`cr`
		// of `create interface Drawable:`) is a declaration being typed,
		// whose name cannot be read yet.
		for _, j := range s.withFindings() {
			at := s.starts[j]
			if w := strings.TrimSpace(s.text[at:s.end(int(j))]); w != "" && !strings.ContainsAny(w, " \t\r\n") &&
				startsDeclaration([]string{w}) && (b.anonymous < 0 || at < b.anonymous) {
				b.anonymous = at
			}
		}
	}
	if b == nil {
		first := s.firstParseError()
		if first < 0 {
			return nil
		}
		// Only blocks without their closer, which the parser closed where
		// the indentation ends them: the tree is whole, but for a string
		// that spans lines (a quote being typed pairs with the next
		// line's, and so on), a word being typed alone on its line (`e`
		// of `end check`), and such a block's header without its colon
		// yet, which is being typed (`p` of `check if p`, on the way to
		// `check if points is 3:`).
		b = &broken{first: first, lines: map[int]bool{}, words: map[string]bool{}, anonymous: -1, nameless: -1, closing: s.closingWords()}
		if s.quoteFrom() < 0 {
			b.typingHeaders(s)
			b.whole = true
			b.quoteFrom = -1
			return b
		}
	}
	if b != nil {
		b.typingHeaders(s)
		b.findMisread(s)
		b.findHeaders(s)
		b.taint(s)
		b.held = map[int]bool{}
		b.findHeld(s)
		for i := range b.held {
			for _, k := range s.units[i].keys() {
				b.floated[k] = true
			}
		}
		b.quoteFrom = s.quoteFrom()
		if b.quoteFrom >= 0 {
			b.quoteFrom = s.lines.LineStart(s.lines.Line(b.quoteFrom))
		}
	}
	return b
}

// typingHeaders notes the header line of each block whose closer is
// missing (or another block's took its place: Kind.Recovered) and whose
// header line does not end with its colon, or of a block inside it (by
// the parser's layout) that took its closer so (`route c` typed above the `end
// route` of a route inside a count loop: the count loop's is then
// missing), and its last word: a header
// being typed (typeAt), whose statement's findings wait as a broken
// statement's do (`check if substring of c`: no arity error yet; `action
// area: Numb` in a container: not yet another result than its interface's;
// `count from 1 to 9` above lines that hold a count loop: not yet nested
// loops), and so do the findings about the names it names, as about a
// broken line's (`action add_task needs task: Ta`: not yet a method whose
// argument must be a Ta). The finding says where the header is
// (Related[0]), or stands on it (the reference's, at a header the end of
// the text stops). A line where the finding stands that holds only the
// start of `end` is a closer being typed (closerTyped). A container's
// method with its result type is whole without a colon at its end, and is
// taken for one being typed only where nothing says otherwise
// (methodWithResult): not with a body below it, nor where the finding
// stands on its first word (the member after a method left open).
func (b *broken) typingHeaders(s *diagState) {
	// The lines of a block's body looked at already: what a line says does
	// not depend on the block, and blocks left open one inside another
	// each span the rest of the text (2,000 of them took 4.7 s, a line
	// indented by its depth trimmed once a block around it).
	var scanned []bool
	for _, i := range s.withFindings() {
		for _, x := range s.units[i].d.list {
			if x.from != fromParse && x.from != fromDropped || !x.Kind.Recovered() {
				continue
			}
			line := func(a int) int { return s.lines.Line(max(0, min(s.starts[i]+a, len(s.text)))) }
			at := line(x.Span.Start)
			off := min(s.starts[i]+x.Span.Start, len(s.text))
			if !(methodWithResult(s, at) && strings.TrimLeft(s.text[s.lines.LineStart(at):off], " \t") == "") {
				// (A method the finding stands on the first word of is the
				// member after one whose closer is missing, where the
				// reference fails to read that one's body on.)
				b.typingHeader(s, at)
			}
			if w := strings.TrimSpace(s.lineText(at)); w != "" && w != "end" && strings.HasPrefix("end", w) {
				b.closerTyped = true // `en` where a closer is expected
			}
			if len(x.Related) == 0 {
				continue
			}
			// The block's header, and the lines the parser's layout gives
			// it (up to where its closer goes, Related[1], or the closer
			// that took its place): a header typed inside the block takes
			// the closer below as its own (`route c` typed above an `end
			// route`), leaving the block around it open.
			h, last := line(x.Related[0].Span.Start), at
			if len(x.Related) > 1 {
				last = line(x.Related[1].Span.Start)
			}
			if !(methodWithResult(s, h) && last > h) {
				// (A method with a body below its header is whole.)
				b.typingHeader(s, h)
			}
			if scanned == nil {
				scanned = make([]bool, s.lines.Count()+1)
			}
			for l := h + 1; l < last; l++ {
				if scanned[l] {
					continue
				}
				scanned[l] = true
				code := strings.TrimSpace(s.lineText(l))
				if first, _, _ := strings.Cut(code, " "); slices.Contains(blockOnlyWords, first) && !strings.Contains(code, ":") {
					b.typingHeader(s, l) // (not `action area: Number`, whole without a colon at its end)
				}
			}
		}
	}
}

// methodWithResult reports whether line l is the header of a container's
// method with its result type (`action area: Number`), which is whole
// without a colon at its end: a header being typed (`action area: Numb`
// at the end of the text) looks the same, so the callers ask more of it.
func methodWithResult(s *diagState, l int) bool {
	code := strings.TrimSpace(s.lineText(l))
	ws := codeWords(code)
	return len(ws) > 0 && ws[0] == "action" && !slices.Contains(ws, "needs") && strings.Contains(code, ":")
}

// lineText returns the text of line l, without its line break.
func (s *diagState) lineText(l int) string {
	return s.text[s.lines.LineStart(l):s.lines.LineEnd(l)]
}

// blockOnlyWords start only blocks' headers: a line inside a block that
// starts with one and holds no colon is a header being typed (not `wait
// for 1 seconds` or `open file at p as f`, statements of a line).
var blockOnlyWords = []string{"check", "for", "count", "repeat", "define", "try", "describe", "test", "while", "route"}

// typingHeader notes line l as a block's header being typed if it is one
// without its colon (typingHeaders).
func (b *broken) typingHeader(s *diagState, l int) {
	head := strings.TrimRight(s.lineText(l), " \t\r")
	if strings.HasSuffix(head, ":") {
		return // (first: most lines asked about are headers with their colon)
	}
	ws := codeWords(head)
	if len(ws) == 0 || !slices.Contains(headerWords, ws[0]) {
		return
	}
	b.typeAt(ws)
	for _, w := range ws {
		b.words[w] = true // what it declares is unread, as a broken line's
	}
	if b.headers == nil {
		b.headers = map[int]bool{}
	}
	b.headers[unitAt(s.starts, s.lines.LineStart(l))] = true
}

// blockWords name the blocks in their closers (`end check`).
var blockWords = []string{"action", "check", "for", "count", "repeat", "while", "try", "describe", "test", "on",
	"route", "transaction", "list", "map", "container", "interface", "pattern", "loop", "if", "when", "otherwise", "each"}

// headerWords start the headers of blocks.
var headerWords = []string{"check", "for", "count", "repeat", "define", "create", "try", "describe", "test",
	"action", "while", "otherwise", "when", "catch", "in", "listen", "wait", "open", "route"}

// typeAt notes the last word of a broken line, in words ws, as a name
// being typed: not a keyword, which the line reads as that keyword (`with`
// of `return 1 with` is not the start of `with_reader`), unless the line is
// a declaration that cannot read its name (`url` of `create pattern url`
// may be the start of `url2`).
func (b *broken) typeAt(ws []string) {
	if w := ws[len(ws)-1]; token.Lookup(w) == token.Identifier || mayDeclareUnread(ws) {
		b.typing = append(b.typing, w)
	}
}

// closingWords returns the words after `end` of the closers the parse
// errors say are missing (diag.Unclosed).
func (s *diagState) closingWords() map[string]bool {
	words := map[string]bool{}
	for _, i := range s.withFindings() {
		for _, x := range s.units[i].d.list {
			if x.from == fromParse && x.Kind == diag.Unclosed && len(x.Names) > 0 {
				if w := strings.Fields(x.Names[0]); len(w) == 2 {
					words[w[1]] = true
				}
			}
		}
	}
	return words
}

// findHeaders gathers the words of the statements before lines floating
// as statements of their own: most likely their block's header, broken
// into something else (`pattern p:` with `create` deleted), whose names
// are unread.
func (b *broken) findHeaders(s *diagState) {
	// Before an indented unit, or a broken one that starts with a word only
	// a container's or an interface's body holds (`requires`, `property`:
	// the header is the unit before it wherever the layout puts them).
	type cand struct {
		next   int32
		member bool
	}
	before := make([]cand, 0, len(s.indents))
	for _, j := range s.indents {
		before = append(before, cand{next: j})
	}
	for _, j := range s.withFindings() {
		if rest := strings.TrimLeft(s.text[s.starts[j]:], " \t"); j > 0 && s.units[j].d.broken() && (startsWord(rest, "requires") || startsWord(rest, "property")) {
			before = append(before, cand{next: j, member: true})
		}
	}
	for _, c := range before {
		i := int(c.next) - 1
		// Not one indented itself, but for a header's shape (`list
		// scores:` with `create` deleted, in a program laid out as its
		// blocks are not).
		if s.units[i].d.broken() || !c.member && s.indented(i) && !strings.HasSuffix(strings.TrimRight(s.text[s.starts[i]:s.lines.LineEnd(s.lines.Line(s.starts[i]))], " \t\r"), ":") {
			continue
		}
		ws := codeWords(s.text[s.starts[i]:s.end(i)])
		for _, w := range ws {
			b.words[w] = true
		}
		if len(ws) > 0 {
			b.typeAt(ws)
		}
		if mayDeclareUnread(ws) && (b.anonymous < 0 || s.starts[i] < b.anonymous) {
			b.anonymous = s.starts[i]
		}
	}
}

// taint gathers the names that are unread while the text is broken: the
// broken statements' words, what floating lines declare, and the names a
// statement declares on its first line from one of those (`store f as g`,
// `create container C extends P:`, `for each x in xs:` while g's, P's or
// xs's declaration is broken), and so on. (Not those of a block whose body
// uses one.)
func (b *broken) taint(s *diagState) {
	b.tainted, b.floated = map[uint32]bool{}, map[uint32]bool{}
	for w := range b.words {
		if token.Lookup(w) == token.Identifier {
			b.tainted[nameHash(w)] = true
		}
	}
	for _, j := range s.withFindings() {
		i, u := int(j), s.units[j]
		if u.d.broken() || len(u.keys()) == 0 {
			continue
		}
		sh := s.shape(i)
		if sh&shapeIndented != 0 {
			// A block's body read as statements of their own: what it
			// declares is not meant for the file.
			for _, k := range u.keys() {
				b.tainted[k], b.floated[k] = true, true
			}
			continue
		}
		if sh&shapeHeadKey == 0 {
			continue // its first line declares none of its names
		}
		head := s.text[s.starts[i]:s.end(i)]
		if nl := strings.IndexByte(head, '\n'); nl >= 0 {
			head = head[:nl]
		}
		// A name the unit's own findings say is undefined, that no
		// statement declares, after a broken line that may declare what
		// it cannot spell yet (about excuses it), stored as it is: what
		// holds it is unread as well (`store f as sum_two` while
		// sum_two's `define action` line is broken; f may hold an action).
		// So too a name that starts with a word being typed at the end of
		// a broken line (`store f as sum_two` while `define action called
		// sum_tw` is typed).
		alias := ""
		if ws := codeWords(head); len(ws) >= 2 && ws[len(ws)-2] == "as" && token.Lookup(ws[len(ws)-1]) == token.Identifier {
			a := ws[len(ws)-1]
			if (b.anonymous >= 0 && b.anonymous < s.starts[i] || b.typedFrom(a)) && b.excused(s, u, a) {
				alias = a
			}
		}
		if !anyWord(head, func(w string) bool { return b.tainted[nameHash(w)] || w == alias }) {
			continue
		}
		anyWord(head, func(w string) bool {
			if h := nameHash(w); slices.Contains(u.keys(), h) {
				b.tainted[h] = true
			}
			return false
		})
	}
}

// findMisread gathers the names whose types the broken text may be giving
// otherwise, so that the type findings of the statements naming them wait:
// the builtins' names among its words (`store timestamp store as …`
// broken: a later timestamp reads the builtin) and those a name being
// typed in a declaration may become (`store timestam`), where a statement
// reads them as values (shadowed: a call of one would read a variable of
// its name as no action, a semantic error, not another type), and what
// the statements broken on their first line declare (from half a value:
// `store xs as 2, 3]`), but for a name declared whole on either side of
// the break (wholeOnLine) or by a statement that parses before the broken
// one on its line, nothing following the break (`store n as 1` of `store
// n as 1 store`, topFacts.parsedTo).
func (b *broken) findMisread(s *diagState) {
	b.misread = map[uint32]bool{}
	b.shadowed = map[uint32]bool{}
	for w := range b.words {
		if builtins.IsBuiltin(w) && token.Lookup(w) == token.Identifier {
			b.shadowed[nameHash(w)] = true
		}
	}
	if len(b.declaring) > 0 {
		for _, bi := range builtins.All() {
			for _, t := range b.declaring {
				if len(bi.Name) > len(t) && strings.HasPrefix(bi.Name, t) && token.Lookup(bi.Name) == token.Identifier {
					b.shadowed[nameHash(bi.Name)] = true
				}
			}
		}
	}
	from := len(s.units) // the first unit after one that declares a name misread
	for _, j := range s.withFindings() {
		u, at := s.units[j], s.starts[j]
		if !u.d.broken() || s.lines.Line(at+u.d.list[u.d.firstParse].Span.Start) != s.lines.Line(at) {
			continue
		}
		line := s.lines.Line(at)
		head := s.text[at:s.lines.LineEnd(line)]
		first, last := len(head), 0
		for _, x := range u.d.list {
			if x.from == fromParse && s.lines.Line(at+x.Span.Start) == line {
				first, last = min(first, x.Span.Start), max(last, x.Span.End)
			}
		}
		// The statements that parse before the broken one, when nothing
		// follows its errors on the line: the break is past their values
		// (`store n as 1 store`), not inside one, whose rest would follow
		// (`store xs as 2, 3]`, `store d as parse_json ( of text`) or
		// whose start is gone (`store xs as 2]`).
		parsed := 0
		if brk := strings.TrimSpace(head[min(first, len(head)):]); strings.TrimSpace(head[min(last, len(head)):]) == "" && !strings.HasPrefix(brk, "]") && !strings.HasPrefix(brk, ")") {
			parsed = min(u.facts().parsedTo, len(head))
		}
		for _, k := range u.keys() {
			is := func(w string) bool { return nameHash(w) == k }
			if parsed > 0 && anyWord(head[:parsed], is) && !anyWord(head[parsed:], is) {
				continue // declared by a statement that parses
			}
			if !wholeOnLine(head, first, last, k) {
				b.misread[k] = true
				from = min(from, int(j)+1)
			}
		}
	}
	if len(b.misread) == 0 {
		return
	}
	// What a statement stores from such a name is misread too (`store f
	// as sum_two` while sum_two's header is broken: f holds the action),
	// and so on down the text. (A pass over the units that declare on
	// their first line, comparing their names with the few misread.)
	misread := slices.Collect(maps.Keys(b.misread))
	for i := from; i < len(s.units); i++ {
		u := s.units[i]
		if s.shape(i)&shapeHeadKey == 0 || u.d.broken() || !slices.ContainsFunc(u.names(), func(h uint32) bool { return slices.Contains(misread, h) }) {
			continue
		}
		head := s.text[s.starts[i]:s.lines.LineEnd(s.lines.Line(s.starts[i]))]
		if ws := codeWords(head); len(ws) >= 2 && ws[len(ws)-2] == "as" && b.misread[nameHash(ws[len(ws)-1])] {
			for _, k := range u.keys() {
				if anyWord(head, func(w string) bool { return nameHash(w) == k }) && !b.misread[k] {
					b.misread[k] = true
					misread = append(misread, k)
				}
			}
		}
	}
}

// wholeOnLine reports whether the name of hash k, declared on the line
// head broken from offset first (where its first parse error starts) to
// offset last (where its last one ends), is declared by text the break
// leaves whole: it is named only after the last error (`is store outer_i
// as 1`: a word inserted before a declaration), or before the first error,
// first right after `as`: a declaration that names what it declares after
// its value (`listen on port 8080 as site`, `wait for request comes in on
// site as req`, `create new Box as b`), its type whatever follows.
func wholeOnLine(head string, first, last int, k uint32) bool {
	is := func(w string) bool { return nameHash(w) == k }
	if last = min(last, len(head)); !anyWord(head[:last], is) {
		return anyWord(head[last:], is)
	}
	ws := codeWords(head[:min(first, len(head))])
	i := slices.IndexFunc(ws, is)
	return i >= 1 && ws[i-1] == "as"
}

// findHeld marks the units a broken block most likely held: a block broken
// at its header or in its body ends at the error, and its other lines are
// read as statements of the top level, up to its closer, which the parser
// consumes as a stray `end` without a finding (parser.Unit.Stray). The
// lines after that closer are read as meant. Those lines are the ones
// indented after the broken statement, and one more statement that is not
// (`height is 5` in a `create new` whose first line is broken).
func (b *broken) findHeld(s *diagState) {
	for _, j := range s.withFindings() {
		k := int(j)
		if !s.units[k].d.broken() {
			// A block closed by the indentation whose body, read as the
			// reference reads it, ran into a broken statement: the lines
			// between may be its body misindented (`send … to connection`
			// at the first column in a handler whose `end on` is being
			// typed), read as statements of the top level.
			if ahead := s.units[k].facts().ahead; ahead > 0 {
				for i := k + 1; i < len(s.units) && s.starts[i] < s.starts[k]+ahead; i++ {
					if s.units[i].d.broken() {
						for h := k + 1; h < i; h++ {
							b.held[h] = true
						}
						break
					}
				}
			}
			continue
		}
		unindented := false // one statement not indented is taken
		for i := k; i < len(s.units); i++ {
			if i > k && !s.indented(i) {
				if unindented {
					break
				}
				unindented = true
			}
			if s.units[i].facts().stray {
				for h := k + 1; h <= i; h++ {
					b.held[h] = true
				}
				break
			}
		}
	}
}

// codeWords returns the words of text outside string literals and
// comments (a line's quotes pair within it; one left open ends the words).
func codeWords(text string) []string {
	var ws []string
	anyWord(text, func(w string) bool {
		ws = append(ws, w)
		return false
	})
	return ws
}

// anyWord reports whether one of the words of text codeWords returns
// satisfies f, without making the list.
func anyWord(text string, f func(string) bool) bool {
	start := -1
	found := false
	flush := func(i int) {
		if start >= 0 {
			found = found || f(text[start:i])
			start = -1
		}
	}
	for i := 0; i < len(text) && !found; i++ {
		c := text[i]
		switch {
		case c == '"':
			flush(i)
			j := i + 1
			for j < len(text) && text[j] != '"' && text[j] != '\n' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			i = j
		case c == '#' || c == '/' && i+1 < len(text) && text[i+1] == '/':
			flush(i)
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case notWordRune(rune(c)):
			flush(i)
		case start < 0:
			start = i
		}
	}
	if !found {
		flush(len(text))
	}
	return found
}

// multilineString returns the offset of the first string literal that
// spans a line break, as the lexer pairs quotes, or -1. A quote left open
// while typing pairs with the next line's opening quote, and so on to the
// end: every later line is read otherwise. (A file may hold such a string
// on purpose; its later findings then wait until the text parses.)
// diagState.quoteFrom finds it without reading the units without a quote.
func multilineString(text string) int {
	m, _ := scanStrings(text)
	return m
}

// scanStrings returns multilineString's answer, and whether the text ends
// inside a string: a quote found no end (the lexer drops it alone: the rest
// is read as words either way, and the answer is -1).
func scanStrings(text string) (multiline int, open bool) {
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '"':
			j := i + 1
			for j < len(text) && text[j] != '"' {
				if text[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(text) {
				return -1, true
			}
			if strings.IndexByte(text[i:j], '\n') >= 0 {
				return i, false
			}
			i = j
		case c == '#' || c == '/' && i+1 < len(text) && text[i+1] == '/':
			for i < len(text) && text[i] != '\n' {
				i++
			}
		}
	}
	return -1, false
}

// declaringWords start the statements that declare a name (`store x
// as`, `for each x in`, `open file … as f`, …).
var declaringWords = []string{"store", "create", "define", "for", "count", "open", "execute", "spawn",
	"read", "wait", "listen", "start", "event", "on", "connect", "property", "include", "load"}

// startsDeclaration reports whether a line, in words, is (or is being typed
// as) a statement that declares a name: its first word that could start a
// statement is one of declaringWords, or the start of one.
func startsDeclaration(ws []string) bool {
	if len(ws) == 1 && typingKeywordName(ws[0]) {
		return slices.ContainsFunc(declaringWords, func(d string) bool { return strings.HasPrefix(d, ws[0]) })
	}
	for _, w := range ws {
		switch {
		case slices.Contains(declaringWords, w):
			return true
		case slices.Contains(startingWords, w):
			return false
		case token.Lookup(w) == token.Identifier:
			return slices.ContainsFunc(declaringWords, func(d string) bool { return strings.HasPrefix(d, w) })
		}
		// a word that starts no statement: a stray one before it
	}
	return false
}

// startingWords start the statements that declare nothing on their first
// line (a try's clauses declare its error's name on theirs).
var startingWords = []string{"display", "change", "check", "if", "try", "return", "give", "call", "add", "remove",
	"clear", "push", "subtract", "multiply", "divide", "write", "close", "delete", "kill", "respond",
	"break", "continue", "skip", "exit", "expect", "describe", "test", "trigger", "stop", "export", "repeat",
	"route", "register", "parent"}

// indented reports whether unit i starts away from the line's first column,
// or with a word that continues a block (`end`, `otherwise:`, `catch:`, …),
// while the text does not parse: most likely lines of a block whose header
// or closer is broken, now read as statements of their own.
func (s *diagState) indented(i int) bool { return s.shape(i)&shapeIndented != 0 }

// indentedText reports it of the text from a unit's start on.
func indentedText(text string) bool {
	at := 0
	for at < len(text) && (text[at] == '\n' || text[at] == '\r') {
		at++
	}
	if at < len(text) && (text[at] == ' ' || text[at] == '\t') {
		return true
	}
	for _, w := range []string{"end", "otherwise", "catch", "when", "finally", "else"} {
		if startsWord(text[at:], w) {
			return true
		}
	}
	return false
}

// startsWord reports whether text, past blank lines, starts with the word w.
func startsWord(text, w string) bool {
	text = strings.TrimLeft(text, "\r\n")
	return strings.HasPrefix(text, w) && (len(text) == len(w) || notWordRune(rune(text[len(w)])))
}

// leadsWithValue reports whether a line's code starts with a literal (a map's
// entry, `"key" is value`): a declaration starts with a word.
func leadsWithValue(line string) bool {
	line = strings.TrimLeft(line, " \t")
	return line != "" && (line[0] == '"' || line[0] >= '0' && line[0] <= '9')
}

// mayDeclareUnread reports whether a broken line, in words, may be a
// declaration whose name cannot be read.
func mayDeclareUnread(ws []string) bool {
	return startsDeclaration(ws) && !declaresName(ws)
}

// injects reports whether a declaration's line, in words, is of a statement
// that binds names it does not spell (a request's `method`, `body`, …).
func injects(ws []string) bool {
	return startsDeclaration(ws) && (slices.Contains(ws, "request") || slices.Contains(ws, "websocket") || slices.Contains(ws, "message") || slices.Contains(ws, "comes"))
}

// declaresName reports whether the words of a declaration's line hold a
// name where the declaration puts it: before `as` after `store`, after
// `called`, after the kind of a `create list|map|pattern|container|
// interface`, before `in` after `for each`, else after the last `as`.
func declaresName(ws []string) bool {
	if len(ws) == 0 {
		return false
	}
	named := func(i int) bool {
		return i >= 0 && i < len(ws) && token.Lookup(ws[i]) == token.Identifier && !unicode.IsDigit(rune(ws[i][0])) // not the 3 of 3.14
	}
	if i := slices.Index(ws, "called"); i >= 0 {
		return named(i + 1)
	}
	switch {
	case ws[0] == "store":
		i := slices.Index(ws, "as")
		return i > 1 && named(i-1)
	case ws[0] == "for":
		i := slices.Index(ws, "in")
		return i > 1 && named(i-1)
	case ws[0] == "create" && len(ws) > 1 && slices.Contains([]string{"list", "map", "pattern", "container", "interface"}, ws[1]):
		return named(2)
	}
	for i := len(ws) - 1; i > 0; i-- {
		if ws[i] == "as" {
			return named(i + 1)
		}
	}
	return false
}

// declares is s.declares, remembered: it reads every unit, and the
// findings about one undefined name are often many.
func (b *broken) declares(s *diagState, name string) bool {
	d, ok := b.declared[name]
	if !ok {
		if b.declared == nil {
			b.declared = map[string]bool{}
		}
		d = s.declares(name)
		b.declared[name] = d
	}
	return d
}

// excused reports whether a finding of u says name is undefined and no
// statement declares it.
func (b *broken) excused(s *diagState, u *unit, name string) bool {
	for _, x := range u.d.list {
		if x.from != fromParse && x.Kind.Undeclared() && slices.Contains(x.ProgramNames(), name) {
			return !b.declares(s, name)
		}
	}
	return false
}

// about reports whether a finding, about the text at off, is about a name
// the broken text may be declaring or using: all its words are in it, a
// word of it starts with the word being typed at the end of a broken line,
// it is alone on its line and starts a statement's keyword, or no
// statement declares it (the finding says it is not declared) while a
// broken line before off may declare something whose name cannot be read.
func (b *broken) about(s *diagState, d diag.Diagnostic, off int) bool {
	for _, name := range d.ProgramNames() {
		if name == "" {
			continue
		}
		all := true
		for _, w := range strings.FieldsFunc(name, notWordRune) {
			all = all && b.words[w]
			if b.typedFrom(w) {
				return true
			}
		}
		// Whether a name is declared twice does not hang on what its
		// values hold: of the names tainted, only those the lines floating
		// out of a broken block declare are unread declarations.
		tainted := b.tainted
		if d.Kind == diag.Redefined || d.Kind == diag.DuplicateAction {
			tainted = b.floated
		}
		// A declaration being typed may declare the names used after it,
		// and those the type checker looks up in the whole file
		// (NotFound: `export constant API_VERSION` above it).
		// A name right before `://` is a URL's scheme, out of a string
		// whose quote is being typed (`" open url at "https://…"`); a
		// statement's keyword right before a header's colon is that
		// header, read as a value by the break (`with try:`).
		if d.Kind.UndefinedVariable() && off+len(name) <= len(s.text) && s.text[off:off+len(name)] == name {
			rest := s.text[off+len(name):]
			if strings.HasPrefix(rest, "://") || strings.HasPrefix(rest, ":") && slices.Contains(startingWords, name) {
				return true
			}
		}
		if all || tainted[nameHash(name)] || b.anonymous >= 0 && (b.anonymous < off || d.Kind == diag.NotFound) && d.Kind.Undeclared() && !b.declares(s, name) ||
			typingKeyword(s, name, off) || b.closing[name] && aloneOnLine(s, name, off) {
			return true
		}
	}
	return false
}

// typedFrom reports whether w starts with the word being typed at the end
// of a broken line (typeAt).
func (b *broken) typedFrom(w string) bool {
	return slices.ContainsFunc(b.typing, func(t string) bool { return strings.HasPrefix(w, t) })
}

// typingKeyword reports whether name, about the text at off, is alone on
// its line and starts a keyword that starts a statement: the user is
// typing that statement (`tr` of `try:`), whose block is read as broken.
func typingKeyword(s *diagState, name string, off int) bool {
	return aloneOnLine(s, name, off) && typingKeywordName(name)
}

// aloneOnLine reports whether name is all the line at off holds.
func aloneOnLine(s *diagState, name string, off int) bool {
	l := s.lines.Line(off)
	return strings.TrimSpace(s.lineText(l)) == name
}

// typingKeywordName reports whether name starts, and is shorter than, a
// keyword that starts a statement or a block's closer.
func typingKeywordName(name string) bool {
	for _, ws := range [][]string{startingWords, declaringWords, {"end", "otherwise"}} {
		for _, w := range ws {
			if len(w) > len(name) && strings.HasPrefix(w, name) {
				return true
			}
		}
	}
	return false
}

// declares reports whether a unit of the state declares name on its first
// line: a name declared in a body (an action's local) is not declared
// where the rest of the file names it.
func (s *diagState) declares(name string) bool {
	h := nameHash(name)
	for i, u := range s.units {
		if _, ok := slices.BinarySearch(u.keys(), h); !ok || s.shape(i)&shapeHeadKey == 0 {
			continue
		}
		head := s.text[s.starts[i]:s.end(i)]
		if nl := strings.IndexByte(head, '\n'); nl >= 0 {
			head = head[:nl]
		}
		if strings.Contains(" "+strings.Join(codeWords(head), " ")+" ", " "+name+" ") {
			return true
		}
	}
	return false
}

func notWordRune(r rune) bool {
	return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_')
}
