package mcpserver

// This file defines the document a tool works on (the program given as
// source or read from the workspace as path) and the diagnostics as tools
// and resources show them.

import (
	"context"
	"sort"

	"wfl-lsp/core"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

// A document is the program a tool works on: given inline or read from the
// workspace.
type document struct {
	snap *core.Snapshot
	a    *core.Analysis
	path string // slash path relative to the root, or "" for inline source
}

// sourceOrPath is the input schema part every tool that takes a program shares.
func sourceOrPath() map[string]*Schema {
	return map[string]*Schema{
		"source": str("The WFL program text. Give either source or path."),
		"path":   str("A .wfl file in the workspace, relative to its root (or absolute inside it, or a file:// URI). Give either source or path."),
	}
}

// readDocument reads the program named by the source or path argument.
func readDocument(ctx context.Context, c *Call) (*document, *Result) {
	return workspaceOf(c).document(ctx, c.Args)
}

// onDocument makes the Call of a tool that reads one program, named by the
// source or path argument: f runs on it, and a missing or unreadable
// program is the answer instead. The program's analysis stops soon after
// the call's context ends (its time limit, a cancellation), and the answer
// is then the interruption, never what the stopped analysis left.
func onDocument(f func(ctx context.Context, c *Call, d *document) Result) func(context.Context, *Call) Result {
	return func(ctx context.Context, c *Call) Result {
		d, fail := readDocument(ctx, c)
		if fail != nil {
			return *fail
		}
		if d.snap.Err() != nil {
			return c.Interrupted(ctx)
		}
		res := f(ctx, c, d)
		if d.snap.Err() != nil {
			return c.Interrupted(ctx)
		}
		return res
	}
}

// document reads the program the arguments name, and analyses it for the
// request ctx is the context of (core.NewSnapshotContext).
func (ws *workspace) document(ctx context.Context, args map[string]any) (*document, *Result) {
	src, hasSrc := strArg(args, "source")
	p, hasPath := strArg(args, "path")
	switch {
	case hasSrc && hasPath:
		f := failure("invalid_arguments", `give either "source" or "path", not both`)
		return nil, &f
	case !hasSrc && !hasPath:
		f := failure("invalid_arguments", `missing required argument: give "source" (the program text) or "path" (a workspace file)`)
		return nil, &f
	case hasSrc:
		snap := ws.files.NewSnapshotContext(ctx, "untitled:source.wfl", 0, src) // no path: its includes are not followed
		return &document{snap: snap, a: snap.Analysis()}, nil
	}
	text, rel, err := ws.readFile(p)
	if err != nil {
		f := pathFailure(err)
		return nil, &f
	}
	snap := ws.snapshot(ctx, rel, text)
	return &document{snap: snap, a: snap.Analysis(), path: rel}, nil
}

// diagJSON is a diagnostic as tools and resources show it.
type diagJSON struct {
	Line      int           `json:"line"`
	Column    int           `json:"column"`
	EndLine   int           `json:"endLine"`
	EndColumn int           `json:"endColumn"`
	Severity  string        `json:"severity"`
	Category  string        `json:"category"`
	Code      string        `json:"code"`
	Message   string        `json:"message"`
	Related   []relatedJSON `json:"related,omitempty"`
}

type relatedJSON struct {
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

var diagSchema = object([]string{"line", "column", "endLine", "endColumn", "severity", "category", "code", "message"}, map[string]*Schema{
	"line":      integer("1-based line where the problem starts", 1),
	"column":    integer("1-based column (in characters) where the problem starts", 1),
	"endLine":   integer("1-based line where the problem ends", 1),
	"endColumn": integer("1-based column just past the problem", 1),
	"severity":  enum("how serious it is", "error", "warning", "information", "hint"),
	"category":  enum("the stage that found it", "parse", "semantic", "type", "lint"),
	"code":      str("stable diagnostic code, e.g. PARSE-EXPECTED or TYPE-OPERAND"),
	"message":   str("what is wrong"),
	"related": array("other places that explain this one", object([]string{"line", "column", "message"}, map[string]*Schema{
		"line":    integer("1-based line", 1),
		"column":  integer("1-based column", 1),
		"message": str("what is there"),
	})),
})

// maxDiagnostics is how many diagnostics one answer lists by default
// (each tool's, check_workspace's, the fix_wfl_errors prompt's): a model
// reads the first ones, and 160,000 findings on one line made a 65 MB
// answer. The counts of errors and warnings are those of every finding,
// and the answer says how many were left out and where the next page
// starts.
const maxDiagnostics = 200

// diagCounts counts a list of findings and says what its page left out.
type diagCounts struct {
	total, errors, warnings int
	listed                  int
	pageOut
}

// diagnostics converts the page p of the document's diagnostics that keep
// returns true for: the list an editor shows (core.Snapshot.Tolerant:
// while a statement does not parse, the findings of the others too),
// ordered as listDiagnostics orders them.
func (d *document) diagnostics(keep func(diag.Diagnostic) bool, p page) ([]diagJSON, diagCounts) {
	_, shown := d.snap.Tolerant()
	kept := shown[:0:0]
	for _, x := range shown {
		if keep == nil || keep(x) {
			kept = append(kept, x)
		}
	}
	return listDiagnostics(d.a.Lines, kept, p)
}

// listDiagnostics converts the page p of ds to the answer's form, with
// the counts of all of ds. They are ordered by severity (errors first),
// then in source order; positions are computed for the listed ones only.
func listDiagnostics(lines *token.Lines, ds []diag.Diagnostic, p page) ([]diagJSON, diagCounts) {
	var n diagCounts
	for _, x := range ds {
		n.total++
		switch x.Severity {
		case diag.Error:
			n.errors++
		case diag.Warning:
			n.warnings++
		}
	}
	out, po := listDiagnosticsSorted(lines, sortedDiagnostics(ds), p)
	n.pageOut = po
	n.listed = len(out)
	return out, n
}

// listDiagnosticsSorted converts the page p of ds, ordered already.
func listDiagnosticsSorted(lines *token.Lines, ds []diag.Diagnostic, p page) ([]diagJSON, pageOut) {
	out := []diagJSON{}
	end, po := paged(len(ds), p, func(i int) int {
		dj := toDiagJSON(lines, ds[i])
		out = append(out, dj)
		return jsonSize(dj)
	})
	return out[:end-min(p.offset, len(ds))], po
}

// listedNote is what a summary adds when findings were left out.
func (n diagCounts) listedNote() string {
	return n.pageOut.note(n.listed, "findings, errors first,")
}

func toDiagJSON(lines *token.Lines, x diag.Diagnostic) diagJSON {
	l, c := lines.OffsetPosition(x.Span.Start)
	el, ec := lines.OffsetPosition(x.Span.End)
	dj := diagJSON{Line: l, Column: c, EndLine: el, EndColumn: ec,
		Severity: x.Severity.String(), Category: x.Category.String(), Code: x.Code, Message: x.Message}
	for _, rel := range x.Related {
		rl, rc := lines.OffsetPosition(rel.Span.Start)
		dj.Related = append(dj.Related, relatedJSON{Line: rl, Column: rc, Message: rel.Message})
	}
	return dj
}

// sortedDiagnostics returns the diagnostics by severity, errors first,
// then in source order (stable).
func sortedDiagnostics(ds []diag.Diagnostic) []diag.Diagnostic {
	out := append([]diag.Diagnostic(nil), ds...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Severity != out[j].Severity {
			return out[i].Severity < out[j].Severity
		}
		return out[i].Span.Start < out[j].Span.Start
	})
	return out
}
