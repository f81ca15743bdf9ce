package parser

import (
	"fmt"
	"strings"
	"testing"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/diag"
)

func errorsOf(diags []diag.Diagnostic) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, d := range diags {
		if d.Severity == diag.Error {
			out = append(out, d)
		}
	}
	return out
}

// TestStatementForms parses one example of each of the 104 surface forms of
// the reference notes' appendix A and checks the node it becomes.
func TestStatementForms(t *testing.T) {
	tests := []struct {
		form int
		src  string
		want string // type of the first top-level statement
	}{
		{1, `store x as 1`, "*ast.VarDecl"},
		{2, `create x as 1`, "*ast.VarDecl"},
		{3, `store new constant PI as 3.14`, "*ast.VarDecl"},
		{4, `create new constant PI as 3.14`, "*ast.VarDecl"},
		{5, "store rows as query db with \"select 1\" and parameters [1]", "*ast.VarDecl"},
		{6, "store r as execute db with \"delete\"", "*ast.VarDecl"},
		{7, `change x to 2`, "*ast.AssignStmt"},
		{8, `add 1 to items`, "*ast.AddStmt"},
		{9, `subtract 1 from total`, "*ast.AssignStmt"},
		{10, `multiply total by 2`, "*ast.AssignStmt"},
		{11, `divide total by 2`, "*ast.AssignStmt"},
		{12, `display "a" x 3`, "*ast.DisplayStmt"},
		{13, "check if x is 1:\n display 1\notherwise check if x is 2:\n display 2\notherwise:\n display 3\nend check", "*ast.IfStmt"},
		{14, `if x is 1 then display 1`, "*ast.SingleIfStmt"},
		{15, "if x is 1 then\n display 1\notherwise\n display 2\nend if", "*ast.IfStmt"},
		{16, "count from 1 to 10 by 2 as i:\n display i\nend count", "*ast.CountStmt"},
		{17, "count from 10 down to 1:\n display count\nend count", "*ast.CountStmt"},
		{18, "for each item in reversed items:\n display item\nend for", "*ast.ForEachStmt"},
		{19, "repeat while x is less than 3:\n change x to x plus 1\nend repeat", "*ast.RepeatStmt"},
		{20, "repeat until x is 3:\n change x to x plus 1\nend repeat", "*ast.RepeatStmt"},
		{21, "repeat forever:\n break\nend repeat", "*ast.RepeatStmt"},
		{22, "repeat: change x to x plus 1 until x is 5", "*ast.RepeatStmt"},
		{23, "main loop concurrently:\n break\nend loop", "*ast.MainLoopStmt"},
		{24, "break", "*ast.BranchStmt"},
		{25, "skip", "*ast.BranchStmt"},
		{26, "exit loop", "*ast.ExitStmt"},
		{27, "exit program", "*ast.ExitStmt"},
		{28, "define action called sum two with parameters a as number and b:\n give back a plus b\nend action", "*ast.ActionDecl"},
		{29, "return x", "*ast.ReturnStmt"},
		{30, "return query db with \"select 1\"", "*ast.ReturnStmt"},
		{31, "try:\n display 1\nwhen file not found as e:\n display e\ncatch:\n display error\notherwise:\n display 2\nfinally:\n display 3\nend try", "*ast.TryStmt"},
		{32, "create list items:\n add 1\n add 2\nend list", "*ast.CreateListStmt"},
		{33, "create map m:\n name is \"a\"\n \"key\" is 2\nend map", "*ast.CreateMapStmt"},
		{34, "push with items and 3", "*ast.PushStmt"},
		{35, "remove 3 from items", "*ast.RemoveStmt"},
		{36, "clear items list", "*ast.ClearStmt"},
		{37, "create date d as \"2024-01-01\"", "*ast.CreateDateStmt"},
		{38, "create time t", "*ast.CreateDateStmt"},
		{39, "create container Point extends Base implements Shape, Named:\n property x: Number defaults 0\n static property instances: Number\n event moved needs dx: Number\n action area: Number\n  give back 0\n end\nend", "*ast.ContainerDecl"},
		{40, "create interface Shape extends Named:\n requires action area needs scale: Number: Number\nend", "*ast.InterfaceDecl"},
		{41, "create new Point as p:\n x is 1\n y: 2\nend", "*ast.NewStmt"},
		{42, "event ready", "*ast.EventDecl"},
		{43, "trigger ready", "*ast.TriggerStmt"},
		{44, "on 1 ready", "*ast.OnEventStmt"},
		{45, "parent init", "*ast.ParentCallStmt"},
		{46, "create pattern email:\n one or more letter or digit followed by \"@\" then capture {one or more any letter} as host\nend pattern", "*ast.PatternDecl"},
		{47, "open file at \"a.txt\" for appending as f", "*ast.OpenFileStmt"},
		{48, "open file at \"a.txt\" and read content as content", "*ast.OpenFileStmt"},
		{49, "open file at \"a.txt\" as f", "*ast.OpenFileStmt"},
		{50, "open file \"a.txt\" as f", "*ast.OpenFileStmt"},
		{51, "close file f", "*ast.CloseStmt"},
		{52, "write content \"x\" into f", "*ast.WriteStmt"},
		{53, "write binary bytes_value into f", "*ast.WriteStmt"},
		{54, "write \"x\" to f", "*ast.WriteStmt"},
		{55, "create directory at \"d\"", "*ast.CreateDirStmt"},
		{56, "create file at \"f\" with \"x\"", "*ast.CreateFileStmt"},
		{57, "delete file at \"f\"", "*ast.DeleteStmt"},
		{58, "delete directory at \"d\"", "*ast.DeleteStmt"},
		{59, "copy_file from \"a\" to \"b\"", "*ast.ExprStmt"},
		{60, "makedirs at \"a\" recursive yes", "*ast.ExprStmt"},
		{61, "wait for write content \"x\" into f", "*ast.WaitForStmt"},
		{62, "wait for append content \"x\" into f", "*ast.WaitForStmt"},
		{63, "wait for process p to complete as code", "*ast.WaitProcessStmt"},
		{64, "wait for request that comes in on srv as req with timeout 5", "*ast.WaitRequestStmt"},
		{65, "wait for next chunk from s as c", "*ast.WaitNextStmt"},
		{66, "wait for next line from s as l", "*ast.WaitNextStmt"},
		{67, "wait for 100 milliseconds", "*ast.WaitDurationStmt"},
		{68, "wait for store c as read content from f", "*ast.WaitForStmt"},
		{69, "execute command \"ls\" with arguments [\"-l\"] using shell as out", "*ast.ExecCommandStmt"},
		{70, "execute wfl file at \"a.wfl\" with req and read output as out", "*ast.ExecFileStmt"},
		{71, "spawn command \"sleep\" as proc", "*ast.ExecCommandStmt"},
		{72, "read output from process proc as out", "*ast.ReadOutputStmt"},
		{73, "kill process proc", "*ast.KillStmt"},
		{74, "listen on port 8080 as web", "*ast.ListenStmt"},
		{75, "listen on port 8443 secured with certificate \"c\" and key \"k\" as web", "*ast.ListenStmt"},
		{76, "listen on port 80 redirecting to port 443 as web", "*ast.ListenStmt"},
		{77, "listen for websockets on port 9000 as ws", "*ast.ListenStmt"},
		{78, "respond to req with \"ok\" and status 200 and content_type \"text/plain\"", "*ast.RespondStmt"},
		{79, "open url at \"http://x\" and read content as page", "*ast.HTTPStmt"},
		{80, "open url at \"http://x\" with method \"POST\" and body b and read response as r", "*ast.HTTPStmt"},
		{81, "open url at \"http://x\" and stream response as s", "*ast.HTTPStmt"},
		{82, "start streaming response to req with status 200 as s", "*ast.StartStreamStmt"},
		{83, "write line \"x\" to s", "*ast.WriteStmt"},
		{84, "flush s", "*ast.FlushStmt"},
		{85, "on websocket message to ws as msg:\n display msg\nend on", "*ast.WebSocketHandlerStmt"},
		{86, "send websocket message reply to conn", "*ast.WebSocketSendStmt"},
		{87, "broadcast websocket message reply to ws", "*ast.WebSocketSendStmt"},
		{88, "register signal handler for SIGINT as stop_it", "*ast.SignalStmt"},
		{89, "stop accepting connections on web", "*ast.StopAcceptingStmt"},
		{90, "close server web", "*ast.CloseStmt"},
		{91, "open database at \"sqlite://a\" as db", "*ast.OpenDatabaseStmt"},
		{92, "connect to database at \"sqlite://a\" as db", "*ast.OpenDatabaseStmt"},
		{93, "in transaction on db:\n display 1\nend transaction", "*ast.TransactionStmt"},
		{94, "close database db", "*ast.CloseStmt"},
		{95, "load module from \"m.wfl\"", "*ast.LoadStmt"},
		{96, "include from \"m.wfl\"", "*ast.LoadStmt"},
		{97, "export action greet", "*ast.ExportStmt"},
		{98, "describe \"math\":\n setup:\n  store a as 1\n end setup\n teardown:\n  display 1\n end teardown\n test \"adds\":\n  expect a plus 1 to equal 2\n end test\nend describe", "*ast.DescribeStmt"},
		{101, "test \"t\":\n expect 1 to be greater than 0\nend test", "*ast.TestStmt"},
		{102, "expect items to have length 3", "*ast.ExpectStmt"},
		{103, "route x:\n when 1 or 2:\n  display 1\n when starts with \"a\":\n  display 2\n otherwise:\n  display 3\nend route", "*ast.RouteStmt"},
		{104, "call greet with name: \"x\" and age: 3", "*ast.ExprStmt"},
	}
	for _, tt := range tests {
		f, diags := Parse(tt.src)
		if errs := errorsOf(diags); len(errs) > 0 {
			t.Errorf("form %d: %q: unexpected error %s", tt.form, tt.src, errs[0].Message)
			continue
		}
		if len(f.Stmts) == 0 {
			t.Errorf("form %d: no statement", tt.form)
			continue
		}
		if got := fmt.Sprintf("%T", f.Stmts[0]); got != tt.want {
			t.Errorf("form %d: %q parsed as %s, want %s", tt.form, tt.src, got, tt.want)
		}
	}
}

