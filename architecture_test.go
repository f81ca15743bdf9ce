package main

import (
	goast "go/ast"
	goparser "go/parser"
	gotoken "go/token"
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportRules enforces the import direction of ARCHITECTURE.md: lang
// imports nothing of ours outside lang; core imports lang; lsp and mcpserver
// never import each other; only lsp imports go.lsp.dev; nothing but tests
// imports the conformance fixture, the benchmarks' documents or txtar.
func TestImportRules(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}: {{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ": ")
		if !strings.HasPrefix(pkg, "wfl-lsp") {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if reason := forbidden(pkg, imp); reason != "" {
				t.Errorf("%s imports %s: %s", pkg, imp, reason)
			}
		}
	}
}

func forbidden(pkg, imp string) string {
	under := func(p, root string) bool { return p == root || strings.HasPrefix(p, root+"/") }
	switch {
	case under(pkg, "wfl-lsp/lang") && strings.HasPrefix(imp, "wfl-lsp") && !under(imp, "wfl-lsp/lang"):
		return "lang imports only lang"
	case under(pkg, "wfl-lsp/core") && (under(imp, "wfl-lsp/lsp") || under(imp, "wfl-lsp/mcpserver")):
		return "core does not know its front doors"
	case under(pkg, "wfl-lsp/lsp") && under(imp, "wfl-lsp/mcpserver"),
		under(pkg, "wfl-lsp/mcpserver") && under(imp, "wfl-lsp/lsp"):
		return "lsp and mcpserver never import each other"
	case under(imp, "go.lsp.dev") && !under(pkg, "wfl-lsp/lsp"):
		return "only lsp imports go.lsp.dev"
	case under(imp, "wfl-lsp/internal/mcpload"):
		return "the load driver is test-only and never reaches the shipped binary"
	case under(imp, "wfl-lsp/internal/conformance") && !under(pkg, "wfl-lsp/internal/conformance"):
		return "the conformance fixture is test-only and never reaches the shipped binary"
	case under(imp, "wfl-lsp/internal/benchdoc"), under(imp, "wfl-lsp/internal/txtar"):
		return "the benchmarks' documents and the golden files' format are for tests only"
	}
	return ""
}

// TestLangStartsNoGoroutines enforces that the front end is pure: no go
// statements and no I/O packages in lang's non-test code. Concurrency is
// core's business.
func TestLangStartsNoGoroutines(t *testing.T) {
	fset := gotoken.NewFileSet()
	files, _ := filepath.Glob("lang/*/*.go")
	if len(files) == 0 {
		t.Fatal("no lang sources found")
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := goparser.ParseFile(fset, name, nil, goparser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			switch path := strings.Trim(imp.Path.Value, `"`); path {
			case "os", "io/ioutil", "net", "net/http", "os/exec":
				t.Errorf("%s imports %s: lang does no I/O", name, path)
			}
		}
		goast.Inspect(f, func(n goast.Node) bool {
			if g, ok := n.(*goast.GoStmt); ok {
				t.Errorf("%s: go statement at %s: lang starts no goroutines", name, fset.Position(g.Pos()))
			}
			return true
		})
	}
}

// TestUserFilesWrittenByReplaceFile enforces that the program writes over a
// user's file only through replaceFile (replace.go), which cannot leave it
// half written: no other non-test code creates, truncates or renames files.
// The one exception is the --log-file log, which is opened to append.
func TestUserFilesWrittenByReplaceFile(t *testing.T) {
	writers := map[string]bool{"WriteFile": true, "Create": true, "OpenFile": true, "CreateTemp": true, "Rename": true, "Truncate": true}
	allowed := map[string]string{
		"replace.go:CreateTemp": "the temporary file beside the one it replaces",
		"replace.go:Rename":     "the rename over the file",
		"main.go:OpenFile":      "the --log-file log, opened with O_APPEND",
	}
	fset := gotoken.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := goparser.ParseFile(fset, path, nil, goparser.SkipObjectResolution)
		if err != nil {
			return err
		}
		goast.Inspect(f, func(n goast.Node) bool {
			sel, ok := n.(*goast.SelectorExpr)
			if !ok || !writers[sel.Sel.Name] {
				return true
			}
			if x, ok := sel.X.(*goast.Ident); !ok || x.Name != "os" {
				return true
			}
			key := filepath.ToSlash(path) + ":" + sel.Sel.Name
			if _, ok := allowed[key]; ok {
				seen[key] = true
				return true
			}
			t.Errorf("%s: os.%s writes a file: write a user's file through replaceFile, or add the call to this test's exceptions with the reason", fset.Position(sel.Pos()), sel.Sel.Name)
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key, why := range allowed {
		if !seen[key] {
			t.Errorf("the exception %s (%s) is no longer used: remove it", key, why)
		}
	}
}
