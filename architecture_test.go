package main

// This file keeps ARCHITECTURE.md true: the import rules, the purity of
// lang, the one way a user's file is written, and the table "feature →
// where it lives".

import (
	"fmt"
	goast "go/ast"
	"go/constant"
	"go/importer"
	goparser "go/parser"
	gotoken "go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"wfl-lsp/mcpserver"
)

// TestImportRules enforces the import direction of ARCHITECTURE.md: lang
// imports nothing of ours outside lang; core imports lang and none of its
// feature packages, which import core and one another one way
// (featureImports); lsp and mcpserver never import each other; the MCP
// protocol (mcpserver/mcp) imports nothing of ours, and the conformance
// fixture stands on it, not on mcpserver; only lsp imports go.lsp.dev;
// nothing but tests imports the conformance fixture, the benchmarks'
// documents, the typing driver, the wire-test harness, txtar, testcorpus,
// testfiles, testlog or core's coretest and featuretest.
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

// featureImports lists, for each of core's feature packages, the feature
// packages it may import besides core's state (core): one way, from
// fixes down to completion; presentation stands on core alone. lsp and
// mcpserver may import all of them.
var featureImports = map[string][]string{
	"wfl-lsp/core/completion":   {},
	"wfl-lsp/core/presentation": {},
	"wfl-lsp/core/navigation":   {"wfl-lsp/core/completion"},
	"wfl-lsp/core/fixes":        {"wfl-lsp/core/navigation"},
}

func forbidden(pkg, imp string) string {
	under := func(p, root string) bool { return p == root || strings.HasPrefix(p, root+"/") }
	switch {
	case under(pkg, "wfl-lsp/lang") && strings.HasPrefix(imp, "wfl-lsp") && !under(imp, "wfl-lsp/lang"):
		return "lang imports only lang"
	case under(pkg, "wfl-lsp/core") && (under(imp, "wfl-lsp/lsp") || under(imp, "wfl-lsp/mcpserver")):
		return "core does not know its front doors"
	case pkg == "wfl-lsp/core" && under(imp, "wfl-lsp/core") && imp != pkg:
		return "core's state imports none of the features that read it"
	case featureImports[pkg] != nil && strings.HasPrefix(imp, "wfl-lsp/core/") && !slices.Contains(featureImports[pkg], imp):
		return "a feature package imports core's state and only the feature packages below it (featureImports)"
	case under(imp, "wfl-lsp/core/internal/coretest") && !under(pkg, "wfl-lsp/core/internal/featuretest"),
		under(imp, "wfl-lsp/core/internal/featuretest"):
		return "core's and the feature packages' test helpers are for tests only"
	case under(pkg, "wfl-lsp/lsp") && under(imp, "wfl-lsp/mcpserver"),
		under(pkg, "wfl-lsp/mcpserver") && under(imp, "wfl-lsp/lsp"):
		return "lsp and mcpserver never import each other"
	case under(pkg, "wfl-lsp/mcpserver/mcp") && strings.HasPrefix(imp, "wfl-lsp") && !under(imp, "wfl-lsp/mcpserver/mcp"):
		return "the MCP protocol imports nothing of ours: not core, not lang, not WFL's primitives"
	case under(pkg, "wfl-lsp/internal/conformance") && imp == "wfl-lsp/mcpserver":
		return "the conformance fixture stands on the protocol package (mcpserver/mcp) alone"
	case under(imp, "wfl-lsp/mcpserver/internal/wiretest"):
		return "the wire-test harness is for tests only"
	case under(imp, "go.lsp.dev") && !under(pkg, "wfl-lsp/lsp"):
		return "only lsp imports go.lsp.dev"
	case under(imp, "wfl-lsp/internal/mcpload"):
		return "the load driver is test-only and never reaches the shipped binary"
	case under(imp, "wfl-lsp/internal/conformance") && !under(pkg, "wfl-lsp/internal/conformance"):
		return "the conformance fixture is test-only and never reaches the shipped binary"
	case under(imp, "wfl-lsp/internal/benchdoc") && !under(pkg, "wfl-lsp/internal/typingbench"),
		under(imp, "wfl-lsp/internal/txtar"):
		return "the benchmarks' documents and the golden files' format are for tests only"
	case under(imp, "wfl-lsp/internal/typingbench") && !under(pkg, "wfl-lsp/bench"):
		return "the typing benchmark's driver is for tests and benchmarks only"
	case under(imp, "wfl-lsp/internal/cli") && pkg != "wfl-lsp":
		return "the command line's subcommands are main's"
	case under(pkg, "wfl-lsp/internal/cli") && (under(imp, "wfl-lsp/lsp") || under(imp, "wfl-lsp/mcpserver")):
		return "the command line's subcommands stand on core, not on the servers"
	case under(imp, "wfl-lsp/internal/testcorpus") && !under(pkg, "wfl-lsp/core/internal/coretest"):
		return "finding the corpus is for tests only"
	case under(imp, "wfl-lsp/internal/testfiles"):
		return "writing a test's files is for tests only"
	case under(imp, "wfl-lsp/internal/testlog"):
		return "the tests' log buffer is for tests only"
	}
	return ""
}

