package report

import (
	"context"
	"fmt"
	"strings"

	"github.com/jaiph-go/jaiph/internal/observe/otlp"
	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// ExportRun sends the trace of the run at dir from its summary
// (`jaiph report --otlp RUN_DIR`), marked with the verdict on its files
// (resource attribute jaiph.integrity). A tampered run is refused unless
// force; an unverifiable one (no key: an older run) is sent, marked.
func ExportRun(ctx context.Context, dir string, environ []string, force bool) error {
	keys, _ := chain.StoreDir(func(k string) string {
		v := ""
		for _, kv := range environ { // the last one wins, as in a process's environment
			if name, value, ok := strings.Cut(kv, "="); ok && name == k {
				v = value
			}
		}
		return v
	})
	r := runs.Verify(dir, chain.Store{Dir: keys})
	if r.Status == chain.Tampered && !force {
		return fmt.Errorf("run %s is %s (--force sends it anyway, marked jaiph.integrity=tampered)", dir, r)
	}
	return otlp.ExportRunDirMarked(ctx, dir, environ, string(r.Status))
}
