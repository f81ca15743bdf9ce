package lsp

import (
	"os"
	"testing"

	"wfl-lsp/internal/gcpolicy"
)

// TestMain runs the tests and benchmarks with the collector set as the
// server runs it (main calls gcpolicy.ForServer before serving).
func TestMain(m *testing.M) {
	gcpolicy.ForServer()
	os.Exit(m.Run())
}
