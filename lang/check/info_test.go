package check_test

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/internal/txtar"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
)

// identAt returns the identifier whose text starts at the nth occurrence
// (1-based) of word in src.
func identAt(t *testing.T, f *ast.File, src, word string, nth int) *ast.Ident {
	t.Helper()
	off := -1
	for i, from := 0, 0; i < nth; i++ {
		j := strings.Index(src[from:], word)
		if j < 0 {
			t.Fatalf("occurrence %d of %q not found", nth, word)
		}
		off = from + j
		from = off + len(word)
	}
	var found *ast.Ident
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Pos() == off {
			found = id
		}
		return found == nil
	})
	if found == nil {
		t.Fatalf("no identifier at occurrence %d of %q", nth, word)
	}
	return found
}

const infoSrc = `// How many lines to print.
store say total as 3
store new constant NAME as "Ada"

// Greets someone.
define action called greet with parameters who as text:
    display "hi " with who
end action

create container Dog:
    // The dog's name.
    property name: Text
    action bark:
        display name
    end
end

create new Dog as rex:
    name is "Rex"
end

count from 1 to say total:
    call greet with NAME
    display rex.name
end count
display length of [1, 2]
`

func TestInfo(t *testing.T) {
	f, _ := parser.Parse(infoSrc)
	info, diags := check.Check(f, infoSrc)
	for _, d := range diags {
		if d.Code != "ANALYZE-UNUSED" {
			t.Errorf("unexpected diagnostic %s: %s", d.Code, d.Message)
		}
	}
	tests := []struct {
		word     string
		nth      int
		kind     check.SymbolKind
		declWord string // the declaring identifier's text (its first occurrence)
		doc      string
		typ      string
	}{
		{"say total", 2, check.SymVariable, "say total", "How many lines to print.", "Number"},
		{"NAME", 2, check.SymConstant, "NAME", "", "Text"},
		{"greet", 2, check.SymAction, "greet", "Greets someone.", ""},
		{"who", 2, check.SymParameter, "who", "", "Text"},
		{"name", 2, check.SymProperty, "name", "The dog's name.", "Text"},
		{"name", 3, check.SymProperty, "name", "The dog's name.", "Text"},
		{"name", 5, check.SymProperty, "name", "The dog's name.", "Text"},
		{"Dog", 2, check.SymContainer, "Dog", "", "Container<Dog>"},
		{"rex", 2, check.SymVariable, "rex", "", "Instance<Dog>"},
		{"name", 4, check.SymProperty, "name", "The dog's name.", "Text"},
		{"length", 1, check.SymBuiltin, "", "Returns the number of elements of a list, characters of a text or bytes of binary data.", "Function(List of Any) -> Number"},
	}
	for _, tt := range tests {
		id := identAt(t, f, infoSrc, tt.word, tt.nth)
		sym := info.ObjectOf(id)
		if sym == nil {
			t.Errorf("%s#%d: no symbol", tt.word, tt.nth)
			continue
		}
		if sym.Kind != tt.kind || sym.Doc() != tt.doc {
			t.Errorf("%s#%d: got %s %q, want %s %q", tt.word, tt.nth, sym.Kind, sym.Doc(), tt.kind, tt.doc)
		}
		if tt.typ != "" && sym.Type.String() != tt.typ {
			t.Errorf("%s#%d: type %s, want %s", tt.word, tt.nth, sym.Type, tt.typ)
		}
		if tt.declWord != "" {
			nth := 1
			if tt.kind == check.SymProperty {
				nth = 2 // the first "name" is in the doc comment
			}
			decl := identAt(t, f, infoSrc, tt.declWord, nth)
			if sym.Decl.Start != decl.Pos() {
				t.Errorf("%s#%d: declared at %d, want %d", tt.word, tt.nth, sym.Decl.Start, decl.Pos())
			}
		}
	}

	// References of the variable: its declaration and its use in the loop.
	g := info.ObjectOf(identAt(t, f, infoSrc, "say total", 1))
	if refs := info.References(g); len(refs) != 2 {
		t.Errorf("references of say total: %d, want 2", len(refs))
	}

	// Scopes: inside the action body the parameter is visible, outside it is not.
	in := strings.Index(infoSrc, `display "hi "`)
	if s := info.ScopeAt(in); s.Lookup("who") == nil {
		t.Error("who not visible inside greet")
	}
	if s := info.ScopeAt(0); s.Lookup("who") != nil || s.Lookup("greet") == nil {
		t.Error("file scope: want greet visible and who not")
	}

	// Types of expressions.
	var lit *ast.ListLit
	ast.Inspect(f, func(n ast.Node) bool {
		if l, ok := n.(*ast.ListLit); ok {
			lit = l
		}
		return true
	})
	if got := info.TypeOf(lit).String(); got != "List of Number" {
		t.Errorf("type of [1, 2] = %s", got)
	}
}

