package lsp

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"go.lsp.dev/uri"
)

// TestDocumentLinkTargets: an include's path is a document link when it
// names a regular file, or nothing yet (the editor offers to create it);
// not when it names a folder, a named pipe or a device, which an editor
// following the link would open as a document or read without end.
func TestDocumentLinkTargets(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		make func(path string) error // makes the target at path; nil for an absolute path used as it is
		path string                  // the include's path, relative to dir unless make is nil
		link bool
	}{
		{"regular file", func(p string) error { return os.WriteFile(p, []byte("store x as 1\n"), 0o644) }, "lib.wfl", true},
		{"missing file", func(string) error { return nil }, "missing.wfl", true},
		{"folder", func(p string) error { return os.Mkdir(p, 0o755) }, "folder.wfl", false},
		{"link to a folder", func(p string) error { return os.Symlink(dir, p) }, "updir.wfl", false},
		{"named pipe", mkfifo, "pipe.wfl", false},
		{"device", nil, "/dev/zero", false},
	}
	c := newClient(t)
	c.initialize(nil)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			target := tt.path
			if tt.make != nil {
				target = filepath.Join(dir, tt.path)
				if err := tt.make(target); err != nil {
					t.Skipf("cannot make a %s here: %v", tt.name, err)
				}
			} else if fi, err := os.Stat(target); err != nil || fi.Mode()&fs.ModeDevice == 0 {
				t.Skipf("no device %s here", target)
			}
			u := string(uri.File(filepath.Join(dir, "main"+strconv.Itoa(i)+".wfl")))
			c.open(u, "include from \""+filepath.ToSlash(tt.path)+"\"\ndisplay 1\n", 1)
			var links []struct {
				Range  wireRange `json:"range"`
				Target string    `json:"target"`
			}
			if err := json.Unmarshal(result(t, c.call("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": u}})), &links); err != nil {
				t.Fatal(err)
			}
			switch {
			case !tt.link && len(links) != 0:
				t.Errorf("include of a %s: links %+v, want none", tt.name, links)
			case tt.link && (len(links) != 1 || links[0].Target != string(uri.File(target))):
				t.Errorf("include of a %s: links %+v, want one to %s", tt.name, links, uri.File(target))
			}
		})
	}
	if err := c.finish(); err != nil {
		t.Fatal(err)
	}
}
