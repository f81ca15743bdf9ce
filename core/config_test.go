package core

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"wfl-lsp/internal/testfiles"
)

func TestLoadConfig(t *testing.T) {
	root := t.TempDir()
	global := testfiles.Write(t, root, "global.cfg", "indent_size = 2\nmax_line_length = 90\n")
	testfiles.Write(t, root, "proj/"+ConfigFileName, "max_line_length = 120\nindent_size = x\n")
	testfiles.Write(t, root, "proj/a/b/c.wfl", "display 1\n")
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", global)

	cfg, files, problems := LoadConfig(filepath.Join(root, "proj", "a", "b"))
	if cfg.IndentSize != 2 || cfg.MaxLineLength != 120 {
		t.Errorf("cfg = %+v, want indent 2 (global) and length 120 (nearest .wflcfg)", cfg)
	}
	if len(files) != 2 || files[0] != global {
		t.Errorf("files = %v, want the global file then the project's", files)
	}
	if len(problems) != 1 || problems[0].Err.Key != "indent_size" || problems[0].Err.Line != 2 {
		t.Fatalf("problems = %v, want indent_size on line 2", problems)
	}
	if got, want := problems[0].Error(), filepath.Join(root, "proj", ConfigFileName)+`:2: indent_size: expected a whole number, found "x" (value ignored)`; got != want {
		t.Errorf("problem reads %q, want %q", got, want)
	}

	// The nearest file wins alone: a closer .wflcfg hides the project's.
	testfiles.Write(t, root, "proj/a/"+ConfigFileName, "# nothing set\n")
	cfg, _, _ = LoadConfig(filepath.Join(root, "proj", "a", "b"))
	if cfg.MaxLineLength != 90 {
		t.Errorf("MaxLineLength = %d, want 90 from the global file (the closer .wflcfg sets nothing)", cfg.MaxLineLength)
	}

	// ConfigFor looks up from the document's folder.
	cfg = ConfigFor(FileURI(filepath.Join(root, "proj", "c.wfl")))
	if cfg.MaxLineLength != 120 {
		t.Errorf("ConfigFor: MaxLineLength = %d, want 120", cfg.MaxLineLength)
	}

	// A missing global file is not a problem.
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(root, "missing.cfg"))
	cfg, files, problems = LoadConfig(filepath.Join(root, "elsewhere"))
	if cfg.IndentSize != 4 || problems != nil {
		t.Errorf("no files: cfg = %+v, files %v, problems %v; want the defaults", cfg, files, problems)
	}
}

// TestConfigCache checks what the language server relies on: with
// CacheConfig, ConfigFor keeps what it read until ForgetConfig or until
// the time it was given has passed; without, it reads the files each time.
func TestConfigCache(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "no-global"))
	cfgFile := filepath.Join(dir, ConfigFileName)
	write := func(n int) {
		t.Helper()
		if err := os.WriteFile(cfgFile, []byte(fmt.Sprintf("max_line_length = %d\n", n)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	uri := FileURI(filepath.Join(dir, "a.wfl"))
	limit := func() int { return ConfigFor(uri).MaxLineLength }
	defer CacheConfig(0)

	write(50)
	CacheConfig(time.Hour)
	if got := limit(); got != 50 {
		t.Fatalf("max_line_length %d, want 50", got)
	}
	write(60)
	if got := limit(); got != 50 {
		t.Errorf("cached: max_line_length %d, want the 50 read before", got)
	}
	ForgetConfig()
	if got := limit(); got != 60 {
		t.Errorf("after ForgetConfig: max_line_length %d, want 60", got)
	}

	CacheConfig(time.Millisecond)
	limit()
	write(70)
	time.Sleep(5 * time.Millisecond)
	if got := limit(); got != 70 {
		t.Errorf("after the time kept: max_line_length %d, want 70", got)
	}

	CacheConfig(0)
	limit()
	write(80)
	if got := limit(); got != 80 {
		t.Errorf("not cached: max_line_length %d, want 80", got)
	}
}
