package mcpserver

// This file declares WFL's resources: the workspace's files, symbols,
// diagnostics and configuration, and the templates for a file's text and
// a builtin's documentation.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"os"
	"path/filepath"
	"strings"

	"wfl-lsp/core"
	"wfl-lsp/lang/builtins"
	"wfl-lsp/mcpserver/mcp"
)

const (
	fileTemplatePrefix        = "workspace://file/"
	diagnosticsTemplatePrefix = "workspace://diagnostics/"
	symbolsTemplatePrefix     = "workspace://symbols/"
	builtinTemplatePrefix     = "wfl://builtin/"
)

func wflResources() []*mcp.Resource {
	return []*mcp.Resource{
		{URI: "workspace://files", Name: "files", Title: "WFL files", MimeType: "application/json",
			Description: "The .wfl files of the workspace, recursively (hidden and vendored folders skipped): their count and the first " + itoa(maxSummaryFiles),
			Read: func(ctx context.Context, c *Call) ([]any, error) {
				type entry struct {
					Path string `json:"path"`
					URI  string `json:"uri"`
					Size int64  `json:"size"`
				}
				out := struct {
					Root    string   `json:"root"`
					Roots   []string `json:"roots"`
					Count   int      `json:"count"`
					Files   []entry  `json:"files"`
					Omitted int      `json:"filesOmitted,omitempty"` // past maxSummaryFiles
				}{Root: workspaceOf(c).roots[0].path, Roots: workspaceOf(c).folders(), Files: []entry{}}
				all := workspaceOf(c).wflFiles()
				out.Count = len(all)
				if len(all) > maxSummaryFiles {
					all, out.Omitted = all[:maxSummaryFiles], len(all)-maxSummaryFiles
				}
				for _, rel := range all {
					var size int64
					if fi, err := workspaceOf(c).files.Stat(workspaceOf(c).abs(rel)); err == nil {
						size = fi.Size()
					}
					out.Files = append(out.Files, entry{Path: rel, URI: fileTemplatePrefix + escapePath(rel), Size: size})
				}
				return mcp.JSONContents("workspace://files", out)
			},
			Version: workspaceVersion},
		{URI: "workspace://symbols", Name: "symbols", Title: "Workspace symbols", MimeType: "application/json",
			Description: "A summary of the workspace's declarations: how many each .wfl file has (with the URI of its full list, " +
				"workspace://symbols/PATH) and the top-level ones (actions, containers, constants, …), at most " + itoa(maxSummarySymbols),
			Read: func(ctx context.Context, c *Call) ([]any, error) {
				sum, err := workspaceOf(c).symbolSummary(ctx)
				if err != nil {
					return nil, err
				}
				return mcp.JSONContents("workspace://symbols", sum)
			},
			Version: workspaceVersion},
		{URI: "workspace://diagnostics", Name: "diagnostics", Title: "Workspace diagnostics", MimeType: "application/json",
			Description: "A summary of the workspace's diagnostics: counts, the files with problems (each with the URI of its " +
				"full list, workspace://diagnostics/PATH) and the first " + itoa(maxSummaryErrors) + " errors",
			Read: func(ctx context.Context, c *Call) ([]any, error) {
				found, err := workspaceOf(c).checkFiles(ctx, workspaceOf(c).wflFiles(), false, nil)
				if err != nil {
					return nil, err
				}
				return mcp.JSONContents("workspace://diagnostics", summarizeReport(found))
			},
			Version: workspaceVersion},
		{URI: "workspace://config", Name: "config", Title: "WFL configuration", MimeType: "application/json",
			Description: "The lint and format settings in force at the workspace root (defaults, global file, nearest .wflcfg) and any problems in those files",
			Read: func(ctx context.Context, c *Call) ([]any, error) {
				cfg, files, problems := core.LoadConfig(workspaceOf(c).roots[0].path)
				probs := []string{}
				for _, p := range problems {
					probs = append(probs, p.Error())
				}
				if files == nil {
					files = []string{}
				}
				return mcp.JSONContents("workspace://config", map[string]any{
					"settings": map[string]any{
						"max_line_length":         cfg.MaxLineLength,
						"max_nesting_depth":       cfg.MaxNestingDepth,
						"indent_size":             cfg.IndentSize,
						"snake_case_variables":    cfg.SnakeCaseVariables,
						"trailing_whitespace":     cfg.TrailingWhitespace,
						"consistent_keyword_case": cfg.ConsistentKeywordCase,
					},
					"files":    files,
					"problems": probs,
				})
			},
			Version: func(c *Call) string {
				h := sha256.New()
				root := workspaceOf(c).roots[0].path
				_, files, _ := core.LoadConfig(root)
				for _, f := range files {
					stat(h, f)
				}
				stat(h, filepath.Join(root, core.ConfigFileName))
				return hex.EncodeToString(h.Sum(nil))
			}},
	}
}