// TestLangStartsNoGoroutines enforces that the front end is pure: no go
// statements and no I/O packages in lang's non-test code. Concurrency is
// core's business.
func TestLangStartsNoGoroutines(t *testing.T) {
	fset := gotoken.NewFileSet()
	files, _ := filepath.Glob("lang/*/*.go")
	deeper, _ := filepath.Glob("lang/*/*/*.go") // lang/diag/explain
	files = append(files, deeper...)
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

// TestFilesReadThroughFileAccess enforces that the program reads files one
// way, through core.FileAccess (core/files.go: regular files only, of
// bounded size, never waiting on a pipe; confined to folders for MCP): no
// other non-test code opens or reads a file or a folder. The exceptions
// are said with their reasons.
func TestFilesReadThroughFileAccess(t *testing.T) {
	readers := map[string]bool{"ReadFile": true, "Open": true, "ReadDir": true, "OpenRoot": true, "OpenInRoot": true, "DirFS": true}
	allowed := map[string]string{
		"core/files.go:OpenRoot":                            "Confine's os.Root for each folder",
		"core/files.go:ReadDir":                             "FileAccess.ReadDir, for AnyFile",
		"main.go:ReadFile":                                  "the --token-file, read once at start (it may be a pipe, <(...))",
		"internal/cli/replace.go:Open":                      "the folder of a file replaceFile wrote, opened to sync it",
		"internal/txtar/run.go:ReadFile":                    "the golden files of the tests (txtar is imported by tests only)",
		"internal/typingbench/docs.go:ReadFile":             "the corpus program the typing benchmark types into (benchmarks only)",
		"internal/testcorpus/testcorpus.go:ReadFile":        "the corpus's files the tests read (testcorpus is imported by tests only)",
		"core/internal/coretest/coretest.go:ReadFile":       "the corpus's files core's and the feature packages' tests read (coretest is imported by tests only)",
		"internal/conformance/cmd/fixture/main.go:ReadFile": "the conformance fixture's token file (test fixture, not shipped)",
	}
	osCalls(t, readers, allowed, "bench", "reads a file: read through core.FileAccess (core/files.go), or add the call to this test's exceptions with the reason")
}

// TestUserFilesWrittenByReplaceFile enforces that the program writes over a
// user's file only through replaceFile (replace.go), which cannot leave it
// half written: no other non-test code creates, truncates or renames files.
// The exceptions are the --log-file log, which is opened to append, the
// golden files the tests rewrite under -update (internal/txtar), the
// typing benchmark's documents, in a temporary folder (internal/typingbench),
// and the files tests set up in theirs (internal/testfiles).
func TestUserFilesWrittenByReplaceFile(t *testing.T) {
	writers := map[string]bool{"WriteFile": true, "Create": true, "OpenFile": true, "CreateTemp": true, "Rename": true, "Truncate": true}
	allowed := map[string]string{
		"internal/cli/replace.go:CreateTemp":        "the temporary file beside the one it replaces",
		"internal/cli/replace.go:Rename":            "the rename over the file",
		"main.go:OpenFile":                          "the --log-file log, opened with O_APPEND",
		"core/files.go:OpenFile":                    "FileAccess.read, which opens for reading only (O_RDONLY, O_NONBLOCK)",
		"internal/txtar/run.go:WriteFile":           "the golden files under testdata/, rewritten by the tests under -update (txtar is imported by tests only)",
		"internal/typingbench/docs.go:WriteFile":    "the documents the typing benchmark types into, in a temporary workspace folder (typingbench is imported by benchmarks only)",
		"internal/testfiles/testfiles.go:WriteFile": "the files a test sets up in its temporary folder (testfiles is imported by tests only)",
	}
	osCalls(t, writers, allowed, "", "writes a file: write a user's file through replaceFile, or add the call to this test's exceptions with the reason")
}

// osCalls reports each call os.NAME, NAME one of names, in the non-test Go
// files of the repository (its hidden folders, the testdata folders and
// the folder skip aside) that allowed does not name as "path:NAME" (with
// its reason), as "position: os.NAME misuse"; and each exception that
// names no call.
func osCalls(t *testing.T, names map[string]bool, allowed map[string]string, skip, misuse string) {
	t.Helper()
	fset := gotoken.NewFileSet()
	seen := map[string]bool{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || path == skip) {
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
			if !ok || !names[sel.Sel.Name] {
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
			t.Errorf("%s: os.%s %s", fset.Position(sel.Pos()), sel.Sel.Name, misuse)
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key, why := range allowed {
		if !seen[key] {
			t.Errorf("the exception %s (%s) names no call: remove it", key, why)
		}
	}
}

// featureHeading opens the section of ARCHITECTURE.md that TestFeatureTable
// keeps true.
const featureHeading = "## Feature → where it lives"

// A featureRow is one row of that section's tables: | feature | kind |
// files | functions |. Names, files and functions are the code spans of
// their cells.
type featureRow struct {
	line      int      // in ARCHITECTURE.md, for messages
	names     []string // the LSP methods, MCP primitives, commands, ... the row is about
	kind      string   // "LSP request", "MCP tool", ...
	files     []string // relative to the repository's root
	functions []string // Func or Type.Method, each declared in one of files
}

// TestFeatureTable keeps the table "feature → where it lives" of
// ARCHITECTURE.md true:
//   - every LSP method lsp/ registers (the keys of its requests and
//     notifications tables, and the methods its notify handles itself) has
//     a row of its kind naming the file that registers it;
//   - every tool, resource, template and prompt of mcpserver.WFL() has a
//     row of its kind naming a file that spells its name (or URI);
//   - no LSP or MCP row names a method or primitive that is not served;
//   - every file a row names exists, and every function it names is
//     declared in one of its files.
func TestFeatureTable(t *testing.T) {
	rows := readFeatureRows(t, "ARCHITECTURE.md")
	byKey := map[string]*featureRow{} // kind + " " + name
	for _, r := range rows {
		for _, name := range r.names {
			key := r.kind + " " + name
			if byKey[key] != nil {
				t.Errorf("ARCHITECTURE.md:%d: %s has two rows", r.line, key)
			}
			byKey[key] = r
		}
	}

	// Every file exists; every function is declared in one of the files.
	declared := map[string]map[string]bool{} // file -> functions
	for _, r := range rows {
		if len(r.files) == 0 {
			t.Errorf("ARCHITECTURE.md:%d: the row names no file", r.line)
		}
		for _, f := range r.files {
			if _, err := os.Stat(f); err != nil {
				t.Errorf("ARCHITECTURE.md:%d: %s: %v", r.line, f, err)
				continue
			}
			if strings.HasSuffix(f, ".go") && declared[f] == nil {
				declared[f] = declaredFuncs(t, f)
			}
		}
		for _, fn := range r.functions {
			if !slices.ContainsFunc(r.files, func(f string) bool { return declared[f][fn] }) {
				t.Errorf("ARCHITECTURE.md:%d: %s is declared in none of %s", r.line, fn, strings.Join(r.files, ", "))
			}
		}
	}

	pkgs := typeCheck(t, "wfl-lsp/lsp", "wfl-lsp/mcpserver")

	// The LSP methods, by what registers them.
	served := map[string]bool{}
	for key, file := range lspMethods(t, pkgs["wfl-lsp/lsp"]) {
		served[key] = true
		r := byKey[key]
		switch {
		case r == nil:
			t.Errorf("ARCHITECTURE.md: %s (registered in %s) has no row under %q", key, file, featureHeading)
		case !slices.Contains(r.files, file):
			t.Errorf("ARCHITECTURE.md:%d: %s is registered in %s, which the row does not name", r.line, key, file)
		}
	}

	// The MCP primitives, by mcpserver.WFL().
	p := mcpserver.WFL()
	var prims []string
	for _, x := range p.Tools {
		prims = append(prims, "MCP tool "+x.Name)
	}
	for _, x := range p.Resources {
		prims = append(prims, "MCP resource "+x.URI)
	}
	for _, x := range p.Templates {
		prims = append(prims, "MCP template "+x.URITemplate)
	}
	for _, x := range p.Prompts {
		prims = append(prims, "MCP prompt "+x.Name)
	}
	spelled := stringConstants(pkgs["wfl-lsp/mcpserver"])
	for _, key := range prims {
		served[key] = true
		_, name, _ := strings.Cut(key[len("MCP "):], " ")
		r := byKey[key]
		switch {
		case r == nil:
			t.Errorf("ARCHITECTURE.md: %s (in mcpserver.WFL()) has no row under %q", key, featureHeading)
		case !slices.ContainsFunc(r.files, func(f string) bool { return spelled[f][name] }):
			t.Errorf("ARCHITECTURE.md:%d: none of %s spells %q", r.line, strings.Join(r.files, ", "), name)
		}
	}

	// No row for what is not served.
	for key, r := range byKey {
		if registryKind(r.kind) && !served[key] {
			t.Errorf("ARCHITECTURE.md:%d: %s is not served (not registered in lsp/, not in mcpserver.WFL())", r.line, key)
		}
	}
}

// registryKind reports whether rows of kind must match what the code
// registers.
func registryKind(kind string) bool {
	switch kind {
	case "LSP request", "LSP notification", "MCP tool", "MCP resource", "MCP template", "MCP prompt":
		return true
	}
	return false
}

// readFeatureRows returns the rows of the tables under featureHeading.
func readFeatureRows(t *testing.T, name string) []*featureRow {
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	spans := regexp.MustCompile("`([^`]+)`")
	codes := func(cell string) []string {
		var out []string
		for _, m := range spans.FindAllStringSubmatch(cell, -1) {
			out = append(out, m[1])
		}
		return out
	}
	var rows []*featureRow
	in := false
	for i, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "## "):
			in = line == featureHeading
			continue
		case !in || !strings.HasPrefix(line, "|"):
			continue
		}
		cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
		if len(cells) != 4 {
			t.Errorf("%s:%d: a row of the feature table has %d cells, want 4 (feature | kind | files | functions)", name, i+1, len(cells))
			continue
		}
		if strings.TrimSpace(cells[0]) == "feature" || strings.Trim(cells[0], "-: ") == "" {
			continue // a header or its rule
		}
		r := &featureRow{line: i + 1, names: codes(cells[0]), kind: strings.TrimSpace(cells[1]), files: codes(cells[2]), functions: codes(cells[3])}
		if len(r.names) == 0 {
			r.names = []string{strings.TrimSpace(cells[0])}
		}
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no table under %q", name, featureHeading)
	}
	return rows
}

