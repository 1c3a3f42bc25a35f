package runs

import (
	"errors"
	"os"
	"path/filepath"
)

// Prune removes the records (RecordsDir) of the workspace's runs whose run
// directory no longer exists, and their keys in the key store getenv names
// (chain.StoreDir), and returns how many it removed. Records without a
// run_dir in run.json (an older jaiph-go's) are left alone: their run
// directory cannot be told.
func Prune(workspace string, getenv func(string) string) (int, error) {
	store := keyStore(getenv)
	dirs, err := filepath.Glob(filepath.Join(workspace, ".jaiph", "state", "runs", "*"))
	if err != nil {
		return 0, err
	}
	n := 0
	for _, records := range dirs {
		var m Meta
		if !readJSON(filepath.Join(records, MetaFile), &m) || m.RunDir == "" {
			continue
		}
		if _, err := os.Stat(m.RunDir); !errors.Is(err, os.ErrNotExist) {
			continue
		}
		RemoveTmp(records)
		if err := os.RemoveAll(records); err != nil {
			return n, err
		}
		if m.RunID != "" {
			_ = store.Remove(m.RunID)
		}
		n++
	}
	return n, nil
}
