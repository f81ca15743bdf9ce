package completion

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/core/internal/coretest"
	"wfl-lsp/core/internal/featuretest"
	"wfl-lsp/internal/testcorpus"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/lexer"
	"wfl-lsp/lang/parser"
	"wfl-lsp/lang/token"
)

// positionsBase is the program the grammar positions of
// TestCompletionPositions are typed after.
const positionsBase = `store age as 30
store balance as 100
store names as ["a", "b"]
store scores as [1, 2]
store greeting as "hi"
store flag as yes
create interface Named:
    requires action label: Text
end
create container Person:
    property name: Text
    action greet:
        display name
    end
end
create new Person as bob:
    name is "Bob"
end
define action called main:
    display 1
end action
`

// A positionCheck says what the items at a grammar position must be: the
// first one (first), ones offered before any other of the items (ahead of
// those in behind), ones never offered (none), or nothing at all (empty).
type positionCheck struct {
	first  []string // the first item is one of these
	none   []string // none of these is offered
	empty  bool     // nothing is offered
	before [2][]string
}

// TestCompletionPositions asks for completion at the grammar positions of
// WFL the editor meets (after positionsBase; ‸ is the cursor) and checks
// that what comes first fits there: a name of the kind the statement
// takes, a value of the type the place wants before those that would be a
// TYPE error, the closer of the open block after `end`, pattern words in a
// pattern's body, nothing where a new name is written.
func TestCompletionPositions(t *testing.T) {
	lists := []string{"names", "scores", "args", "positional_args"}
	numbers := []string{"age", "balance", "arg_count"}
	literals := []string{"yes", "no", "nothing", "missing", "undefined", "loop"}
	cases := []struct {
		name, text string
		check      positionCheck
	}{
		// What the statement takes.
		{"change", "change ‸", positionCheck{first: []string{"age", "balance", "names", "scores", "greeting", "flag", "bob"}, none: []string{"yes", "no", "nothing", "main", "length", "touppercase", "Person", "call"}}},
		{"change in a method", "create container Box:\n    property size: Number\n    action grow:\n        change ‸\n    end\nend\n", positionCheck{first: []string{"size"}, none: []string{"grow", "Box", "yes", "length"}}},
		{"change name to", "change age to ‸", positionCheck{first: numbers}},
		{"add to", "add 3 to ‸", positionCheck{first: append(slices.Clone(lists), numbers...), none: []string{"yes", "main", "length"}}},
		{"remove from", "remove 3 from ‸", positionCheck{first: lists, none: []string{"yes", "main"}}},
		{"clear", "clear ‸", positionCheck{first: lists, none: []string{"yes", "main", "length"}}},
		{"push with", "push with ‸", positionCheck{first: lists}},
		{"push with and", "push with scores and ‸", positionCheck{first: numbers}},
		{"call", "call ‸", positionCheck{first: []string{"main"}, none: []string{"age", "yes"}}},
		{"create new", "store p as create new ‸", positionCheck{first: []string{"Person"}, none: []string{"age", "Named"}}},
		{"create new statement", "create new ‸", positionCheck{first: []string{"Person"}, none: []string{"age"}}},
		{"extends", "create container Kid extends ‸", positionCheck{first: []string{"Person"}, none: []string{"Named", "age"}}},
		{"implements what the body defines", "create interface Aardvark:\n    requires action dig\nend\ncreate container Kid implements ‸\n    action label: Text\n        return \"kid\"\n    end\nend\n", positionCheck{first: []string{"Named"}}},
		{"implements with nothing defined", "create interface Zed\ncreate container Kid implements ‸\n    property x: Number\nend\n", positionCheck{first: []string{"Zed"}}},
		{"implements", "create container Kid implements ‸", positionCheck{first: []string{"Named"}, none: []string{"Person", "age"}}},
		{"parameter type", "define action called f with parameters a as ‸", positionCheck{first: []string{"text", "number", "boolean", "list", "any", "Person", "Named"}, none: []string{"age", "store"}}},
		{"property type", "create container Kid:\n    property toy: ‸", positionCheck{first: []string{"Text", "Number", "Boolean", "List", "Any", "Person", "Named"}, none: []string{"age"}}},
		{"trigger", "create container Bell:\n    event rung\n    action ring:\n        trigger ‸\n    end\nend\n", positionCheck{first: []string{"rung"}, none: []string{"age", "yes"}}},
		{"register signal handler", "register signal handler for SIGINT as ‸", positionCheck{first: []string{"main"}, none: []string{"age", "yes"}}},
		{"member", "display bob.‸", positionCheck{first: []string{"name", "greet"}, none: []string{"age"}}},
		// Values of the type the place wants first.
		{"length of", "display length of ‸", positionCheck{first: append(slices.Clone(lists), "greeting", "newline", "tab"), before: [2][]string{{"names", "scores", "greeting"}, {"age", "balance", "flag"}}}},
		{"for each in", "for each n in ‸", positionCheck{first: lists, before: [2][]string{{"names", "scores"}, {"age", "balance", "flag", "greeting"}}}},
		{"check if", "check if ‸", positionCheck{first: []string{"flag", "age", "balance", "names", "scores", "greeting", "bob", "not"}, before: [2][]string{{"flag", "age"}, literals}}},
		{"check if a builtin", "check if leng‸", positionCheck{first: []string{"length"}}},
		{"repeat while", "repeat while ‸", positionCheck{first: []string{"flag", "age", "balance", "names", "scores", "greeting", "bob", "not"}, before: [2][]string{{"flag"}, literals}}},
		{"check if and", "check if flag and ‸", positionCheck{first: []string{"flag", "not", "yes", "no"}, before: [2][]string{{"flag"}, {"balance", "names"}}}},
		{"plus", "display balance plus ‸", positionCheck{first: numbers, before: [2][]string{{"age", "balance"}, {"names", "flag", "yes", "nothing"}}}},
		{"times", "store doubled as age times ‸", positionCheck{first: numbers}},
		{"list index", "store aardvark as \"x\"\ndisplay scores[‸", positionCheck{first: numbers, before: [2][]string{{"age", "balance"}, {"aardvark", "names", "greeting", "flag"}}}},
		{"query with", "open database at \"a.db\" as db\nstore rows as query db with ‸", positionCheck{first: []string{"greeting"}}},
		{"execute with", "open database at \"a.db\" as db\nstore done as execute db with ‸", positionCheck{first: []string{"greeting"}}},
		{"respond to", "listen on port 8080 as web_server\nwait for request comes in on web_server as incoming\nrespond to ‸", positionCheck{first: []string{"incoming"}}},
		{"text index", "store aardvark as \"x\"\ndisplay greeting[‸", positionCheck{first: numbers}},
		{"count to", "count from 1 to ‸", positionCheck{first: numbers}},
		{"store as", "store total as ‸", positionCheck{first: []string{"age", "balance", "names", "scores", "greeting", "flag", "bob"}, before: [2][]string{{"age"}, literals}}},
		{"display", "display ‸", positionCheck{first: []string{"age", "balance", "names", "scores", "greeting", "flag", "bob"}, before: [2][]string{{"age"}, {"loop", "missing", "undefined"}}}},
		{"is", "check if age is ‸", positionCheck{first: []string{"greater than", "less than", "not", "equal to", "between", "above", "below", "not equal to", "greater than or equal to", "less than or equal to"}}},
		{"is after a truth value", "check if flag is ‸", positionCheck{first: []string{"not", "equal to", "not equal to", "flag", "yes", "no"}, before: [2][]string{{"yes", "no"}, {"greater than", "above", "between"}}}},
		{"or equal to", "check if age is less than or equal to ‸", positionCheck{first: numbers}},
		{"listen on port", "listen on port ‸", positionCheck{first: numbers}},
		{"is greater", "check if age is greater ‸", positionCheck{first: []string{"than", "than or equal to"}}},
		{"after a value", "display age ‸", positionCheck{first: []string{"plus", "minus", "times", "divided by", "modulo", "with", "is", "is not", "is greater than", "is less than", "and", "or"}, none: []string{"age", "store"}}},
		{"is greater than", "check if age is greater than ‸", positionCheck{first: numbers}},
		{"substring of", "display substring of ‸", positionCheck{first: []string{"greeting", "newline", "tab"}, before: [2][]string{{"greeting"}, {"age", "names"}}}},
		{"round of", "display round of ‸", positionCheck{first: numbers}},
		{"action argument", "define action called twice with parameters n as number:\n    return n times 2\nend action\ndisplay twice of ‸", positionCheck{first: numbers}},
		// New names: nothing to offer.
		{"parameter name", "define action called f with parameters a and ‸", positionCheck{empty: true}},
		{"first parameter name", "define action called f with parameters ‸", positionCheck{empty: true}},
		{"action name", "define action called ‸", positionCheck{empty: true}},
		{"for each name", "for each ‸", positionCheck{empty: true}},
		{"create new as", "create new Person as ‸", positionCheck{empty: true}},
		{"container name", "create container ‸", positionCheck{empty: true}},
		{"property name", "create container Kid:\n    property ‸", positionCheck{empty: true}},
		{"count as", "count from 1 to 3 as ‸", positionCheck{empty: true}},
		{"open file as", "open file at \"x.txt\" as ‸", positionCheck{empty: true}},
		{"pattern name", "create pattern ‸", positionCheck{empty: true}},
		// Closers.
		{"end check", "check if flag:\n    display 1\nend ‸", positionCheck{first: []string{"check"}}},
		{"end action", "define action called f:\n    display 1\nend ‸", positionCheck{first: []string{"action"}}},
		{"end for", "for each n in names:\n    display n\nend ‸", positionCheck{first: []string{"for"}}},
		{"end count", "count from 1 to 3:\n    display count\nend ‸", positionCheck{first: []string{"count"}}},
		{"end repeat", "repeat while flag:\n    display 1\nend ‸", positionCheck{first: []string{"repeat"}}},
		{"end try", "try:\n    display 1\nwhen error:\n    display 2\nend ‸", positionCheck{first: []string{"try"}}},
		{"end pattern", "create pattern zip:\n    digit\nend ‸", positionCheck{first: []string{"pattern"}}},
		{"end nested", "define action called f:\n    for each n in names:\n        display n\n    end ‸", positionCheck{first: []string{"for"}}},
		{"closed action body", "define action called f:\n    display 1\n    ‸\nend action\n", positionCheck{none: []string{"end action"}, first: []string{"store", "display", "check if", "change", "return", "give back", "for each", "count from", "call", "add", "repeat while"}}},
		{"open action body", "define action called f:\n    display 1\n    ‸", positionCheck{first: []string{"end action"}}},
		{"statement", "‸", positionCheck{first: []string{"store", "display", "check if", "change", "define action called", "create", "for each", "count from", "call", "add", "repeat while"}}},
		// Patterns.
		{"pattern body", "create pattern zip:\n    ‸", positionCheck{first: []string{"digit", "letter", "one or more", "zero or more", "optional", "exactly", "any letter", "any digit", "any character", "whitespace", "capture"}, none: []string{"store", "display", "age"}}},
		{"one or more", "create pattern zip:\n    one or more ‸", positionCheck{first: []string{"digit", "letter", "whitespace", "any letter", "any digit", "any character", "of"}, none: []string{"age", "store", "balance"}}},
		{"capture as", "create pattern zip:\n    capture { digit } as ‸", positionCheck{empty: true}},
		{"matches", "create pattern zip:\n    digit\nend pattern\ncheck if greeting matches ‸", positionCheck{first: []string{"zip"}}},
		{"wait for request on", "listen on port 8080 as web\nwait for request comes in on ‸", positionCheck{first: []string{"web"}}},
		{"wait for next line from", "open url at \"http://x\" and stream response as up\ncount from 1 to 3:\n    wait for next line from ‸", positionCheck{first: []string{"up"}}},
		{"property set", "create new Person as ann:\n    name is ‸\nend\n", positionCheck{first: []string{"greeting"}, none: []string{"above", "greater than"}}},
		{"property set unfinished", "create new Person as ann:\n    name is ‸", positionCheck{first: []string{"greeting"}, none: []string{"above", "greater than"}}},
		{"map entry with a text key", "create map m:\n    \"a\" is \"x\"\n    \"b\" is ‸\nend map\n", positionCheck{first: []string{"age", "balance", "names", "scores", "greeting", "flag", "bob"}, none: []string{"equal to", "not equal to"}}},
		{"property set of another type", "create container Lamp:\n    property lit: Boolean\nend\ncreate new Lamp as l1:\n    lit is no\nend\ncreate new Lamp as l2:\n    lit is ‸\nend\n", positionCheck{first: []string{"flag", "yes", "no"}, before: [2][]string{{"yes", "no"}, {"l1", "bob", "age"}}}},
		{"request fields before the request", "display ‸\nlisten on port 8080 as web\nwait for request comes in on web as incoming\n", positionCheck{none: []string{"body", "method", "path", "headers"}}},
		{"method in its container's action", "create container Box:\n    property size: Number\n    action grow:\n        display 1\n    end\n    action show:\n        display ‸\n    end\nend\n", positionCheck{first: []string{"size"}, none: []string{"grow", "show"}}},
		{"open file for", "open file at \"x.txt\" for ‸", positionCheck{first: []string{"reading", "writing", "appending", "append"}, none: []string{"age"}}},
		{"wait for process to", "wait for process p to ‸", positionCheck{first: []string{"complete"}, none: []string{"age"}}},
		{"expect to be of", "expect names to be of ‸", positionCheck{first: []string{"type"}, none: []string{"age"}}},
		{"expect to be of type", "expect names to be of type ‸", positionCheck{first: []string{`"List"`, `"Text"`}, none: []string{"age", "plus"}}},
		{"expect to have", "expect names to have ‸", positionCheck{first: []string{"length"}, none: []string{"age"}}},
		{"expect to have length", "expect names to have length ‸", positionCheck{none: []string{"age", "balance", "plus"}}},
		{"websocket handler", "on ‸", positionCheck{first: []string{"websocket message", "websocket connect", "websocket disconnect"}, none: []string{"age"}}},
		{"respond and", "listen on port 8080 as web\nwait for request comes in on web as incoming\nrespond to incoming with greeting and ‸", positionCheck{first: []string{"status", "content_type", "headers"}, none: []string{"age"}}},
		{"respond and content_type", "listen on port 8080 as web\nwait for request comes in on web as incoming\nrespond to incoming with \"x\" and content_type ‸", positionCheck{first: []string{"greeting", "body", "method", "path", "query", "client_ip"}, none: []string{"plus"}}},
		{"streaming status", "listen on port 8080 as web\nwait for request comes in on web as incoming\nstart streaming response to incoming with status ‸", positionCheck{first: []string{"age", "balance"}}},
		{"streaming content", "listen on port 8080 as web\nwait for request comes in on web as incoming\nstart streaming response to incoming with status 200 and content ‸", positionCheck{first: []string{"type"}}},
		{"describe", "describe ‸", positionCheck{empty: true}},
		{"test", "describe \"d\":\n    test ‸", positionCheck{empty: true}},
		{"pattern exactly", "create pattern zip:\n    exactly ‸", positionCheck{empty: true}},
		{"pattern at least", "create pattern zip:\n    at least ‸", positionCheck{empty: true}},
		{"pattern range", "create pattern zip:\n    2 to ‸", positionCheck{empty: true}},
		{"pattern group", "create pattern zip:\n    capture {\n        ‸", positionCheck{first: []string{"digit", "letter", "one or more", "zero or more", "optional", "exactly", "any letter", "any digit", "any character", "whitespace", "capture"}, none: []string{"age", "store"}}},
		{"open url clause", "open url at \"http://x\"\n    with method \"GET\"\n    and ‸", positionCheck{first: []string{"headers", "body", "method", "read"}, none: []string{"age"}}},
		{"write content", "open file at \"x.txt\" for writing as f\nwrite content ‸", positionCheck{first: []string{"greeting"}}},
		{"write line", "write line ‸", positionCheck{first: []string{"greeting"}, none: []string{"plus"}}},
		{"write line to", "listen on port 8080 as web\nwait for request comes in on web as incoming\nstart streaming response to incoming with status 200 as out\nwrite line greeting to ‸", positionCheck{first: []string{"out"}}},
		{"stream field", "open url at \"http://x\" and stream response as up\ndisplay up[‸", positionCheck{first: []string{"greeting"}}},
		{"replace in", "display replace \"a\" with \"b\" in ‸", positionCheck{first: []string{"greeting"}}},
		// What follows the cursor, in a line already written.
		{"change followed by to", "store aardvark as \"x\"\nchange ‸ to 3", positionCheck{first: numbers, before: [2][]string{{"age", "balance"}, {"aardvark", "greeting", "flag", "names"}}}},
		{"check if followed by an order", "check if ‸ is greater than 3:\n    display 1\nend check\n", positionCheck{first: numbers}},
		{"followed by an index", "display ‸[0]", positionCheck{first: []string{"names", "scores", "greeting", "args"}}},
		{"followed by a member", "display ‸.greet()", positionCheck{first: []string{"bob"}}},
		{"followed by arithmetic", "store aardvark as \"x\"\nstore d as ‸ divided by 2", positionCheck{first: numbers}},
		{"add followed by to", "store aardvark as \"x\"\nadd ‸ to age", positionCheck{first: numbers}},
		{"followed by a name", "display ‸ greeting \"!\"", positionCheck{first: []string{"yes", "no", "nothing", "current time in milliseconds"}, none: []string{"age", "call", "length"}}},
		{"with timeout", "store aardvark as \"x\"\nlisten on port 8080 as web\nwait for request comes in on web as incoming with timeout ‸", positionCheck{first: numbers, before: [2][]string{{"age", "balance"}, {"aardvark", "web", "greeting"}}}},
		{"file exists at", "check if file exists at ‸", positionCheck{first: []string{"greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab"}}},
		{"execute command", "wait for execute command ‸", positionCheck{first: []string{"greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab"}}},
		{"send websocket message", "send websocket message ‸", positionCheck{first: []string{"greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab"}, none: []string{"plus"}}},
		{"open url method", "open url at \"http://x\"\n    with method ‸", positionCheck{first: []string{"greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab"}, none: []string{"plus"}}},
		{"close", "open file at \"x.txt\" for reading as f\nclose ‸", positionCheck{first: []string{"f", "greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab"}, before: [2][]string{{"f"}, {"age", "balance", "names", "scores", "flag", "bob"}}}},
		{"write", "write ‸", positionCheck{first: []string{"line", "chunk", "content"}, none: []string{"age"}}},
		{"respond and followed by a text", "listen on port 8080 as web\nwait for request comes in on web as incoming\nrespond to incoming with greeting and ‸ \"text/html\"", positionCheck{first: []string{"content_type"}}},
		{"streaming content type", "listen on port 8080 as web\nwait for request comes in on web as incoming\nstart streaming response to incoming with status 200 and content type ‸", positionCheck{first: []string{"greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab", "body", "method", "path", "query", "client_ip"}, none: []string{"plus"}}},
		{"wait for append content", "open file at \"x.txt\" for appending as f\nwait for append content ‸", positionCheck{first: []string{"greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab"}}},
		{"call followed by arguments", "define action called twice with parameters n as number:\n    return n times 2\nend action\ncall ‸ with 3", positionCheck{first: []string{"twice"}}},
		{"method argument", "create container Acc:\n    property total: Number\n    action deposit needs amount: Number:\n        change total to total plus amount\n    end\nend\ncreate new Acc as acc:\n    total is 0\nend\nacc.deposit(‸", positionCheck{first: numbers, before: [2][]string{{"age", "balance"}, {"acc", "greeting", "names"}}}},
		{"member in a value", "display \"n: \" with bob.‸", positionCheck{first: []string{"name"}}},
		{"store a property in its action", "create container Tag:\n    property label: Text\n    action set needs b: Boolean, t: Text:\n        store label as ‸\n    end\nend\n", positionCheck{first: []string{"t", "label", "greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab"}, before: [2][]string{{"t"}, {"b"}}}},
		{"contains of a text and", "display contains of greeting and ‸", positionCheck{first: []string{"greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab"}}},
		{"find in", "create pattern zip:\n    digit\nend pattern\nstore r as find zip in ‸", positionCheck{first: []string{"greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab"}}},
		{"split", "store parts as split ‸", positionCheck{first: []string{"greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab"}}},
		{"followed by matches", "create pattern zip:\n    digit\nend pattern\ncheck if ‸ matches zip:\n    display 1\nend check\n", positionCheck{first: []string{"greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab"}}},
		{"followed by plus", "store aardvark as yes\nstore t as ‸ plus 1", positionCheck{first: append([]string{"greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab"}, numbers...)}},
		{"followed by is a text", "store aardvark as yes\ncheck if ‸ is \"ui\":\n    display 1\nend check\n", positionCheck{first: []string{"greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab"}}},
		{"date order", "store d1 as create_date of 2025 and 8 and 9\nstore d2 as create_date of 2025 and 8 and 10\ncheck if d1 is less than ‸", positionCheck{first: []string{"d2", "d1"}}},
		{"followed by a date order", "store d1 as create_date of 2025 and 8 and 9\nstore d2 as create_date of 2025 and 8 and 10\ncheck if ‸ is less than d2:\n    display 1\nend check\n", positionCheck{first: []string{"d2", "d1"}}},
		{"export action", "export action ‸", positionCheck{first: []string{"main"}, none: []string{"age"}}},
		{"export container", "export container ‸", positionCheck{first: []string{"Person"}, none: []string{"age"}}},
		{"in transaction", "open database at \"a.db\" as db\nin ‸", positionCheck{first: []string{"transaction"}, none: []string{"age"}}},
		{"listen for", "listen for ‸", positionCheck{first: []string{"websockets"}, none: []string{"age"}}},
		{"wait for a number", "wait for 10 ‸", positionCheck{first: []string{"milliseconds", "seconds"}, none: []string{"plus"}}},
		{"current time formatted as", "store now as current time formatted as ‸", positionCheck{empty: true}},
		{"pattern after element", "create pattern zip:\n    digit ‸", positionCheck{first: []string{"or", "then", "followed by", "exactly", "between"}, none: []string{"age", "store"}}},
		// Found by TestCompletionFirstItemLegal.
		{"a variable spelled as a keyword", "store text as \"abc\"\nstore r as contains of text and ‸", positionCheck{first: []string{"text", "greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab"}, before: [2][]string{{"text", "greeting"}, {"age", "names"}}}},
		{"copy_file paths", "open file at \"a.txt\" for reading as f\ncopy_file from \"a.txt\" to ‸", positionCheck{first: []string{"greeting", "current_directory", "newline", "program_name", "script_directory", "script_path", "tab"}, before: [2][]string{{"greeting"}, {"f", "age"}}}},
		{"an item by its position", "store line as [\"a\"]\ndisplay line at ‸", positionCheck{first: numbers, before: [2][]string{{"age", "balance"}, {"line", "names", "greeting"}}}},
		{"a whole condition", "check if ‸:\n    display 1\nend check\n", positionCheck{first: []string{"flag", "yes", "no"}, before: [2][]string{{"flag", "yes", "no"}, {"age", "names", "greeting"}}}},
		{"called with what follows", "display ‸ with greeting", positionCheck{first: []string{"main", "yes", "no", "nothing", "current time in milliseconds"}, none: []string{"call"}, before: [2][]string{{"main"}, {"age", "greeting"}}}},
		{"joined with what follows", "display greeting with ‸ with \"!\"", positionCheck{first: []string{"age", "balance", "names", "scores", "greeting", "flag", "bob"}}},
		{"extends what the interfaces need", "create container Able:\n    property p: Number\nend\ncreate container Kid extends ‸ implements Greeter:\n    property toy: Text\nend\ncreate interface Greeter:\n    requires action greet\nend\n", positionCheck{first: []string{"Person"}, before: [2][]string{{"Person"}, {"Able"}}}},
		{"extends, declared above first", "create container Kid extends ‸\nend\ncreate container Later:\nend\n", positionCheck{first: []string{"Person"}, before: [2][]string{{"Person"}, {"Later"}}}},
		{"a property's type in a container the line breaks", "create container Lamp:\n    property lit: Boolean\n    action show:\n        check if lit is ‸\n            display 1\n        end check\n    end\nend\n", positionCheck{first: []string{"equal to", "not", "not equal to", "flag", "yes", "no"}, before: [2][]string{{"equal to", "not", "yes", "no"}, {"above", "greater than"}}}},
		{"a sibling branch's names after a broken header", "for each arg in names:\n    check if arg is \"a\":\n        store inner as \"x\"\n        display inner\n    otherwise:\n        check if ‸\n            store inner as \"y\"\n            display inner\n        otherwise:\n            display 2\n        end check\n    end check\nend for\n", positionCheck{before: [2][]string{{"arg", "greeting"}, {"inner"}}}},
	}
	right := 0
	for _, c := range cases {
		text := positionsBase + c.text
		off := strings.Index(text, "‸")
		text = text[:off] + text[off+len("‸"):]
		a := featuretest.AnalysisOf(t, text)
		_, items := List(a, off, Options{Path: "/w/main.wfl"})
		if why := c.check.fails(items); why != "" {
			t.Errorf("%s (%q): %s; got %s", c.name, c.text, why, headLabels(items, 12))
			continue
		}
		right++
	}
	t.Logf("%d of %d grammar positions right", right, len(cases))
}

