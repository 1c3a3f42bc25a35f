package engine

import (
	"os"
	"testing"
)

// TestMain keeps the keys of the runs the tests make (internal/store/chain)
// out of the real home: in a key store of the test binary's own.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jaiph-keys-")
	if err != nil {
		panic(err)
	}
	os.Setenv("JAIPH_KEY_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
