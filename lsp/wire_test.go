package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"wfl-lsp/internal/testfiles"
	"wfl-lsp/internal/testlog"
)

const testURI = "file:///tmp/wfl-test/demo.wfl"

func TestLifecycleExitAfterShutdown(t *testing.T) {
	c := newClient(t)
	r := c.initialize(nil)
	var res struct {
		Capabilities struct {
			PositionEncoding string          `json:"positionEncoding"`
			TextDocumentSync json.RawMessage `json:"textDocumentSync"`
		} `json:"capabilities"`
		ServerInfo struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"serverInfo"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo.Name != "wfl-lsp" || res.ServerInfo.Version != "test" {
		t.Errorf("serverInfo = %+v", res.ServerInfo)
	}
	if res.Capabilities.PositionEncoding != "utf-16" {
		t.Errorf("positionEncoding = %q, want utf-16 when the client offers none", res.Capabilities.PositionEncoding)
	}
	if got := string(res.Capabilities.TextDocumentSync); !strings.Contains(got, `"change":2`) || !strings.Contains(got, `"openClose":true`) {
		t.Errorf("textDocumentSync = %s, want incremental with open/close", got)
	}
	c.open(testURI, "", 1)
	d := c.diagnostics(testURI, 1)
	if !strings.Contains(string(d.raw), `"diagnostics":[]`) {
		t.Errorf("empty diagnostics must be [], got %s", d.raw)
	}
	if err := c.finish(); err != nil {
		t.Errorf("Serve after shutdown and exit = %v, want nil", err)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := newClient(t)
	c.initialize(nil)
	c.notify("exit", nil)
	if err := c.wait(); !errors.Is(err, ErrExitWithoutShutdown) {
		t.Errorf("Serve = %v, want ErrExitWithoutShutdown", err)
	}
}

func TestExitBeforeInitialize(t *testing.T) {
	c := newClient(t)
	c.notify("exit", nil)
	if err := c.wait(); !errors.Is(err, ErrExitWithoutShutdown) {
		t.Errorf("Serve = %v, want ErrExitWithoutShutdown", err)
	}
}

func TestEndOfInput(t *testing.T) {
	c := newClient(t)
	c.initialize(nil)
	c.in.Close()
	if err := c.wait(); !errors.Is(err, ErrExitWithoutShutdown) {
		t.Errorf("Serve at end of input = %v, want ErrExitWithoutShutdown", err)
	}
}

// TestEndOfInputAfterShutdown: an editor that answers shutdown by closing
// the pipe, without exit, leaves a server that ends cleanly (exit code 0):
// it asked for the shutdown.
func TestEndOfInputAfterShutdown(t *testing.T) {
	c := newClient(t)
	c.initialize(nil)
	if m := c.call("shutdown", nil); m.Error != nil {
		t.Fatalf("shutdown: %+v", m.Error)
	}
	c.in.Close()
	if err := c.wait(); err != nil {
		t.Errorf("Serve at end of input after shutdown = %v, want nil", err)
	}
}

func TestPositionEncodingNegotiation(t *testing.T) {
	for _, tt := range []struct {
		offered any
		want    string
	}{
		{[]string{"utf-16", "utf-8"}, "utf-8"},
		{[]string{"utf-32", "utf-16"}, "utf-16"},
		{[]string{}, "utf-16"},
	} {
		c := newClient(t)
		r := c.initialize(map[string]any{"general": map[string]any{"positionEncodings": tt.offered}})
		var res struct {
			Capabilities struct {
				PositionEncoding string `json:"positionEncoding"`
			} `json:"capabilities"`
		}
		json.Unmarshal(r.Result, &res)
		if res.Capabilities.PositionEncoding != tt.want {
			t.Errorf("offered %v: got %q, want %q", tt.offered, res.Capabilities.PositionEncoding, tt.want)
		}
		c.finish()
	}
}

// TestInitializeTraceNull: go.lsp.dev/protocol rejects "trace": null on its
// own; Neovim and others send it.
func TestInitializeTraceNull(t *testing.T) {
	c := newClient(t)
	r := c.call("initialize", map[string]any{"processId": 1, "rootUri": nil, "trace": nil, "capabilities": map[string]any{"general": nil}, "clientInfo": map[string]any{"name": "x", "version": nil}})
	if r.Error != nil {
		t.Fatalf("initialize with nulls: %+v", r.Error)
	}
	c.finish()
}

func TestLifecycleErrors(t *testing.T) {
	c := newClient(t)
	for _, p := range []any{nil, []any{}, "x"} {
		// Not an object: invalid params, and the server waits for a
		// proper initialize.
		wantError(t, fmt.Sprintf("initialize with %v", p), c.call("initialize", p), -32602)
	}
	wantError(t, "hover before initialize", c.call("textDocument/hover", map[string]any{}), -32002)
	wantError(t, "shutdown before initialize", c.call("shutdown", nil), -32002)
	c.open(testURI, "dropped", 1) // dropped: not initialized
	c.initialize(nil)
	wantError(t, "second initialize", c.call("initialize", map[string]any{"capabilities": map[string]any{}}), -32600)
	wantError(t, "unknown method", c.call("wfl/noSuchMethod", map[string]any{}), -32601)
	wantError(t, "document opened before initialize", c.call("wfl/test/text", map[string]any{"textDocument": map[string]any{"uri": testURI}}), -32803)
	if r := c.call("shutdown", nil); r.Error != nil {
		t.Fatalf("shutdown: %+v", r.Error)
	}
	wantError(t, "request after shutdown", c.call("wfl/test/text", map[string]any{"textDocument": map[string]any{"uri": testURI}}), -32600)
	wantError(t, "second shutdown", c.call("shutdown", nil), -32600)
	c.notify("exit", nil)
	if err := c.wait(); err != nil {
		t.Errorf("Serve = %v, want nil", err)
	}
}

func TestCancelRequest(t *testing.T) {
	c := newClient(t)
	c.initialize(nil)
	// Numeric id, as VS Code and Neovim send.
	id := c.start("wfl/test/block", nil)
	c.notify("$/cancelRequest", map[string]any{"id": id})
	wantError(t, "cancelled numeric id", c.response(id), -32800)

	// String id.
	c.sendBody(`{"jsonrpc":"2.0","id":"s-1","method":"wfl/test/block"}`)
	c.notify("$/cancelRequest", map[string]any{"id": "s-1"})
	m := c.await("response to s-1", func(m *msg) bool { return m.isResponse() && string(m.ID) == `"s-1"` })
	wantError(t, "cancelled string id", m, -32800)

	// Cancelling what is not running changes nothing.
	c.notify("$/cancelRequest", map[string]any{"id": 12345})
	c.notify("$/cancelRequest", map[string]any{"id": map[string]any{}})
	if err := c.finish(); err != nil {
		t.Error(err)
	}
}

// TestRequestsRunConcurrently: a request that blocks does not hold up the
// ones after it.
func TestRequestsRunConcurrently(t *testing.T) {
	c := newClient(t)
	c.initialize(nil)
	c.open(testURI, "store x as 1\n", 1)
	blocked := c.start("wfl/test/block", nil)
	r := c.call("wfl/test/text", map[string]any{"textDocument": map[string]any{"uri": testURI}})
	if r.Error != nil {
		t.Fatalf("request behind a blocked one: %+v", r.Error)
	}
	c.notify("$/cancelRequest", map[string]any{"id": blocked})
	wantError(t, "blocked request", c.response(blocked), -32800)
	c.finish()
}

func TestPanicsAreSurvived(t *testing.T) {
	c := newClient(t)
	c.initialize(nil)
	wantError(t, "panic in work", c.call("wfl/test/panic", nil), -32603)
	c.await("the panic reported to the user", func(m *msg) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "internal error in wfl/test/panic")
	})
	wantError(t, "panic in prepare", c.call("wfl/test/panicPrepare", nil), -32603)
	c.notify("wfl/test/panicNotify", nil)
	c.notify("wfl/test/failNotify", nil)
	c.open(testURI, "still here", 1)
	r := c.call("wfl/test/text", map[string]any{"textDocument": map[string]any{"uri": testURI}})
	if r.Error != nil || !strings.Contains(string(r.Result), "still here") {
		t.Fatalf("after panics: %s %+v", r.Result, r.Error)
	}
	if err := c.finish(); err != nil {
		t.Error(err)
	}
}

