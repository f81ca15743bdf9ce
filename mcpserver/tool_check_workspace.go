package mcpserver

// This file implements check_workspace: diagnostics for every WFL file in
// the workspace (or a folder of it), with a progress notification per file.
// Its answer is a page of the findings of every file, errors first.

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

type fileReport struct {
	Path         string     `json:"path"`
	ErrorCount   int        `json:"errorCount"`
	WarningCount int        `json:"warningCount"`
	Diagnostics  []diagJSON `json:"diagnostics"`
	Omitted      int        `json:"omitted,omitempty"`
	Unreadable   *pathError `json:"unreadable,omitempty"`
}

type workspaceReport struct {
	FileCount         int          `json:"fileCount"`
	FilesWithProblems int          `json:"filesWithProblems"`
	ErrorCount        int          `json:"errorCount"`
	WarningCount      int          `json:"warningCount"`
	FindingCount      int          `json:"findingCount"`
	Files             []fileReport `json:"files"`
	pageOut
	Unreadable []*pathError `json:"unreadable,omitempty"`
	Summary    string       `json:"summary"`
}

var fileReportSchema = openObject([]string{"path", "errorCount", "warningCount", "diagnostics"}, map[string]*Schema{
	"path":         str("the file, relative to the workspace root"),
	"errorCount":   integer("errors in the file, listed or not", 0),
	"warningCount": integer("warnings in the file, listed or not", 0),
	"diagnostics":  array("the file's findings on this page, errors first, then in source order", diagSchema),
	"omitted":      integer("the file's findings not on this page", 0),
})

// A fileFindings is what checking one workspace file found.
type fileFindings struct {
	path             string
	lines            *token.Lines
	diags            []diag.Diagnostic // by severity, then in source order
	errors, warnings int
	unreadable       *pathError // why it could not be read, or nil
}

// checkFiles analyzes files (relative paths) and returns what each has,
// in the order given, calling each after every file. It stops early when
// ctx ends.
func (ws *workspace) checkFiles(ctx context.Context, files []string, errorsOnly bool, each func(i int, rel string)) ([]fileFindings, error) {
	var out []fileFindings
	for i, rel := range files {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		ff := fileFindings{path: rel}
		text, _, perr := ws.readFile(rel)
		if perr == nil {
			snap := ws.snapshot(ctx, rel, text)
			a := snap.Analysis()
			if err := snap.Err(); err != nil {
				return out, err // the file's analysis stopped: no report of it
			}
			_, shown := snap.Tolerant() // as analyze_wfl
			for _, x := range shown {
				if errorsOnly && x.Severity != diag.Error {
					continue
				}
				ff.diags = append(ff.diags, x)
				switch x.Severity {
				case diag.Error:
					ff.errors++
				case diag.Warning:
					ff.warnings++
				}
			}
			ff.diags = sortedDiagnostics(ff.diags)
			ff.lines = a.Lines
		} else {
			ff.unreadable = perr
		}
		out = append(out, ff)
		if each != nil {
			each(i, rel)
		}
	}
	return out, nil
}

// report is one file's report, with its first limit findings (errors
// first), as the workspace://diagnostics/{+path} template gives it.
func (ff *fileFindings) report(limit int) fileReport {
	fr := fileReport{Path: ff.path, ErrorCount: ff.errors, WarningCount: ff.warnings, Diagnostics: []diagJSON{}}
	if ff.unreadable != nil {
		fr.Unreadable = ff.unreadable
		return fr
	}
	fr.Diagnostics, _ = listDiagnosticsSorted(ff.lines, ff.diags, page{limit: limit, budget: answerBudget})
	fr.Omitted = len(ff.diags) - len(fr.Diagnostics)
	return fr
}

