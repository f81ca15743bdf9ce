package lsp

// Tests of the workspace edits the server sends: versioned documentChanges
// for clients that declare them, changes for the others, and the version
// each file's edits were computed on; the edits that keep includes naming
// their files when files move (willRenameFiles), and the file an include
// names created.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/uri"

	"wfl-lsp/core"
	"wfl-lsp/core/navigation"
	"wfl-lsp/internal/testfiles"
)

// wireEdit is a workspace edit as a client reads it.
type wireEdit struct {
	Changes         map[string][]wireTextEdit `json:"changes"`
	DocumentChanges []struct {
		TextDocument struct {
			URI     string          `json:"uri"`
			Version json.RawMessage `json:"version"`
		} `json:"textDocument"`
		Edits []wireTextEdit `json:"edits"`
	} `json:"documentChanges"`
}

type wireTextEdit struct {
	Range   wireRange `json:"range"`
	NewText string    `json:"newText"`
}

// summary lists the files of the edit, each as "name@version:edits", in
// order; changes have no version ("-").
func (e wireEdit) summary() string {
	var out []string
	for u, es := range e.Changes {
		out = append(out, fmt.Sprintf("changes %s@-:%d", filepath.Base(u), len(es)))
	}
	slices.Sort(out)
	for _, dc := range e.DocumentChanges {
		out = append(out, fmt.Sprintf("%s@%s:%d", filepath.Base(dc.TextDocument.URI), dc.TextDocument.Version, len(dc.Edits)))
	}
	return strings.Join(out, " ")
}

// TestVersionedEdits: rename across included files and quick fixes (with
// their edits or resolved later) answer with documentChanges whose
// versions are those of the texts the edits were computed on, null for a
// file that is not open, when the client declares documentChanges; with
// changes otherwise.
func TestVersionedEdits(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return "file://" + p
	}
	lib := "define action called shout with words:\n    display words\nend action\n"
	write("helpers.wfl", lib)
	other := "include from \"helpers.wfl\"\ncall shout with \"b\"\n"
	otherURI := write("other.wfl", other)
	main := "include from \"helpers.wfl\"\ncall shout with \"c\"\nstore totl as 1\ndisplay total\n"
	mainURI := write("main.wfl", main)

	tests := []struct {
		name    string
		caps    map[string]any
		rename  string // the summary of the rename's edit
		fix     string // of the quick fix's
		resolve string // of the quick fix's, resolved lazily
	}{
		{
			name:    "documentChanges",
			caps:    map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": true}}},
			rename:  "helpers.wfl@null:1 main.wfl@7:1 other.wfl@3:1",
			fix:     "main.wfl@7:1",
			resolve: "main.wfl@7:1",
		},
		{
			name:    "changes",
			caps:    map[string]any{},
			rename:  "changes helpers.wfl@-:1 changes main.wfl@-:1 changes other.wfl@-:1",
			fix:     "changes main.wfl@-:1",
			resolve: "changes main.wfl@-:1",
		},
		{
			name:    "documentChanges false",
			caps:    map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": false}}},
			rename:  "changes helpers.wfl@-:1 changes main.wfl@-:1 changes other.wfl@-:1",
			fix:     "changes main.wfl@-:1",
			resolve: "changes main.wfl@-:1",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := newClient(t, quiet)
			caps := map[string]any{"textDocument": map[string]any{}}
			for k, v := range tt.caps {
				caps[k] = v
			}
			c.initialize(caps)
			c.open(otherURI, other, 3)
			c.open(mainURI, main, 7)
			c.diagnostics(mainURI, 7)
			at := map[string]any{"textDocument": map[string]any{"uri": mainURI}, "position": map[string]any{"line": 1, "character": 7}, "newName": "yell"}
			var we wireEdit
			r := c.call("textDocument/rename", at)
			if err := json.Unmarshal(result(t, r), &we); err != nil {
				t.Fatal(err)
			}
			if got := we.summary(); got != tt.rename {
				t.Errorf("rename: %s\nwant %s\n(%s)", got, tt.rename, r.Result)
			}
			if strings.Contains(tt.rename, "@null") && !strings.Contains(string(r.Result), `"uri":"`+"file://"+filepath.Join(dir, "helpers.wfl")+`","version":null`) {
				t.Errorf("the file that is not open has no \"version\":null: %s", r.Result)
			}

			// The misspelled 'totl' of line 3 (0-based 3: "display total"
			// names an undefined variable; a quick fix renames it).
			rng := map[string]any{"start": map[string]any{"line": 3, "character": 9}, "end": map[string]any{"line": 3, "character": 9}}
			for _, lazy := range []bool{false, true} {
				if lazy {
					c2 := newClient(t, quiet)
					caps["textDocument"] = map[string]any{"codeAction": map[string]any{"dataSupport": true, "resolveSupport": map[string]any{"properties": []string{"edit"}}}}
					c2.initialize(caps)
					c2.open(mainURI, main, 7)
					c = c2
				}
				var actions []struct {
					Title string          `json:"title"`
					Edit  *wireEdit       `json:"edit"`
					Data  json.RawMessage `json:"data"`
				}
				raw := result(t, c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": mainURI}, "range": rng, "context": map[string]any{"diagnostics": []any{}}}))
				json.Unmarshal(raw, &actions)
				if len(actions) == 0 {
					t.Fatalf("no code action: %s", raw)
				}
				edit, want := actions[0].Edit, tt.fix
				if lazy {
					var full struct {
						Edit *wireEdit `json:"edit"`
					}
					json.Unmarshal(result(t, c.call("codeAction/resolve", actions[0])), &full)
					edit, want = full.Edit, tt.resolve
				}
				if edit == nil {
					t.Fatalf("code action %q has no edit (lazy %v)", actions[0].Title, lazy)
				}
				if got := edit.summary(); got != want {
					t.Errorf("quick fix %q (lazy %v): %s, want %s", actions[0].Title, lazy, got, want)
				}
			}
		})
	}
}

