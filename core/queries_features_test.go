package core_test

import (
	"wfl-lsp/core"
	"wfl-lsp/core/completion"
	"wfl-lsp/core/internal/featuretest"
	"wfl-lsp/core/navigation"
	"wfl-lsp/core/presentation"
	"wfl-lsp/lang/token"
)

// init gives core's own tests the answers of the feature packages, which
// they cannot import: the position queries the properties of partial
// queries compare (compareQueries), the outline, what opening a document
// shows.
func init() {
	*core.OutlineOf = func(s *core.Snapshot) any { return presentation.Outline(s) }
	*core.DocumentSymbols = func(a *core.Analysis) any { return presentation.DocumentSymbols(a) }
	*core.ShowOpened = func(s *core.Snapshot) {
		presentation.Outline(s)
		presentation.FoldingRanges(s.Syntax())
		presentation.SemanticTokens(s.Analysis(), token.Span{Start: 0, End: len(s.Text)})
	}
	*core.FeatureQueries = func(offset int, rng token.Span, path string, ws *core.Workspace) []core.PositionQuery {
		load := func(p string) (*core.Analysis, bool) { return ws.Load(p) }
		return []core.PositionQuery{
			{Name: "semantic tokens", On: core.OnRange, Ask: func(a *core.Analysis) any { return presentation.SemanticTokens(a, rng) }},
			{Name: "inlay hints", On: core.OnRange, Ask: func(a *core.Analysis) any { return presentation.InlayHints(a, rng) }},
			{Name: "hover", On: core.OnCursor, Ask: func(a *core.Analysis) any { return navigation.Hover(a, offset) }},
			{Name: "hover across", On: core.OnCursor, Ask: func(a *core.Analysis) any { return navigation.HoverAcross(a, offset, path, load) }},
			{Name: "definition", On: core.OnCursor, Ask: func(a *core.Analysis) any { return navigation.Definition(a, offset) }},
			{Name: "included definition", On: core.OnCursor, Ask: func(a *core.Analysis) any { return navigation.IncludedDefinition(a, offset, path, load) }},
			{Name: "signature help", On: core.OnCursor, Ask: func(a *core.Analysis) any { return completion.SignatureHelp(a, offset) }},
			{Name: "completion", On: core.OnCursor, Ask: func(a *core.Analysis) any {
				span, items := completion.List(a, offset, completion.Options{Snippets: true, Path: path})
				return []any{span, items}
			}},
			{Name: "plain completion", On: core.OnCursor, Ask: func(a *core.Analysis) any {
				span, items := completion.List(a, offset, completion.Options{})
				return []any{span, items}
			}},
			{Name: "highlights", On: core.OnName, Ask: func(a *core.Analysis) any { return navigation.Highlights(a, offset) }},
			{Name: "references", On: core.OnName, Ask: func(a *core.Analysis) any { return navigation.References(a, offset, false) }},
			{Name: "reference count", On: core.OnName, Ask: func(a *core.Analysis) any {
				// As a code lens counts them: through the files that include
				// the document (none here), loading it as the analysis asked.
				n, ok := navigation.ReferenceCount(a, offset, navigation.Files{Base: path, IncludesOf: func(string) []string { return nil },
					Load: func(p string) (*core.Analysis, bool) {
						if p == path {
							return a, true
						}
						return ws.Load(p)
					}})
				return []any{n, ok}
			}},
			{Name: "references across", On: core.OnName, Ask: func(a *core.Analysis) any {
				refs, ok := referencesAcross(a, offset, path, ws)
				return []any{refs, ok}
			}},
		}
	}
}

// referencesAcross is ReferencesAcross of a, the analysis of the document
// at path, with the other files loaded from ws.
func referencesAcross(a *core.Analysis, offset int, path string, ws *core.Workspace) ([]navigation.FileRef, bool) {
	load := featuretest.LoadWith(a, path, ws)
	return navigation.ReferencesAcross(a, offset, path, nil, featuretest.IncludesOf(load), load)
}
