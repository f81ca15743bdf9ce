package core

// This file resolves `include from "…"`: an included file shares its
// definitions with the file that includes it (`load module` runs a file in
// a scope of its own and is not followed). Before a document is checked,
// the files it includes are found (open documents first, then the disk),
// transitively, and their top-level names are given to the checker as
// imports (check.Context.Imports): a name an included file declares
// resolves to it instead of being reported undefined, and hover,
// definition, references, rename and completion follow it there.
//
// Only an included file's own declarations are read, from an analysis of
// that file that does not follow its includes (Snapshot.own), so two files
// that include each other never wait on each other; the closure of includes
// is walked here instead, every file once.

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"wfl-lsp/lang/ast"
	"wfl-lsp/lang/check"
	"wfl-lsp/lang/diag"
)

// maxIncluded bounds the number of files a document's includes reach.
const maxIncluded = 256

// An includeSource finds the files a document includes.
type includeSource interface {
	// own returns the analysis of the file at path that does not follow
	// its includes, or an error saying why the file cannot be read.
	own(path string) (*Analysis, error)
}

// includeStmts returns the `include from` statements of f whose path is a
// text literal, with the paths they name, resolved against base (the
// including file's path).
func includeStmts(f *ast.File, base string) (stmts []*ast.LoadStmt, paths []string) {
	if f == nil || base == "" {
		return nil, nil
	}
	for _, s := range f.Stmts {
		ls, ok := s.(*ast.LoadStmt)
		if !ok || !ls.Include {
			continue
		}
		lit, ok := ls.Path.(*ast.BasicLit)
		if !ok || lit.Kind != ast.LitString || lit.Value == "" {
			continue
		}
		stmts, paths = append(stmts, ls), append(paths, IncludedPath(lit.Value, base))
	}
	return stmts, paths
}

// IncludedPath returns the clean path of the file an include written as
// written names in the file at base: an absolute path as it is, a
// relative one against base's folder; "" for a relative one when base is
// "" (a document that is no file follows no include).
func IncludedPath(written, base string) string {
	p := filepath.FromSlash(written)
	if !filepath.IsAbs(p) {
		if base == "" {
			return ""
		}
		p = filepath.Join(filepath.Dir(base), p)
	}
	return filepath.Clean(p)
}

// includesEmpty reports whether f has an `include from ""`.
func includesEmpty(f *ast.File) bool {
	if f == nil {
		return false
	}
	for _, s := range f.Stmts {
		if ls, ok := s.(*ast.LoadStmt); ok && ls.Include {
			if lit, ok := ls.Path.(*ast.BasicLit); ok && lit.Kind == ast.LitString && lit.Value == "" {
				return true
			}
		}
	}
	return false
}

// imports returns what the checker of the file at base, whose tree is f,
// needs to know of the files it includes: their top-level symbols (nearest
// include first; a name declared twice is the first one's), and for each
// include statement that cannot be followed, why (keyed by the path as
// written, see check.Context.Unfollowed).
func imports(f *ast.File, base string, src includeSource) ([]*check.Symbol, map[string]check.Unfollowed) {
	in := followIncludes(f, base, src)
	return in.syms, in.problems
}

// An importSet is what following a file's includes found: what imports
// returns, and the text of every file followed, by path, as it was read
// (what the symbols' nodes are spans of; see importKey). A diagnostics'
// state keeps the texts, so that the imports of a later version can be
// compared with the ones its findings were made with (incremental_imports.go).
type importSet struct {
	syms     []*check.Symbol
	problems map[string]check.Unfollowed
	texts    map[string]string
}

