package core

// The helpers of core's property tests that the tests of the features'
// properties (package core_test, which imports the feature packages) use.
var (
	OpenAnalysed   = openAnalysed
	ChangeAtRandom = changeAtRandom
	Difference     = difference
	CorpusOrSkip   = corpusOrSkip
	Stress         = stress
	DeepTexts      = deepTexts
	UTF8Texts      = utf8Texts
)

// The answers of the feature packages that core's tests ask for (see
// featureQueries).
var (
	FeatureQueries  = &featureQueries
	OutlineOf       = &outlineOf
	DocumentSymbols = &documentSymbols
	ShowOpened      = &showOpened
)

type PositionQuery = positionQuery

const (
	OnCursor = onCursor
	OnName   = onName
	OnRange  = onRange
)

// The helpers of core's feature tests that the external test package's
// files (*_features_test.go) use.
var (
	AnalysisOf   = analysisOf
	At           = at
	SpanOf       = spanOf
	BenchText    = benchText
	Shapes       = shapes
	FirstDiff    = firstDiff
	SortedCopy   = sortedCopy
	NexusProgram = nexusProgram
)

// FullAnalysisIn returns the full analysis of text as the document uri of
// ws, whose files it includes are read from ws.
func FullAnalysisIn(ws *Workspace, uri URI, text string) *Analysis {
	return (&Snapshot{URI: uri, Text: text, src: ws}).Analysis()
}

const FeatureSrc = featureSrc

// ParseKept reports whether the snapshot still holds the parse made for
// the requests that read only the tree.
func (s *Snapshot) ParseKept() bool { return s.parsed.Value() != nil }
