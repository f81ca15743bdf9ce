package main

import (
	"fmt"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// docFiles are the repository's documents: the README, ARCHITECTURE.md and
// everything under docs/.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "ARCHITECTURE.md"}
	more, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append(files, more...)
}

var (
	mdLink    = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	mdHeading = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
)

// mdAnchors returns the anchors GitHub makes for a document's headings:
// lower case, punctuation dropped but for '-' and '_', each space a '-',
// "-1", "-2", ... after a repeated one. Lines inside code fences are not
// headings.
func mdAnchors(text string) map[string]bool {
	anchors := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		m := mdHeading.FindStringSubmatch(line)
		if fenced || m == nil {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			anchors[a+"-"+strconv.Itoa(n)] = true
		} else {
			anchors[a] = true
		}
		seen[a]++
	}
	return anchors
}

// TestDocLinks checks that every relative link of the documents names a file
// of the repository and, with a '#', a heading of that file: a section moved
// from the README to docs/ leaves no link to where it was.
func TestDocLinks(t *testing.T) {
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) (map[string]bool, bool) {
		if a, ok := anchors[path]; ok {
			return a, true
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, false
		}
		anchors[path] = mdAnchors(string(b))
		return anchors[path], true
	}
	for _, doc := range docFiles(t) {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		fenced := false
		for i, line := range strings.Split(string(b), "\n") {
			if strings.HasPrefix(line, "```") {
				fenced = !fenced
			}
			if fenced {
				continue
			}
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				file, anchor, _ := strings.Cut(target, "#")
				path := doc
				if file != "" {
					path = filepath.Join(filepath.Dir(doc), file)
				}
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s:%d: link to %s: no file %s", doc, i+1, target, path)
					continue
				}
				if anchor == "" {
					continue
				}
				a, ok := anchorsOf(path)
				if !ok || !a[anchor] {
					t.Errorf("%s:%d: link to %s: %s has no heading #%s", doc, i+1, target, path, anchor)
				}
			}
		}
	}
}

// citation matches a comment that cites a document outside the repository as
// its source: the shared research notes and design, or a section mark. A
// comment states the fact itself; naming ../shared/corpus, the test data some
// tests read when it is present, is not a citation.
var citation = regexp.MustCompile(`\.\./shared/\S*\.md|\bresearch/|\b(DESIGN|wfl-language|wfl-lsp|aesthetics|lsp|mcp)\.md\b|§`)

// TestNoCommentCitesOutside checks the comments of every Go file, of the
// golden files (a txtar archive's text before its first file) and of the
// scripts: none cites a file that is not part of the repository.
func TestNoCommentCitesOutside(t *testing.T) {
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") && name != ".ci" || name == "node_modules" || path == filepath.Join(".ci", "npm")) {
				return filepath.SkipDir
			}
			return nil
		}
		var comments []string
		switch {
		case strings.HasSuffix(path, ".go"):
			// The comments, as the scanner reads them (a parse of every
			// file took seconds under the race detector).
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			var sc scanner.Scanner
			fset := token.NewFileSet()
			sc.Init(fset.AddFile(path, -1, len(src)), src, func(pos token.Position, msg string) {
				err = fmt.Errorf("%s: %s", pos, msg)
			}, scanner.ScanComments)
			for {
				_, tok, lit := sc.Scan()
				if tok == token.EOF {
					break
				}
				if tok == token.COMMENT {
					comments = append(comments, lit)
				}
			}
			if err != nil {
				return err
			}
		case strings.HasSuffix(path, ".txtar"):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			comment, _, _ := strings.Cut("\n"+string(b), "\n-- ")
			comments = append(comments, comment)
		case strings.HasSuffix(path, ".sh") || path == filepath.Join(".ci", "run") || strings.HasSuffix(path, ".conf"):
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			for line := range strings.SplitSeq(string(b), "\n") {
				if _, c, ok := strings.Cut(line, "#"); ok {
					comments = append(comments, c)
				}
			}
		}
		for _, c := range comments {
			if m := citation.FindString(c); m != "" {
				t.Errorf("%s: a comment cites %q, outside the repository; state the fact instead:\n%s", path, m, c)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
