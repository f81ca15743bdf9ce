package check_test

import (
	goast "go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/parser"
)

// The tests of this file hold the resolver to its promise: every name of
// every tree resolves to a symbol (Info.Defs or Info.Uses), or carries a
// diagnostic that says why it does not.

// namedSlots calls f for each identifier of the tree rooted at n, with the
// slot that holds it ("VarDecl.Name", "DisplayStmt.Values", …).
func namedSlots(n any, f func(id *ast.Ident, slot string)) {
	var walk func(v reflect.Value, slot string)
	walk = func(v reflect.Value, slot string) {
		switch v.Kind() {
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), slot)
			}
		case reflect.Pointer:
			if v.IsNil() {
				return
			}
			switch x := v.Interface().(type) {
			case *ast.Ident:
				f(x, slot)
				return
			case *ast.CommentGroup:
				return
			}
			walk(v.Elem(), slot)
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				walk(v.Field(i), v.Type().Name()+"."+v.Type().Field(i).Name)
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), slot)
			}
		}
	}
	walk(reflect.ValueOf(n), "")
}

// explained reports whether the unresolved identifier id carries a
// diagnostic: one on the identifier itself, one that names it and covers
// it, or one whose related information points at it. A parse error
// explains every name it covers.
func explained(id *ast.Ident, diags []diag.Diagnostic) bool {
	for _, d := range diags {
		covers := d.Span.Start <= id.Pos() && id.End() <= d.Span.End
		if covers && (d.Category == diag.Parse || d.Span.Start == id.Pos() && d.Span.End == id.End() || strings.Contains(d.Message, "'"+id.Name+"'")) {
			return true
		}
		for _, r := range d.Related {
			if r.Span.Start == id.Pos() && r.Span.End == id.End() {
				return true
			}
		}
	}
	return false
}

// unresolved returns the identifiers of src that resolve to nothing and
// carry no diagnostic, by slot, and the number of identifiers.
func unresolved(src string) (map[string][]*ast.Ident, int) {
	f, pd := parser.Parse(src)
	info, passes := check.CheckPasses(f, src, check.FileContext(f))
	all := append(append(append(append([]diag.Diagnostic{}, pd...), passes.Analyzer...), passes.Static...), passes.Type...)
	out := map[string][]*ast.Ident{}
	n := 0
	namedSlots(f, func(id *ast.Ident, slot string) {
		n++
		if info.ObjectOf(id) == nil && !explained(id, all) && !otherReading(info, f, id, slot) {
			out[slot] = append(out[slot], id)
		}
	})
	return out, n
}

// TestEveryNameResolved checks every identifier of every corpus program
// and mutant (every 32nd mutant under the race detector: the checker
// runs no goroutines).
func TestEveryNameResolved(t *testing.T) {
	t.Parallel()
	progs := testcorpus.Programs(t)
	mutants := testcorpus.Glob(t, "wfl-mutants/*.wfl")
	for i, p := range mutants {
		if i%testcorpus.RaceStride(32) != 0 {
			continue
		}
		if data, err := os.ReadFile(p); err == nil {
			progs[p] = string(data)
		}
	}
	if len(progs) == 0 {
		t.Skip("corpus not found")
	}
	total, missed := 0, 0
	for p, src := range progs {
		bad, n := unresolved(src)
		total += n
		for slot, ids := range bad {
			for _, id := range ids {
				missed++
				if missed <= 20 {
					t.Errorf("%s: %q (%s at offset %d) resolves to nothing and carries no diagnostic", p, id.Name, slot, id.Pos())
				}
			}
		}
	}
	t.Logf("%d programs, %d identifiers, %d unresolved without a diagnostic", len(progs), total, missed)
}

