package fixes

import (
	"path/filepath"
	"strings"
	"testing"

	"wfl-lsp/core"
	"wfl-lsp/internal/testfiles"
	"wfl-lsp/lang/diag"
	"wfl-lsp/lang/token"
)

// TestIncludePathFix: an include naming no file is offered the files of
// its folder spelled alike, nearest first; the fix applied, the include
// is followed and its names are known. A file spelled unlike, a folder
// that does not exist, and (for MCP) a folder outside the session's are
// offered nothing.
func TestIncludePathFix(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"lib/helpers.wfl", "lib/helper2.wfl", "lib/Tools.wfl", "lib/far_away.wfl", "lib/notes.txt", "other/x.wfl"} {
		testfiles.Write(t, dir, name, "define action called shout:\n    display 1\nend action\n")
	}
	for _, tc := range []struct {
		include string
		want    []string // the fixes' titles, the preferred one first
		access  *core.FileAccess
	}{
		{"lib/helper.wfl", []string{"Change the path to 'lib/helper2.wfl'", "Change the path to 'lib/helpers.wfl'"}, nil},
		{"lib/helpers", []string{"Change the path to 'lib/helpers.wfl'"}, nil},
		{"./lib/tools.wfl", []string{"Change the path to './lib/Tools.wfl'"}, nil},
		{"lib/hlepers.wfl", []string{"Change the path to 'lib/helpers.wfl'"}, nil},
		{"lib/hlepers.wfl/", []string{"Change the path to 'lib/helpers.wfl'"}, nil},
		{"./lib/hlepers.wfl/.", []string{"Change the path to './lib/helpers.wfl'"}, nil},
		{".//lib//Tools", []string{"Change the path to './lib/Tools.wfl'"}, nil},
		{"lib/zebra.wfl", nil, nil},
		{"lib/notes.wfl", nil, nil},
		{"nolib/helpers.wfl", nil, nil},
		{"lib/helpers", nil, confined(t, filepath.Join(dir, "other"))},
	} {
		t.Run(tc.include, func(t *testing.T) {
			src := "include from \"" + tc.include + "\"\ncall shout\n"
			uri := core.FileURI(filepath.Join(dir, "main.wfl"))
			s := core.NewSnapshot(uri, 1, src)
			if tc.access != nil {
				s = tc.access.NewSnapshot(uri, 1, src)
			}
			var got []string
			var fixes []Fix
			for _, f := range At(t.Context(), s, token.Span{Start: 15, End: 15}) {
				if f.Kind == IncludePath {
					fixes = append(fixes, f)
					got = append(got, f.Title)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Fatalf("fixes %q, want %q", got, tc.want)
			}
			for i, f := range fixes {
				if f.Preferred != (i == 0 && len(fixes) == 1) {
					t.Errorf("%s: preferred %v", f.Title, f.Preferred)
				}
				fixed, err := core.ApplyEdits(src, f.Edits...)
				if err != nil {
					t.Fatal(err)
				}
				for _, d := range core.NewSnapshot(uri, 2, fixed).Analysis().Diagnostics {
					if d.Kind == diag.MissingInclude || d.Severity != diag.Information {
						t.Errorf("%s: %q still finds %s", f.Title, fixed, d.Message)
					}
				}
			}
		})
	}
}

func confined(t *testing.T, dir string) *core.FileAccess {
	fa, err := core.Confine(dir)
	if err != nil {
		t.Fatal(err)
	}
	return fa
}
