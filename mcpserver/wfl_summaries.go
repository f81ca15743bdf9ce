package mcpserver

// This file implements the summaries the workspace://symbols and
// workspace://diagnostics resources return, so that a large workspace does
// not flood a model's context: counts, a bounded sample, and for each file
// the URI of its full list (the workspace://symbols/PATH and
// workspace://diagnostics/PATH templates).

import (
	"context"
	"fmt"
	"net/url"
	"sort"
	"strings"

	"wfl-lsp/mcpserver/mcp"
)

const (
	maxSummarySymbols = 200 // top-level declarations in the symbols summary
	maxSummaryErrors  = 50  // errors in the diagnostics summary
	// maxSummaryFiles is how many files a summary (and workspace://files)
	// lists; the others are counted (filesOmitted). 3,182 files made
	// answers of 300 KB.
	maxSummaryFiles = 500
)

// capFiles keeps the first maxSummaryFiles of files, and records in out
// how many it left out, if any.
func capFiles[T any](files []T, out map[string]any) []T {
	if len(files) > maxSummaryFiles {
		out["filesOmitted"] = len(files) - maxSummaryFiles
		return files[:maxSummaryFiles]
	}
	return files
}

// fileCount is one file's line of a summary.
type fileCount struct {
	Path         string `json:"path"`
	URI          string `json:"uri"` // its full list
	Count        int    `json:"count,omitempty"`
	ErrorCount   int    `json:"errorCount,omitempty"`
	WarningCount int    `json:"warningCount,omitempty"`
}

// erroneous is a diagnostic with its file, as the diagnostics summary lists
// errors.
type erroneous struct {
	Path string `json:"path"`
	diagJSON
}

// summarizeReport keeps of what checking the workspace found the counts,
// the files with problems and the first errors.
func summarizeReport(found []fileFindings) map[string]any {
	rep := report(found, page{limit: maxSummaryErrors, budget: answerBudget})
	files := []fileCount{}
	errs := []erroneous{}
	for _, ff := range found {
		if len(ff.diags) == 0 {
			continue
		}
		files = append(files, fileCount{Path: ff.path, URI: diagnosticsTemplatePrefix + escapePath(ff.path),
			ErrorCount: ff.errors, WarningCount: ff.warnings})
	}
	for _, f := range rep.Files {
		for _, d := range f.Diagnostics {
			if d.Severity == "error" {
				errs = append(errs, erroneous{Path: f.Path, diagJSON: d})
			}
		}
	}
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Path < errs[j].Path })
	shown := len(errs)
	out := map[string]any{
		"fileCount": rep.FileCount, "filesWithProblems": rep.FilesWithProblems,
		"errorCount": rep.ErrorCount, "warningCount": rep.WarningCount,
		"errors":    errs,
		"truncated": shown < rep.ErrorCount,
		"summary": strings.SplitN(rep.Summary, " (", 2)[0] + fmt.Sprintf("; the first %d error%s listed, a file's full list at %sPATH",
			shown, plural(shown), diagnosticsTemplatePrefix),
	}
	out["files"] = capFiles(files, out)
	if rep.Unreadable != nil {
		out["unreadable"] = rep.Unreadable
	}
	return out
}

// symbolSummary counts each file's declarations and lists the top-level
// ones, at most maxSummarySymbols.
func (ws *workspace) symbolSummary(ctx context.Context) (map[string]any, error) {
	files := []fileCount{}
	top := []workspaceSymbol{}
	count, topCount := 0, 0
	for _, rel := range ws.wflFiles() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		syms, n := ws.fileSymbols(rel, "", -1)
		count += n
		if n > 0 {
			files = append(files, fileCount{Path: rel, URI: symbolsTemplatePrefix + escapePath(rel), Count: n})
		}
		for _, s := range syms {
			if s.Container != "" {
				continue
			}
			topCount++
			if len(top) < maxSummarySymbols {
				top = append(top, s)
			}
		}
	}
	out := map[string]any{
		"count": count, "topLevel": top, "topLevelCount": topCount,
		"truncated": len(top) < topCount,
	}
	out["files"] = capFiles(files, out)
	return out, nil
}

// escapePath escapes a relative path's segments for a URI.
func escapePath(rel string) string {
	parts := strings.Split(rel, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

// templatePaths returns paths as values of a template's {+path}: a
// reserved expansion (RFC 6570) escapes what a URI may not hold but keeps
// a percent sign that starts an escape, which matchPath then decodes, so
// each percent sign is written escaped.
func templatePaths(paths []string) []string {
	for i, p := range paths {
		paths[i] = strings.ReplaceAll(p, "%", "%25")
	}
	return paths
}

// matchPath matches the URIs of a template prefix+{+path}.
func matchPath(prefix string) func(uri string) (map[string]string, bool) {
	return func(uri string) (map[string]string, bool) {
		rel, ok := strings.CutPrefix(uri, prefix)
		if !ok {
			return nil, false
		}
		rel, err := url.PathUnescape(rel)
		if err != nil || rel == "" {
			return nil, false
		}
		return map[string]string{"path": rel}, true
	}
}

// wflFile resolves a workspace .wfl file named by a template's path, or
// fails with mcp.ErrResourceNotFound.
func (ws *workspace) wflFile(p string) (string, error) {
	_, rel, perr := ws.resolve(p)
	if perr != nil {
		return "", fmt.Errorf("%s: %w", perr.Message, mcp.ErrResourceNotFound)
	}
	if _, _, ferr := ws.readFile(rel); ferr != nil {
		return "", fmt.Errorf("%s: %w", ferr.Message, mcp.ErrResourceNotFound)
	}
	return rel, nil
}