// TestDidChangeOrder sends many incremental changes back to back and checks
// they were applied in order, and that the last diagnostics are for the
// last version and none arrive out of order.
func TestDidChangeOrder(t *testing.T) {
	c := newClient(t)
	c.initialize(nil)
	c.open(testURI, "", 1)
	var want strings.Builder
	const n = 200
	for v := 2; v <= n; v++ {
		s := fmt.Sprintf("%d,", v)
		// Insert at the end: line 0, character = current length (ASCII).
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": testURI, "version": v},
			"contentChanges": []any{map[string]any{"range": rng(0, want.Len(), 0, want.Len()), "text": s}},
		})
		want.WriteString(s)
	}
	r := c.call("wfl/test/text", map[string]any{"textDocument": map[string]any{"uri": testURI}})
	var got struct {
		Text    string `json:"text"`
		Version int    `json:"version"`
	}
	json.Unmarshal(r.Result, &got)
	if got.Text != want.String() || got.Version != n {
		t.Fatalf("after %d changes: version %d text %q, want %q", n, got.Version, got.Text, want.String())
	}
	c.diagnostics(testURI, n)
	last := 0
	for _, m := range c.seen {
		if m.Method != "textDocument/publishDiagnostics" {
			continue
		}
		var p publishParams
		json.Unmarshal(m.Params, &p)
		if *p.Version <= last {
			t.Errorf("diagnostics for version %d published after version %d", *p.Version, last)
		}
		last = *p.Version
	}
	c.finish()
}