// TestPartialTree checks that a program with parse errors still gets names
// resolved for the statements that parsed.
func TestPartialTree(t *testing.T) {
	src := "store total as 1\ncheck if total is:\n    display total\nend check\ndisplay total plus\n"
	f, _ := parser.Parse(src)
	info, _ := check.Check(f, src)
	uses := 0
	for id, sym := range info.Uses {
		if id.Name == "total" && sym.Kind == check.SymVariable {
			uses++
		}
	}
	if uses == 0 {
		t.Error("no uses of total resolved in a partial tree")
	}
}

func TestIdentAtAndVisibleAt(t *testing.T) {
	src := "store alpha as 1\ndefine action called later:\n    store inner as alpha\n    display inner\nend action\ndisplay alpha\nstore beta as 2\ndisplay beta\n"
	f, _ := parser.Parse(src)
	info, _ := check.Check(f, src)

	// Every character of an identifier, and the offset just after it, finds it.
	use := strings.Index(src, "display alpha") + len("display ")
	for off := use; off <= use+len("alpha"); off++ {
		id, sym := info.IdentAt(off)
		if id == nil || id.Name != "alpha" || sym == nil || sym.Decl.Start != 6 {
			t.Errorf("IdentAt(%d) = %v, %v", off, id, sym)
		}
	}
	if id, _ := info.IdentAt(strings.Index(src, "display alpha")); id != nil {
		t.Errorf("IdentAt on a keyword = %q, want nil", id.Name)
	}

	names := func(off int) string {
		var ns []string
		for _, s := range info.VisibleAt(off) {
			if s.Kind != check.SymPredeclared {
				ns = append(ns, s.Name)
			}
		}
		return strings.Join(ns, " ")
	}
	// Inside the action: alpha (declared before), later (an action), inner after its declaration.
	if got := names(strings.Index(src, "display inner")); got != "alpha inner later" {
		t.Errorf("visible in action = %q", got)
	}
	// At the top of the file only the action is visible (actions may be called early).
	if got := names(0); got != "later" {
		t.Errorf("visible at start = %q", got)
	}
	// beta is visible only after its declaration.
	if got := names(strings.Index(src, "display beta")); got != "alpha beta later" {
		t.Errorf("visible at end = %q", got)
	}
}

func TestInferredTypes(t *testing.T) {
	src := "define action called two:\n    return 2\nend action\ndefine action called maybe with parameters n:\n    check if n is 1:\n        return \"one\"\n    end check\nend action\nstore a as two\nstore b as maybe of 1\nstore c as [a, 3]\nfor each item in c:\n    display item\nend for\n"
	f, _ := parser.Parse(src)
	info, diags := check.Check(f, src)
	for _, d := range diags {
		if d.Code != "ANALYZE-UNUSED" {
			t.Errorf("unexpected %s: %s", d.Code, d.Message)
		}
	}
	expectType := func(name, want string) {
		t.Helper()
		for id, sym := range info.Defs {
			if id.Name == name && sym.Kind != 0 {
				if got := info.TypeOf(id); got == nil || got.String() != want {
					t.Errorf("type of %s = %v, want %s", name, got, want)
				}
				return
			}
		}
		t.Errorf("%s not defined", name)
	}
	expectType("a", "Number")
	expectType("b", "Text or Nothing") // returns only when n is 1: Nothing otherwise
	expectType("c", "List of Number")
	expectType("item", "Number")
}

// TestTypesAfterUserCode checks what an editor reads of the variables
// after a method's call, which the checker follows the reference in
// treating as code that may have put anything in them (no rule holds them
// to their type after it): their types and members as the user declared
// them, for hover, completion and navigation.
func TestTypesAfterUserCode(t *testing.T) {
	src := "create container Task:\n    property title: Text\n    action finish:\n        display title\n    end\nend\ncreate new Task as chore:\n    title is \"dishes\"\nend\nstore left as 5\nchore.finish()\ndisplay left\ndisplay chore.title\nchore.finish()\nchange left to \"none\"\n"
	f, _ := parser.Parse(src)
	info, diags := check.Check(f, src)
	for _, d := range diags {
		if d.Severity == diag.Error {
			t.Errorf("unexpected %s: %s", d.Code, d.Message)
		}
	}
	for _, c := range []struct {
		word string
		nth  int
		want string
	}{{"left", 2, "Number"}, {"chore", 3, "Instance<Task>"}, {"chore", 4, "Instance<Task>"}} {
		if got := info.TypeOf(identAt(t, f, src, c.word, c.nth)); got == nil || got.String() != c.want {
			t.Errorf("type of %s #%d = %v, want %s", c.word, c.nth, got, c.want)
		}
	}
	for _, c := range []struct {
		word string
		nth  int
		kind check.SymbolKind
	}{{"title", 4, check.SymProperty}, {"finish", 3, check.SymMethod}} {
		if sym := info.Uses[identAt(t, f, src, c.word, c.nth)]; sym == nil || sym.Kind != c.kind {
			t.Errorf("%s #%d resolves to %v, want a member of Task", c.word, c.nth, sym)
		}
	}
}

