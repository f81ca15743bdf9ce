package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/internal/testfiles"
)

// TestMoveFile: move_file answers the edits that keep the workspace's
// includes naming their files; made, and followed by the move, they leave
// every file with the findings it had. A move it cannot make says why.
func TestMoveFile(t *testing.T) {
	files := map[string]string{
		"consts.wfl":      "store greeting as \"hi\"\n",
		"lib/helpers.wfl": "include from \"../consts.wfl\"\ndefine action called shout with words:\n    display greeting with words\nend action\n",
		"other.wfl":       "include from \"lib/helpers.wfl\"\ncall shout with \"b\"\n",
		"app/main.wfl":    "include from \"../lib/helpers.wfl\"\ncall shout with \"c\"\n",
	}
	for i, tc := range []struct {
		from, to string
		changed  []string // file -> its new include, after the move
	}{
		{"lib", "tools", []string{"app/main.wfl: ../tools/helpers.wfl", "other.wfl: tools/helpers.wfl"}},
		{"lib/helpers.wfl", "helpers.wfl", []string{"app/main.wfl: ../helpers.wfl", "lib/helpers.wfl -> helpers.wfl: consts.wfl", "other.wfl: helpers.wfl"}},
		{"consts.wfl", "shared/consts.wfl", []string{"lib/helpers.wfl: ../shared/consts.wfl"}},
	} {
		t.Run(tc.from, func(t *testing.T) {
			root := t.TempDir()
			for name, text := range files {
				testfiles.Write(t, root, name, text)
			}
			before := map[string]string{}
			for name := range files {
				before[name] = findingsOf(t, filepath.Join(root, name))
			}
			h := start(t, Options{Root: root, Primitives: wflOnly()})
			h.Initialize("2025-11-25")
			res := h.Call(i+1, "tools/call", fmt.Sprintf(`{"name":"move_file","arguments":{"from":%q,"to":%q}}`, tc.from, tc.to)).Tool(t)
			if res.IsError {
				t.Fatalf("%s", res.Content[0].Text)
			}
			var got struct {
				Files []struct {
					File, MovesTo string
					Edits         []struct {
						Line, Column, EndLine, EndColumn int
						NewText                          string
					}
				}
				Count     int
				Truncated bool
			}
			if err := json.Unmarshal(res.StructuredContent, &got); err != nil {
				t.Fatal(err)
			}
			var changed []string
			for _, f := range got.Files {
				name := f.File
				if f.MovesTo != "" {
					name += " -> " + f.MovesTo
				}
				for _, e := range f.Edits {
					changed = append(changed, name+": "+e.NewText)
				}
				// Made as a client makes them: line and column 1-based, in
				// characters (ASCII here).
				path := filepath.Join(root, f.File)
				b, _ := os.ReadFile(path)
				lines := strings.SplitAfter(string(b), "\n")
				for _, e := range slices.Backward(f.Edits) {
					l := lines[e.Line-1]
					lines[e.Line-1] = l[:e.Column-1] + e.NewText + l[e.EndColumn-1:]
				}
				os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644)
			}
			slices.Sort(changed)
			if !slices.Equal(changed, tc.changed) || got.Count != len(tc.changed) || got.Truncated {
				t.Errorf("changed %q (count %d), want %q", changed, got.Count, tc.changed)
			}
			dest := filepath.Join(root, tc.to)
			os.MkdirAll(filepath.Dir(dest), 0o755)
			if err := os.Rename(filepath.Join(root, tc.from), dest); err != nil {
				t.Fatal(err)
			}
			for name, was := range before {
				after := name
				if name == tc.from || strings.HasPrefix(name, tc.from+"/") {
					after = tc.to + strings.TrimPrefix(name, tc.from)
				}
				if now := findingsOf(t, filepath.Join(root, after)); now != was {
					t.Errorf("%s: findings after the move:\n%s\nbefore:\n%s", after, now, was)
				}
			}
		})
	}
}