func wflTemplates() []*mcp.Template {
	return []*mcp.Template{
		{URITemplate: fileTemplatePrefix + "{+path}", Name: "wfl-file", Title: "WFL source file", MimeType: "text/x-wfl",
			Description: "The text of a .wfl file of the workspace; path is relative to the workspace root (file:// URIs inside the root are read too)",
			Match: func(uri string) (map[string]string, bool) {
				if strings.HasPrefix(uri, "file:") {
					return map[string]string{"path": uri}, true
				}
				return matchPath(fileTemplatePrefix)(uri)
			},
			Read: func(ctx context.Context, c *Call, uri string, vars map[string]string) ([]any, error) {
				t, _, fe := workspaceOf(c).readFile(vars["path"])
				if fe != nil {
					return nil, fmt.Errorf("%s: %w", fe.Message, mcp.ErrResourceNotFound)
				}
				return mcp.TextContents(uri, "text/x-wfl", t), nil
			},
			Complete: func(c *Call, variable, prefix string) []string { return templatePaths(completePath(c, prefix)) },
			Version: func(c *Call, uri string, vars map[string]string) string {
				// One file: its bytes, so that a rewrite of the same size within
				// the file system's timestamp granularity is still noticed.
				h := sha256.New()
				if abs, _, err := workspaceOf(c).resolve(vars["path"]); err == nil {
					stat(h, abs)
					if b, err := workspaceOf(c).files.ReadFile(abs); err == nil {
						h.Write(b)
					}
				} else {
					fmt.Fprintf(h, "unreadable %s\n", err.Kind)
				}
				return hex.EncodeToString(h.Sum(nil))
			}},
		reportTemplate(diagnosticsTemplatePrefix, &mcp.Template{URITemplate: diagnosticsTemplatePrefix + "{+path}", Name: "wfl-file-diagnostics", Title: "A WFL file's diagnostics",
			Description: "Every diagnostic of one .wfl file of the workspace (as check_workspace reports a file); path is relative to the workspace root"},
			func(ctx context.Context, c *Call, rel string) (any, error) {
				found, err := workspaceOf(c).checkFiles(ctx, []string{rel}, false, nil)
				if err != nil {
					return nil, err
				}
				return found[0].report(maxDiagnostics), nil
			}),
		reportTemplate(symbolsTemplatePrefix, &mcp.Template{URITemplate: symbolsTemplatePrefix + "{+path}", Name: "wfl-file-symbols", Title: "A WFL file's declarations",
			Description: "Every declaration of one .wfl file of the workspace, nested ones with their container; path is relative to the workspace root"},
			func(ctx context.Context, c *Call, rel string) (any, error) {
				syms, _ := workspaceOf(c).fileSymbols(rel, "", -1)
				return map[string]any{"path": rel, "symbols": syms, "count": len(syms)}, nil
			}),
		{URITemplate: builtinTemplatePrefix + "{name}", Name: "wfl-builtin", Title: "WFL builtin documentation", MimeType: "text/markdown",
			Description: "Documentation of one builtin function: module, parameters, result and what it does",
			Read: func(ctx context.Context, c *Call, uri string, vars map[string]string) ([]any, error) {
				b := builtins.Lookup(vars["name"])
				if b == nil {
					return nil, fmt.Errorf("no builtin is called %s: %w", vars["name"], mcp.ErrResourceNotFound)
				}
				return mcp.TextContents(uri, "text/markdown", builtinMarkdown(b)), nil
			},
			Complete: func(c *Call, variable, prefix string) []string { return withPrefix(builtins.Names(), prefix) }},
	}
}

// reportTemplate completes t (its URI template, name, title and
// description set), the template of a JSON report about one .wfl file of
// the workspace (its diagnostics, its declarations): the path after
// prefix, confined to the workspace, completed as a path, and the
// report's version the workspace's.
func reportTemplate(prefix string, t *mcp.Template, report func(ctx context.Context, c *Call, rel string) (any, error)) *mcp.Template {
	t.MimeType = "application/json"
	t.Match = matchPath(prefix)
	t.Read = func(ctx context.Context, c *Call, uri string, vars map[string]string) ([]any, error) {
		rel, err := workspaceOf(c).wflFile(vars["path"])
		if err != nil {
			return nil, err
		}
		v, err := report(ctx, c, rel)
		if err != nil {
			return nil, err
		}
		return mcp.JSONContents(uri, v)
	}
	t.Complete = func(c *Call, variable, prefix string) []string { return templatePaths(completePath(c, prefix)) }
	t.Version = func(c *Call, uri string, vars map[string]string) string { return workspaceVersion(c) }
	return t
}

// workspaceVersion changes when a WFL file of the workspace is added,
// removed or changed (its size or modification time).
func workspaceVersion(c *Call) string {
	h := sha256.New()
	for _, f := range workspaceOf(c).wflFiles() {
		stat(h, workspaceOf(c).abs(f))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func stat(h hash.Hash, p string) {
	if fi, err := os.Stat(p); err == nil {
		fmt.Fprintf(h, "%s %d %d\n", p, fi.Size(), fi.ModTime().UnixNano())
	} else {
		fmt.Fprintf(h, "%s missing\n", p)
	}
}

func builtinMarkdown(b *builtins.Builtin) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "# %s\n\n%s\n\nModule: %s. Arguments: %s.\n", b.Name, b.Doc, b.Module, b.ArityText())
	if !b.Implemented {
		sb.WriteString("\nReserved: the WFL runtime does not provide this builtin yet.\n")
	}
	if len(b.Signatures) > 0 {
		sb.WriteString("\nSignatures:\n\n")
		for i := range b.Signatures {
			fmt.Fprintf(&sb, "- `%s`\n", b.Label(i))
		}
	}
	return sb.String()
}
