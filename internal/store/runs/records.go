package runs

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"

	"github.com/jaiph-go/jaiph/internal/store/chain"
)

// A run's records live outside its run directory, so that the run
// directory holds exactly what the reference writes there (its listing is
// part of the observable behaviour the conformance corpus compares). The
// live process holds an flock on the run directory itself (Lock), which
// creates no file.
const (
	MetaFile    = "run.json" // Meta, written atomically before the first step
	EndFile     = "run.end"  // End, written atomically when the run ends
	JournalFile = "journal"  // the call journal (runtime/journal.go; `jaiph resume` replays from it)
	SummaryFile = "run_summary.jsonl"
	// SummaryMACFile and JournalMACFile hold the MACs of the summary's and
	// the journal's lines (internal/store/chain), among the records so
	// that the run directory keeps the reference's listing.
	SummaryMACFile = "summary.mac"
	JournalMACFile = "journal.mac"
	// The real payloads of the messages whose files in the run
	// directory's inbox hold them masked are in inbox.PayloadsFile, also
	// among the records (internal/store/inbox writes and reads it).

	// TmpFile is the run's temporary directory (return values, rules'
	// TMPDIR), which a process killed by SIGKILL cannot remove: resume,
	// redrive and Prune remove it (RemoveTmp). Runs before 2026-11-27
	// kept it under $TMPDIR and named it in a file of this name.
	TmpFile = "tmp"
)

// RemoveTmp removes the run's temporary directory: records' TmpFile, or
// the directory an older run's TmpFile names if it is one of jaiph's (an
// absolute jaiph-rv-* path).
func RemoveTmp(records string) {
	p := filepath.Join(records, TmpFile)
	if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
		os.RemoveAll(p)
		return
	}
	data, err := os.ReadFile(p)
	if dir := string(data); err == nil && filepath.IsAbs(dir) && strings.HasPrefix(filepath.Base(dir), "jaiph-rv-") {
		os.RemoveAll(dir)
	}
}

// Chained names the files of the run at runDir that its chain covers:
// its summary, its journal and their MACs.
func Chained(runDir string) chain.Files {
	records := RecordsDir(runDir)
	return chain.Files{Summary: filepath.Join(runDir, SummaryFile), SummaryMAC: filepath.Join(records, SummaryMACFile),
		Journal: filepath.Join(records, JournalFile), JournalMAC: filepath.Join(records, JournalMACFile)}
}

// Record is the path of the record name of the run at runDir: in
// RecordsDir(runDir).
func Record(runDir, name string) string { return filepath.Join(RecordsDir(runDir), name) }

// RecordsDir is where the records of the run at runDir live:
// <workspace>/.jaiph/state/runs/<key>-<run dir name>, where the workspace
// is the one holding the run directory (WorkspaceRoot) and key is a hash of
// the run directory's real path, so the writer and every later reader
// agree on it from the run directory alone. A run directory in no
// workspace (an absolute JAIPH_RUNS_DIR outside any) keeps its records in
// a .jaiph directory beside it, in its parent: never higher up, where a
// .jaiph would make a workspace of everything below.
func RecordsDir(runDir string) string {
	abs, err := filepath.Abs(runDir)
	if err == nil {
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
	}
	base, found := workspaceOf(filepath.Dir(abs))
	if !found {
		base = filepath.Dir(abs)
	}
	sum := sha256.Sum256([]byte(abs))
	return filepath.Join(base, ".jaiph", "state", "runs", hex.EncodeToString(sum[:8])+"-"+filepath.Base(abs))
}

// WorkspaceRoot is the workspace of dir (docs/run-directory.md#where-runs-go): the nearest
// directory from dir upwards that holds .jaiph or .git, else dir itself.
func WorkspaceRoot(dir string) string {
	if ws, found := workspaceOf(dir); found {
		return ws
	}
	return dir
}

func workspaceOf(dir string) (string, bool) {
	for d := dir; ; {
		for _, marker := range []string{".jaiph", ".git"} {
			if _, err := os.Stat(filepath.Join(d, marker)); err == nil {
				return d, true
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}