// report is the answer of check_workspace for the files checked: their
// counts, and the page p of their findings in one list ordered by
// severity (errors first), then by file, then in source order.
func report(found []fileFindings, p page) workspaceReport {
	rep := workspaceReport{Files: []fileReport{}, FileCount: len(found)}
	type ref struct{ file, i int } // found[file].diags[i]
	var all []ref
	for f, ff := range found {
		rep.ErrorCount += ff.errors
		rep.WarningCount += ff.warnings
		if len(ff.diags) > 0 {
			rep.FilesWithProblems++
		}
		if ff.unreadable != nil {
			rep.Unreadable = append(rep.Unreadable, ff.unreadable)
		}
		for i := range ff.diags {
			all = append(all, ref{f, i})
		}
		rep.FindingCount += len(ff.diags)
	}
	sort.SliceStable(all, func(i, j int) bool {
		return found[all[i].file].diags[all[i].i].Severity < found[all[j].file].diags[all[j].i].Severity
	})
	byFile := map[int]int{} // index in rep.Files of a file with findings on the page
	var listed []ref
	var dj []diagJSON
	_, rep.pageOut = paged(len(all), p, func(k int) int {
		r := all[k]
		ff := &found[r.file]
		d := toDiagJSON(ff.lines, ff.diags[r.i])
		n := jsonSize(d)
		if _, ok := byFile[r.file]; !ok {
			n += len(`{"path":"","errorCount":,"warningCount":,"diagnostics":[],"omitted":}`) + len(ff.path) + 24
		}
		listed, dj = append(listed, r), append(dj, d)
		byFile[r.file] = -1
		return n
	})
	if rep.NextOffset != nil {
		listed = listed[:*rep.NextOffset-min(p.offset, len(all))]
	}
	clear(byFile)
	for k, r := range listed {
		at, ok := byFile[r.file]
		if !ok {
			ff := &found[r.file]
			at = len(rep.Files)
			byFile[r.file] = at
			rep.Files = append(rep.Files, fileReport{Path: ff.path, ErrorCount: ff.errors, WarningCount: ff.warnings,
				Diagnostics: []diagJSON{}, Omitted: len(ff.diags)})
		}
		rep.Files[at].Diagnostics = append(rep.Files[at].Diagnostics, dj[k])
		rep.Files[at].Omitted--
	}
	sort.Slice(rep.Files, func(i, j int) bool { return rep.Files[i].Path < rep.Files[j].Path })
	rep.Summary = fmt.Sprintf("%d file%s checked: %d with problems, %d error%s, %d warning%s",
		rep.FileCount, plural(rep.FileCount), rep.FilesWithProblems, rep.ErrorCount, plural(rep.ErrorCount),
		rep.WarningCount, plural(rep.WarningCount))
	if n := len(rep.Unreadable); n > 0 {
		rep.Summary += fmt.Sprintf("; %d file%s could not be read (see unreadable)", n, plural(n))
	}
	rep.Summary += rep.pageOut.note(len(listed), "findings, errors first,")
	return rep
}

var checkWorkspaceTool = &Tool{
	Name:  "check_workspace",
	Title: "Check every WFL file in the workspace",
	Description: "Analyze every .wfl file in the workspace (or in one folder of it) and report the counts of findings " +
		"and a page of the findings themselves (limit, offset): errors first, then warnings and the rest, by file and " +
		"position, grouped by file. Sends progress notifications, one per file, when the call carries a progress token.",
	Input: object(nil, pageProps(map[string]*Schema{
		"folder":     str("a folder inside the workspace to check instead of all of it, relative to the root"),
		"errorsOnly": boolean("report errors only (default false)"),
	}, "findings", maxWorkspaceFindings)),
	Output: openObject([]string{"fileCount", "filesWithProblems", "errorCount", "warningCount", "files", "summary"}, pageSchema(map[string]*Schema{
		"fileCount":         integer("files checked", 0),
		"filesWithProblems": integer("files with at least one finding", 0),
		"errorCount":        integer("errors in all files", 0),
		"warningCount":      integer("warnings in all files", 0),
		"findingCount":      integer("findings in all files: errors, warnings and the rest", 0),
		"files":             array("the files with findings on this page, in path order", fileReportSchema),
		"unreadable": array("files that could not be read, and why", openObject([]string{"kind", "message", "path"}, map[string]*Schema{
			"kind":    str("not_utf8, too_large, not_a_file, not_found, …"),
			"message": str("what is wrong, with the line and byte of the first bad byte for not_utf8"),
			"path":    str("the file"),
			"line":    integer("not_utf8: the 1-based line of the first byte that is not UTF-8", 1),
			"byte":    integer("not_utf8: its 1-based byte in that line", 1),
		})),
		"summary": str("one line for people"),
	}, "findings")),
	ReadOnly: true, Idempotent: true,
	Call: func(ctx context.Context, c *Call) Result {
		args := c.Args
		files := workspaceOf(c).wflFiles()
		if folder, ok := strArg(args, "folder"); ok {
			abs, rel, perr := workspaceOf(c).resolveFolder(folder)
			if perr != nil {
				return pathFailure(perr)
			}
			if fi, err := statDir(abs); err != nil || !fi {
				return failure("not_a_folder", folder+" is not a folder")
			}
			var in []string
			for _, f := range files {
				if rel == "." || strings.HasPrefix(f, rel+"/") {
					in = append(in, f)
				}
			}
			files = in
		}
		n := float64(len(files))
		found, err := workspaceOf(c).checkFiles(ctx, files, boolArg(args, "errorsOnly", false), func(i int, rel string) {
			c.Progress(float64(i+1), n, "checked "+rel)
		})
		if err != nil {
			return c.Interrupted(ctx)
		}
		rep := report(found, pageArgs(args, maxWorkspaceFindings))
		c.Log("info", rep.Summary)
		return Result{Structured: rep}
	},
}

// maxWorkspaceFindings is how many findings check_workspace lists by
// default.
const maxWorkspaceFindings = 100
