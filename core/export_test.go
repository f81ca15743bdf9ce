package core

// The helpers of core's property tests that the tests of the features'
// properties (package core_test, which imports the feature packages) use.
var (
	OpenAnalysed      = openAnalysed
	ChangeAtRandom    = changeAtRandom
	PartialEverywhere = partialEverywhere
	Difference        = difference
	CorpusOrSkip      = corpusOrSkip
	Stress            = stress
	DeepTexts         = deepTexts
	UTF8Texts         = utf8Texts
)
