// Package featuretest holds what the tests of core's feature packages do
// with core's state: analyse a text, open a document analysed in a
// workspace, edit it at random. Core's own tests, which cannot import a
// package that imports core, have their own two-line versions over the
// same coretest helpers. Only tests import it (architecture_test.go).
package featuretest

import (
	"math/rand/v2"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/core/internal/coretest"
)

// AnalysisOf returns the analysis of src, as the document file:///t.wfl.
func AnalysisOf(t *testing.T, src string) *core.Analysis {
	t.Helper()
	return core.NewSnapshot("file:///t.wfl", 1, src).Analysis()
}

// OpenAnalysed opens text as the document at path in a new workspace, with
// its diagnostics and its analysis computed: the state the edits of a
// property test derive from, and the base its partial analyses start from.
func OpenAnalysed(path, text string) (*core.Workspace, core.URI, *core.Snapshot) {
	ws := core.NewWorkspace()
	uri := core.FileURI(path)
	s := ws.Open(uri, 1, text)
	s.Diagnostics()
	s.Analysis()
	return ws, uri, s
}

// ChangeAtRandom makes a coretest.RandomEdit of s, widened to whole
// characters, in ws, and returns the new snapshot and the edit.
func ChangeAtRandom(t *testing.T, ws *core.Workspace, s *core.Snapshot, rng *rand.Rand) (*core.Snapshot, core.Edit) {
	t.Helper()
	from, to, ins := coretest.RandomEdit(rng, s.Text)
	e := core.Edit{Text: ins}
	e.Start, e.End = coretest.OnRunes(s.Text, from, to)
	next, err := ws.Change(s.URI, s.Version+1, e)
	if err != nil {
		t.Fatal(err)
	}
	return next, e
}

// IncludesOf returns the includes of each file as load analyses it: the
// function the cross-file requests (navigation's ReferencesAcross,
// RenameAcross) take beside load.
func IncludesOf(load func(path string) (*core.Analysis, bool)) func(path string) []string {
	return func(p string) []string {
		if a, ok := load(p); ok {
			return a.Includes(p)
		}
		return nil
	}
}

// LoadWith returns a load that answers a for the document at path and
// reads the other files from ws.
func LoadWith(a *core.Analysis, path string, ws *core.Workspace) func(path string) (*core.Analysis, bool) {
	return func(p string) (*core.Analysis, bool) {
		if p == path {
			return a, true
		}
		return ws.Load(p)
	}
}
