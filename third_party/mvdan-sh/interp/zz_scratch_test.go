package interp_test

import (
	"os"
	"testing"
)

func TestZZScratch(t *testing.T) {
	src, err := os.ReadFile(os.Getenv("ZZSRC"))
	if err != nil {
		t.Skip()
	}
	compareWithBash(t, string(src))
}
