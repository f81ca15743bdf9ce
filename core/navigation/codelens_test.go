package navigation

import (
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/core/internal/coretest"
	"wfl-lsp/core/internal/featuretest"
	"wfl-lsp/lang/check"
)

// TestLensesAreDeclarations: the lenses read from the tree (Syntax's
// CodeLenses) are the names the checker defines as actions, containers,
// interfaces and actions of containers, in each sampled corpus program (coretest.Programs) and
// mutant, and in the texts a chain of random edits makes of them (blocks
// left open, declarations doubled or cut in half).
//
//	go test -run LensesAreDeclarations ./core/navigation -args -stress=N
func TestLensesAreDeclarations(t *testing.T) {
	t.Parallel()
	edits, seed := 4, uint64(5)
	if testing.Short() {
		edits = 1
	}
	if *coretest.Stress > 0 {
		edits, seed = 24, uint64(*coretest.Stress)
	}
	progs := coretest.OrSkip(t, 1)
	texts := 0
	for n, path := range slices.Sorted(maps.Keys(progs)) {
		rng := rand.New(rand.NewPCG(uint64(n), seed))
		ws, uri, s := featuretest.OpenAnalysed(path, progs[path])
		for k := 0; ; k++ {
			a := core.NewSnapshot(uri, s.Version, s.Text).Analysis()
			texts++
			if got, want := CodeLenses(&a.Syntax), declaredLenses(a); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s after %d edits: %s\ntext:\n%s", path, k, coretest.Difference(got, want), s.Text)
			}
			if k == edits {
				break
			}
			s, _ = featuretest.ChangeAtRandom(t, ws, s, rng)
		}
	}
	t.Logf("%d programs, %d texts", len(progs), texts)
}

// declaredLenses is what a lens is for, in the checker's terms: every name
// defined as an action, a container, an interface or an action of a
// container, in the file itself.
func declaredLenses(a *core.Analysis) []Lens {
	var out []Lens
	for _, r := range a.Idents() {
		if !r.Def || r.Sym == nil || r.Sym.From() != "" {
			continue
		}
		switch r.Sym.Kind {
		case check.SymAction, check.SymContainer, check.SymInterface:
		case check.SymMethod:
			if r.Sym.Parent == nil || r.Sym.Parent.Kind != check.SymContainer {
				continue
			}
		default:
			continue
		}
		out = append(out, Lens{Span: core.NodeSpan(r.Ident), Kind: r.Sym.Kind})
	}
	return out
}