// slotPrograms are small programs in which every slot of the tree that can
// hold a name holds one, each declared before it is used.
var slotPrograms = []string{
	`store x as 1
store items as [x, 2]
store total as x plus 1
change total to total minus x
add x to items
remove x from items
push with items and x
subtract x from total
multiply total by x
divide total by x
display x "," total
check if x is between x and total:
    display (x)
otherwise check if not x:
    display -x
end check
store flag as yes
check if flag:
    display x
end check
repeat while flag:
    change flag to no
end repeat
x
if flag then display x`,
	`store x as 1
store joined as "a" with x
store items as [x]
store element as items[x]
store size as length of items
store typ as typeof with x
store has as contains x in joined
create pattern word:
    one or more letter then capture {one or more digit} as digits_part
end pattern
store matched as joined matches word
store where as find word in joined
store sep as ","
display joined find word in joined
display joined replace word with sep in joined
display joined split joined by sep
clear items list
display [element, size, typ, has, matched, where]`,
	`store x as 1
count from x to x by x as i:
    display i
end count
store things as [1, 2]
for each thing in things:
    display thing
end for
repeat while x is less than 3:
    change x to x plus 1
end repeat
repeat until x is 3:
    change x to x plus 1
end repeat
if x is 1 then
    display x
end if
route x:
    when x:
        display x
    otherwise:
        display x
end route
try:
    display x
when error as problem:
    display problem
end try
create list names:
    add x
end list
create map settings:
    theme is x
end map
display settings.theme with names
create date day as x
display day
return x`,
	`create interface Named:
    requires action name needs style: Text
end
create interface Shape extends Named:
    requires action area: Number
end
store first_label as "b"
create container Base:
    property label: Text defaults first_label
    action init
        display label
    end
end
create container Point extends Base implements Shape:
    property x: Number defaults 0
    event moved needs dx: Number
    action area: Number
        display x
        trigger moved
        give back 0
    end
    action name needs style: Text
        parent init
        give back label
    end
end
store first_x as 1
create new Point as p:
    x is first_x
end
display p.x with p.area()
event ready
trigger ready
on 1 ready
define action called greet with parameters who as text:
    display who
end action
call greet with who: "a"
export action greet
try:
    display 1
when error:
    display error.message
end try`,
	`store path as "a.txt"
open file at path for appending as f
open file at path and read content as text_value
write content text_value into f
write binary text_value into f
write text_value to f
close file f
create directory at path
create file at path with text_value
delete file at path
wait for write content text_value into f
store n as 1
wait for n milliseconds
wait for store c as read n bytes from f
display c
display file exists at path
display file size of f
display list files in path with extension path
store arguments_list as [path]
execute command path with arguments arguments_list using shell as out
spawn command path as proc
wait for process proc to complete as code
read output from process proc as output_text
kill process proc
display process proc is running
execute wfl file at path with out and read output as res
display out with code with output_text with res
open database at path as db
store values as [n]
store rows as query db with path and parameters values
in transaction on db:
    display rows
end transaction
close database db
load module from path
include from path`,
	`store port_number as 8080
store tls_cert as "c.pem"
store tls_key as "k.pem"
listen on port port_number secured with certificate tls_cert and key tls_key as web
listen on port port_number redirecting to port port_number as other
listen for websockets on port port_number as ws
wait for request comes in on web as req with timeout port_number
store status_code as 200
store kind as "text/plain"
store extra as [1]
respond to req with tls_cert and status status_code and content_type kind and headers extra
open url at tls_cert with method tls_cert and headers extra and body tls_key and read response as resp
open url at tls_cert and stream response as stream
wait for next chunk from stream as chunk
start streaming response to req with status status_code and content_type kind and headers extra as out
write line chunk to out
flush out
on websocket message to ws as msg:
    display msg with id
end on
send websocket message resp to ws
define action called stop_it:
    display 1
end action
register signal handler for SIGINT as stop_it
stop accepting connections on web
close server web
display header "x" of req`,
	`store a as 1
describe "math":
    setup:
        store b as a
    end setup
    test "adds":
        expect b to equal a
    end test
end describe`,
}

// otherReading reports whether id is a name of a statement read two ways
// (`write line NAME … to T`, `flush NAME`) that only one reading binds: the
// merged name of the second reading (check.LeadOf), not read when it is not
// bound, or the first reading's leftmost name when the merged one is bound.
func otherReading(info *check.Info, f *ast.File, id *ast.Ident, slot string) bool {
	if slot == "WriteStmt.Classic" || slot == "FlushStmt.Legacy" {
		return true
	}
	found := false
	ast.Inspect(f, func(n ast.Node) bool {
		var alt *ast.Ident
		var e ast.Expr
		switch s := n.(type) {
		case *ast.WriteStmt:
			alt, e = s.Classic, s.Content
		case *ast.FlushStmt:
			alt, e = s.Legacy, s.Target
		}
		if alt != nil && check.LeadOf(e, alt) == id && info.ObjectOf(alt) != nil {
			found = true
		}
		return !found
	})
	return found
}