// TestEditVersionIsTheSnapshots: a cross-file edit carries the version of
// the snapshot the request read, not the version current when it is sent.
func TestEditVersionIsTheSnapshots(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "main.wfl")
	u := uri.File(path)
	s := newServer(context.Background(), Options{})
	s.session.Store(&session{enc: utf16, caps: clientCaps{documentChanges: true}})
	s.ws.Open(core.URI(u), 4, "store x as 1\ndisplay x\n")
	snap, _ := s.ws.Snapshot(core.URI(u))
	if _, err := s.ws.Change(core.URI(u), 5, core.Edit{Start: 0, End: 0, Text: "display 2\n"}); err != nil {
		t.Fatal(err)
	}
	d := doc{uri: u, snap: snap, enc: utf16}
	l := s.versionedLoader(d)
	fe, ok := l.fileEdits(path, []core.Edit{{Start: 6, End: 7, Text: "y"}})
	if !ok || fe.version == nil || *fe.version != 4 {
		t.Fatalf("edits of the request's document: version %v, want 4 (the snapshot read, not the current 5)", fe.version)
	}
	if got := fe.edits[0].Range.Start; got.Line != 0 || got.Character != 6 {
		t.Errorf("edit placed at %+v in the text of version 4, want 0:6", got)
	}
	// Another open document: its current version, read once.
	otherPath := filepath.Join(dir, "other.wfl")
	ou := uri.File(otherPath)
	s.ws.Open(core.URI(ou), 9, "display 1\n")
	if _, ok := l.load(otherPath); !ok {
		t.Fatal("other.wfl not loaded")
	}
	if _, err := s.ws.Change(core.URI(ou), 10, core.Edit{Start: 0, End: 0, Text: "\n"}); err != nil {
		t.Fatal(err)
	}
	fe, _ = l.fileEdits(otherPath, []core.Edit{{Start: 8, End: 9, Text: "2"}})
	if fe.version == nil || *fe.version != 9 {
		t.Errorf("edits of another open document: version %v, want 9 (the text read)", fe.version)
	}
	// A file that is not open: no version.
	diskPath := filepath.Join(dir, "disk.wfl")
	os.WriteFile(diskPath, []byte("display 3\n"), 0o644)
	if fe, ok = l.fileEdits(diskPath, nil); !ok || fe.version != nil {
		t.Errorf("edits of a file on the disk: version %v (ok %v), want nil", fe.version, ok)
	}
}

// TestPrepareRenameNothing: where there is no name that can be renamed,
// prepareRename answers null, without an error; rename says why.
func TestPrepareRenameNothing(t *testing.T) {
	c := newClient(t, quiet)
	c.initialize(nil)
	c.open(testURI, "display length of \"abc\"\nstore x as 1\n", 1)
	for _, tt := range []struct {
		name      string
		line, col int
		null      bool
	}{
		{"a keyword", 0, 2, true},
		{"a builtin", 0, 10, true},
		{"a string", 0, 20, true},
		{"past the end of a line", 0, 99, true},
		{"a variable", 1, 6, false},
	} {
		at := map[string]any{"textDocument": map[string]any{"uri": testURI}, "position": map[string]any{"line": tt.line, "character": tt.col}}
		r := c.call("textDocument/prepareRename", at)
		if r.Error != nil {
			t.Errorf("%s: prepareRename answered error %d %s, want a result", tt.name, r.Error.Code, r.Error.Message)
			continue
		}
		if got := string(r.Result) == "null"; got != tt.null {
			t.Errorf("%s: prepareRename = %s, want null %v", tt.name, r.Result, tt.null)
		}
	}
	c.finish()
}