func rng(l1, c1, l2, c2 int) map[string]any {
	return map[string]any{
		"start": map[string]any{"line": l1, "character": c1},
		"end":   map[string]any{"line": l2, "character": c2},
	}
}

// TestDidChangeEncodings applies edits given in UTF-16 and in UTF-8 units
// on text with multi-byte and astral characters, several changes in one
// notification, and a whole-document change.
func TestDidChangeEncodings(t *testing.T) {
	for _, tt := range []struct {
		enc   string
		start string
		// changes, applied one after another
		changes []any
		want    string
	}{
		{"utf-16", "aé😀b\r\nline two\n", []any{
			map[string]any{"range": rng(0, 4, 0, 5), "text": "B"},    // b after é (1) and 😀 (2)
			map[string]any{"range": rng(1, 0, 1, 4), "text": "LINE"}, // second line, after the first change
			map[string]any{"range": rng(0, 2, 0, 4), "text": ""},     // remove 😀
		}, "aéB\r\nLINE two\n"},
		{"utf-8", "aé😀b\r\nline two\n", []any{
			map[string]any{"range": rng(0, 7, 0, 8), "text": "B"}, // b after é (2 bytes) and 😀 (4)
			map[string]any{"range": rng(0, 1, 0, 3), "text": "e"},
			map[string]any{"range": rng(2, 0, 2, 9), "text": "tail"}, // the last line, a character past its end
		}, "ae😀B\r\nline two\ntail"},
		{"utf-16", "old text", []any{
			map[string]any{"text": "whole new text"},
			map[string]any{"range": rng(0, 0, 0, 6), "text": ""},
		}, "new text"},
	} {
		t.Run(tt.enc, func(t *testing.T) {
			c := newClient(t)
			c.initialize(map[string]any{"general": map[string]any{"positionEncodings": []string{tt.enc}}})
			c.open(testURI, tt.start, 1)
			c.notify("textDocument/didChange", map[string]any{
				"textDocument":   map[string]any{"uri": testURI, "version": 2},
				"contentChanges": tt.changes,
			})
			r := c.call("wfl/test/text", map[string]any{"textDocument": map[string]any{"uri": testURI}})
			var got struct{ Text string }
			json.Unmarshal(r.Result, &got)
			if got.Text != tt.want {
				t.Errorf("got %q, want %q", got.Text, tt.want)
			}
			c.finish()
		})
	}
}

func TestDidCloseClearsDiagnostics(t *testing.T) {
	c := newClient(t)
	c.initialize(nil)
	c.open(testURI, "x", 1)
	c.diagnostics(testURI, 1)
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": testURI}})
	m := c.await("empty diagnostics after close", func(m *msg) bool {
		return m.Method == "textDocument/publishDiagnostics" && strings.Contains(string(m.Params), `"diagnostics":[]`) && !strings.Contains(string(m.Params), `"version"`)
	})
	_ = m
	wantError(t, "request on a closed document", c.call("wfl/test/text", map[string]any{"textDocument": map[string]any{"uri": testURI}}), -32803)
	c.finish()
}

// TestPullDiagnostics: a client that pulls gets diagnostics only by asking.
func TestPullDiagnostics(t *testing.T) {
	c := newClient(t)
	r := c.initialize(map[string]any{"textDocument": map[string]any{"diagnostic": map[string]any{}}})
	if !strings.Contains(string(r.Result), `"diagnosticProvider"`) {
		t.Fatalf("diagnosticProvider not advertised: %s", r.Result)
	}
	c.open(testURI, "display mystery guest\n", 1)
	m := c.call("textDocument/diagnostic", map[string]any{"textDocument": map[string]any{"uri": testURI}})
	var rep struct {
		Kind  string
		Items []wireDiag
	}
	json.Unmarshal(m.Result, &rep)
	if rep.Kind != "full" || len(rep.Items) == 0 || rep.Items[0].Code != "ANALYZE-SEMANTIC" {
		t.Errorf("pulled %s", m.Result)
	}
	c.finish()
	for _, m := range c.seen {
		if m.Method == "textDocument/publishDiagnostics" {
			t.Errorf("diagnostics pushed to a client that pulls: %s", m.Params)
		}
	}
}

