package core

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lint"
	"wfl-lsp/lang/token"
)

// TestTolerantAddsNothingFalse breaks one line of the corpus programs and
// mutants at random (a token deleted, a stray word inserted, the line cut
// short) and checks what the tolerant list says while that line is broken
// (Snapshot.Tolerant, what editors show):
//   - of a program with no error: the parse findings, and no semantic or
//     type error;
//   - of a program with semantic or type errors, broken on a line of a
//     statement that has none and that names none of the names they name:
//     exactly those errors.
//
// A program whose own list says a quote is left open is not broken: the
// errors it has below the quote are not known.
//
// A sample of the mutants in CI; every program, more lines, with -stress.
func TestTolerantAddsNothingFalse(t *testing.T) {
	stride, perProgram, seed := sampleSizes(3)
	progs := corpusOrSkip(t, stride)
	const uri = URI("file:///nowhere/broken.wfl")
	broken, clean, dirty, waited, laidOut, quoted := 0, 0, 0, 0, 0, 0
	for n, path := range slices.Sorted(maps.Keys(progs)) {
		text := progs[path]
		_, base := NewSnapshot(uri, 1, text).Diagnostics()
		if parseFails(base) {
			continue
		}
		// The errors the editor shows for the whole program: the
		// reference's, and the type errors of statements without
		// semantic errors.
		_, shown := NewSnapshot(uri, 1, text).Tolerant()
		if slices.ContainsFunc(shown, func(d diag.Diagnostic) bool { return d.Kind == diag.OpenQuote }) {
			// A quote left open in the program itself (the reference
			// pairs it with a later line's and reads the text below inside
			// out): its errors below it are not known, and a breakage
			// that closes it shows that text's true ones.
			quoted++
			continue
		}
		errs := checkErrors(shown)
		if len(checkErrors(base)) == 0 && len(errs) > 0 {
			t.Errorf("%s: the reference finds no error; the tolerant list %q", path, errs)
		}
		// A program laid out otherwise than its blocks (the linter says a
		// line is misindented) is read by its layout where a closer is
		// missing: a line of a body at the first column is read as a
		// statement of the top level. Its breakages that read so are
		// counted, not held to the rule.
		misindented := slices.ContainsFunc(base, func(d diag.Diagnostic) bool { return d.Code == lint.CodeIndent })
		rng := rand.New(rand.NewPCG(uint64(n), seed))
		lines := strings.SplitAfter(text, "\n")
		orig := NewSnapshot(uri, 1, text)
		st := orig.diagState()
		starts := make([]int, len(st.starts))
		for i, at := range st.starts {
			starts[i] = st.lines.Line(at)
		}
		candidates := breakableLines(lines, starts, errs, errorLines(text, shown), declarationsUsed(orig.Analysis(), errorLines(text, shown)))
		for k := 0; k < perProgram && len(candidates) > 0; k++ {
			li := candidates[rng.IntN(len(candidates))]
			next, how := breakLine(rng, lines, li)
			if len(errs) > 0 && strings.Count(next, "\"") != strings.Count(text, "\"") {
				// A quote left open makes the lexer read every later line
				// otherwise: not a breakage of one line.
				continue
			}
			_, ds := NewSnapshot(uri, 2, next).Tolerant()
			if !parseFails(ds) {
				continue // still parses: not broken
			}
			broken++
			got := checkErrors(ds)
			if len(errs) == 0 {
				clean++
				if len(got) > 0 && misindented && layoutRead(ds) {
					laidOut++
				} else if len(got) > 0 && !cutName(next, text, li, got) {
					t.Errorf("%s: line %d broken (%s: %q): %d semantic or type errors, the first %s", path, li+1, how, strings.Split(next, "\n")[li], len(got), got[0])
				}
				continue
			}
			dirty++
			got = lessKnown(got, errs)
			brokenLine := strings.Split(next, "\n")[li]
			if extra := missing(errs, got); len(extra) > 0 {
				t.Errorf("%s: line %d broken (%s: %q): errors the whole program does not have\n%q", path, li+1, how, brokenLine, extra)
				continue
			}
			if hedged(text, brokenLine, errs) {
				waited++
				continue
			}
			if !slices.Equal(got, errs) {
				t.Errorf("%s: line %d broken (%s: %q): errors\n%q\nwant those of the whole program\n%q", path, li+1, how, brokenLine, got, errs)
			}
		}
	}
	t.Logf("%d programs (%d with a quote left open, not broken); %d breakages: %d of programs without errors (%d of misindented ones read by their layout show an error), %d of programs with errors (%d where errors may wait)", len(progs), quoted, broken, clean, laidOut, dirty, waited)
	if broken == 0 {
		t.Error("nothing broken")
	}
}

// parseFails reports whether a list holds a parse error: one of the
// reference's (the editor's finding that a quote is left open is not one:
// the reference reads the text on, its strings inside out).
func parseFails(ds []diag.Diagnostic) bool {
	for _, d := range ds {
		if d.Category == diag.Parse && d.Severity == diag.Error && d.Kind != diag.OpenQuote {
			return true
		}
	}
	return false
}

