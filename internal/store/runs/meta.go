package runs

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/internal/atomicfile"
	"github.com/jaiph-go/jaiph/internal/redact"
)

// MetaVersion is Meta's format version; readers refuse other versions.
const MetaVersion = 1

// Meta is what a run was started with (run.json). Field names are stable.
type Meta struct {
	Version int    `json:"version"`
	RunID   string `json:"run_id"`
	Entry   string `json:"entry"` // absolute path of the entry file
	// RunDir is the run directory's real path, so records whose run
	// directory is gone can be found (Prune).
	RunDir string   `json:"run_dir,omitempty"`
	Source string   `json:"source"` // JAIPH_SOURCE_FILE
	Args   []string `json:"args"`
	// ArgsRedacted: a credential in the arguments was masked in Args
	// (docs/security.md), so a resume cannot pass them again.
	ArgsRedacted bool      `json:"args_redacted,omitempty"`
	Workspace    string    `json:"workspace"`
	Start        time.Time `json:"start"`
	PID          int       `json:"pid"`
	// Settings are the caller's JAIPH_* environment variables (sorted by
	// key); a value whose key looks secret is replaced by its sha256
	// ("sha256:<hex>"), so it can be compared but is never stored.
	Settings []Setting `json:"settings"`
	// Modules are every loaded module's absolute path and the sha256 of
	// its source.
	Modules []Module `json:"modules"`
	// Workflow is the root workflow when it is not default (a jaiph mcp
	// tool call); such a run is not resumable.
	Workflow string `json:"workflow,omitempty"`
}

// Setting is one environment variable a run was started with.
type Setting struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Module is one loaded module's source identity.
type Module struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// End is how a run ended (run.end). Status is "passed", "failed" or
// "interrupted"; Signal names the signal of an interrupted run.
type End struct {
	Status   string    `json:"status"`
	ExitCode int       `json:"exit_code"`
	Signal   string    `json:"signal,omitempty"`
	End      time.Time `json:"end"`
	// Redriven is when `jaiph redrive` last delivered dead letters of the
	// run. The run's status stays as it ended: the workflow that
	// orchestrated the letters had already failed.
	Redriven *time.Time `json:"redriven,omitempty"`
}

// Settings picks the JAIPH_* variables of a KEY=VALUE environment (last
// one wins), with secret-looking values hashed. The rest of the
// environment (API keys, PATH, …) is not recorded.
func Settings(environ []string) []Setting {
	m := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "JAIPH_") {
			m[k] = v
		}
	}
	out := make([]Setting, 0, len(m))
	for k, v := range m {
		if redact.SecretName(k) {
			v = "sha256:" + Hash([]byte(v))
		}
		if k == "JAIPH_INBOX_URL" {
			v = withoutCredentials(v)
		}
		out = append(out, Setting{k, v})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Hash is the hex sha256 of data.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// HashModules reads each module's source and hashes it.
func HashModules(paths []string) ([]Module, error) {
	out := make([]Module, 0, len(paths))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		out = append(out, Module{p, Hash(data)})
	}
	return out, nil
}

// WriteMeta starts the records of a new run in records (its RecordsDir)
// with its run.json, written atomically. Records are keyed by the run
// directory's path, so any left there by a deleted run directory of the
// same name go first: a fresh run must never find an old journal to
// replay.
func WriteMeta(records string, m *Meta) error {
	if err := os.RemoveAll(records); err != nil {
		return err
	}
	if err := os.MkdirAll(records, 0o755); err != nil {
		return err
	}
	return writeJSON(filepath.Join(records, MetaFile), m)
}

// TakeOver records pid in run.json as the process that now holds the run
// (a resume or a redrive, which took its lock), so that jaiph runs and
// jaiph report show it running while that process lives; the rest of m
// is kept as read.
func TakeOver(records string, m *Meta, pid int) error {
	m.PID = pid
	return writeJSON(filepath.Join(records, MetaFile), m)
}

// WriteEnd writes the run.end record into records (the run's RecordsDir)
// atomically.
func WriteEnd(records string, e *End) error { return writeJSON(filepath.Join(records, EndFile), e) }

// MarkRedriven records in run.end that a redrive ran at t. A run without
// run.end (an older jaiph's) gets none.
func MarkRedriven(records string, t time.Time) error {
	var e End
	if !readJSON(filepath.Join(records, EndFile), &e) {
		return nil
	}
	t = t.UTC()
	e.Redriven = &t
	return WriteEnd(records, &e)
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return atomicfile.Write(path, append(data, '\n'), 0o644)
}

// Root is where the runs of workspace go (docs/run-directory.md#where-runs-go): runsDir
// (JAIPH_RUNS_DIR), absolute or relative to the workspace, else
// <workspace>/.jaiph/runs.
func Root(workspace, runsDir string) string {
	switch {
	case runsDir == "":
		return filepath.Join(workspace, ".jaiph", "runs")
	case !filepath.IsAbs(runsDir):
		return filepath.Join(workspace, runsDir)
	}
	return runsDir
}

// withoutCredentials drops the user and password of a broker URL (or of
// each of a comma-separated list), which must not be written to disk; a
// resume takes the URL from its own environment when it has one.
func withoutCredentials(urls string) string {
	parts := strings.Split(urls, ",")
	for i, u := range parts {
		if at := strings.LastIndex(u, "@"); at >= 0 {
			if s := strings.Index(u, "://"); s >= 0 && s < at {
				parts[i] = u[:s+3] + u[at+1:]
			}
		}
	}
	return strings.Join(parts, ",")
}