// TestQuirks checks the reference's surprises (notes section 9 and 2.4):
// what is rejected, on which line, and odd but accepted shapes.
func TestQuirks(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		errLine  int    // 1-based line of the first error, 0 = no error
		contains string // substring of the first error message
	}{
		{"repeat N times is not a form", "repeat 10 times:\nend repeat", 1, "'while'"},
		{"listen as server: server is a keyword", "listen on port 8080 as server", 1, "variable name"},
		{"load module without from", "load module \"x\"", 1, "'from'"},
		{"module alias", "load module from \"x\" as m", 1, "aliases"},
		{"create list called", "create list called items:\nend list", 1, "list name"},
		{"end container inside container", "create container A:\n property x: Number\nend container", 3, "'container'"},
		{"reserved name", "store display as 1", 1, "reserved"},
		{"contextual name", "store count as 1\nstore text as 2", 0, ""},
		{"stray end check is silent", "end check\ndisplay 1", 0, ""},
		{"stray end describe is an error", "display 1\nend describe\ndisplay 2", 2, "closes nothing"},
		{"missing end check reports at check", "store a as 1\ncheck if a is 1:\n display a\n", 2, "end check"},
		{"add without to reports at add", "add 1\n", 1, "'to'"},
		{"two statements on one line", "display \"a\" store x as 1", 0, ""},
		{"dropped characters glue names", "store x y as 2\ndisplay x * y", 0, ""},
		{"single-line if then otherwise is an error", "if x then display 1 otherwise display 2", 1, ""},
		{"try needs a clause", "try:\n display 1\nend try", 1, "at least one"},
		{"otherwise in try needs colon", "try:\n display 1\ncatch:\n display 2\notherwise\n display 3\nend try", 5, "':'"},
		{"stray colon in expressions", "check if x is 5: display 1\nend check", 0, ""},
		{"unclosed list", "display [1, 2", 0, ""},
		{"of on a literal", "display \"a\" of b", 1, "'of'"},
		{"predefined pattern name", "create pattern digit:\n \"a\"\nend pattern", 1, "predefined"},
	}
	for _, tt := range tests {
		f, diags := Parse(tt.src)
		checkTree(t, tt.src, f)
		errs := errorsOf(diags)
		if tt.errLine == 0 {
			if len(errs) > 0 && tt.name != "unclosed list" {
				t.Errorf("%s: unexpected error %q", tt.name, errs[0].Message)
			}
			continue
		}
		if len(errs) == 0 {
			t.Errorf("%s: no error, want one on line %d", tt.name, tt.errLine)
			continue
		}
		line := 1 + strings.Count(tt.src[:errs[0].Span.Start], "\n")
		if line != tt.errLine {
			t.Errorf("%s: first error on line %d (%s), want line %d", tt.name, line, errs[0].Message, tt.errLine)
		}
		if !strings.Contains(errs[0].Message, tt.contains) {
			t.Errorf("%s: message %q does not mention %q", tt.name, errs[0].Message, tt.contains)
		}
		if errs[0].Code == "" || !strings.HasPrefix(errs[0].Code, "PARSE-") {
			t.Errorf("%s: code %q", tt.name, errs[0].Code)
		}
	}
}

