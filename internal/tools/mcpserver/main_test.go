package mcpserver

import (
	"testing"

	"github.com/jaiph-go/jaiph/internal/store/chain/chaintest"
)

// TestMain keeps the keys of the runs the tests make out of the real home.
func TestMain(m *testing.M) { chaintest.Main(m) }
