// Package fixes makes the quick fixes of a snapshot's findings: the
// feature of core that repairs a program. (What a finding's code means is
// told by lang/diag/explain.)
//
// Start with [At]: the fixes of the findings a span touches, each checked
// on a copy of the text before it is offered (fix.go). [All] applies the
// safe ones (layout only). The repairs by kind of finding live in
// fix_syntax.go (parse errors), fix_names.go (names: misspelt, undefined,
// not in snake_case) and fix_containers.go.
//
// fixes reads the state of package core (a [core.Snapshot], its
// diagnostics and analyses, partial or full) and, for the renames its
// fixes make, package navigation.
package fixes