func TestDocComments(t *testing.T) {
	src := "// Adds two numbers.\n// Returns the sum.\ndefine action called sum two with a and b:\n give back a plus b\nend action\n\n// loose\n\nstore x as 1 // trailing\n"
	f, _ := Parse(src)
	d, ok := f.Stmts[0].(*ast.ActionDecl)
	if !ok || d.Doc == nil || d.Doc.Text() != "Adds two numbers.\nReturns the sum." {
		t.Fatalf("action doc = %+v", d)
	}
	if v := f.Stmts[1].(*ast.VarDecl); v.Doc != nil {
		t.Errorf("a comment separated by a blank line became a doc: %q", v.Doc.Text())
	}
	if len(f.Comments) != 3 {
		t.Errorf("got %d comment groups, want 3", len(f.Comments))
	}
}

// TestParseConcurrent parses programs from many goroutines at once (Parse
// recycles token buffers) and compares each tree with a sequential parse.
func TestParseConcurrent(t *testing.T) {
	srcs := []string{
		"store x as 1\ndisplay x with \"a\"\n",
		"check if a is 1:\n display 1\notherwise:\n display 2\nend check\n",
		"define action called f with a:\n give back a plus 1\nend action\ndisplay f of 2\n",
		"store broken as\ncount from 1 to:\nend count\n",
	}
	want := make([]string, len(srcs))
	for i, s := range srcs {
		f, _ := Parse(s)
		want[i] = dumpTree(s, f)
	}
	done := make(chan string, 64)
	for g := 0; g < 16; g++ {
		go func(g int) {
			for k := 0; k < 50; k++ {
				i := (g + k) % len(srcs)
				f, _ := Parse(srcs[i])
				if got := dumpTree(srcs[i], f); got != want[i] {
					done <- fmt.Sprintf("goroutine %d: tree of program %d differs", g, i)
					return
				}
			}
			done <- ""
		}(g)
	}
	for g := 0; g < 16; g++ {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}

// TestUnitStray checks which units say stray `end` lines follow their
// statement: the silent ones (`end check`, a bare `end`, one at the end of
// the text) and those reported, but not a block's own closer.
func TestUnitStray(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []bool // each unit's Stray
	}{
		{"display 1\ncheck if x:\n    display 2\nend check\n", []bool{false, false}},
		{"display 1\nend check\ndisplay 2\n", []bool{true, false}},
		{"create new Box as b:\n    width is as 10\nheight is 5\nend\ndisplay b\n", []bool{false, true, false}},
		{"display 1\nend describe\ndisplay 2\n", []bool{true, false, false}}, // `describe` is read on its own
		{"display 1\nend\n", []bool{true}},
		{"display 1\n\n    end action\n", []bool{true}},
	} {
		_, units, _ := Units(c.src)
		got := make([]bool, len(units))
		for i, u := range units {
			got[i] = u.Stray
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q: Stray %v, want %v", c.src, got, c.want)
		}
	}
}

