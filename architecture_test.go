package main

import (
	goast "go/ast"
	goparser "go/parser"
	gotoken "go/token"
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