// nameless are the slots that hold an expression but can never hold a
// name, or that the parser never fills with one.
var nameless = map[string]string{
	"Param.Default":      "the default value's expression swallows the ':' that must end the header (as in the reference), so no program that parses has one",
	"OnEventStmt.Source": "`on NAME EVENT` merges the two names into one, so the source is never a bare name",
}

// TestEveryNameSlotResolved checks that every slot of the tree that can
// hold a name (a field of type *Ident, []*Ident, Expr or []Expr of a node
// declared in lang/ast) holds one in slotPrograms, and that every name
// there resolves: a node added to the tree without the resolver visiting
// its names fails here.
func TestEveryNameSlotResolved(t *testing.T) {
	slots := astNameSlots(t)
	seen := map[string]bool{}
	for i, src := range slotPrograms {
		f, pd := parser.Parse(src)
		for _, d := range pd {
			if d.Severity == diag.Error {
				t.Fatalf("program %d: %s", i, d.Message)
			}
		}
		info, _ := check.Check(f, src)
		namedSlots(f, func(id *ast.Ident, slot string) {
			seen[slot] = true
			if info.ObjectOf(id) == nil && !otherReading(info, f, id, slot) {
				t.Errorf("program %d: %q in %s resolves to nothing", i, id.Name, slot)
			}
		})
	}
	var missing []string
	for _, s := range slots {
		if !seen[s] && nameless[s] == "" {
			missing = append(missing, s)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("no program of slotPrograms holds a name in: %s", strings.Join(missing, ", "))
	}
}

// astNameSlots lists the fields of the nodes of lang/ast that can hold a
// name, from its source.
func astNameSlots(t *testing.T) []string {
	files, _ := filepath.Glob(filepath.Join("..", "ast", "*.go"))
	fset := gotoken.NewFileSet()
	var out []string
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		af, err := goparser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		goast.Inspect(af, func(n goast.Node) bool {
			ts, ok := n.(*goast.TypeSpec)
			if !ok {
				return true
			}
			st, ok := ts.Type.(*goast.StructType)
			if !ok {
				return false
			}
			for _, fl := range st.Fields.List {
				switch typeString(fl.Type) {
				case "*Ident", "[]*Ident", "Expr", "[]Expr":
					for _, nm := range fl.Names {
						out = append(out, ts.Name.Name+"."+nm.Name)
					}
				}
			}
			return false
		})
	}
	if len(out) == 0 {
		t.Fatal("no name slots found in lang/ast")
	}
	return out
}

func typeString(e goast.Expr) string {
	switch e := e.(type) {
	case *goast.StarExpr:
		return "*" + typeString(e.X)
	case *goast.ArrayType:
		return "[]" + typeString(e.Elt)
	case *goast.Ident:
		return e.Name
	}
	return ""
}

// TestOuter checks where a file scope's Outer stands: its declarations right
// after the scope's own, for Lookup and Resolve, and its bound names right
// after the scope's own bound names, for Resolve only.
func TestOuter(t *testing.T) {
	f, _ := parser.Parse("store own as 1\n")
	info, _ := check.Check(f, "store own as 1\n")
	g := info.Global
	declared := []*check.Symbol{{Name: "own", Kind: check.SymVariable}, {Name: "far", Kind: check.SymVariable}, {Name: "far", Kind: check.SymConstant}}
	bound := []*check.Symbol{{Name: "req", Kind: check.SymImplicit}, {Name: "far", Kind: check.SymImplicit}}
	g.SetOuter(func(name string, b bool) *check.Symbol {
		list := declared
		if b {
			list = bound
		}
		for _, sym := range list {
			if sym.Name == name {
				return sym
			}
		}
		return nil
	})
	tests := []struct {
		name            string
		lookup, resolve *check.Symbol
	}{
		{"own", g.Symbols.Get("own"), g.Symbols.Get("own")},
		{"far", declared[1], declared[1]},
		{"req", nil, bound[0]},
		{"nowhere", nil, nil},
	}
	for _, tt := range tests {
		if got := g.Lookup(tt.name); got != tt.lookup {
			t.Errorf("Lookup(%q) = %+v, want %+v", tt.name, got, tt.lookup)
		}
		if got := g.Resolve(tt.name); got != tt.resolve {
			t.Errorf("Resolve(%q) = %+v, want %+v", tt.name, got, tt.resolve)
		}
	}
	if g.Symbols.Get("own") == nil {
		t.Fatal("own is not declared")
	}
}