func (c positionCheck) fails(items []Item) string {
	ls := labels(items)
	if c.empty {
		if len(ls) > 0 {
			return "a new name goes here: nothing to offer"
		}
		return ""
	}
	if len(ls) == 0 {
		return "nothing offered"
	}
	if len(c.first) > 0 && !slices.Contains(c.first, ls[0]) {
		return fmt.Sprintf("first %q, want one of %q", ls[0], c.first)
	}
	for _, n := range c.none {
		if slices.Contains(ls, n) {
			return fmt.Sprintf("%q offered", n)
		}
	}
	last := -1
	for _, n := range c.before[0] {
		if i := slices.Index(ls, n); i > last {
			last = i
		}
	}
	for _, n := range c.before[1] {
		if i := slices.Index(ls, n); i >= 0 && i < last {
			return fmt.Sprintf("%q before %q", n, c.before[0])
		}
	}
	return ""
}

func headLabels(items []Item, n int) string {
	ls := labels(items)
	if len(ls) > n {
		return fmt.Sprintf("%q… (%d)", ls[:n], len(ls))
	}
	return fmt.Sprintf("%q", ls)
}

// TestCompletionFirstItemLegal walks the places of the corpus programs
// where a value or a name goes, as a user reaches them typing: the line
// cut at the start of a name, a literal or a closer's word (not at the
// start of a statement, where the statement's first word decides). The
// first item offered there must be legal: written in place of what the
// program has (or before it, for a word that goes on with a value), it
// adds no error (parse, semantic or type) on that line, when some item
// offered is legal. Where the line goes on after the value with a word
// that relates it to another (`change x to …`, `check if x is …`), what
// is legal depends on what follows, which the user typing the line has
// not written yet: there the place is asked again as an editor meets it
// when a name is replaced in a line already written, the rest of the line
// after the cursor, and the first item must be legal then (the words
// that follow the place on its line, a block header's colon among them).
// Programs with errors are left out; every place is visited (one in fifty
// in short mode), but words the lexer joins into one name that the tree
// reads apart (`and headers h`: a clause's word, then its value).
func TestCompletionFirstItemLegal(t *testing.T) {
	stride := 1
	if testing.Short() {
		stride = 50
	}
	progs := testcorpus.Programs(t) // every program (every 16th under the race detector), no mutant
	if len(progs) == 0 {
		t.Skip("no corpus")
	}
	// errs counts the errors of text on line l (its first line, for a
	// multi-line finding): those elsewhere follow from what the rest of
	// the program assumes of the value, which the place cannot know. It
	// parses and checks the text as lang does, without the linter's
	// warnings or the editor's other lists, which count no error.
	errs := func(text string, l int) int {
		n := 0
		f, pd := parser.Parse(text)
		_, cd := check.Check(f, text)
		lines := token.NewLines(text)
		for _, d := range slices.Concat(pd, cd) {
			if d.Severity == diag.Error && lines.Line(d.Span.Start) == l {
				n++
			}
		}
		return n
	}
	places, legal, none, k := 0, 0, 0, 0
	var failed []string
	goesOn, decided := 0, 0
	for n, path := range slices.Sorted(maps.Keys(progs)) {
		if (n+1)%testcorpus.RaceStride(16) != 0 {
			continue
		}
		src := progs[path]
		a := featuretest.AnalysisOf(t, src)
		if coretest.HasError(a.Diagnostics) {
			continue
		}
		toks := lexer.Lex(src).Tokens
		for i, tk := range toks {
			lineStart := a.Lines.LineStart(a.Lines.Line(tk.Start))
			if strings.TrimSpace(src[lineStart:tk.Start]) == "" {
				continue // a statement's first word
			}
			closer := i > 0 && toks[i-1].Kind == token.KeywordEnd && strings.TrimSpace(src[lineStart:toks[i-1].Start]) == ""
			switch {
			case closer, tk.Kind == token.Identifier, tk.Kind == token.StringLiteral, tk.Kind == token.IntLiteral,
				tk.Kind == token.FloatLiteral, tk.Kind == token.BooleanLiteral, tk.Kind == token.NothingLiteral:
			default:
				continue
			}
			if i+1 < len(toks) && (toks[i+1].Kind == token.KeywordOf || toks[i+1].Kind == token.LeftParen) {
				continue // a callee: what follows is its arguments, which no other value takes
			}
			if id, ok := a.IdentAt(tk.Start); tk.Kind == token.Identifier && strings.Contains(tk.Text, " ") && (!ok || id.Ident.Pos() != tk.Start || id.Ident.End() != tk.End) {
				continue // words the lexer joined that the tree reads apart (`and headers h`: a clause's word and its value), no one name
			}
			if k++; k%stride != 0 {
				continue
			}
			lineEnd := a.Lines.LineEnd(a.Lines.Line(tk.Start))
			// The statement typed up to the place: a string that spans
			// lines goes with the rest of its first line (cut at the end
			// of its first line, its end would open a quote below).
			cut := src[:tk.Start] + src[a.Lines.LineEnd(a.Lines.Line(tk.End)):]
			_, items := List(featuretest.AnalysisOf(t, cut), tk.Start, Options{Max: 40})
			if len(items) == 0 {
				continue
			}
			line := a.Lines.Line(tk.Start)
			const before = 0 // the program has no error (those with errors are left out)
			// An item is legal when it can stand in place of what the
			// program has, or, a word that goes on with a value (`not`,
			// `greater than`), before it.
			isLegal := func(it Item) bool {
				word := strings.TrimSpace(it.Insert)
				return errs(src[:tk.Start]+word+src[tk.End:], line) <= before ||
					it.Kind == Keyword && errs(src[:tk.Start]+word+" "+src[tk.Start:], line) <= before
			}
			places++
			if isLegal(items[0]) {
				legal++
				continue
			}
			if !slices.ContainsFunc(items[1:], isLegal) {
				none++ // no item offered is legal there
				continue
			}
			if i+1 < len(toks) && a.Lines.Line(toks[i+1].Start) == line && toks[i+1].Kind != token.KeywordAs && toks[i+1].Kind != token.Eol {
				// The line goes on (`change x to …`, `check if x is …`):
				// whether an item fits depends on what follows, which the
				// line cut at the place does not hold. Asked with it, the
				// first item must be legal.
				goesOn++
				_, items := List(featuretest.AnalysisOf(t, src[:tk.Start]+src[tk.End:]), tk.Start, Options{Max: 40})
				if len(items) > 0 && !isLegal(items[0]) && slices.ContainsFunc(items[1:], isLegal) {
					failed = append(failed, fmt.Sprintf("%s:%d: %q then %q, followed by %q: first %q", filepath.Base(path), line+1,
						strings.TrimSpace(src[lineStart:tk.Start]), src[tk.Start:tk.End], strings.TrimSpace(src[tk.End:lineEnd]), items[0].Label))
					continue
				}
				decided++
				continue
			}
			failed = append(failed, fmt.Sprintf("%s:%d: %q then %q: first %q", filepath.Base(path), a.Lines.Line(tk.Start)+1,
				strings.TrimSpace(src[lineStart:tk.Start]), src[tk.Start:tk.End], items[0].Label))
		}
	}
	t.Logf("%d places: the first item legal at %d, no legal item at %d; where the line goes on after it, the first item illegal before a legal one at %d, the first item legal once the rest of the line is there at %d; failed at %d",
		places, legal, none, goesOn, decided, len(failed))
	for _, f := range failed {
		t.Error(f)
	}
}
