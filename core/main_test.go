package core

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"wfl-lsp/internal/gcpolicy"
)

// TestMain runs the tests with no global configuration file (a test that
// wants one sets WFL_GLOBAL_CONFIG_PATH itself), so that the tests that
// run in parallel need not set it, and with the collector set as the server
// runs it (main calls gcpolicy.ForServer before serving), which spares the
// corpus properties about a sixth of their time. The benchmarks keep the
// default collector, as their figures in the README were measured with it.
func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "wfl-core-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("WFL_GLOBAL_CONFIG_PATH", filepath.Join(dir, "none"))
	if flag.Lookup("test.bench").Value.String() == "" {
		gcpolicy.ForServer()
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
