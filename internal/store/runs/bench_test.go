package runs

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkRecords is what one run adds for its records: lock, hash one
// module, write .run.json, write .run.end, unlock (docs/performance.md).
func BenchmarkRecords(b *testing.B) {
	root := b.TempDir()
	src := filepath.Join(root, "flow.jh")
	must(b, os.WriteFile(src, []byte("workflow default {\n  echo hi\n}\n"), 0o644))
	env := append(os.Environ(), "JAIPH_AGENT_MODEL=m", "JAIPH_DEBUG=false")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dir := filepath.Join(root, fmt.Sprint(i))
		must(b, os.Mkdir(dir, 0o755))
		lock, err := Lock(dir)
		must(b, err)
		mods, err := HashModules([]string{src})
		must(b, err)
		must(b, WriteMeta(RecordsDir(dir), &Meta{Version: MetaVersion, Entry: src, Args: []string{}, Start: time.Now(),
			Settings: Settings(env), Modules: mods}))
		must(b, WriteEnd(RecordsDir(dir), &End{Status: Passed, End: time.Now()}))
		lock.Close()
	}
}
