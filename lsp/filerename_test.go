package lsp

import (
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