// TestCompletionIsCut: long lists are cut and marked incomplete.
func TestCompletionIsCut(t *testing.T) {
	c := newClient(t, quiet)
	c.initialize(nil)
	var b strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "store item n%d as %d\n", i, i)
	}
	b.WriteString("display item")
	c.open(testURI, b.String(), 1)
	m := c.call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": testURI},
		"position": map[string]any{"line": 300, "character": 12}})
	var list struct {
		IsIncomplete bool
		Items        []struct{ Label string }
	}
	json.Unmarshal(m.Result, &list)
	if !list.IsIncomplete || len(list.Items) != maxCompletionItems || !strings.HasPrefix(list.Items[0].Label, "item n") {
		t.Errorf("incomplete %v, %d items, first %+v", list.IsIncomplete, len(list.Items), list.Items[:1])
	}
	c.finish()
}

// TestDocumentChangedUnderRequest: a positional request whose document
// changes while it runs answers ContentModified; the edits of the whole
// document are computed again on the new text; a description of the
// whole document (tokens, symbols, folding) is the text's it was asked
// about.
func TestDocumentChangedUnderRequest(t *testing.T) {
	for _, tt := range []struct {
		method string
		want   string // text in the answer, or "" for -32801
	}{
		{"wfl/test/gatedPosition", ""},
		{"wfl/test/gatedWhole", "new"},
		{"wfl/test/gatedReceipt", "old"},
	} {
		testGate = make(chan struct{})
		c := newClient(t)
		c.initialize(nil)
		c.open(testURI, "old", 1)
		id := c.start(tt.method, map[string]any{"textDocument": map[string]any{"uri": testURI}})
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": testURI, "version": 2},
			"contentChanges": []any{map[string]any{"text": "new"}},
		})
		// Once this answers, the change has been applied.
		c.call("wfl/test/text", map[string]any{"textDocument": map[string]any{"uri": testURI}})
		close(testGate)
		r := c.response(id)
		if tt.want == "" {
			wantError(t, tt.method, r, -32801)
		} else if r.Error != nil || !strings.Contains(string(r.Result), `"text":"`+tt.want+`"`) {
			t.Errorf("%s: %s %+v, want the text %q", tt.method, r.Result, r.Error, tt.want)
		}
		c.finish()
	}
}

// TestWorkspaceSymbols: the files under the workspace folder are indexed
// in the background, open documents win over the disk, and a watched-file
// change updates the index.
func TestWorkspaceSymbols(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return testfiles.Write(t, dir, name, text) }
	a := write("a.wfl", "define action called greet people:\n    display 1\nend action\n")
	write("sub/b.wfl", "store grand total as 1\n")
	write(".hidden/c.wfl", "store great secret as 1\n")
	c := newClient(t)
	c.initializeWith(map[string]any{"rootUri": "file://" + dir, "capabilities": map[string]any{
		"window":    map[string]any{"workDoneProgress": true},
		"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}})
	// The server asks to watch the files and to show progress, in either order.
	reg := c.await("client/registerCapability", func(m *msg) bool { return m.Method == "client/registerCapability" })
	if !strings.Contains(string(reg.Params), `**/*.wfl`) {
		t.Errorf("registration %s", reg.Params)
	}
	c.sendBody(`{"jsonrpc":"2.0","id":` + string(reg.ID) + `,"result":null}`)
	create := c.await("window/workDoneProgress/create", func(m *msg) bool { return m.Method == "window/workDoneProgress/create" })
	c.sendBody(`{"jsonrpc":"2.0","id":` + string(create.ID) + `,"result":null}`)
	c.await("progress begin", func(m *msg) bool { return m.Method == "$/progress" && strings.Contains(string(m.Params), `"begin"`) })
	end := c.await("progress end", func(m *msg) bool { return m.Method == "$/progress" && strings.Contains(string(m.Params), `"end"`) })
	if !strings.Contains(string(end.Params), "indexed 2 WFL files") {
		t.Errorf("progress end %s", end.Params)
	}
	c.await("index done", func(m *msg) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "indexed 2 WFL files")
	})
	names := func(query string) []string {
		m := c.call("workspace/symbol", map[string]any{"query": query})
		var syms []struct {
			Name     string
			Location struct{ URI string }
		}
		json.Unmarshal(m.Result, &syms)
		var out []string
		for _, s := range syms {
			out = append(out, s.Name+"@"+filepath.Base(s.Location.URI))
		}
		return out
	}
	if got := strings.Join(names("gr"), " "); got != "grand total@b.wfl greet people@a.wfl" {
		t.Errorf("query gr: %s", got)
	}
	if got := strings.Join(names("gtot"), " "); got != "grand total@b.wfl" {
		t.Errorf("fuzzy query gtot: %s", got)
	}
	// An open document is answered from its text, not the disk.
	c.open("file://"+a, "store greeting as 1\n", 1)
	if got := strings.Join(names("gree"), " "); got != "greeting@a.wfl" {
		t.Errorf("open document: %s", got)
	}
	// A change on disk, reported by the client.
	write("sub/b.wfl", "store green light as 1\n")
	c.notify("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": "file://" + filepath.Join(dir, "sub/b.wfl"), "type": 2}}})
	if got := strings.Join(names("green l"), " "); got != "green light@b.wfl" {
		t.Errorf("after the change: %s", got)
	}
	c.finish()
}

