// Package fixes makes the quick fixes of a snapshot's findings and
// explains the diagnostic codes: the features of core that repair a
// program or say what a finding means.
//
// Start with [At]: the fixes of the findings a span touches, each checked
// on a copy of the text before it is offered (fix.go). [All] applies the
// safe ones (layout only). The repairs by kind of finding live in
// fix_syntax.go (parse errors), fix_names.go (names: misspelt, undefined,
// not in snake_case) and fix_containers.go; [Explain] (explain.go) tells
// what a code means, with examples.
//
// fixes reads the state of package core (a [core.Snapshot], its
// diagnostics and analyses, partial or full) and, for the renames its
// fixes make, package navigation.
package fixes