// TestInferredResultOfBrokenBody checks the result inferred for an action
// without a declared one while a line of its body does not parse (a line
// being typed): Nothing when no statement of the body may give back a value
// whatever the broken line was meant to be, and not known otherwise.
func TestInferredResultOfBrokenBody(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"a store being typed before the last display", "    store half as\n    display \"x\"\n", "Nothing"},
		{"a display cut short", "    display \"a\" with (1\n    display \"x\"\n", "Nothing"},
		{"a change with a stray word", "    store n as 1\n    change n to to 2\n    display n\n", "Nothing"},
		{"a stray word before a store", "    ( store half as 1\n    display \"x\"\n", "Nothing"},
		{"a stray word after a store", "    store half as 1 as\n    display \"x\"\n", "Nothing"},
		{"a line that may be a return", "    give 5\n    display \"x\"\n", "Unknown"},
		{"a return being typed", "    give\n    display \"x\"\n", "Unknown"},
		{"a return broken after its give", "    give as back 5\n    display \"x\"\n", "Unknown"},
		{"a display with a stray word as the last statement", "    store half as 1\n    display end \"\"\n", "Nothing"},
		{"a broken store as the last statement, a value's place", "    store half as\n", "Unknown"},
		{"a return besides", "    store half as\n    check if yes:\n        give back 1\n    end check\n    display \"x\"\n", "Unknown"},
		{"a bare value last", "    store half as\n    5\n", "Unknown"},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := "define action called f:\n" + c.body + "end action\nstore r as f\ndisplay r\n"
			f, _ := parser.Parse(src)
			info, _ := check.Check(f, src)
			for id, sym := range info.Defs {
				if id.Name == "r" && sym.Kind != 0 {
					if got := info.TypeOf(id); got == nil || got.String() != c.want {
						t.Errorf("type of r = %v, want %s", got, c.want)
					}
					return
				}
			}
			t.Error("r not defined")
		})
	}
}

// TestConcurrentChecks checks documents on several goroutines at once, as
// the server does for its open files (the universe and the builtins' symbols
// are shared and must not be written), and checks that each answer equals
// the one a check of the same document alone gives: the diagnostics, and
// for every identifier its symbol, declaration and type, and the names
// visible at the end of each line. The documents are infoSrc, made-up ones
// with errors, and the corpus's test programs (every fourth) when present.
// Run it with -race too, which also sees writes that change no answer.
func TestConcurrentChecks(t *testing.T) {
	t.Parallel()
	docs := []string{
		infoSrc,
		"store x as 1\nchange y to x plus \"a\"\ndisplay nope\ncheck if nope is between x and 3:\n    display x\nend check\n",
		"define action called f with a:\n    return a plus 1\nend action\nstore r as f of \"t\"\ncreate container Box:\n    property size: Number\nend\nstore b as new Box\ndisplay b.size with r\n",
	}
	for i, path := range testcorpus.Glob(t, "wfl/TestPrograms/*.wfl") {
		if b, err := os.ReadFile(path); err == nil && i%4 == 0 {
			docs = append(docs, string(b))
		}
	}
	want := make([]string, len(docs))
	for i, src := range docs {
		want[i] = checkAnswers(src)
	}
	const workers = 4
	got := make([][]string, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[w] = make([]string, len(docs))
			for k := range docs { // each worker in its own order
				i := (k + w*len(docs)/workers) % len(docs)
				got[w][i] = checkAnswers(docs[i])
			}
		}()
	}
	wg.Wait()
	for w := range workers {
		for i := range docs {
			if got[w][i] != want[i] {
				t.Errorf("document %d checked beside others (worker %d) answers otherwise than alone:\n%s", i, w, txtar.Diff(want[i], got[w][i]))
			}
		}
	}
	if len(docs) < 4 {
		t.Logf("%d documents (no corpus)", len(docs))
	}
}

// checkAnswers checks src and prints what a user is told of it: the
// diagnostics, the symbol, declaration and type at each identifier, and
// the names visible (with their types) at the end of each line.
func checkAnswers(src string) string {
	f, _ := parser.Parse(src)
	info, diags := check.Check(f, src)
	var b strings.Builder
	for _, d := range diags {
		fmt.Fprintf(&b, "diag %v %s %s %q\n", d.Span, d.Severity, d.Code, d.Message)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			at, sym := info.IdentAt(id.Pos())
			fmt.Fprintf(&b, "ident %d %s:", id.Pos(), id.Name)
			if at != nil && sym != nil {
				fmt.Fprintf(&b, " %s %v %v %v", sym.Name, sym.Kind, sym.Decl, sym.Type)
			}
			fmt.Fprintf(&b, " %v\n", info.TypeOf(id))
		}
		return true
	})
	for off := strings.IndexByte(src, '\n'); off >= 0; {
		var names []string
		for _, sym := range info.VisibleAt(off) {
			names = append(names, fmt.Sprintf("%s:%v", sym.Name, sym.Type))
		}
		slices.Sort(names)
		fmt.Fprintf(&b, "visible %d %s\n", off, strings.Join(names, " "))
		next := strings.IndexByte(src[off+1:], '\n')
		if next < 0 {
			break
		}
		off += 1 + next
	}
	return b.String()
}