// TestDefinitionInIncludedFile: a name declared in an included file (on
// disk, or open with newer text) is found there.
func TestDefinitionInIncludedFile(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib", "helpers.wfl")
	os.MkdirAll(filepath.Dir(lib), 0o755)
	os.WriteFile(lib, []byte("// helpers\ndefine action called shout with words:\n    display words\nend action\n"), 0o644)
	main := "file://" + filepath.Join(dir, "main.wfl")
	src := "include from \"lib/helpers.wfl\"\ncall shout with \"hi\"\n"
	c := newClient(t)
	c.initialize(nil)
	c.open(main, src, 1)
	def := func() string {
		m := c.call("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": main},
			"position": map[string]any{"line": 1, "character": 6}})
		return string(m.Result)
	}
	if got := def(); !strings.Contains(got, "helpers.wfl") || !strings.Contains(got, `"start":{"line":1,"character":21}`) {
		t.Errorf("definition in the included file on disk: %s", got)
	}
	m := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": main},
		"position": map[string]any{"line": 1, "character": 6}})
	if !strings.Contains(string(m.Result), "action shout with words") || !strings.Contains(string(m.Result), "Declared in helpers.wfl on line 2.") {
		t.Errorf("hover of a name from an included file: %s", m.Result)
	}
	// Opened with other text, the editor's text wins.
	c.open("file://"+lib, "\n\ndefine action called shout with words:\n    display words\nend action\n", 1)
	if got := def(); !strings.Contains(got, `"start":{"line":2,"character":21}`) {
		t.Errorf("definition in the open included file: %s", got)
	}
	c.finish()
}

// TestCodeActionResolve: clients that resolve lazily get actions without
// edits and ask for them; an action offered for an older text is refused.
func TestCodeActionResolve(t *testing.T) {
	c := newClient(t)
	c.initialize(map[string]any{"textDocument": map[string]any{"codeAction": map[string]any{
		"dataSupport": true, "resolveSupport": map[string]any{"properties": []string{"edit"}}}}})
	c.open(testURI, "store first name as 1\ndisplay first name\n", 1)
	r := c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": testURI},
		"range": rng(0, 6, 0, 6), "context": map[string]any{"diagnostics": []any{}}})
	var actions []json.RawMessage
	json.Unmarshal(r.Result, &actions)
	if len(actions) == 0 || strings.Contains(string(actions[0]), `"edit"`) {
		t.Fatalf("want actions without edits: %s", r.Result)
	}
	res := c.call("codeAction/resolve", actions[0])
	if res.Error != nil || !strings.Contains(string(res.Result), `"newText":"first_name"`) {
		t.Fatalf("resolve: %s %+v", res.Result, res.Error)
	}
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": testURI, "version": 2},
		"contentChanges": []any{map[string]any{"text": "store other name as 1\n"}}})
	wantError(t, "resolve after a change", c.call("codeAction/resolve", actions[0]), -32801)
	c.finish()
}

// TestHugeDocument: a document of several megabytes is opened, analysed
// and answered like any other.
func TestHugeDocument(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	text := benchDoc(40000) // about 1.3 MB
	c := newClient(t, quiet)
	c.initialize(nil)
	c.open(testURI, text, 1)
	c.diagnostics(testURI, 1)
	line, col := lineCol(text, "with total c", 3000)
	m := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": testURI},
		"position": map[string]any{"line": line, "character": col + len("with ") + 2}})
	if m.Error != nil || !strings.Contains(string(m.Result), "total c1500") {
		t.Errorf("hover in a huge document: %.200s %+v", m.Result, m.Error)
	}
	c.finish()
}