// checkErrors renders the semantic and type errors, by line, code and
// message.
func checkErrors(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		if d.Severity == diag.Error && (d.Category == diag.Semantic || d.Category == diag.Type) {
			out = append(out, d.Code+": "+d.Message)
		}
	}
	slices.Sort(out)
	return out
}

// errorLines returns the 0-based lines of the semantic and type errors.
func errorLines(text string, ds []diag.Diagnostic) map[int]bool {
	out := map[int]bool{}
	for _, d := range ds {
		if d.Severity == diag.Error && (d.Category == diag.Semantic || d.Category == diag.Type) {
			out[strings.Count(text[:min(d.Span.Start, len(text))], "\n")] = true
		}
	}
	return out
}

// breakableLines returns the lines that may be broken: lines with code,
// and when the program has errors (errs, on the lines errLines), lines
// unrelated to them: in a top-level statement (the parser's, starting on
// the lines starts) without errors and naming none of the names the
// errors name, and not a block's header or closer.
func breakableLines(lines []string, starts []int, errs []string, errLines, declLines map[int]bool) []int {
	// The top-level statement of each line, and those with errors.
	unit := make([]int, len(lines))
	u, k := 0, 0
	for i := range lines {
		for k < len(starts) && starts[k] <= i {
			u = starts[k]
			k++
		}
		unit[i] = u
	}
	faulty := map[int]bool{}
	for l := range errLines {
		if l < len(unit) {
			faulty[unit[l]] = true
		}
	}
	named := map[string]bool{}
	for _, e := range errs {
		for rest := e; ; {
			i := strings.IndexByte(rest, '\'')
			j := -1
			if i >= 0 {
				j = strings.IndexByte(rest[i+1:], '\'')
			}
			if j < 0 {
				break
			}
			for _, w := range strings.FieldsFunc(rest[i+1:i+1+j], notWordRune) {
				named[w] = true
			}
			rest = rest[i+1+j+1:]
		}
	}
	// The top-level statements naming a name the errors name: broken,
	// their declarations are unread.
	relatedUnit := map[int]bool{}
	for i, l := range lines {
		for _, w := range strings.FieldsFunc(l, notWordRune) {
			relatedUnit[unit[i]] = relatedUnit[unit[i]] || named[w]
		}
	}
	var out []int
	for i, l := range lines {
		code := strings.TrimSpace(l)
		if code == "" || strings.HasPrefix(code, "//") || strings.HasPrefix(code, "#") {
			continue
		}
		if len(errs) > 0 {
			related := relatedUnit[unit[i]]
			declaration := startsDeclaration(strings.FieldsFunc(code, notWordRune))
			if related || faulty[unit[i]] || declLines[i] || declaration && undefinedAmong(errs) || strings.HasSuffix(code, ":") || strings.HasPrefix(code, "end") || strings.HasPrefix(code, "otherwise") ||
				strings.HasPrefix(code, "when") || strings.HasPrefix(code, "catch") || strings.HasPrefix(code, "finally") {
				continue // a block's header or closer changes what the errors' statements are in
			}
		}
		out = append(out, i)
	}
	return out
}

// breakLine breaks line li: a word deleted, a stray word inserted, or the
// line cut short.
func breakLine(rng *rand.Rand, lines []string, li int) (string, string) {
	l := strings.TrimRight(lines[li], "\r\n")
	end := lines[li][len(l):]
	words := strings.Fields(l)
	indent := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
	var broken, how string
	switch k := rng.IntN(3); {
	case k == 0 && len(words) > 1:
		i := rng.IntN(len(words))
		how = fmt.Sprintf("word %q deleted", words[i])
		broken = indent + strings.Join(append(words[:i:i], words[i+1:]...), " ")
	case k == 1:
		stray := []string{"as", "to", "with", "end", ":", "store", "\"", "(", "of", "is"}[rng.IntN(10)]
		i := rng.IntN(len(words) + 1)
		how = fmt.Sprintf("%q inserted", stray)
		broken = indent + strings.Join(slices.Insert(slices.Clone(words), i, stray), " ")
	default:
		// At least one character left: a line emptied is a statement
		// deleted, which the checker reads right.
		cut := len(indent) + 1 + rng.IntN(max(1, len(l)-len(indent)-1))
		how = fmt.Sprintf("cut at column %d", cut+1)
		broken = l[:cut]
	}
	out := slices.Clone(lines)
	out[li] = broken + end
	return strings.Join(out, ""), how
}

// declarationsUsed returns the lines that declare a name the lines with
// errors use: breaking them changes what the errors are about.
func declarationsUsed(a *Analysis, errLines map[int]bool) map[int]bool {
	out := map[int]bool{}
	for _, r := range a.Idents() {
		if r.Sym == nil || r.Sym.From() != "" || r.Sym.Decl.End <= r.Sym.Decl.Start || !errLines[a.Lines.Line(r.Ident.Pos())] {
			continue
		}
		for _, sp := range DeclSpans(r.Sym) {
			out[a.Lines.Line(sp.Start)] = true
		}
	}
	return out
}

