package engine

// This file answers: which commands check that a run's summary and
// journal are what it wrote (internal/store/chain, docs/security.md)?

import (
	"fmt"

	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// trusted refuses the run at dir when its summary and journal do not
// verify against store (what says the command does anyway with --force).
func trusted(dir string, store chain.Store, what string) error {
	if r := runs.Verify(dir, store); !r.Trusted() {
		return fmt.Errorf("run %s is %s (--force %s anyway)", dir, r, what)
	}
	return nil
}