// TestReferencesAndRenameAcrossFiles: a name shared through include is
// found, and renamed, in the declaring file and every file that includes it.
func TestReferencesAndRenameAcrossFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) { testfiles.Write(t, dir, name, text) }
	write("lib/helpers.wfl", "define action called shout with words:\n    display words\nend action\ncall shout with \"a\"\n")
	write("other.wfl", "include from \"lib/helpers.wfl\"\ncall shout with \"b\"\n")
	write("alone.wfl", "define action called shout:\n    display 1\nend action\n")
	main := "file://" + filepath.Join(dir, "main.wfl")
	c := newClient(t)
	c.initializeWith(map[string]any{"rootUri": "file://" + dir, "capabilities": map[string]any{}})
	c.await("index done", func(m *msg) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "indexed 3")
	})
	c.open(main, "include from \"lib/helpers.wfl\"\ncall shout with \"c\"\n", 1)
	at := map[string]any{"textDocument": map[string]any{"uri": main}, "position": map[string]any{"line": 1, "character": 7},
		"context": map[string]any{"includeDeclaration": true}}
	var locs []struct {
		URI   string
		Range wireRange
	}
	json.Unmarshal(c.call("textDocument/references", at).Result, &locs)
	var got []string
	for _, l := range locs {
		got = append(got, fmt.Sprintf("%s:%d", filepath.Base(l.URI), l.Range.Start.Line))
	}
	sort.Strings(got)
	if strings.Join(got, " ") != "helpers.wfl:0 helpers.wfl:3 main.wfl:1 other.wfl:1" {
		t.Errorf("references: %v", got)
	}
	hl := c.call("textDocument/documentHighlight", map[string]any{"textDocument": map[string]any{"uri": main}, "position": map[string]any{"line": 1, "character": 7}})
	if !strings.Contains(string(hl.Result), `"start":{"line":1,"character":5}`) {
		t.Errorf("highlight of a name from an included file: %s", hl.Result)
	}
	if r := c.call("textDocument/prepareRename", at); r.Error != nil || !strings.Contains(string(r.Result), `"placeholder":"shout"`) {
		t.Errorf("prepareRename: %s %+v", r.Result, r.Error)
	}
	at["newName"] = "yell loudly"
	var we struct {
		Changes map[string][]struct{ NewText string }
	}
	json.Unmarshal(c.call("textDocument/rename", at).Result, &we)
	n := map[string]int{}
	for u, edits := range we.Changes {
		n[filepath.Base(u)] = len(edits)
	}
	if len(n) != 3 || n["helpers.wfl"] != 2 || n["main.wfl"] != 1 || n["other.wfl"] != 1 {
		t.Errorf("rename edits per file: %v", n)
	}
	c.finish()
}

// TestShutdownPublishesPendingDiagnostics pipes didOpen and shutdown back to
// back, as a script or a quick client does: the diagnostics of the opened
// document must still go out, before the answer to shutdown.
func TestShutdownPublishesPendingDiagnostics(t *testing.T) {
	c := newClient(t)
	c.initialize(nil)
	c.open(testURI, "store x as 1\ndisplay z\n", 1)
	id := c.start("shutdown", nil)
	d := c.await("diagnostics before the shutdown answer", func(m *msg) bool {
		if m.isResponse() && string(m.ID) == strconv.Itoa(id) {
			t.Fatal("shutdown was answered before the pending diagnostics were published")
		}
		return m.Method == "textDocument/publishDiagnostics"
	})
	if !strings.Contains(string(d.Params), "'z' is not defined") {
		t.Errorf("diagnostics = %s, want the undefined variable", d.Params)
	}
	c.response(id)
	c.notify("exit", nil)
	if err := c.wait(); err != nil {
		t.Errorf("Serve after shutdown and exit = %v, want nil", err)
	}
}

// TestWorkspaceFoldersChange: a folder added while the server runs is
// indexed, a removed one forgotten, and the capability says so.
func TestWorkspaceFoldersChange(t *testing.T) {
	dirA, dirB := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dirA, "a.wfl"), []byte("store alpha total as 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dirB, "b.wfl"), []byte("store alpha beta as 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c := newClient(t)
	r := c.call("initialize", map[string]any{"capabilities": map[string]any{},
		"workspaceFolders": []any{map[string]any{"uri": "file://" + dirA, "name": "a"}}})
	if r.Error != nil || !strings.Contains(string(r.Result), `"workspaceFolders":{"supported":true,"changeNotifications":true}`) {
		t.Fatalf("initialize: %s %v", r.Result, r.Error)
	}
	c.notify("initialized", map[string]any{})
	c.await("index of a", func(m *msg) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "indexed 1 WFL files")
	})
	names := func() string {
		m := c.call("workspace/symbol", map[string]any{"query": "alpha"})
		var syms []struct{ Name string }
		json.Unmarshal(m.Result, &syms)
		var out []string
		for _, s := range syms {
			out = append(out, s.Name)
		}
		sort.Strings(out)
		return strings.Join(out, ",")
	}
	if got := names(); got != "alpha total" {
		t.Fatalf("before the change: %q", got)
	}
	c.notify("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{
		"added":   []any{map[string]any{"uri": "file://" + dirB, "name": "b"}},
		"removed": []any{map[string]any{"uri": "file://" + dirA, "name": "a"}},
	}})
	c.await("index of b", func(m *msg) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "indexed 1 WFL files")
	})
	if got := names(); got != "alpha beta" {
		t.Fatalf("after adding b and removing a: %q", got)
	}
}