// TestMoveFileRefused: a move that leaves the workspace, hides the file,
// makes it no WFL file or lands on one that exists is refused, saying why.
func TestMoveFileRefused(t *testing.T) {
	root, outside := trustTree(t)
	testfiles.Write(t, root, "dir/inner/x.wfl", "store x as 1\n")
	for link, target := range map[string]string{"outlink": outside, "dangling.wfl": filepath.Join(root, "nothing.wfl")} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	h := start(t, Options{Root: root, Primitives: wflOnly()})
	h.Initialize("2025-11-25")
	for i, tc := range []struct{ from, to, kind string }{
		{"../outside/secret.wfl", "secret.wfl", "outside_workspace"},
		{"escape.wfl", "x.wfl", "outside_workspace"},
		{"lib.wfl", "../lib.wfl", "outside_workspace"},
		{"lib.wfl", ".hidden/lib.wfl", "hidden"},
		{"lib.wfl", "lib.txt", "not_wfl"},
		{"lib.wfl", "main.wfl", "exists"},
		{"none.wfl", "x.wfl", "not_found"},
		// Through a link out of the workspace, whether the file there
		// exists or not: the same refusal.
		{"lib.wfl", "outlink/secret.wfl", "outside_workspace"},
		{"lib.wfl", "outlink/none.wfl", "outside_workspace"},
		{"lib.wfl", "file://" + filepath.ToSlash(outside) + "/x.wfl", "outside_workspace"},
		{"lib.wfl", "escape.wfl", "exists"},   // a link in its place
		{"lib.wfl", "dangling.wfl", "exists"}, // even one to nothing
		{"lib.wfl", "main.wfl/x.wfl", "not_a_folder"},
		{"dir", "dir/inner/dir", "invalid_move"},
		{"dir", "dir", "invalid_move"},
		{".", "sub", "invalid_move"},
		{"nofolder", "x", "not_found"},
		{".hidden", "x", "hidden"},
	} {
		res := h.Call(i+1, "tools/call", fmt.Sprintf(`{"name":"move_file","arguments":{"from":%q,"to":%q}}`, tc.from, tc.to)).Tool(t)
		text := res.Content[0].Text + string(res.StructuredContent)
		noSecret(t, "move_file "+tc.from, text)
		if !res.IsError || !strings.Contains(text, tc.kind) {
			t.Errorf("%s -> %s: %s, want a %s failure", tc.from, tc.to, text, tc.kind)
		}
	}
}

// TestMoveFileDestinationForms: a destination given as a file:// URI or an
// absolute path names the same place as the workspace path.
func TestMoveFileDestinationForms(t *testing.T) {
	root := t.TempDir()
	testfiles.Write(t, root, "lib/c.wfl", "store c as 1\n")
	testfiles.Write(t, root, "main.wfl", "include from \"lib/c.wfl\"\ndisplay c\n")
	h := start(t, Options{Root: root, Primitives: wflOnly()})
	h.Initialize("2025-11-25")
	for i, to := range []string{"lib/d.wfl", filepath.Join(root, "lib", "d.wfl"), "file://" + filepath.ToSlash(filepath.Join(root, "lib", "d.wfl"))} {
		res := h.Call(i+1, "tools/call", fmt.Sprintf(`{"name":"move_file","arguments":{"from":"lib/c.wfl","to":%q}}`, to)).Tool(t)
		if res.IsError || !strings.Contains(string(res.StructuredContent), `"newText":"lib/d.wfl"`) || !strings.Contains(string(res.StructuredContent), `"to":"lib/d.wfl"`) {
			t.Errorf("to %s: %s", to, res.Content[0].Text)
		}
	}
}

// findingsOf returns the findings of a file on the disk, a line each.
func findingsOf(t *testing.T, path string) string {
	t.Helper()
	a, ok := core.NewWorkspace().Load(path)
	if !ok {
		t.Fatalf("%s: cannot be read", path)
	}
	var b strings.Builder
	for _, d := range a.Diagnostics {
		fmt.Fprintf(&b, "%s %s\n", d.Severity, d.Message)
	}
	return b.String()
}

// TestMoveFileWithinBudget: a folder that 3,000 files include moves: the
// answer lists the files that fit it, counts them all, and says it was
// cut.
func TestMoveFileWithinBudget(t *testing.T) {
	skipBigUnderRace(t)
	root := t.TempDir()
	testfiles.Write(t, root, "lib/c.wfl", "store c as 1\n")
	const n = 3000
	for i := range n {
		testfiles.Write(t, root, fmt.Sprintf("app/f%d.wfl", i), "include from \"../lib/c.wfl\"\ndisplay c\n")
	}
	h := start(t, Options{Root: root, Primitives: wflOnly()})
	h.Initialize("2025-11-25")
	params := `{"name":"move_file","arguments":{"from":"lib","to":"common"}}`
	res := h.Call(1, "tools/call", params).Tool(t)
	checkOutputSchema(t, params, res)
	var got struct {
		Files     []json.RawMessage
		Count     int
		Truncated bool
	}
	json.Unmarshal(res.StructuredContent, &got)
	if got.Count != n || !got.Truncated || len(got.Files) == 0 || len(got.Files) >= n {
		t.Errorf("count %d, truncated %v, %d files listed; want %d counted, some listed", got.Count, got.Truncated, len(got.Files), n)
	}
	if size := len(res.Content[0].Text); size > answerBudget {
		t.Errorf("answered %d bytes, more than the budget of %d", size, answerBudget)
	}
	// The pages, each from the nextOffset of the last, list every file once.
	seen := map[string]bool{}
	for id, offset := 2, 0; ; id++ {
		res := h.Call(id, "tools/call", fmt.Sprintf(`{"name":"move_file","arguments":{"from":"lib","to":"common","offset":%d}}`, offset)).Tool(t)
		var page struct {
			Files      []struct{ File string }
			NextOffset *int
		}
		json.Unmarshal(res.StructuredContent, &page)
		for _, f := range page.Files {
			if seen[f.File] {
				t.Fatalf("%s listed twice", f.File)
			}
			seen[f.File] = true
		}
		if page.NextOffset == nil {
			break
		}
		offset = *page.NextOffset
	}
	if len(seen) != n {
		t.Errorf("the pages list %d files, want %d", len(seen), n)
	}
}