// followIncludes is imports, with the texts of the files followed.
func followIncludes(f *ast.File, base string, src includeSource) importSet {
	stmts, paths := includeStmts(f, base)
	problems := map[string]check.Unfollowed{}
	if src != nil && base != "" && includesEmpty(f) {
		problems[""] = check.Unfollowed{Why: "the path is empty"}
	}
	if len(stmts) == 0 || src == nil {
		if len(problems) == 0 {
			problems = nil
		}
		return importSet{problems: problems}
	}
	var syms []*check.Symbol
	declared := map[string]bool{}
	texts := map[string]string{}
	seen := map[string]bool{filepath.Clean(base): true}
	// Each include statement of the file is followed on its own, so that a
	// problem is reported on the statement that leads to it.
	for i, ls := range stmts {
		written := ls.Path.(*ast.BasicLit).Value
		queue := []string{paths[i]}
		chain := map[string]string{paths[i]: ""} // file -> the file that includes it
		for len(queue) > 0 && len(seen) < maxIncluded {
			p := queue[0]
			queue = queue[1:]
			if p == filepath.Clean(base) {
				if _, ok := problems[written]; !ok {
					problems[written] = check.Unfollowed{Why: cycle(chain, p, base), Cycle: true}
				}
				continue
			}
			if seen[p] {
				continue
			}
			seen[p] = true
			a, err := src.own(p)
			if err != nil {
				why := describeReadError(written, err)
				if p != paths[i] {
					why = "the files it includes lead to " + describeReadError(relTo(base, p), err)
				}
				if _, ok := problems[written]; !ok {
					problems[written] = check.Unfollowed{Why: why, Missing: p == paths[i] && errors.Is(err, fs.ErrNotExist)}
				}
				continue
			}
			if a.Lines != nil {
				texts[p] = a.Lines.Text()
			} else {
				texts[p] = ""
			}
			if _, ok := problems[written]; !ok && !parses(a) {
				problems[written] = check.Unfollowed{Why: brokenInclude(written, relTo(base, p), p == paths[i]), Broken: true}
			}
			copies := map[*check.Symbol]*check.Symbol{}
			for _, s := range ownDeclarations(a) {
				if !declared[s.Name] {
					declared[s.Name] = true
					copies[s] = imported(s, p)
					syms = append(syms, copies[s])
				}
			}
			// A container extending one of the same file extends its
			// copy, whose members say where they are declared.
			for _, c := range copies {
				if b := copies[c.Base()]; b != nil {
					c.SetBase(b)
				}
			}
			_, next := includeStmts(a.File, p)
			for _, n := range next {
				if _, ok := chain[n]; !ok {
					chain[n] = p
				}
				queue = append(queue, n)
			}
		}
		// Stopped at the bound with files left to read: their names are
		// not known, which the include says rather than leaving the
		// names they declare to look undefined.
		if len(seen) >= maxIncluded && slices.ContainsFunc(queue, func(q string) bool { return !seen[q] && q != filepath.Clean(base) }) {
			if _, ok := problems[written]; !ok {
				n := strconv.Itoa(maxIncluded - 1) // the file itself is one of seen
				problems[written] = check.Unfollowed{Why: "the includes reach more than " + n + " files; only the names of the first " + n + " are read"}
			}
		}
	}
	if len(problems) == 0 {
		problems = nil
	}
	return importSet{syms: syms, problems: problems, texts: texts}
}

// parses reports whether the file a is the analysis of has no parse
// error: WFL runs an included file only when it does.
func parses(a *Analysis) bool {
	for _, d := range a.Diagnostics {
		if d.Category == diag.Parse && d.Severity == diag.Error {
			return false
		}
	}
	return true
}

// brokenInclude is the message of an include that leads to a file that
// does not parse, which WFL reports as a runtime error ("Parse error in
// included file") when the include runs: the file itself (written as the
// include writes it), or one the files it includes lead to (rel, relative
// to the including file). It names no line: the includer's message is
// not made again at each edit of the broken file, only when it starts or
// stops parsing (exportKey).
func brokenInclude(written, rel string, direct bool) string {
	const stops = "does not parse: running this program fails at this include"
	if direct {
		return "The included file " + written + " " + stops
	}
	return "The included file leads to " + rel + ", which " + stops
}

// cycle describes the chain of includes that leads from base back to it.
func cycle(chain map[string]string, last, base string) string {
	var names []string
	for p := chain[last]; p != ""; p = chain[p] {
		names = append([]string{filepath.Base(p)}, names...)
	}
	return strings.Join(append(append([]string{filepath.Base(base)}, names...), filepath.Base(base)), " includes ")
}

