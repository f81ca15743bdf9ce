package navigation

import (
	"testing"

	"wfl-lsp/core/internal/coretest"
)

func TestMain(m *testing.M) { coretest.Main(m) }