// TestParserStops parses with done closed: no statement is parsed whole.
func TestParserStops(t *testing.T) {
	src := strings.Repeat("store x as 1\ndisplay x\n", 5000)
	done := make(chan struct{})
	close(done)
	f, units, _, _ := UnitsLexedUntil(src, done)
	if len(units) > 1 || len(f.Stmts) > 1 {
		t.Errorf("%d units, %d statements after done closed, want at most one", len(units), len(f.Stmts))
	}
	if f, _, _, _ := UnitsLexedUntil(src, make(chan struct{})); len(f.Stmts) != 10000 {
		t.Errorf("%d statements with done open, want 10000", len(f.Stmts))
	}
}

// TestMembersEndWithTheirLastLine holds a body of member lines whose
// closer is missing to one end, whether the text ends after it or goes on
// (the layout ends it): its last line's. At the end of the text it took
// the blank lines after it, so an edit below it moved the end of its
// statement's findings in a derived analysis, and not in a full one
// (core's TestIncrementalEqualsFull at -stress=14, mutant 01230).
func TestMembersEndWithTheirLastLine(t *testing.T) {
	for _, body := range []string{
		"create list xs:\n    add 1",
		"create map m:\n    a is 1",
		"create new Person as bob:\n    name is \"Bob\"",
		"create container Box:\n    property size: Number",
	} {
		for _, after := range []string{"\n", "\n\n\n", "\n\ndisplay 1\n"} {
			f, _ := Parse(body + after)
			if len(f.Stmts) == 0 {
				t.Fatalf("%q: no statement", body+after)
			}
			if got := f.Stmts[0].End(); got != len(body) {
				t.Errorf("%q: the statement ends at %d, want %d (after its last line)", body+after, got, len(body))
			}
		}
	}
}