// TestCreateIncludedFile: an include typed before its file is offered the
// action that creates the file, after the edits that typed it, to a client
// that takes resource operations, and to no other; the path fix comes
// with it when a file of the folder is spelled alike.
func TestCreateIncludedFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tools.wfl"), []byte("store t as 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := string(uri.File(filepath.Join(dir, "main.wfl")))
	for _, create := range []bool{true, false} {
		c := newClient(t)
		ops := []string{"rename"}
		if create {
			ops = append(ops, "create")
		}
		c.initialize(map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": ops}}})
		c.open(doc, "include from \"\"\ndisplay 1\n", 1)
		for i, ch := range "lib/new.wfl" { // typed between the quotes
			c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": doc, "version": 2 + i},
				"contentChanges": []any{map[string]any{"range": map[string]any{"start": map[string]any{"line": 0, "character": 14 + i}, "end": map[string]any{"line": 0, "character": 14 + i}}, "text": string(ch)}}})
		}
		c.diagnostics(doc, 12)
		at := map[string]any{"textDocument": map[string]any{"uri": doc}, "range": map[string]any{"start": map[string]any{"line": 0, "character": 16}, "end": map[string]any{"line": 0, "character": 16}},
			"context": map[string]any{"diagnostics": []any{}}}
		r := c.call("textDocument/codeAction", at)
		want := `{"title":"Create 'lib/new.wfl'","kind":"quickfix","diagnostics":[{"range":{"start":{"line":0,"character":13},"end":{"line":0,"character":26}},"severity":3,"code":"ANALYZE-INCLUDE","source":"wfl","message":"The included file cannot be followed: there is no file lib/new.wfl"}],` +
			`"edit":{"documentChanges":[{"kind":"create","uri":"` + string(uri.File(filepath.Join(dir, "lib", "new.wfl"))) + `","options":{"ignoreIfExists":true}}]}}`
		if got := strings.Contains(string(r.Result), want); got != create {
			t.Errorf("resource operations %v: offered %v, want %v: %s", ops, got, create, r.Result)
		}
		// A file of the folder spelled alike: the path fix too.
		c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": doc, "version": 13},
			"contentChanges": []any{map[string]any{"text": "include from \"tool.wfl\"\ndisplay t\n"}}})
		c.diagnostics(doc, 13)
		r = c.call("textDocument/codeAction", at)
		if !strings.Contains(string(r.Result), `"title":"Change the path to 'tools.wfl'"`) || strings.Contains(string(r.Result), "Create 'tool.wfl'") != create {
			t.Errorf("resource operations %v: %s", ops, r.Result)
		}
		c.finish()
	}
}

