package core

// This file walks the graph of includes of a workspace's documents: the
// files a document includes, directly or through other files, and the open
// documents that include a file. Each open document's includes are read
// once per version (Snapshot.includePaths) and a file on the disk's once
// per size and modification time (FileAccess.cached), so a walk costs the
// files and includes it visits, whatever the shape of the graph (cycles,
// chains, files that all include each other): opening N files that include
// one another costs O(N + includes) analyses, and one edit a walk
// (TestIncludeGraphScales, TestEditInIncludeCycle).

import (
	"path/filepath"
	"strings"
	"sync/atomic"

	"wfl-lsp/lang/ast"
)

// includesOf returns the files the file at path includes directly: an open
// document's as its current snapshot says, else the file on the disk's;
// none when it cannot be read.
func (w *Workspace) includesOf(path string) []string {
	lookups.Add(1)
	if u, ok := w.byPath.Load(path); ok {
		if s, ok := w.docs.Load(u); ok {
			return s.includePaths()
		}
	}
	f, err := w.files.cached(path)
	if err != nil {
		return nil
	}
	return f.includes
}

// reachedFrom returns the files the file at path includes, directly or
// through other files (path itself among them only through a cycle).
func (w *Workspace) reachedFrom(path string) map[string]bool {
	seen := map[string]bool{}
	queue := w.includesOf(path)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		queue = append(queue, w.includesOf(p)...)
	}
	return seen
}

// includers returns the open documents, other than the one at path, that
// include the file at path directly or through other files: the includes
// reached from every open document are walked once, then followed back
// from path.
func (w *Workspace) includers(path string) []*Snapshot {
	docs := map[string]*Snapshot{}
	seen := map[string]bool{path: true} // path's own includes lead nowhere it matters
	var stack []string
	w.docs.Range(func(u URI, s *Snapshot) bool {
		if p := u.Path(); p != "" {
			p = filepath.Clean(p)
			docs[p] = s
			if !seen[p] {
				seen[p] = true
				stack = append(stack, p)
			}
		}
		return true
	})
	back := map[string][]string{} // file -> the files that include it
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, q := range w.includesOf(p) {
			back[q] = append(back[q], p)
			if !seen[q] {
				seen[q] = true
				stack = append(stack, q)
			}
		}
	}
	var out []*Snapshot
	reached := map[string]bool{path: true}
	for queue := []string{path}; len(queue) > 0; queue = queue[1:] {
		for _, p := range back[queue[0]] {
			if !reached[p] {
				reached[p] = true
				queue = append(queue, p)
				if s := docs[p]; s != nil {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// includePaths returns the files the snapshot's text includes, resolved
// against its path, from the tree at hand: its analysis', its diagnostics'
// state's include statements, or else its own analysis's; while a quote
// is left open, those of the text with it closed (reading).
func (s *Snapshot) includePaths() []string {
	s.incOnce.Do(func() {
		p := s.URI.Path()
		if p == "" || !strings.Contains(s.Text, "include") {
			return
		}
		if c := s.reading(); c != s {
			// A quote left open: the files the text the features read
			// includes, whose analysis is to be made again when they change.
			s.incs = c.includePaths()
			return
		}
		var f *ast.File
		if s.analysed.Load() {
			f = s.analysis.File
		} else if st := s.diags.Load(); st != nil {
			f = st.includeFile()
		} else {
			f = s.own().File
		}
		_, s.incs = includeStmts(f, filepath.Clean(p))
	})
	return s.incs
}

// uses returns the names the snapshot's text uses without declaring them:
// those a file it includes may declare.
func (s *Snapshot) uses() map[string]bool {
	s.usesOnce.Do(func() { s.usesSet = usesOf(s.own()) })
	return s.usesSet
}

func usesOf(a *Analysis) map[string]bool {
	used := map[string]bool{}
	for _, r := range a.Idents() {
		if r.Sym == nil && !r.Def {
			used[r.Ident.Name] = true
		}
	}
	return used
}

// analyses counts the analyses made (analyzeModes), lookups the files
// looked up in a workspace (Workspace.own, Workspace.includesOf).
var analyses, lookups atomic.Int64

// Costs is work this process has done that grows with the files that
// include one another; tests and benchmarks read it (Spent) to count what
// a sequence of events costs.
type Costs struct {
	Analyses int64 // analyses of a text: a parse, a check and a lint of one file
	Lookups  int64 // files looked up in a workspace, following includes or walking the graph of includes
}

// Spent returns the work done since the process started.
func Spent() Costs { return Costs{Analyses: analyses.Load(), Lookups: lookups.Load()} }
