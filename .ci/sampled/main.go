// Command sampled prints the tests whose sample is smaller under the race
// detector, for CI's second test run: the README's command (`go test -race
// ./...`) runs every test, the heavy corpus properties on a sample
// (internal/testcorpus.RaceStride); CI then runs those alone without the
// race detector, on their whole sample. Running the others again would
// only repeat what the race run did.
//
// A test is sampled when its body, or a function it calls (in its package
// or another of the module, followed by name), reads testcorpus.Race or
// testcorpus.RaceStride. It prints two lines: the packages holding such
// tests, and a pattern of their names for `go test -run`.
//
//	go run ./.ci/sampled ./core/... ./lsp/
package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

const module = "wfl-lsp"

// A decl is a top-level function, variable, constant or type of a package,
// keyed "importpath.Name"; the methods of one name, of every type, are one,
// "*.Name".
type decl struct {
	refs   []string // the keys it names
	test   bool     // a TestXxx function of a _test.go file
	pkg    string   // the directory, as ./dir
	name   string
	marked bool
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: sampled PACKAGE...")
		os.Exit(2)
	}
	decls, err := load(".")
	if err != nil {
		fmt.Fprintln(os.Stderr, "sampled:", err)
		os.Exit(1)
	}
	for _, k := range []string{module + "/internal/testcorpus.Race", module + "/internal/testcorpus.RaceStride"} {
		if d := decls[k]; d != nil {
			d.marked = true
		} else {
			fmt.Fprintln(os.Stderr, "sampled: no", k)
			os.Exit(1)
		}
	}
	// To the fixed point: a declaration naming a marked one is marked.
	for changed := true; changed; {
		changed = false
		for _, d := range decls {
			if d.marked {
				continue
			}
			if slices.ContainsFunc(d.refs, func(r string) bool { return decls[r] != nil && decls[r].marked }) {
				d.marked, changed = true, true
			}
		}
	}
	var pkgs, tests []string
	for _, d := range decls {
		if d.test && d.marked && wanted(d.pkg, os.Args[1:]) {
			tests = append(tests, d.name)
			if !slices.Contains(pkgs, d.pkg) {
				pkgs = append(pkgs, d.pkg)
			}
		}
	}
	if len(tests) == 0 {
		fmt.Fprintln(os.Stderr, "sampled: no sampled test in", os.Args[1:])
		os.Exit(1)
	}
	slices.Sort(pkgs)
	slices.Sort(tests)
	tests = slices.Compact(tests)
	fmt.Printf("%s\n^(%s)$\n", strings.Join(pkgs, " "), strings.Join(tests, "|"))
}

// wanted reports whether the package in dir (./a/b) is one of the patterns
// (./a/b, or ./a/... for a and below).
func wanted(dir string, patterns []string) bool {
	for _, p := range patterns {
		p = strings.TrimSuffix(p, "/")
		if base, ok := strings.CutSuffix(p, "/..."); ok && (dir == base || strings.HasPrefix(dir, base+"/")) || dir == p {
			return true
		}
	}
	return false
}

// load reads the declarations of every package of the module below root,
// its tests' too.
func load(root string) (map[string]*decl, error) {
	decls := map[string]*decl{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "bench") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(path))
		imp := module
		if dir != "." {
			imp += "/" + dir
		}
		// An external test package (x_test) is its own namespace.
		if strings.HasSuffix(f.Name.Name, "_test") {
			imp += "_test"
		}
		collect(f, imp, "./"+strings.TrimPrefix(dir, "."), strings.HasSuffix(path, "_test.go"), decls)
		return nil
	})
	return decls, err
}

// collect adds the declarations of file f, of the package imp in dir.
func collect(f *ast.File, imp, dir string, testFile bool, decls map[string]*decl) {
	imports := map[string]string{} // the name a file uses for each import
	for _, s := range f.Imports {
		path, _ := strconv.Unquote(s.Path.Value)
		name := path[strings.LastIndex(path, "/")+1:]
		if s.Name != nil {
			name = s.Name.Name
		}
		imports[name] = path
	}
	refsOf := func(n ast.Node) []string {
		var out []string
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok {
					if path, ok := imports[x.Name]; ok {
						out = append(out, path+"."+n.Sel.Name)
						return false
					}
				}
				// A method, or a field: named by its name alone, which
				// may name a method of any type of the module.
				out = append(out, "*."+n.Sel.Name)
			case *ast.Ident:
				out = append(out, imp+"."+n.Name, strings.TrimSuffix(imp, "_test")+"."+n.Name)
			}
			return true
		})
		return out
	}
	add := func(key, name string, n ast.Node, test bool) {
		d := decls[key]
		if d == nil {
			d = &decl{pkg: dir, name: name}
			decls[key] = d
		}
		d.refs = append(d.refs, refsOf(n)...)
		d.test = d.test || test
	}
	for _, dl := range f.Decls {
		switch dl := dl.(type) {
		case *ast.FuncDecl:
			name := dl.Name.Name
			if dl.Recv != nil {
				// Methods: reached through any selector of their name.
				add("*."+name, name, dl, false)
				continue
			}
			add(imp+"."+name, name, dl, testFile && strings.HasPrefix(name, "Test"))
		case *ast.GenDecl:
			for _, s := range dl.Specs {
				switch s := s.(type) {
				case *ast.ValueSpec:
					for _, n := range s.Names {
						add(imp+"."+n.Name, n.Name, s, false)
					}
				case *ast.TypeSpec:
					add(imp+"."+s.Name.Name, s.Name.Name, s, false)
				}
			}
		}
	}
}
