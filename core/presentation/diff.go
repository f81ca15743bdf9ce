package presentation

// This file renders edits as a unified diff, for `wfl-lsp fmt -d` and for
// the MCP tools that answer with a diff instead of a whole program.

import (
	"fmt"
	"sort"
	"strings"
	"wfl-lsp/core"
)

// UnifiedDiff renders the change edits make to text as a unified diff of
// the file name, with three lines of context, as `diff -u` prints it. The
// edits are offsets into text and do not overlap; their order does not
// matter. An edit that replaces whole lines with whole lines shows them;
// any other shows every line it touches, removed and added back changed.
func UnifiedDiff(name, text string, edits []core.Edit) string {
	const context = 3
	oldLines := splitKeep(text)
	starts := make([]int, len(oldLines)+1) // offset of each line start
	for i, l := range oldLines {
		starts[i+1] = starts[i] + len(l)
	}
	// lineAt is the line that holds offset off (len(oldLines) at the end).
	lineAt := func(off int) int {
		return sort.Search(len(oldLines), func(i int) bool { return starts[i+1] > off })
	}
	// lineStart reports whether off starts a line (or the empty line after
	// the text's last line break).
	lineStart := func(off int) bool {
		if i := lineAt(off); i < len(oldLines) {
			return starts[i] == off
		}
		return off == len(text) && (off == 0 || text[off-1] == '\n' || text[off-1] == '\r')
	}
	sorted := append([]core.Edit(nil), edits...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Start < sorted[j].Start })

	// Each change replaces the old lines [lo, hi) with the new text of
	// those lines, its edits applied.
	type change struct {
		lo, hi int
		edits  []core.Edit
	}
	var changes []change
	for _, e := range sorted {
		var lo, hi int
		if lineStart(e.Start) && lineStart(e.End) && (e.Text == "" || strings.HasSuffix(e.Text, "\n") || strings.HasSuffix(e.Text, "\r")) {
			lo, hi = lineAt(e.Start), lineAt(e.End)
		} else {
			// The lines from Start's to End's: a line that End starts
			// joins the edit's last line.
			lo, hi = lineAt(e.Start), lineAt(e.End)+1
			if lo == len(oldLines) && lo > 0 {
				lo-- // after a last line without a line break: that line changes
			}
			hi = max(min(hi, len(oldLines)), lo)
		}
		// A bare \r before the change and a \n after it may become one
		// line break: the lines they end or are take part in the change.
		if lo > 0 && lo < len(oldLines) && starts[lo] == e.Start && strings.HasSuffix(oldLines[lo-1], "\r") {
			lo--
		}
		if hi < len(oldLines) && oldLines[hi] == "\n" {
			hi++
		}
		if k := len(changes) - 1; k >= 0 && (lo < changes[k].hi || lo == hi && lo == changes[k].lo && changes[k].lo == changes[k].hi) {
			changes[k].hi = max(changes[k].hi, hi)
			changes[k].edits = append(changes[k].edits, e)
			continue
		}
		changes = append(changes, change{lo, hi, []core.Edit{e}})
	}
	newLines := func(c change) []string {
		var b strings.Builder
		pos := starts[c.lo]
		for _, e := range c.edits {
			b.WriteString(text[pos:e.Start])
			b.WriteString(e.Text)
			pos = e.End
		}
		b.WriteString(text[pos:starts[c.hi]])
		return splitKeep(b.String())
	}

	var b strings.Builder
	fmt.Fprintf(&b, "diff %s.orig %s\n--- %s.orig\n+++ %s\n", name, name, name, name)
	shift := 0 // lines added by earlier hunks
	for i := 0; i < len(changes); {
		j := i + 1 // changes[i:j] share a hunk: their context windows touch
		for j < len(changes) && changes[j].lo-changes[j-1].hi <= 2*context {
			j++
		}
		lo := max(changes[i].lo-context, 0)
		hi := min(changes[j-1].hi+context, len(oldLines))
		var body strings.Builder
		oldN, newN := 0, 0
		emit := func(prefix, l string) {
			body.WriteString(prefix)
			body.WriteString(strings.TrimRight(l, "\r\n"))
			body.WriteString("\n")
			if !strings.HasSuffix(l, "\n") && !strings.HasSuffix(l, "\r") {
				body.WriteString("\\ No newline at end of file\n")
			}
		}
		pos := lo
		for _, c := range changes[i:j] {
			for ; pos < c.lo; pos++ {
				emit(" ", oldLines[pos])
				oldN++
				newN++
			}
			for _, l := range oldLines[c.lo:c.hi] {
				emit("-", l)
				oldN++
			}
			for _, l := range newLines(c) {
				emit("+", l)
				newN++
			}
			pos = c.hi
		}
		for ; pos < hi; pos++ {
			emit(" ", oldLines[pos])
			oldN++
			newN++
		}
		fmt.Fprintf(&b, "@@ -%s +%s @@\n", hunkRange(lo, oldN), hunkRange(lo+shift, newN))
		b.WriteString(body.String())
		shift += newN - oldN
		i = j
	}
	return b.String()
}

// hunkRange prints a hunk's line range the way diff -u does: 1-based start
// and count, or the line before it when the count is 0.
func hunkRange(lo, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", lo)
	}
	return fmt.Sprintf("%d,%d", lo+1, n)
}

// splitKeep splits text into lines that keep their line breaks (\n, \r\n
// or \r).
func splitKeep(text string) []string {
	var lines []string
	for len(text) > 0 {
		i := strings.IndexAny(text, "\r\n")
		if i < 0 {
			lines = append(lines, text)
			break
		}
		j := i + 1
		if text[i] == '\r' && j < len(text) && text[j] == '\n' {
			j++
		}
		lines = append(lines, text[:j])
		text = text[j:]
	}
	return lines
}
