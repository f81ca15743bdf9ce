package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"wfl-lsp/internal/testcorpus"
)

// TestPositionsLeadSomewhere is a property over the corpus: every place a
// tool gives for a declared name (document_symbols, parse_wfl's outline,
// workspace_symbols, find_definition, find_references) is at the name, and
// fed to the position tools finds the same symbol: get_symbol_info
// describes it, find_definition gives that place back, find_references
// lists it as the declaration, and each reference it lists leads back to
// it through find_definition. Before, document_symbols gave each symbol at
// its statement's start (Person at 1:1, the word create): find_references
// found nothing there, and get_symbol_info described the keyword.
func TestPositionsLeadSomewhere(t *testing.T) {
	root := filepath.Join(testcorpus.Dir(t), "wfl")
	var files []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if rel, _ := filepath.Rel(root, p); err == nil && strings.HasSuffix(p, ".wfl") && !strings.HasPrefix(rel, ".") && !strings.Contains(rel, "/.") {
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	// Every 12th program: about 200 places, 7 s on a 2-core machine (each
	// find_references reads the whole workspace again, as files may change
	// on disk between calls); one in 48 with -short, one in 96 under the
	// race detector.
	step := 12
	if testing.Short() {
		step = 48
	}
	if testcorpus.Race {
		step = 96
	}
	h := start(t, Options{Root: root})
	h.Initialize("2025-11-25")
	id := 0
	call := func(tool string, args map[string]any, out any) bool {
		t.Helper()
		id++
		b, _ := json.Marshal(map[string]any{"name": tool, "arguments": args})
		res := h.Call(id, "tools/call", string(b)).Tool(t)
		if res.IsError {
			return false
		}
		json.Unmarshal(res.StructuredContent, out)
		return true
	}
	type place struct {
		File      string `json:"file"`
		Path      string `json:"path"`
		Line      int    `json:"line"`
		Column    int    `json:"column"`
		EndLine   int    `json:"endLine"`
		EndColumn int    `json:"endColumn"`
	}
	type symbol struct {
		place
		Name     string   `json:"name"`
		Kind     string   `json:"kind"`
		Children []symbol `json:"children"`
	}
	var walk func(syms []symbol, f func(symbol))
	walk = func(syms []symbol, f func(symbol)) {
		for _, s := range syms {
			f(s)
			walk(s.Children, f)
		}
	}
	lines := map[string][]string{}
	nameAt := func(file string, line, col int) string {
		if lines[file] == nil {
			b, _ := os.ReadFile(filepath.Join(root, file))
			lines[file] = strings.Split(string(b), "\n")
		}
		ls := lines[file]
		if line < 1 || line > len(ls) {
			return ""
		}
		r := []rune(ls[line-1])
		if col < 1 || col > len(r) {
			return ""
		}
		return string(r[col-1:])
	}

	var checked, refsChecked int
	failures := 0
	fail := func(format string, a ...any) {
		t.Helper()
		if failures++; failures <= 30 {
			t.Errorf(format, a...)
		}
	}
	// check feeds the place of a declared name to the position tools.
	check := func(from, file string, s symbol) {
		t.Helper()
		checked++
		where := fmt.Sprintf("%s: %s %s %q at %d:%d", from, file, s.Kind, s.Name, s.Line, s.Column)
		got := nameAt(file, s.Line, s.Column)
		if s.Kind == "test" || s.Kind == "describe" {
			// Named by a text literal, which nothing refers to.
			if !strings.HasPrefix(got, `"`+s.Name+`"`) {
				fail("%s: the place is not at the name: %.30q", where, got)
			}
			return
		}
		if !strings.HasPrefix(got, s.Name) {
			fail("%s: the place is not at the name: %.30q", where, got)
			return
		}
		at := map[string]any{"path": file, "line": s.Line, "column": s.Column}
		var info struct {
			Found bool   `json:"found"`
			Name  string `json:"name"`
		}
		if !call("get_symbol_info", at, &info) || !info.Found || info.Name != s.Name && !strings.HasSuffix(info.Name, "."+s.Name) {
			fail("%s: get_symbol_info describes %q (found %v)", where, info.Name, info.Found)
		}
		var defs struct {
			Definitions []place `json:"definitions"`
		}
		call("find_definition", at, &defs)
		same := func(p place) bool { return p.File == file && p.Line == s.Line && p.Column == s.Column }
		found := false
		for _, d := range defs.Definitions {
			found = found || same(d)
		}
		if !found {
			fail("%s: find_definition gives %+v", where, defs.Definitions)
		}
		var refs struct {
			References []struct {
				place
				Declaration bool `json:"declaration"`
			} `json:"references"`
		}
		call("find_references", at, &refs)
		found = false
		for i, r := range refs.References {
			if same(r.place) {
				found = found || r.Declaration
				continue
			}
			if i > 4 || r.Declaration {
				continue // a few uses of each name are enough
			}
			refsChecked++
			var back struct {
				Definitions []place `json:"definitions"`
			}
			call("find_definition", map[string]any{"path": r.File, "line": r.Line, "column": r.Column}, &back)
			leads := false
			for _, d := range back.Definitions {
				leads = leads || same(d)
			}
			if !leads {
				fail("%s: its use at %s %d:%d leads to %+v", where, r.File, r.Line, r.Column, back.Definitions)
			}
		}
		if !found {
			fail("%s: find_references does not list it as the declaration", where)
		}
	}

	for i, file := range files {
		if i%step != 0 {
			continue
		}
		var ds struct {
			Symbols []symbol `json:"symbols"`
		}
		if !call("document_symbols", map[string]any{"path": file, "limit": 1000}, &ds) {
			continue
		}
		walk(ds.Symbols, func(s symbol) { check("document_symbols", file, s) })
		var ps struct {
			Outline []symbol `json:"outline"`
		}
		call("parse_wfl", map[string]any{"path": file, "limit": 1000}, &ps)
		walk(ps.Outline, func(s symbol) {
			// The outline is document_symbols' tree: the same places.
			if got := strings.TrimPrefix(nameAt(file, s.Line, s.Column), `"`); !strings.HasPrefix(got, s.Name) {
				fail("parse_wfl: %s %s %q at %d:%d is not at the name", file, s.Kind, s.Name, s.Line, s.Column)
			}
		})
	}
	// workspace_symbols: every page of it, each of the files looked at.
	for offset := 0; ; {
		var ws struct {
			Symbols    []symbol `json:"symbols"`
			NextOffset *int     `json:"nextOffset"`
		}
		call("workspace_symbols", map[string]any{"query": "", "limit": 1000, "offset": offset}, &ws)
		for _, s := range ws.Symbols {
			if fileIndex(files, s.Path)%step == 0 {
				check("workspace_symbols", s.Path, s)
			}
		}
		if ws.NextOffset == nil {
			break
		}
		offset = *ws.NextOffset
	}
	if checked < 1000/step { // about 2,400 in all
		t.Errorf("only %d places checked", checked)
	}
	if failures > 30 {
		t.Errorf("... %d failures in all", failures)
	}
	t.Logf("%d places of declared names checked, %d uses led back", checked, refsChecked)
}

func fileIndex(files []string, f string) int {
	for i, x := range files {
		if x == f {
			return i
		}
	}
	return -1
}

// TestEveryCodeIsExplained: every diagnostic code check_workspace reports
// on the corpus, and analyze_wfl on its mutants (programs spoilt on
// purpose: parse, semantic and type errors of every kind; a twentieth
// of them under -race), is known to explain_diagnostic. Before,
// check_workspace reported an unreadable file under a code of its own,
// IO-NOT_UTF8, which explain_diagnostic did not know.
func TestEveryCodeIsExplained(t *testing.T) {
	corpus := testcorpus.Dir(t)
	codes := map[string]string{} // code -> a message that has it
	add := func(raw json.RawMessage) {
		var ds []struct{ Code, Message string }
		json.Unmarshal(raw, &ds)
		for _, d := range ds {
			codes[d.Code] = d.Message
		}
	}
	h := start(t, Options{Root: filepath.Join(corpus, "wfl")})
	h.Initialize("2025-11-25")
	id := 0
	_, answers := pages(t, h, &id, "check_workspace", `{"limit":1000}`, "files")
	for _, a := range answers {
		var files []struct {
			Diagnostics json.RawMessage `json:"diagnostics"`
		}
		json.Unmarshal(a["files"], &files)
		for _, f := range files {
			add(f.Diagnostics)
		}
	}
	mutants, _ := filepath.Glob(filepath.Join(corpus, "wfl-mutants", "*.wfl"))
	step := 1
	if testcorpus.Race {
		step = 20
	}
	hm := start(t, Options{Root: filepath.Join(corpus, "wfl-mutants")})
	hm.Initialize("2025-11-25")
	for i := 0; i < len(mutants); i += step {
		id++
		params := fmt.Sprintf(`{"name":"analyze_wfl","arguments":{"path":%q,"limit":1000}}`, filepath.Base(mutants[i]))
		res := hm.Call(id, "tools/call", params).Tool(t)
		var out struct {
			Diagnostics json.RawMessage `json:"diagnostics"`
		}
		json.Unmarshal(res.StructuredContent, &out)
		add(out.Diagnostics)
	}
	if len(codes) < 10 {
		t.Fatalf("only %d codes reported: %v", len(codes), codes)
	}
	for code, msg := range codes {
		id++
		b, _ := json.Marshal(map[string]any{"name": "explain_diagnostic", "arguments": map[string]any{"code": code, "message": msg}})
		if res := h.Call(id, "tools/call", string(b)).Tool(t); res.IsError {
			t.Errorf("%s (%q) is not explained: %s", code, msg, res.Content[0].Text)
		}
	}
	t.Logf("%d codes, each explained", len(codes))
}

// TestRelUnderTheRoot: with the file system's root as the workspace (a
// client's root file:///), the paths shown are relative to it, as under
// any folder: they began with a slash, and resources were named
// workspace://file//tmp/….
func TestRelUnderTheRoot(t *testing.T) {
	ws := &workspace{roots: []wsRoot{{path: string(filepath.Separator)}}}
	if got := ws.rel(filepath.FromSlash("/tmp/x/c.wfl")); got != "tmp/x/c.wfl" {
		t.Errorf("rel = %q, want tmp/x/c.wfl", got)
	}
}