// undefinedAmong reports whether an error says a name is not defined:
// breaking a declaration may then hide it (a declaration whose name cannot
// be read may declare it, see diagState.tolerant).
func undefinedAmong(errs []string) bool {
	for _, e := range errs {
		if strings.Contains(e, "is not defined") || strings.Contains(e, "Undefined") || strings.Contains(e, "not found") {
			return true
		}
	}
	return false
}

// typeErrorAmong reports whether errs holds a type error.
func typeErrorAmong(errs []string) bool {
	return slices.ContainsFunc(errs, func(e string) bool { return strings.HasPrefix(e, "TYPE-") })
}

// cutName reports whether the errors got, of text broken into next by
// cutting line li, say only that the word the cut left last on it is not
// defined, and the cut took a quote with it: the line parses (`wait for
// wr` of `wait for write content "…`), the name is truly undefined, and
// the string's lines below are read as code, where the parse fails.
func cutName(next, text string, li int, got []string) bool {
	ws := strings.FieldsFunc(strings.Split(next, "\n")[li], notWordRune)
	if len(ws) == 0 || strings.Count(next, "\"") == strings.Count(text, "\"") {
		return false
	}
	for _, g := range got {
		if g != "ANALYZE-SEMANTIC: Variable '"+ws[len(ws)-1]+"' is not defined" {
			return false
		}
	}
	return true
}

// lessKnown returns got (sorted) with each error that is one of want but
// for a type it names Unknown replaced by that one of want: while a line of
// an action is broken, its result is not known (`Cannot index into
// Function(Unknown) -> Unknown` where the whole program says `-> Nothing`),
// the same finding, told with less.
func lessKnown(got, want []string) []string {
	out := slices.Clone(got)
	used := map[int]bool{}
	for i, g := range out {
		if !strings.Contains(g, "Unknown") || slices.Contains(want, g) {
			continue
		}
		re := regexp.MustCompile("^" + strings.ReplaceAll(regexp.QuoteMeta(g), "Unknown", ".+?") + "$")
		for j, w := range want {
			if !used[j] && re.MatchString(w) {
				out[i], used[j] = w, true
				break
			}
		}
	}
	slices.Sort(out)
	return out
}

// missing returns the elements of got not in want (both sorted), with
// repetitions.
func missing(want, got []string) []string {
	var out []string
	i := 0
	for _, g := range got {
		for i < len(want) && want[i] < g {
			i++
		}
		if i < len(want) && want[i] == g {
			i++
			continue
		}
		out = append(out, g)
	}
	return out
}

// hedged reports whether tolerant may keep back some of a program's errors
// errs while one of its lines is broken into brokenLine, by design (see
// diagState.tolerant); it never makes one up:
//   - the broken line may now declare a name it cannot say: the undefined
//     names wait, and when it says no name at all (`store`), the type
//     errors of what reads a builtin as a value below it (the name may be
//     the builtin's);
//   - it starts with `end` at the first column: a stray closer, the
//     statement before it and the later ones wait;
//   - it ends in a word an error's name starts with: the user may be typing
//     that name;
//   - an error's name is alone on its line and starts a keyword: that line
//     may be a statement being typed;
//   - the program has a string spanning lines: a quote typed may pair with
//     one of its quotes, and the lines after it wait;
//   - the program has lines floating at the top level (indented, or
//     starting with a block's closer or clause): the statement before them
//     may be their broken header, and waits.
func hedged(text, brokenLine string, errs []string) bool {
	ws := strings.FieldsFunc(brokenLine, notWordRune)
	if startsDeclaration(ws) && undefinedAmong(errs) || strings.HasPrefix(brokenLine, "end") || multilineString(text) >= 0 ||
		len(ws) > 0 && mayDeclareUnread(ws) && token.Lookup(ws[len(ws)-1]).IsKeyword() && typeErrorAmong(errs) {
		return true
	}
	st := NewSnapshot("file:///nowhere/whole.wfl", 1, text).diagState()
	for i := range st.units {
		if st.indented(i) {
			return true
		}
	}
	alone := map[string]bool{}
	for _, l := range strings.Split(text, "\n") {
		alone[strings.TrimSpace(l)] = true
	}
	for _, e := range errs {
		for _, name := range quotedNames(e) {
			if len(ws) > 0 && strings.HasPrefix(name, ws[len(ws)-1]) {
				return true
			}
			if alone[name] && typingKeywordName(name) {
				return true
			}
		}
	}
	return false
}