// relTo returns path relative to the folder of the file at base, as an
// include statement there would write it, or path when it is elsewhere.
func relTo(base, path string) string {
	r, err := filepath.Rel(filepath.Dir(base), path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(r)
}

// ownDeclarations returns the symbols a file declares at its top level, in
// declaration order.
func ownDeclarations(a *Analysis) []*check.Symbol {
	if a == nil || a.Info == nil || a.Info.Global == nil {
		return nil
	}
	var out []*check.Symbol
	for _, s := range a.Info.Symbols {
		if s.From() == "" && a.Info.Global.Symbols.Get(s.Name) == s {
			out = append(out, s)
		}
	}
	return out
}

// Exported returns the symbol the analysed file declares at its top level
// as name, as the files that include it read it, or nil: what their
// checkers import (Snapshot.own, the text as the reference reads it).
// It is Info.Global's own symbol but while a quote is left open, when the
// features read the text with the quote closed on its line
// (Snapshot.Analysis), where a declaration after the quote may be a
// string's text. The cross-file features look an included symbol up here,
// as the includer's copy says where it was declared when the includer
// was checked, which Refresh does not keep (exportKey).
func (a *Analysis) Exported(name string) *check.Symbol {
	from := a
	if a.exports != nil {
		from = a.exports()
	}
	if from == nil || from.Info == nil || from.Info.Global == nil {
		return nil
	}
	if s := from.Info.Global.Symbols.Get(name); s != nil && s.From() == "" {
		return s
	}
	return nil
}

// imported returns a copy of s, declared in the file at path, for another
// file's checker; a container's or interface's members are copied too.
func imported(s *check.Symbol, path string) *check.Symbol {
	c := *s
	c.SetFrom(path)
	if len(s.Members()) > 0 {
		c.SetMembers(make(map[string]*check.Symbol, len(s.Members())))
		for n, m := range s.Members() {
			mc := *m
			mc.SetFrom(path)
			mc.Parent = &c
			c.Members()[n] = &mc
		}
	}
	return &c
}

// describeReadError says why the file named name cannot be read. Only
// what a FileError says is said: for a confined access (the MCP server's),
// a file outside its folders is "outside the workspace", whether it exists
// or not.
func describeReadError(name string, err error) string {
	var fe *FileError
	if errors.As(err, &fe) {
		if errors.Is(fe.Err, fs.ErrNotExist) {
			return "there is no file " + name
		}
		if errors.Is(fe.Err, ErrNotRegular) && fe.What == "a folder" {
			return name + " is a folder"
		}
		return name + " " + fe.Reason()
	}
	if errors.Is(err, fs.ErrNotExist) {
		return "there is no file " + name
	}
	return name + " cannot be read: " + err.Error()
}

// exportKey summarises what a file gives the files that include it: the
// files it includes in turn (theirs are given too), and what an includer's
// analysis can learn of each of its top-level names (importKey: what they
// are, their declarations but for the bodies of actions, their types, docs
// and members). Files that include it are analysed again only when it
// changes.
func exportKey(a *Analysis) string {
	if a == nil || a.File == nil {
		return ""
	}
	var b strings.Builder
	stmts, _ := includeStmts(a.File, "/")
	for _, ls := range stmts {
		b.WriteString("include " + ls.Path.(*ast.BasicLit).Value + "\n")
	}
	text := ""
	if a.Lines != nil {
		text = a.Lines.Text()
	}
	for _, s := range ownDeclarations(a) {
		writeImportKey(&b, s, text, 0)
		b.WriteByte('\n')
	}
	if !parses(a) {
		b.WriteString("\x00does not parse\n") // its includers say so (brokenInclude)
	}
	return b.String()
}

// Includes returns the paths of the files the document includes; base is
// the document's path.
func (a *Analysis) Includes(base string) []string {
	if a.File == nil {
		return nil
	}
	_, paths := includeStmts(a.File, base)
	return paths
}

// Declarations returns the symbols the analysed file declares at its top
// level, in declaration order: what a file that includes it reads of it.
func (a *Analysis) Declarations() []*check.Symbol { return ownDeclarations(a) }
