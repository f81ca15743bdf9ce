package core

import (
	"testing"

	"wfl-lsp/core/internal/coretest"
)

// TestMain runs core's tests as its feature packages' run (coretest.Main):
// with no global configuration file, and with the collector set as the
// server runs it, except under benchmarks.
func TestMain(m *testing.M) { coretest.Main(m) }