// TestTolerantCases pins what the tolerant list shows and leaves out, one
// rule a case (see diagState.tolerant), beside the reference's list.
func TestTolerantCases(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string // the tolerant list's semantic and type errors and parse errors, "line: code"
	}{
		{"a statement that parses keeps its errors while another is broken",
			"change q to 1\nstore z as\n", []string{"1: ANALYZE-SEMANTIC", "2: PARSE-UNEXPECTED"}},
		{"the type errors of a statement without semantic errors",
			"change q to 1\nstore a as \"x\" minus 1\ndisplay a\n", []string{"1: ANALYZE-SEMANTIC", "2: TYPE-OPERAND"}},
		{"not those of a statement that uses what one with a semantic error declares",
			"store x as 1\nstore x as \"a\"\nstore s as x minus 1\ndisplay s\n", []string{"2: ANALYZE-SEMANTIC"}},
		{"no undefined name the broken statement names",
			"store totl as 5 plus\nchange totl to 1\n", []string{"1: PARSE-UNEXPECTED"}},
		{"no undefined name the word being typed starts",
			"change count_a to 1\nstore count_\n", []string{"2: PARSE-EXPECTED"}},
		{"no undefined name the header of floating lines ends with, a header without a finding",
			"create interface Draw\n    requires action draw\nend\ncreate container Box implements Drawable:\n    action draw:\n        display 1\n    end\nend\n",
			[]string{"2: PARSE-UNEXPECTED"}},
		{"an undefined name one of whose words a keyword ending a broken line starts",
			"display 1 with\ndisplay lose with_reader\n", []string{"1: PARSE-UNEXPECTED", "2: ANALYZE-SEMANTIC"}},
		{"no keyword being typed read as a name",
			"tr\n    display 1\ncatch:\n    display error\nend try\n", []string{"3: PARSE-UNEXPECTED"}},
		{"no undefined name while a declaration cannot say its name yet",
			"store as 5\nchange total to 1\n", []string{"1: PARSE-EXPECTED"}},
		{"no undefined name while a declaration cannot say its name yet, when only an action declares it",
			"define action called f:\n    store total as 1\n    display total\nend action\nstore\ndisplay total\n", []string{"5: PARSE-EXPECTED"}},
		{"the lines after a quote being typed read as meant: the quote is closed at the end of its line",
			"change q to 1\ndisplay \"abc\nchange r to \"a\" plus (\nchange s to 2\n",
			[]string{"1: ANALYZE-SEMANTIC", "2: PARSE-OPEN-QUOTE", "3: PARSE-UNEXPECTED", "4: ANALYZE-SEMANTIC"}},
		{"nothing from the lines a block broken in its body held, up to its closer read as a stray end, and what follows as it is",
			"create container Box:\n    property width: Number\n    property height: Number\nend\ncreate new Box as b:\n    width is as 10\nheight is 5\nend\nchange q to 1\n",
			[]string{"6: PARSE-UNEXPECTED", "9: ANALYZE-SEMANTIC"}},
		{"nothing from the lines an action broken in its header held",
			"define action called area with parameters width\nreturn width times height\nend action\ndisplay area of 4 and 5\n",
			[]string{"1: PARSE-EXPECTED"}},
		{"no error about what holds an undefined name while a definition cannot say its name yet",
			"define action \n    give back a plus b\nend action\nstore f as sum_two\nstore r as f of 1 and 2\ndisplay r\n",
			[]string{"1: PARSE-EXPECTED"}},
		{"no type error of a builtin's name that a broken declaration may be declaring",
			"store timestamp store as timestamp of now\nstore d as datetime_from_timestamp of timestamp\ndisplay d\n",
			[]string{"1: PARSE-EXPECTED", "1: PARSE-EXPECTED"}},
		{"no type error of a builtin's name that a declaration's name being typed may become",
			"store timestam\nstore d as datetime_from_timestamp of timestamp\ndisplay d\n",
			[]string{"1: PARSE-EXPECTED"}},
		{"the type errors of a statement that calls a builtin a declaration's name being typed may become",
			"store s\nstore p as \"abc\"\ncheck if p starts with \"a\":\n    display p minus 1\nend check\n",
			[]string{"1: PARSE-EXPECTED", "4: TYPE-OPERAND"}},
		{"no type error of what a declaration broken on its first line declares",
			"store xs as 2, 3]\nfor each x in xs:\n    display x\nend for\n",
			[]string{"1: PARSE-UNEXPECTED"}},
		{"the type errors about what a declaration whole after a stray word declares",
			"is store n as 1\nstore m as 1\nchange m to n plus \"text\"\n",
			[]string{"1: PARSE-UNEXPECTED", "3: TYPE-ASSIGN"}},
		{"the type errors about what a declaration naming it after its value declares, a stray word after it",
			"listen on port 8080 as site is\nmain loop:\n    wait for request comes in on site as req\n    display req[\"path\"]\nend loop\n",
			[]string{"1: PARSE-UNEXPECTED", "4: TYPE-INDEX"}},
		{"the type errors about what a declaration naming it after its value declares, a statement being typed after it",
			"listen on port 8080 as site store\nmain loop:\n    wait for request comes in on site as req\n    display req[\"path\"]\nend loop\n",
			[]string{"1: PARSE-EXPECTED", "4: TYPE-INDEX"}},
		{"no type error about what a declaration with a stray word after its value declares",
			"store n as 1 is\nstore m as 1\nchange m to n plus \"text\"\n",
			[]string{"1: PARSE-UNEXPECTED"}},
		{"the type errors about what a statement declares whole before a statement being typed on its line",
			"store n as 1 store\nstore m as 1\nchange m to n plus \"text\"\n",
			[]string{"1: PARSE-EXPECTED", "3: TYPE-ASSIGN"}},
		{"the type errors about what a statement declares whole before a stray symbol on its line",
			"store n as 1 (\nstore m as 1\nchange m to n plus \"text\"\n",
			[]string{"1: PARSE-UNEXPECTED", "3: TYPE-ASSIGN"}},
		{"the type errors about what a statement declares whole before a stray word on its line",
			"store n as 1 to\nstore m as 1\nchange m to n plus \"text\"\n",
			[]string{"1: PARSE-UNEXPECTED", "3: TYPE-ASSIGN"}},
		{"no type error about what a statement declares before a stray symbol inside its value",
			"store d as parse_json ( of \"{}\"\ndisplay stringify_json of d\n",
			[]string{"1: PARSE-UNEXPECTED"}},
		{"no type error about what a statement being typed after a whole one on its line may declare again",
			"store n as 1 store n as\nstore m as 1\nchange m to n plus \"text\"\n",
			[]string{"1: PARSE-UNEXPECTED"}},
		{"a redeclaration while a line above is broken, though its name is stored from a name the broken line names",
			"store x as\ndefine action called f:\n    store total as 1\n    store total as 2\nend action\nstore total as x\n",
			[]string{"1: PARSE-UNEXPECTED", "4: ANALYZE-SEMANTIC"}},
		{"no finding about what is stored from a name being typed in a broken declaration",
			"define action called sum_tw\n    give back 1\nend action\nstore f as sum_two\nstore r as f of 1\n",
			[]string{"1: PARSE-EXPECTED"}},
		{"an undefined name while a map's entry holding a declaring word is broken",
			"create map m:\n    \"k\" store is \"v\"\nend map\ndisplay payloa\n",
			[]string{"2: PARSE-EXPECTED", "2: PARSE-EXPECTED", "4: ANALYZE-SEMANTIC"}},
		{"no undefined name from the words after a mistyped closer",
			"open database at \"x\" as db\nin transaction on db:\n    store a as 1\nend of transaction\n",
			[]string{"4: PARSE-EXPECTED"}},
		{"no type error a semantic error the broken text hides holds back",
			"store new constant M as 1\ndisplay \"a\" or M\nchange M to 2 display\n",
			[]string{"3: PARSE-UNEXPECTED"}},
		{"the semantic error of a statement above a stray end, which holds back the type errors",
			"store new constant M as 1\ndisplay \"a\" or M\nchange M to 2\nend display 1\n",
			[]string{"3: ANALYZE-SEMANTIC", "4: PARSE-STRAY-END"}},
		{"no type error about what a declaration whose value lost its start declares",
			"store xs as 2]\ndisplay concat of xs and [1]\n",
			[]string{"1: PARSE-UNEXPECTED"}},
		{"no undefined name while a declaring keyword is typed alone on its line",
			"cr\ncreate container Box implements Drawable:\n    action draw:\n        display 1\n    end\nend\ndisplay 1 plus\n",
			[]string{"7: PARSE-UNEXPECTED"}},
		{"no type error of a builtin read below a declaration whose name is not typed at all, those above it kept",
			"store x as 1\ndisplay x plus timestamp\nstore\nstore later as timestamp plus 1\ndisplay later\n",
			[]string{"2: TYPE-OPERAND", "3: PARSE-EXPECTED"}},
		{"the errors of a statement a stray end's unit holds before it, and not the type errors they hold back",
			"store numbers as create and list\nadd 1 to numbers\nstore list1 as create list\nend add \"a\" to list1\n",
			[]string{"1: ANALYZE-SEMANTIC", "1: ANALYZE-SEMANTIC", "4: PARSE-STRAY-END"}},
		{"the errors of a block a stray end's unit holds before it, and not the type errors they hold back",
			"export constant API_VERSION\ncheck if API_VERSION is equal to 1:\n    display 1\nend check\nend display 2\n",
			[]string{"2: ANALYZE-SEMANTIC", "5: PARSE-STRAY-END"}},
		{"no undefined name of a line a bare end left outside its test, above a stray end",
			"describe \"d\":\n    test \"t\":\n        store total as 0\nexpect total to equal 1\n    end\nend describe\n",
			// The first is the reference's, as with the expect indented in
			// the test: the test's body reads on to the bare end, whose
			// `test` is missing.
			[]string{"5: PARSE-EXPECTED", "6: PARSE-STRAY-END", "6: PARSE-EXPECTED"}},
		{"no undefined name on a block's header being typed, its colon not typed yet",
			"store points as 3\ncheck if p\ndisplay points\n",
			[]string{"2: PARSE-EOF"}},
		{"no arity error of a call on a block's header being typed",
			"store c as \"abc\"\ncheck if substring of c\ndisplay c\n",
			[]string{"2: PARSE-EOF"}},
		{"no type error of a container whose action's header is being typed",
			"create interface Shape:\n    requires action area: Number\nend\n\ncreate container Box implements Shape:\n    action area: Numb\nend\n",
			[]string{"8: PARSE-EOF"}},
		{"a method's closer missing above a method with its result type: the container's errors stay, and hold back the type errors about their names",
			"create container Box:\n    property width: Number\n\n    action grow needs amount: Number:\n        store bonus as amount\n\n    action area: Number\n        return width times bonus\n    end\nend\ncreate new Box as b:\n    width is 2\n    bonus is 1\nend\n",
			[]string{"7: PARSE-UNEXPECTED", "8: ANALYZE-SEMANTIC"}},
		{"a method with its result type and a body, its closer missing: the container's errors stay, and hold back the type errors about their names",
			"create container Box:\n    property width: Number\n\n    action area: Number\n        return width times bonus\nend\ncreate new Box as b:\n    width is 2\n    bonus is 1\nend\n",
			[]string{"5: ANALYZE-SEMANTIC", "7: PARSE-UNEXPECTED"}},
		{"no undefined name of the word after a missing closer's end, alone on its line: the closer being typed",
			"open database at \"sqlite::memory:\" as db\nin transaction on db:\n    store a as execute db with \"SELECT 1\"\ntransaction\ndisplay a\n",
			[]string{"6: PARSE-EOF"}},
		{"nothing from the indented lines a broken header leaves floating as statements of their own",
			"display \"start\"\ntr\n    display \"About to wait\"\n    wait for request comes in on test_server as test_request\n    display \"Request received!\"\ncatch:\n    display \"failed\"\nend try\n",
			[]string{"6: PARSE-UNEXPECTED"}},
		{"no undefined name while an include lost its first word: the file it names may declare it",
			"from \"mod.wfl\"\ndisplay greet\n", []string{"1: PARSE-UNEXPECTED"}},
		{"no finding of the lines a block's header being typed takes as its body",
			"define action called f:\n    count from 1 to 9\n        count from 1 to 3:\n            display count\n        end count\nend action\n",
			[]string{"6: PARSE-EXPECTED"}},
		{"no type error of a call of a method whose header is being typed",
			"create container Task:\n    property name: Text\nend\n\ncreate container Todo:\n    action add_task needs task: Ta\nend\n\ncreate new Todo as l:\nend\ncreate new Task as t:\n    name is \"x\"\nend\nl.add_task(t)\n",
			[]string{"9: PARSE-UNEXPECTED"}},
		{"a string typed as the text's last, its quote open: no name out of its words",
			"store a as 1\ndisplay \"Hell\n",
			[]string{"2: PARSE-OPEN-QUOTE"}},
		{"nothing from the lines above a block's closer whose header is broken",
			"listen for websockets on port 0 as chat_server\n\no\n    display \"Client connected: \" with id of connection\nsend websocket message \"Welcome\" to connection\nend on\n",
			[]string{"6: PARSE-STRAY-END", "6: PARSE-UNEXPECTED"}},
		{"no type error about a builtin a name typed after store as a keyword may shadow",
			"store time\nstore t as timestamp\nstore d as datetime_from_timestamp of timestamp\n",
			[]string{"1: PARSE-EXPECTED"}},
		{"no undefined name a header broken into a statement of its own declared, the program laid out otherwise than its blocks",
			"    list scores:\n    add 1\nend list\ndisplay scores\n",
			[]string{"2: PARSE-EXPECTED"}},
		{"no type error about what is stored from a name whose declaration's header is broken",
			"define action called f needs a : and b:\n    give back a\nend action\nstore g as f\nstore r as g of 1 and 2\n",
			[]string{"1: PARSE-UNEXPECTED"}},
		{"no export of a name a declaration being typed below may declare",
			"export constant LIMIT\nstore export\n",
			[]string{"2: PARSE-RESERVED", "2: PARSE-EXPECTED"}},
		{"no interface not found while its name is typed in a header whose body floats",
			"create interface Draw\nrequires action draw\nend\ncreate container Box implements Drawable:\n    action draw:\n        display 1\n    end\nend\n",
			[]string{"2: PARSE-UNEXPECTED"}},
		{"no undefined name for a URL's scheme out of a string whose quote is being typed",
			"\" display \"https://example.com/a\"\ndisplay 1 plus\n",
			[]string{"2: PARSE-UNEXPECTED"}},
		{"no undefined name for a block's keyword before its colon, read as a value by a word typed before it",
			"with try:\ndisplay 1\n    display 2\ncatch:\n    display 3\nend try\n",
			[]string{"4: PARSE-UNEXPECTED"}},
		{"no undefined name while a declaration's name is missing before a number",
			"create new constant as 3.14159\ndisplay PI\n",
			[]string{"1: PARSE-EXPECTED"}},
		{"no undefined name a quote typed before its declaration hides in a string",
			"\" store greeting as \"{\\\"a\\\": 1}\"\ndisplay greeting\n",
			[]string{"1: PARSE-UNEXPECTED"}},
		{"no undefined name while a statement of several lines is broken on a later one",
			"open url at \"https://example.com\" with method \"POST\"\n    and body \"b\"\n    a\ndisplay resp\n",
			[]string{"2: PARSE-EXPECTED"}},
		{"no undefined name a request brings while its statement lost the word request",
			"listen on port 8080 as srv\nwait for comes in on srv as req1\ndisplay method\n",
			[]string{"2: PARSE-UNEXPECTED"}},
		{"an undefined name while a pattern's body is broken: a pattern declares nothing but its name",
			"create pattern exts:\n    \".txt\" or \".md\" store or \".wfl\"\nend pattern\ndisplay missing_name\n",
			[]string{"2: PARSE-PATTERN", "4: ANALYZE-SEMANTIC"}},
		{"no undefined name while a pattern's header cannot say its name yet",
			"create pattern digit\n    \"b\"\nend pattern\ndisplay missing_name\n",
			[]string{"1: PARSE-PATTERN"}},
		{"no finding about a name a keyword being typed as a declaration's name starts",
			"create pattern url\n    \"a\"\nend pattern\ndisplay url2\nstore url2 as 1\n",
			[]string{"1: PARSE-PATTERN"}},
		{"an undefined name while a try lost its clauses to a stray end: its header declares nothing",
			"try:\n    store r as 1\n    end display r\nwhen error:\n    display error_message\nend try\ndisplay missing_name\n",
			[]string{"1: PARSE-TRY-CLAUSE", "7: ANALYZE-SEMANTIC"}},
		{"nothing the reference finds of a statement it reads inside out from a quote left open after another on its line",
			"create interface Drawable:\n    requires action draw\n    requires action area: Number\nend\ncreate container Box implements Drawable:\n    action draw:\n        display \"a: \" with 1 \" b\n    end\n    action area: Number\n        return 1\n    end\nend\ndisplay \"done\"\n",
			[]string{"7: PARSE-OPEN-QUOTE", "14: PARSE-EOF", "14: PARSE-EOF"}},
		{"nothing from the loop whose header holds a quote being typed (the string closed on its line took the colon)",
			"store items as [1, 2]\nfor each item in \"items:\n    display item\nend for\n",
			[]string{"2: PARSE-OPEN-QUOTE"}},
		{"the parse errors below the quote's line in the statement that holds it",
			"store items as [1, 2]\nfor each item in \"items:\n    store\nend for\n",
			[]string{"2: PARSE-OPEN-QUOTE", "3: PARSE-EXPECTED"}},
		{"an undefined name only some of whose words the string being typed holds",
			"\" hello user\ndisplay user age\n",
			[]string{"1: PARSE-OPEN-QUOTE", "2: ANALYZE-SEMANTIC"}},
		{"a lone carriage return ends the line of a quote being typed",
			"display \"ab\rchange r to 1\n",
			[]string{"1: PARSE-OPEN-QUOTE", "2: ANALYZE-SEMANTIC"}},
		{"a quote first of its line after a lone carriage return: the closed text's list",
			"display \"a\"\rdisplay \"b\nchange r to 1\ndisplay \"c\"\n",
			[]string{"2: PARSE-OPEN-QUOTE", "3: ANALYZE-SEMANTIC"}},
		{"the errors below a quote left open after another on its line that pairs with none: the closed text's",
			"display \"a\" with \"hel\nchange r to 1\n",
			[]string{"1: PARSE-OPEN-QUOTE", "2: ANALYZE-SEMANTIC"}},
		{"no undefined name a quote typed before a block's header holds in its string",
			"\" create list protocol:\n    add \"http\"\n    add \"ftp\"\nend list\ndisplay protocol\n",
			[]string{"1: PARSE-OPEN-QUOTE", "2: PARSE-EXPECTED", "3: PARSE-EXPECTED"}},
		{"no undefined name a quote typed before its declaration holds in its string",
			"\" store protocol as 1\ndisplay protocol\ndisplay \"x\"\n",
			[]string{"1: PARSE-OPEN-QUOTE"}},
		{"the errors before the broken statement and after it",
			"change q to 1\nstore z as\nchange r to 2\n", []string{"1: ANALYZE-SEMANTIC", "2: PARSE-UNEXPECTED", "3: ANALYZE-SEMANTIC"}},
		{"a block's missing closer, which the reference says at the end of the text, on the line of a last string being typed",
			"count from 1 to 3:\n    display 1\ndisplay \"abc", []string{"3: PARSE-OPEN-QUOTE", "3: PARSE-EOF"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := tolerantOf(c.text, func(d diag.Diagnostic) bool { return d.Severity == diag.Error }); !slices.Equal(got, c.want) {
				t.Errorf("tolerant errors %q, want %q", got, c.want)
			}
		})
	}
}

