package runs

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/internal/redact"
)

// ReadMeta reads the run.json record of the run at dir.
func ReadMeta(dir string) (*Meta, error) {
	var m Meta
	data, err := os.ReadFile(Record(dir, MetaFile))
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	if err != nil || m.Version != MetaVersion {
		return nil, fmt.Errorf("%s has no readable run record (not a jaiph run, or one from an older jaiph)", dir)
	}
	return &m, nil
}

// Changed lists the recorded modules whose source is no longer the one the
// run compiled (or is gone).
func (m *Meta) Changed() []string {
	var changed []string
	for _, mod := range m.Modules {
		data, err := os.ReadFile(mod.Path)
		if err != nil || Hash(data) != mod.SHA256 {
			changed = append(changed, mod.Path)
		}
	}
	return changed
}

// Resumable checks that `jaiph resume` may continue the run in dir: it is
// not live, it did not pass, and (unless force) no module's source changed
// since it started. It returns the run's metadata.
func Resumable(dir string, force bool) (*Meta, error) {
	m, err := ReadMeta(dir)
	if err != nil {
		return nil, err
	}
	r, _ := Read(dir, time.Now())
	switch {
	case Locked(dir) || r.Status == Running:
		return nil, fmt.Errorf("run %s is still running", dir)
	case r.Status == Passed:
		return nil, fmt.Errorf("run %s passed: nothing to resume", dir)
	case m.Workflow != "": // resume calls default
		return nil, fmt.Errorf("run %s is a jaiph mcp call of workflow %s: call the tool again", dir, m.Workflow)
	case m.ArgsRedacted: // --force cannot bring them back
		return nil, fmt.Errorf("run %s was started with a credential in its arguments, which its records do not keep (docs/security.md): start it again with jaiph run", dir)
	}
	if force {
		return m, nil
	}
	if changed := m.Changed(); len(changed) > 0 {
		return nil, fmt.Errorf("source changed since run %s: %s (--force resumes anyway)", dir, strings.Join(changed, ", "))
	}
	return m, nil
}

// NewestResumable is the newest interrupted or failed run under root.
func NewestResumable(root string) (string, error) {
	list, err := List(root, time.Now())
	if err != nil {
		return "", err
	}
	for _, r := range list {
		if r.Status == Interrupted || r.Status == Failed {
			return r.Dir, nil
		}
	}
	return "", fmt.Errorf("no interrupted or failed run under %s", root)
}

// Environ is environ with the JAIPH_* settings of m instead of its own;
// a secret recorded as a hash is taken from environ.
func (m *Meta) Environ(environ []string) []string {
	secret := map[string]bool{}
	var out []string
	for _, s := range m.Settings {
		if strings.HasPrefix(s.Value, "sha256:") && redact.SecretName(s.Key) {
			secret[s.Key] = true
			continue
		}
	}
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if k == "JAIPH_INBOX_URL" { // the operator's broker URL, credentials included, wins
			secret[k] = true
		}
		if !strings.HasPrefix(k, "JAIPH_") || secret[k] {
			out = append(out, kv)
		}
	}
	for _, s := range m.Settings {
		if !secret[s.Key] {
			out = append(out, s.Key+"="+s.Value)
		}
	}
	return out
}
