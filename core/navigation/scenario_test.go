package navigation

// The scenario suite: each testdata/resolve/*.txtar holds WFL files (every
// file whose name ends in .wfl, paths included, written to a temporary
// folder), a "queries" section and a "want" section, the transcript of what
// the workspace answers. Each scenario runs twice, with only the first file
// open in the workspace and with every file open: the answers must be the
// same, so that a file included from the disk and an open one are followed
// alike. A query is one line:
//
//	FILE NEEDLE#N+D hover|definition|references|rename NEW NAME|completion [snippets]
//	FILE diagnostics
//
// where the position is D bytes after the start of the Nth (from 0)
// occurrence of NEEDLE in FILE (a ~ in NEEDLE stands for a space), and
//
//	FILE NEEDLE#N+D tokens|inlay
//
// lists the semantic tokens or the inlay hints of the line there, and
//
//	FILE NEEDLE#N+D signature
//
// the signature help there; nav_scenario_test.go answers the navigation
// questions (typedef, implementation, hierarchy, lenses, enter).
//
// Regenerate with: go test ./core/navigation -run TestScenarios -update

import (
	"flag"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/core/completion"
	"wfl-lsp/core/internal/featuretest"
	"wfl-lsp/core/presentation"
	"wfl-lsp/internal/testfiles"
	"wfl-lsp/internal/txtar"
	"wfl-lsp/lang/token"
)

var update = flag.Bool("update", false, "rewrite the want sections of testdata/resolve/*.txtar")

func TestScenarios(t *testing.T) {
	txtar.Run(t, filepath.Join("..", "..", "testdata", "resolve", "*.txtar"), *update, func(t *testing.T, ar *txtar.Archive) {
		firstOnly := runScenario(t, ar, false)
		allOpen := runScenario(t, ar, true)
		if firstOnly != allOpen {
			t.Errorf("the answers differ when every file is open:\n--- first file open\n%s\n--- all open\n%s", firstOnly, allOpen)
		}
		if *update {
			ar.Set("want", firstOnly)
			return
		}
		if want, _ := ar.Get("want"); want != firstOnly {
			t.Errorf("transcript differs (run with -update to accept):\n--- want\n%s\n--- got\n%s", want, firstOnly)
		}
	})
}

