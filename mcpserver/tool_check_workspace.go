package mcpserver

// This file implements check_workspace: diagnostics for every WFL file in
// the workspace (or a folder of it), with a progress notification per file.

import (
	"context"
	"fmt"
	"strings"

	"wfl-lsp/lang/diag"
)

type fileReport struct {
	Path         string     `json:"path"`
	ErrorCount   int        `json:"errorCount"`
	WarningCount int        `json:"warningCount"`
	Diagnostics  []diagJSON `json:"diagnostics"`
	Omitted      int        `json:"omitted,omitempty"`
}

type workspaceReport struct {
	FileCount         int          `json:"fileCount"`
	FilesWithProblems int          `json:"filesWithProblems"`
	ErrorCount        int          `json:"errorCount"`
	WarningCount      int          `json:"warningCount"`
	Files             []fileReport `json:"files"`
	Summary           string       `json:"summary"`
}

var fileReportSchema = openObject([]string{"path", "errorCount", "warningCount", "diagnostics"}, map[string]*Schema{
	"path":         str("the file, relative to the workspace root"),
	"errorCount":   integer("errors in the file", 0),
	"warningCount": integer("warnings in the file", 0),
	"diagnostics":  array("the file's findings in source order, at most "+itoa(maxDiagnostics)+", the errors first", diagSchema),
	"omitted":      integer("the file's findings not listed, beyond the first "+itoa(maxDiagnostics), 0),
})

// checkFiles analyzes files (relative paths) and reports each, calling each
// after every file. It stops early when ctx ends.
func (ws *workspace) checkFiles(ctx context.Context, files []string, errorsOnly bool, each func(i int, rel string)) (workspaceReport, error) {
	rep := workspaceReport{Files: []fileReport{}}
	for i, rel := range files {
		if err := ctx.Err(); err != nil {
			return rep, err
		}
		text, _, perr := ws.readFile(rel)
		fr := fileReport{Path: rel, Diagnostics: []diagJSON{}}
		if perr == nil {
			snap := ws.snapshot(ctx, rel, text)
			a := snap.Analysis()
			if err := snap.Err(); err != nil {
				return rep, err // the file's analysis stopped: no report of it
			}
			_, shown := snap.Tolerant() // as analyze_wfl
			kept := shown[:0:0]
			for _, x := range shown {
				if !errorsOnly || x.Severity == diag.Error {
					kept = append(kept, x)
				}
			}
			var n diagCounts
			fr.Diagnostics, n = listDiagnostics(a, kept)
			fr.ErrorCount, fr.WarningCount, fr.Omitted = n.errors, n.warnings, n.omitted
		} else {
			fr.ErrorCount++
			fr.Diagnostics = append(fr.Diagnostics, diagJSON{Line: 1, Column: 1, EndLine: 1, EndColumn: 1,
				Severity: "error", Category: "parse", Code: "IO-" + strings.ToUpper(perr.Kind), Message: perr.Message})
		}
		rep.FileCount++
		rep.ErrorCount += fr.ErrorCount
		rep.WarningCount += fr.WarningCount
		if len(fr.Diagnostics) > 0 {
			rep.FilesWithProblems++
		}
		rep.Files = append(rep.Files, fr)
		if each != nil {
			each(i, rel)
		}
	}
	rep.Summary = fmt.Sprintf("%d file%s checked: %d with problems, %d error%s, %d warning%s",
		rep.FileCount, plural(rep.FileCount), rep.FilesWithProblems, rep.ErrorCount, plural(rep.ErrorCount),
		rep.WarningCount, plural(rep.WarningCount))
	return rep, nil
}

var checkWorkspaceTool = &Tool{
	Name:  "check_workspace",
	Title: "Check every WFL file in the workspace",
	Description: "Analyze every .wfl file in the workspace (or in one folder of it) and report the diagnostics " +
		"of each file. Sends progress notifications, one per file, when the call carries a progress token.",
	Input: object(nil, map[string]*Schema{
		"folder":     str("a folder inside the workspace to check instead of all of it, relative to the root"),
		"errorsOnly": boolean("report errors only (default false)"),
	}),
	Output: openObject([]string{"fileCount", "filesWithProblems", "errorCount", "warningCount", "files", "summary"}, map[string]*Schema{
		"fileCount":         integer("files checked", 0),
		"filesWithProblems": integer("files with at least one diagnostic", 0),
		"errorCount":        integer("errors in all files", 0),
		"warningCount":      integer("warnings in all files", 0),
		"files":             array("one report per file, in path order", fileReportSchema),
		"summary":           str("one line for people"),
	}),
	ReadOnly: true, Idempotent: true,
	Call: func(ctx context.Context, c *Call) Result {
		args := c.Args
		files := c.workspace().wflFiles()
		if folder, ok := strArg(args, "folder"); ok {
			abs, rel, perr := c.workspace().resolveFolder(folder)
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
		rep, err := c.workspace().checkFiles(ctx, files, boolArg(args, "errorsOnly", false), func(i int, rel string) {
			c.Progress(float64(i+1), n, "checked "+rel)
		})
		if err != nil {
			return c.interrupted(ctx)
		}
		c.log(levelInfo, rep.Summary)
		return Result{Structured: rep}
	},
}
