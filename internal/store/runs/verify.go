package runs

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/jaiph-go/jaiph/internal/store/chain"
)

// Verify tells whether the summary and the journal of the run at dir are
// what the run wrote (internal/store/chain), against the keys in store. A
// run without a readable run.json (from the reference, jaiph test, an
// older jaiph-go, or one whose run.json was removed) is unverifiable.
func Verify(dir string, store chain.Store) chain.Result {
	m, err := ReadMeta(dir)
	if err != nil {
		return chain.Result{Status: chain.Unverifiable, Cause: chain.NoRecords, Reason: "no run record (run.json) names its key"}
	}
	files := Chained(dir)
	files.Live = Locked(dir) // its process appends to them while they are read
	return chain.Verify(store, m.RunID, files)
}

// keyStore is the key store getenv names (none without HOME).
func keyStore(getenv func(string) string) chain.Store {
	dir, _ := chain.StoreDir(getenv)
	return chain.Store{Dir: dir}
}

// VerifyHelp is `jaiph verify`'s help text.
const VerifyHelp = `Check that RUN_DIR's run_summary.jsonl and journal are what the run wrote: each line
is chained with an HMAC under the run's own key, kept outside the workspace in the key
store ($JAIPH_KEY_DIR, else $XDG_STATE_HOME/jaiph/keys, else ~/.local/state/jaiph/keys),
and a run that ended is sealed there with its final line counts (docs/security.md).
Prints the verdict: sealed, unsealed (killed or still running: every line present
verifies), tampered (the file and first bad line) or unverifiable (no key, e.g. a run
from before this check). Exit 0 when sealed or unsealed, 1 otherwise.`

// PrintVerify prints the verdict on the run at dir (Verify against the key
// store getenv names) to w, as one line or one JSON document, and tells
// whether the run's files verify. The error: dir is not a run.
func PrintVerify(w io.Writer, dir string, getenv func(string) string, asJSON bool) (bool, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return false, err
	}
	if _, ok := Read(abs, time.Now()); !ok {
		return false, fmt.Errorf("%s is not a run directory (no run.json and no run_summary.jsonl)", dir)
	}
	r := Verify(abs, keyStore(getenv))
	if !asJSON {
		_, err = fmt.Fprintln(w, r)
		return r.Trusted(), err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return r.Trusted(), enc.Encode(struct {
		Dir string `json:"run_dir"`
		chain.Result
	}{abs, r})
}