// runScenario writes the scenario's files, opens the first (or all) and
// answers its queries.
func runScenario(t *testing.T, ar *txtar.Archive, openAll bool) string {
	dir := t.TempDir()
	ws := core.NewWorkspace()
	var names []string
	for i, f := range ar.Files {
		if !strings.HasSuffix(f.Name, ".wfl") {
			continue
		}
		p := testfiles.Write(t, dir, f.Name, f.Data)
		names = append(names, f.Name)
		if openAll || len(names) == 1 {
			ws.Open(core.FileURI(p), int32(i+1), f.Data)
		}
	}
	abs := func(name string) string { return filepath.Join(dir, filepath.FromSlash(name)) }
	rel := func(path string) string {
		r, _ := filepath.Rel(dir, path)
		return filepath.ToSlash(r)
	}
	candidates := make([]string, len(names))
	for i, n := range names {
		candidates[i] = abs(n)
	}
	includesOf := featuretest.IncludesOf(ws.Load)
	// As an adapter's index of the workspace's files would.
	ws.SetDiskIncluders(func(path string) []string {
		var out []string
		for _, c := range candidates {
			if c != path && includesTransitively(c, path, includesOf) {
				out = append(out, c)
			}
		}
		return out
	})
	where := func(path string, lines *token.Lines, sp token.Span) string {
		l, c := lines.OffsetPosition(sp.Start)
		el, ec := lines.OffsetPosition(sp.End)
		return fmt.Sprintf("%s:%d:%d-%d:%d %q", rel(path), l, c, el, ec, lines.Text()[sp.Start:sp.End])
	}
	queries, _ := ar.Get("queries")
	var out strings.Builder
	for _, q := range strings.Split(strings.TrimSpace(queries), "\n") {
		f := strings.Fields(q)
		if len(f) < 2 {
			continue
		}
		fmt.Fprintf(&out, "> %s\n", strings.Join(f, " "))
		path := abs(f[0])
		a, ok := ws.Load(path)
		if !ok {
			t.Fatalf("query %q: no file %s", q, f[0])
		}
		if f[1] == "diagnostics" {
			lines, ds, _ := ws.FileDiagnostics(path)
			for _, d := range ds {
				l, c := lines.OffsetPosition(d.Span.Start)
				fmt.Fprintf(&out, "%d:%d %s %s: %s\n", l, c, d.Severity, d.Code, d.Message)
			}
			continue
		}
		if len(f) < 3 {
			t.Fatalf("query %q: no question", q)
		}
		off := markerOffset(t, a.Lines.Text(), f[1])
		switch f[2] {
		case "hover":
			if h := HoverAcross(a, off, path, ws.Load); h != nil {
				fmt.Fprintf(&out, "%s\n", strings.ReplaceAll(h.PlainText(), "\n", "\n  "))
			} else {
				out.WriteString("(nothing)\n")
			}
		case "definition":
			spans := Definition(a, off)
			for _, sp := range spans {
				fmt.Fprintln(&out, where(path, a.Lines, sp))
			}
			if len(spans) == 0 {
				for _, fs := range IncludedDefinition(a, off, path, ws.Load) {
					fmt.Fprintln(&out, where(fs.Path, fs.Lines, fs.Span))
				}
			}
		case "references":
			if refs, ok := ReferencesAcross(a, off, path, candidates, includesOf, ws.Load); ok {
				for _, r := range refs {
					fmt.Fprintln(&out, where(r.Path, r.Lines, r.Span))
				}
				break
			}
			for _, r := range References(a, off, true) {
				fmt.Fprintln(&out, where(path, a.Lines, r.Span))
			}
		case "rename":
			newName := strings.Join(f[3:], " ")
			byFile, across, err := RenameAcross(a, off, newName, path, candidates, includesOf, ws.Load)
			if !across {
				var edits []core.Edit
				if edits, err = Rename(a, off, newName); err == nil {
					byFile = map[string][]core.Edit{path: edits}
				}
			}
			if err != nil {
				fmt.Fprintf(&out, "error: %s\n", strings.ReplaceAll(err.Error(), dir+string(filepath.Separator), ""))
				break
			}
			for _, p := range slices.Sorted(func(yield func(string) bool) {
				for p := range byFile {
					if !yield(p) {
						return
					}
				}
			}) {
				b, _ := ws.Load(p)
				for _, e := range byFile[p] {
					fmt.Fprintf(&out, "%s -> %q\n", where(p, b.Lines, token.Span{Start: e.Start, End: e.End}), e.Text)
				}
			}
		case "tokens":
			l := a.Lines.Line(off)
			sp := token.Span{Start: a.Lines.LineStart(l), End: a.Lines.LineEnd(l)}
			var toks []string
			for _, tk := range presentation.SemanticTokens(a, sp) {
				typ := presentation.SemTypeNames[tk.Type]
				for i, m := range presentation.SemModNames {
					if tk.Mods&(1<<i) != 0 {
						typ += "." + m
					}
				}
				toks = append(toks, fmt.Sprintf("%s:%s", a.Lines.Text()[tk.Span.Start:tk.Span.End], typ))
			}
			fmt.Fprintf(&out, "%s\n", strings.Join(toks, " "))
		case "inlay":
			l := a.Lines.Line(off)
			var hs []string
			for _, h := range presentation.InlayHints(a, token.Span{Start: a.Lines.LineStart(l), End: a.Lines.LineEnd(l)}) {
				_, c := a.Lines.OffsetPosition(h.Offset)
				hs = append(hs, fmt.Sprintf("%d:%q", c, h.Label))
			}
			fmt.Fprintf(&out, "%s\n", strings.Join(hs, " "))
		case "signature":
			info := completion.SignatureHelp(a, off)
			if info == nil {
				out.WriteString("(none)\n")
				break
			}
			for i, sg := range info.Signatures {
				mark := " "
				if i == info.ActiveSig {
					mark = "*"
				}
				fmt.Fprintf(&out, "%s %s (params %q)\n", mark, sg.Label, sg.Params)
			}
			fmt.Fprintf(&out, "active parameter %d\n", info.ActiveParam)
		case "completion":
			sp, items := completion.List(a, off, completion.Options{Snippets: len(f) > 3 && f[3] == "snippets", Path: path})
			var labels []string
			for i, it := range items {
				if i == 16 {
					labels = append(labels, fmt.Sprintf("… (%d)", len(items)))
					break
				}
				if it.Snippet != "" && it.Kind != completion.Snippet {
					labels = append(labels, it.Label+" ["+it.Snippet+"]")
				} else {
					labels = append(labels, it.Label)
				}
			}
			fmt.Fprintf(&out, "replaces %q: %s\n", a.Lines.Text()[sp.Start:sp.End], strings.Join(labels, ", "))
		default:
			files := Files{Base: path, Candidates: candidates, IncludesOf: includesOf, Load: ws.Load}
			if !navQuery(&out, f[2:], a, off, files, where) {
				t.Fatalf("query %q: unknown question %q", q, f[2])
			}
		}
	}
	return out.String()
}

// markerOffset finds NEEDLE#N+D in text.
func markerOffset(t *testing.T, text, marker string) int {
	t.Helper()
	needle, rest, _ := strings.Cut(marker, "#")
	n, d := 0, 0
	if rest != "" {
		ns, ds, _ := strings.Cut(rest, "+")
		n, _ = strconv.Atoi(ns)
		d, _ = strconv.Atoi(ds)
	}
	needle = strings.ReplaceAll(needle, "~", " ")
	i := -1
	for k := 0; k <= n; k++ {
		j := strings.Index(text[i+1:], needle)
		if j < 0 {
			t.Fatalf("marker %q: not found", marker)
		}
		i += 1 + j
	}
	return i + d
}
