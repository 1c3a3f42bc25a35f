// Package chaintest keeps the keys of the runs a test binary makes
// (internal/store/chain) out of the real home: Main gives the binary a key
// store of its own. Only tests import it.
package chaintest

import (
	"os"
	"testing"
)

// Main runs the tests with JAIPH_KEY_DIR set to a new directory, removed
// afterwards, and exits with their status. Call it from TestMain.
func Main(m *testing.M) {
	dir, err := os.MkdirTemp("", "jaiph-keys-")
	if err != nil {
		panic(err)
	}
	os.Setenv("JAIPH_KEY_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