// TestEditingIncludedFileRepublishesIncluders: main.wfl includes lib.wfl;
// an edit of lib.wfl that changes the names it declares republishes
// main.wfl's diagnostics, and lib.wfl's variables that main.wfl uses are
// not called unused.
func TestEditingIncludedFileRepublishesIncluders(t *testing.T) {
	dir := t.TempDir()
	libText := "define action called greet with parameters who:\n    display who\nend action\nstore greeting as \"hi\"\nstore spare as 1\n"
	os.WriteFile(filepath.Join(dir, "lib.wfl"), []byte(libText), 0o644)
	lib := "file://" + filepath.Join(dir, "lib.wfl")
	main := "file://" + filepath.Join(dir, "main.wfl")
	c := newClient(t)
	c.initialize(nil)
	c.open(main, "include from \"lib.wfl\"\ncall greet with \"x\"\ndisplay greeting\n", 1)
	if d := c.diagnostics(main, 1); len(d.Diagnostics) != 0 {
		t.Errorf("main.wfl: names of the included file are known: %+v", d.Diagnostics)
	}
	c.open(lib, libText, 1)
	var unused []string
	for _, d := range c.diagnostics(lib, 1).Diagnostics {
		unused = append(unused, d.Message)
	}
	if len(unused) != 1 || unused[0] != "Unused variable 'spare'" {
		t.Errorf("lib.wfl: want only 'spare' unused (main.wfl reads greeting), got %q", unused)
	}
	var last time.Time // when the previous answer awaited was read: later ones only
	mainSays := func(what string, has func([]wireDiag) bool) {
		t.Helper()
		m := c.await("main.wfl's diagnostics "+what, func(m *msg) bool {
			if m.Method != "textDocument/publishDiagnostics" || !m.at.After(last) {
				return false
			}
			var p publishParams
			json.Unmarshal(m.Params, &p)
			return p.URI == main && has(p.Diagnostics)
		})
		last = m.at
	}
	// Rename the action in lib.wfl: main.wfl's call no longer resolves.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": lib, "version": 2},
		"contentChanges": []any{map[string]any{"text": strings.Replace(libText, "greet with", "salute with", 1)}},
	})
	mainSays("with greet undefined", func(ds []wireDiag) bool {
		return len(ds) == 1 && ds[0].Message == "Undefined action 'greet'"
	})
	// And back.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": lib, "version": 3},
		"contentChanges": []any{map[string]any{"text": libText}},
	})
	mainSays("clean again", func(ds []wireDiag) bool { return len(ds) == 0 })
	c.finish()
}

// TestCallHierarchyAcrossIncludes: an action of an included file (on the
// disk, not open) is an item of its own file; its incoming calls include
// the callers in the file that includes it, and an action calling it has it
// among its outgoing calls.
func TestCallHierarchyAcrossIncludes(t *testing.T) {
	c, main := withIncluded(t, "define action called greet with parameters who:\n    display who\nend action\ncall greet with \"self\"\n",
		"include from \"lib.wfl\"\ndefine action called welcome:\n    call greet with \"x\"\nend action\ncall welcome\n")
	var items []map[string]any
	json.Unmarshal(result(t, c.call("textDocument/prepareCallHierarchy", map[string]any{"textDocument": map[string]any{"uri": main},
		"position": map[string]any{"line": 2, "character": 10}})), &items)
	if len(items) != 1 || !strings.HasSuffix(items[0]["uri"].(string), "/lib.wfl") {
		t.Fatalf("prepare on a call of an included action: %v", items)
	}
	var in []struct {
		From map[string]any `json:"from"`
	}
	json.Unmarshal(result(t, c.call("callHierarchy/incomingCalls", map[string]any{"item": items[0]})), &in)
	var callers []string
	for _, x := range in {
		callers = append(callers, fmt.Sprintf("%s in %s", x.From["name"], filepath.Base(x.From["uri"].(string))))
	}
	if strings.Join(callers, ", ") != "(top level) in lib.wfl, welcome in main.wfl" {
		t.Errorf("incoming calls of greet: %q", callers)
	}
	json.Unmarshal(result(t, c.call("textDocument/prepareCallHierarchy", map[string]any{"textDocument": map[string]any{"uri": main},
		"position": map[string]any{"line": 1, "character": 23}})), &items)
	var out []struct {
		To map[string]any `json:"to"`
	}
	json.Unmarshal(result(t, c.call("callHierarchy/outgoingCalls", map[string]any{"item": items[0]})), &out)
	if len(out) != 1 || out[0].To["name"] != "greet" || !strings.HasSuffix(out[0].To["uri"].(string), "/lib.wfl") {
		t.Errorf("outgoing calls of welcome: %+v", out)
	}
	c.finish()
}