// TestWillRenameFiles renames and moves files and folders of a workspace
// whose files include one another, one open (under a spelling of its URI
// the decoder rewrites), the others on the disk: the edit answered,
// applied and followed by the rename, leaves every file of the workspace
// checking as cleanly as before, which it does not without the edit.
func TestWillRenameFiles(t *testing.T) {
	files := map[string]string{
		"consts.wfl":        "store greeting as \"hi\"\n",
		"lib/helpers.wfl":   "include from \"../consts.wfl\"\ndefine action called shout with words:\n    display greeting with words\nend action\n",
		"other.wfl":         "include from \"lib/helpers.wfl\"\ncall shout with \"b\"\n",
		"app/main.wfl":      "include from \"../lib/helpers.wfl\"\ncall shout with \"c\"\n",
		"lib/unrelated.wfl": "display 1\n",
		// A byte order mark, which an editor does not show: the edit's
		// range counts from after it.
		"bom.wfl": "\uFEFFinclude from \"lib/helpers.wfl\"\ncall shout with \"d\"\n",
	}
	for _, tc := range []struct {
		name     string
		from, to string // under the workspace
		edited   []string
	}{
		{"folder renamed", "lib", "tools", []string{"app/main.wfl", "bom.wfl", "other.wfl"}},
		{"file moved up", "lib/helpers.wfl", "helpers.wfl", []string{"app/main.wfl", "bom.wfl", "lib/helpers.wfl", "other.wfl"}},
		{"includer moved down", "other.wfl", "deep/er/other.wfl", []string{"other.wfl"}},
		{"file renamed", "consts.wfl", "constants.wfl", []string{"lib/helpers.wfl"}},
		{"nothing includes it", "lib/unrelated.wfl", "lib/gone.wfl", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, text := range files {
				testfiles.Write(t, dir, name, text)
			}
			before := map[string]string{} // the findings of each file, by its path after the rename
			for name := range files {
				after, _ := navigation.Moved(filepath.Join(dir, name), []navigation.FileMove{{From: filepath.Join(dir, tc.from), To: filepath.Join(dir, tc.to)}})
				before[after] = checkOnDisk(t, filepath.Join(dir, name))
			}
			main := strings.Replace(string(uri.File(filepath.Join(dir, "app/main.wfl"))), "main.wfl", "m%61in.wfl", 1)
			c := newClient(t)
			c.initializeWith(map[string]any{"rootUri": string(uri.File(dir)), "capabilities": map[string]any{}})
			c.await("index done", func(m *msg) bool {
				return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "indexed 6")
			})
			c.open(main, files["app/main.wfl"], 1)
			c.diagnostics(main, 1)
			from, to := filepath.Join(dir, tc.from), filepath.Join(dir, tc.to)
			r := c.call("workspace/willRenameFiles", map[string]any{"files": []any{
				map[string]any{"oldUri": string(uri.File(from)), "newUri": string(uri.File(to))}}})
			if r.Error != nil {
				t.Fatalf("willRenameFiles: %+v", r.Error)
			}
			var we struct {
				Changes map[string][]struct {
					Range   wireRange
					NewText string
				}
			}
			if err := json.Unmarshal(r.Result, &we); err != nil {
				t.Fatalf("%s: %v", r.Result, err)
			}
			var edited []string
			for u, edits := range we.Changes {
				path, _ := movePath(u)
				if u != main && path == filepath.Join(dir, "app/main.wfl") {
					t.Errorf("the open document's edits are named %s, not as it was opened: %s", u, main)
				}
				if u == main {
					path = filepath.Join(dir, "app/main.wfl")
				}
				rel, _ := filepath.Rel(dir, path)
				edited = append(edited, rel)
				text, _ := os.ReadFile(path)
				// As an editor applies them: to the text it shows, without
				// a byte order mark, which it writes back.
				bom, body := "", string(text)
				if rest, ok := strings.CutPrefix(body, "\uFEFF"); ok {
					bom, body = "\uFEFF", rest
				}
				lines := strings.SplitAfter(body, "\n")
				for _, e := range slices.Backward(edits) { // one line each, as include paths are
					l := lines[e.Range.Start.Line]
					lines[e.Range.Start.Line] = l[:e.Range.Start.Character] + e.NewText + l[e.Range.End.Character:]
				}
				os.WriteFile(path, []byte(bom+strings.Join(lines, "")), 0o644)
			}
			slices.Sort(edited)
			if !slices.Equal(edited, tc.edited) {
				t.Errorf("edited %v, want %v: %s", edited, tc.edited, r.Result)
			}
			os.MkdirAll(filepath.Dir(to), 0o755)
			if err := os.Rename(from, to); err != nil {
				t.Fatal(err)
			}
			for path, was := range before {
				if now := checkOnDisk(t, path); now != was {
					t.Errorf("%s: findings after the rename:\n%s\nbefore:\n%s", path, now, was)
				}
			}
			c.finish()
		})
	}
}

// checkOnDisk returns the findings of a file on the disk, its includes
// read from the disk too, a line each.
func checkOnDisk(t *testing.T, path string) string {
	t.Helper()
	a, ok := core.NewWorkspace().Load(path)
	if !ok {
		t.Fatalf("%s: cannot be read", path)
	}
	var out strings.Builder
	for _, d := range a.Diagnostics {
		fmt.Fprintf(&out, "%s %s\n", d.Severity, d.Message)
	}
	return out.String()
}