// declaredFuncs returns the functions a Go file declares, as Func or
// Type.Method.
func declaredFuncs(t *testing.T, path string) map[string]bool {
	f, err := goparser.ParseFile(gotoken.NewFileSet(), path, nil, goparser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, d := range f.Decls {
		fd, ok := d.(*goast.FuncDecl)
		if !ok {
			continue
		}
		if fd.Recv == nil || len(fd.Recv.List) == 0 {
			out[fd.Name.Name] = true
			continue
		}
		typ := fd.Recv.List[0].Type
		if star, ok := typ.(*goast.StarExpr); ok {
			typ = star.X
		}
		switch x := typ.(type) {
		case *goast.IndexExpr:
			typ = x.X
		case *goast.IndexListExpr:
			typ = x.X
		}
		if id, ok := typ.(*goast.Ident); ok {
			out[id.Name+"."+fd.Name.Name] = true
		}
	}
	return out
}

// A checkedPackage is a package of ours type-checked from its source.
type checkedPackage struct {
	fset  *gotoken.FileSet
	files map[string]*goast.File // by path relative to the repository's root
	info  *types.Info
}

// typeCheck type-checks the non-test files of the packages paths, their
// imports read from the export data the go command builds.
func typeCheck(t *testing.T, paths ...string) map[string]*checkedPackage {
	args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}\t{{.Dir}}\t{{join .GoFiles \" \"}}"}, paths...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	exports := map[string]string{}
	sources := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			t.Fatalf("go list: unexpected line %q", line)
		}
		exports[f[0]] = f[1]
		if slices.Contains(paths, f[0]) {
			for _, name := range strings.Fields(f[3]) {
				rel, err := filepath.Rel(root, filepath.Join(f[2], name))
				if err != nil {
					t.Fatal(err)
				}
				sources[f[0]] = append(sources[f[0]], filepath.ToSlash(rel))
			}
		}
	}
	pkgs := map[string]*checkedPackage{}
	for _, path := range paths {
		p := &checkedPackage{fset: gotoken.NewFileSet(), files: map[string]*goast.File{}, info: &types.Info{Types: map[goast.Expr]types.TypeAndValue{}, Uses: map[*goast.Ident]types.Object{}}}
		var files []*goast.File
		for _, name := range sources[path] {
			f, err := goparser.ParseFile(p.fset, name, nil, goparser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			p.files[name] = f
			files = append(files, f)
		}
		imp := importer.ForCompiler(p.fset, "gc", func(path string) (io.ReadCloser, error) {
			if exports[path] == "" {
				return nil, fmt.Errorf("no export data for %s", path)
			}
			return os.Open(exports[path])
		})
		if _, err := (&types.Config{Importer: imp}).Check(path, p.fset, files, p.info); err != nil {
			t.Fatalf("type-checking %s: %v", path, err)
		}
		pkgs[path] = p
	}
	return pkgs
}