// tolerantOf returns the findings of text's tolerant list that keep
// keeps, as "line: code".
func tolerantOf(text string, keep func(diag.Diagnostic) bool) []string {
	lines, ds := NewSnapshot("file:///c.wfl", 1, text).Tolerant()
	var got []string
	for _, d := range ds {
		if keep(d) {
			got = append(got, fmt.Sprintf("%d: %s", lines.Line(d.Span.Start)+1, d.Code))
		}
	}
	return got
}

// TestTolerantLintCases holds the linter's findings in the tolerant list
// while the text does not parse: the rules that read the text stay, those
// that read the tree wait while what it holds is a guess.
func TestTolerantLintCases(t *testing.T) {
	long := "store v as \"" + strings.Repeat("x", 100) + "\"\n"
	for _, c := range []struct {
		name, text string
		want       []string // the tolerant list's lint findings, "line: code"
	}{
		{"a line's length below a quote left open that pairs with a later line's",
			"display \"a\" with \"abc\ndisplay \"x\"\n" + long, []string{"3: LINT-LENGTH"}},
		{"a line's length in the statement that holds a quote left open, but on the quote's line",
			"describe \"d\":\n    test \"t\":\n        " + long + "    end test\n    test \"a raw\nend describe\n", []string{"3: LINT-LENGTH"}},
		{"a line's length below a string the quote left open spans lines with",
			"create map h:\n    \"A\" is \"x\"\n    \"B\" is \"y, z\n    \"C\" is \"w\"\nend map\n" + long, []string{"6: LINT-LENGTH"}},
		{"on the quote's line, no length the closing quote makes",
			"display \"" + strings.Repeat("y", 91) + "\ndisplay 1\n", nil},
		{"no indentation judged while a header inside a block takes the closer below",
			"count from 1 to 3 as c:\n    route c:\n        when 1:\n            display \"one\"\n        otherwise:\n" +
				"            display \"other\"\n            route cand\n    end route\nend count\n", nil},
		{"no indentation judged while a closer is typed where one is missing",
			"describe \"a\":\n    describe \"b\":\n        test \"t\":\n            expect 1 to equal 1\n        end test\n    en\n" +
				"describe \"c\":\n    test \"u\":\n        expect 2 to equal 2\n    end test\nend describe\n", nil},
		{"the tree's rules above and below a line being typed",
			"store badName as 1\ndisplay 1 plus\nstore otherName as 2\ndisplay badName with otherName\n", []string{"1: LINT-NAME", "3: LINT-NAME"}},
		{"the text's rules while a header is typed: a line's length",
			"check if x\n    " + long, []string{"2: LINT-LENGTH"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := tolerantOf(c.text, func(d diag.Diagnostic) bool { return d.Category == diag.Lint }); !slices.Equal(got, c.want) {
				t.Errorf("tolerant lint %q, want %q", got, c.want)
			}
		})
	}
}