// TestWillRenameFilesParams: the params are checked as every request's.
func TestWillRenameFilesParams(t *testing.T) {
	c := newClient(t)
	c.initialize(nil)
	for params, want := range map[string]string{
		"null":                     "workspace/willRenameFiles: params: expected an object with files, found null",
		"{}":                       "workspace/willRenameFiles: params: expected an object with files, found an object without files",
		`{"files":7}`:              "workspace/willRenameFiles: params: files: expected an array, found 7",
		`{"files":[{"oldUri":1}]}`: "workspace/willRenameFiles: params: files[0].oldUri: expected a string, found 1",
		`{"files":[{"oldUri":"file:///ws/a.wfl"}]}`:                  `workspace/willRenameFiles: params: files[0].newUri: expected a file URI, found ""`,
		`{"files":[{"oldUri":"file:///ws/a.wfl","newUri":"b.wfl"}]}`: `workspace/willRenameFiles: params: files[0].newUri: expected a file URI, found "b.wfl"`,
		`{"files":[{"oldUri":"file:","newUri":"file:///ws/b.wfl"}]}`: `workspace/willRenameFiles: params: files[0].oldUri: expected a file URI, found "file:"`,
	} {
		r := c.call("workspace/willRenameFiles", json.RawMessage(params))
		if r.Error == nil || r.Error.Code != -32602 || r.Error.Message != want {
			t.Errorf("%s: %+v, want -32602 %q", params, r.Error, want)
		}
	}
	if r := c.call("workspace/willRenameFiles", map[string]any{"files": []any{}}); r.Error != nil || string(r.Result) != "null" {
		t.Errorf("no files: %s %+v, want null", r.Result, r.Error)
	}
	c.finish()
}

// TestWillRenameFilesVersioned: to a client that takes versioned document
// changes, the edit of an open document names the version it was made
// for (the client refuses it if the text changed since), and that of a
// file on the disk none.
func TestWillRenameFilesVersioned(t *testing.T) {
	dir := t.TempDir()
	testfiles.Write(t, dir, "lib.wfl", "store x as 1\n")
	testfiles.Write(t, dir, "disk.wfl", "include from \"lib.wfl\"\ndisplay x\n")
	open := string(uri.File(filepath.Join(dir, "open.wfl")))
	c := newClient(t)
	c.initializeWith(map[string]any{"rootUri": string(uri.File(dir)), "capabilities": map[string]any{
		"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": true}}}})
	c.await("index done", func(m *msg) bool {
		return m.Method == "window/logMessage" && strings.Contains(string(m.Params), "indexed 2")
	})
	c.open(open, "include from \"./lib.wfl\"\ndisplay x\n", 3)
	r := c.call("workspace/willRenameFiles", map[string]any{"files": []any{map[string]any{
		"oldUri": string(uri.File(filepath.Join(dir, "lib.wfl"))), "newUri": string(uri.File(filepath.Join(dir, "core", "lib.wfl")))}}})
	want := `{"documentChanges":[` +
		`{"textDocument":{"uri":"` + string(uri.File(filepath.Join(dir, "disk.wfl"))) + `","version":null},"edits":[{"range":{"start":{"line":0,"character":14},"end":{"line":0,"character":21}},"newText":"core/lib.wfl"}]},` +
		`{"textDocument":{"uri":"` + open + `","version":3},"edits":[{"range":{"start":{"line":0,"character":14},"end":{"line":0,"character":23}},"newText":"./core/lib.wfl"}]}]}`
	if r.Error != nil || string(r.Result) != want {
		t.Errorf("got %s %+v,\nwant %s", r.Result, r.Error, want)
	}
	c.finish()
}

// TestWillRenameFilesWaitsForTheIndex: a rename asked right after
// initialized, while the workspace's folders are still being walked, is
// answered once the walk is done, with the edits of every file.
func TestWillRenameFilesWaitsForTheIndex(t *testing.T) {
	dir := t.TempDir()
	const n = 400
	testfiles.Write(t, dir, "shared/c.wfl", "store c as 1\n")
	for i := range n {
		testfiles.Write(t, dir, fmt.Sprintf("app/f%d.wfl", i), "include from \"../shared/c.wfl\"\ndisplay c\n")
	}
	c := newClient(t, quiet)
	c.initializeWith(map[string]any{"rootUri": string(uri.File(dir)), "capabilities": map[string]any{}})
	r := c.call("workspace/willRenameFiles", map[string]any{"files": []any{map[string]any{
		"oldUri": string(uri.File(filepath.Join(dir, "shared"))), "newUri": string(uri.File(filepath.Join(dir, "common")))}}})
	var we struct {
		Changes map[string][]struct{ NewText string }
	}
	if err := json.Unmarshal(r.Result, &we); err != nil || r.Error != nil {
		t.Fatalf("%s %+v", r.Result, r.Error)
	}
	if len(we.Changes) != n {
		t.Errorf("edits of %d files, want %d", len(we.Changes), n)
	}
	for u, edits := range we.Changes {
		if len(edits) != 1 || edits[0].NewText != "../common/c.wfl" {
			t.Errorf("%s: %+v", u, edits)
		}
	}
	c.finish()
}