// TestDidChangeRefusesMalformedRange sends changes that cannot be applied
// as written: each is refused (and logged), the document stays as it was,
// and a change after them applies to that text. The protocol's decoder,
// failing on a negative number in a range, took the change for a
// whole-document one: the text became the fragment.
func TestDidChangeRefusesMalformedRange(t *testing.T) {
	var logged testlog.Buffer
	c := newClient(t, func(o *Options) {
		o.Logger = slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelWarn}))
	})
	c.initialize(nil)
	c.open(testURI, "one\ntwo\n", 1)
	text := func() string {
		t.Helper()
		r := c.call("wfl/test/text", map[string]any{"textDocument": map[string]any{"uri": testURI}})
		var got struct{ Text string }
		json.Unmarshal(r.Result, &got)
		return got.Text
	}
	for i, tt := range []struct {
		name   string
		range_ any
	}{
		{"negative", rng(-1, -5, 0, 0)},
		{"negative end", rng(0, 0, 0, -1)},
		{"fractional", map[string]any{"start": map[string]any{"line": 0.5, "character": 0}, "end": map[string]any{"line": 0, "character": 0}}},
		{"beyond 32 bits", rng(1<<33, 0, 1<<33, 0)},
		{"a line past the end", rng(3, 0, 3, 0)},
		{"end past the end", rng(0, 0, 9, 9)},
		{"end before start", rng(1, 1, 0, 1)},
		{"end before start on a line", rng(0, 3, 0, 1)},
		{"not an object", "0:0"},
	} {
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": testURI, "version": 2 + i},
			"contentChanges": []any{map[string]any{"range": tt.range_, "text": "FRAGMENT"}},
		})
		if got := text(); got != "one\ntwo\n" {
			t.Fatalf("%s: text %q after the change, want it unchanged", tt.name, got)
		}
	}
	// A refused change refuses the whole notification: the valid first
	// change is not applied either.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": testURI, "version": 20},
		"contentChanges": []any{
			map[string]any{"range": rng(0, 0, 0, 0), "text": "X"},
			map[string]any{"range": rng(-1, 0, 0, 0), "text": "Y"},
		},
	})
	if got := text(); got != "one\ntwo\n" {
		t.Fatalf("text %q after a notification with one bad change, want it unchanged", got)
	}
	// The last line (empty after the final line break) and a character
	// past the end of its line are positions the specification defines.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument": map[string]any{"uri": testURI, "version": 21},
		"contentChanges": []any{
			map[string]any{"range": rng(2, 0, 2, 0), "text": "three"},
			map[string]any{"range": rng(0, 9, 0, 99), "text": "!"},
			map[string]any{"text": "whole\n"},
			map[string]any{"range": rng(0, 0, 0, 1), "text": "W"},
		},
	})
	if got, want := text(), "Whole\n"; got != want {
		t.Fatalf("text %q after valid changes, want %q", got, want)
	}
	c.finish()
	if n := strings.Count(logged.String(), "notification failed"); n != 10 {
		t.Errorf("%d refusals logged, want 10:\n%s", n, logged.String())
	}
}

// TestHoverIncludePath: a hover on an include's path shows what the file
// declares, before and after an edit of the document (whose answers come
// from a partial analysis).
func TestHoverIncludePath(t *testing.T) {
	c, main := withIncluded(t, "define action called shout with words:\n    display words\nend action\n", "include from \"lib.wfl\"\ncall shout with \"hi\"\n")
	hover := func() string {
		m := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": main}, "position": map[string]any{"line": 0, "character": 16}})
		return string(m.Result)
	}
	want := `{"contents":{"kind":"plaintext","value":"action shout with words\n\nThe names ` + "`lib.wfl`" + ` declares at its top level, which this file reads."},"range":{"start":{"line":0,"character":14},"end":{"line":0,"character":21}}}`
	if got := hover(); got != want {
		t.Errorf("hover on the path:\n%s\nwant\n%s", got, want)
	}
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": main, "version": 2},
		"contentChanges": []any{map[string]any{"range": rng(1, 20, 1, 20), "text": "\ndisplay 1"}}})
	if got := hover(); got != want {
		t.Errorf("hover on the path after an edit:\n%s\nwant\n%s", got, want)
	}
	c.finish()
}

// withIncluded starts a session with lib.wfl on the disk, holding lib, and
// main.wfl beside it open with text: what the tests of the answers that
// cross an include start from.
func withIncluded(t *testing.T, lib, text string) (c *client, main string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "lib.wfl"), []byte(lib), 0o644); err != nil {
		t.Fatal(err)
	}
	main = "file://" + filepath.Join(dir, "main.wfl")
	c = newClient(t)
	c.initialize(nil)
	c.open(main, text, 1)
	return c, main
}