// TestTolerantStaticCases holds the static pass's findings (unused
// variables, unreachable code) of a text whose only parse errors are
// blocks' closers to what the closed text shows: the reference drops them
// while any semantic error stands.
func TestTolerantStaticCases(t *testing.T) {
	open := "define action called f with parameters n:\n    store unused as 5\n    display n\ncall f with 1\n"
	used := func(name string) string { // an action that stores name and does not read it
		return "define action called f with parameters n:\n    store " + name + " as 5\n    display n\nend action\ncall f with 1\n"
	}
	for _, c := range []struct {
		name, text string
		want       []string // the tolerant list's static findings, "line: code"
	}{
		{"an unused variable in a block whose closer is missing", open, []string{"2: ANALYZE-UNUSED"}},
		{"none while a semantic error stands", open + "change q to 2\n", nil},
		{"those above and below a line being typed", "store spare_value as 5\ndisplay 1 plus\nstore other_value as 5\n", []string{"1: ANALYZE-UNUSED", "3: ANALYZE-UNUSED"}},
		{"none of a variable the line being typed reads", "store spare_value as 5\ndisplay 1 plus spare_value with\n", nil},
		{"none of a variable the line of a quote left open names, while which of its quotes is open is a guess",
			used("spare") + "display \"a\" with \"b spare\ndisplay \"c\"\n", nil},
		{"one of a variable that line does not name", used("unread") + "display \"a\" with \"b spare\ndisplay \"c\"\n", []string{"2: ANALYZE-UNUSED"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			static := func(d diag.Diagnostic) bool { return d.Category == diag.Semantic && d.Severity == diag.Warning }
			if got := tolerantOf(c.text, static); !slices.Equal(got, c.want) {
				t.Errorf("tolerant static findings %q, want %q", got, c.want)
			}
		})
	}
}

// layoutRead reports whether the parser closed a block by the layout in a
// list of diagnostics (its closer missing or mistyped).
func layoutRead(ds []diag.Diagnostic) bool {
	return slices.ContainsFunc(ds, func(d diag.Diagnostic) bool { return d.Category == diag.Parse && d.Kind.Recovered() })
}

// quotedNames returns the names a message quotes ('x'), without the code
// it quotes ('change x to <value>'): hedged reads them off the lines of
// the list the test compares.
func quotedNames(msg string) []string {
	var out []string
	for rest := msg; ; {
		i := strings.IndexByte(rest, '\'')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(rest[i+1:], '\'')
		if j < 0 {
			return out
		}
		if name := rest[i+1 : i+1+j]; isName(strings.FieldsFunc(name, notWordRune)) {
			out = append(out, name)
		}
		rest = rest[i+1+j+1:]
	}
}

// isName reports whether words can spell a name: one word, or words none
// of which is a keyword.
func isName(ws []string) bool {
	if len(ws) == 1 {
		return true
	}
	for _, w := range ws {
		if token.Lookup(w) != token.Identifier {
			return false
		}
	}
	return len(ws) > 0
}