// lspMethods returns the methods lsp handles, as "LSP request M" or "LSP
// notification M", with the file that registers each: the keys assigned in
// its requests and notifications tables, and the cases of the switch on
// the method in server.notify (exit and $/cancelRequest, handled in every
// state).
func lspMethods(t *testing.T, p *checkedPackage) map[string]string {
	out := map[string]string{}
	add := func(kind string, key goast.Expr, file string) {
		tv := p.info.Types[key]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			t.Errorf("%s: a method registered under a key that is not a string constant", p.fset.Position(key.Pos()))
			return
		}
		out[kind+" "+constant.StringVal(tv.Value)] = file
	}
	for name, f := range p.files {
		goast.Inspect(f, func(n goast.Node) bool {
			switch n := n.(type) {
			case *goast.AssignStmt:
				for _, lhs := range n.Lhs {
					ix, ok := lhs.(*goast.IndexExpr)
					if !ok {
						continue
					}
					switch id, _ := ix.X.(*goast.Ident); {
					case id == nil:
					case id.Name == "requests":
						add("LSP request", ix.Index, name)
					case id.Name == "notifications":
						add("LSP notification", ix.Index, name)
					}
				}
			case *goast.ValueSpec:
				// The table (lsp/methods.go): each entry is named for the
				// file that declares its handler, the last function the
				// entry's value names (hover in short(docRequest(…, hover))).
				for k, id := range n.Names {
					kind := map[string]string{"requests": "LSP request", "notifications": "LSP notification"}[id.Name]
					lit, ok := goast.Expr(nil), false
					if k < len(n.Values) {
						lit, ok = n.Values[k], true
					}
					cl, isLit := lit.(*goast.CompositeLit)
					if kind == "" || !ok || !isLit {
						continue
					}
					for _, e := range cl.Elts {
						kv := e.(*goast.KeyValueExpr)
						file := name
						goast.Inspect(kv.Value, func(n goast.Node) bool {
							if id, ok := n.(*goast.Ident); ok {
								if fn, ok := p.info.Uses[id].(*types.Func); ok && fn.Pkg() != nil && fn.Pkg().Path() == "wfl-lsp/lsp" {
									for path, f := range p.files {
										if f.FileStart <= fn.Pos() && fn.Pos() < f.FileEnd {
											file = path
										}
									}
								}
							}
							return true
						})
						add(kind, kv.Key, file)
					}
				}
			case *goast.FuncDecl:
				if n.Recv == nil || n.Name.Name != "notify" {
					return true
				}
				goast.Inspect(n.Body, func(n goast.Node) bool {
					sw, ok := n.(*goast.SwitchStmt)
					if !ok {
						return true
					}
					if id, _ := sw.Tag.(*goast.Ident); id == nil || id.Name != "method" {
						return true
					}
					for _, c := range sw.Body.List {
						for _, e := range c.(*goast.CaseClause).List {
							add("LSP notification", e, name)
						}
					}
					return false
				})
			}
			return true
		})
	}
	if len(out) == 0 {
		t.Fatal("no LSP method registrations found in lsp/")
	}
	return out
}

// stringConstants returns, by file, every string constant a file's
// expressions evaluate to (literals, and constant expressions such as a
// prefix joined to a literal).
func stringConstants(p *checkedPackage) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for name, f := range p.files {
		out[name] = map[string]bool{}
		goast.Inspect(f, func(n goast.Node) bool {
			if e, ok := n.(goast.Expr); ok {
				if tv := p.info.Types[e]; tv.Value != nil && tv.Value.Kind() == constant.String {
					out[name][constant.StringVal(tv.Value)] = true
				}
			}
			return true
		})
	}
	return out
}

// TestFeatureImportRules checks the rules of core's feature packages on
// imports that the code does not make (TestImportRules sees only those it
// makes).
func TestFeatureImportRules(t *testing.T) {
	for _, tt := range []struct {
		pkg, imp string
		ok       bool
	}{
		{"wfl-lsp/core", "wfl-lsp/core/completion", false},
		{"wfl-lsp/core", "wfl-lsp/lang/check", true},
		{"wfl-lsp/core/completion", "wfl-lsp/core", true},
		{"wfl-lsp/core/completion", "wfl-lsp/core/navigation", false},
		{"wfl-lsp/core/navigation", "wfl-lsp/core/completion", true},
		{"wfl-lsp/core/navigation", "wfl-lsp/core/fixes", false},
		{"wfl-lsp/core/fixes", "wfl-lsp/core/navigation", true},
		{"wfl-lsp/core/fixes", "wfl-lsp/core/completion", false},
		{"wfl-lsp/core/fixes", "wfl-lsp/core/internal/coretest", false},
		{"wfl-lsp/core", "wfl-lsp/core/internal/coretest", false},
		{"wfl-lsp/core/fixes", "wfl-lsp/core/internal/featuretest", false},
		{"wfl-lsp/core/presentation", "wfl-lsp/core/navigation", false},
		{"wfl-lsp/core/presentation", "wfl-lsp/core", true},
		{"wfl-lsp/lsp", "wfl-lsp/core/fixes", true},
	} {
		if got := forbidden(tt.pkg, tt.imp) == ""; got != tt.ok {
			t.Errorf("%s imports %s: allowed %v, want %v (%s)", tt.pkg, tt.imp, got, tt.ok, forbidden(tt.pkg, tt.imp))
		}
	}
}
