package benchdata

import (
	"fmt"
	"os"
	"path/filepath"
)

// Workloads are the flows of docs/performance.md's goals, by file name
// (cmd/jaiph/bench_test.go times the same flows).
var Workloads = map[string]string{
	"trivial.jh": "workflow default {\n  echo hi\n}\n",
	"steps.jh": `workflow step {
  :
}

workflow default {
  i=0
  while [ "$i" -lt 100 ]; do
    run step
    i=$((i + 1))
  done
}
`,
	"inbox100.jh": InboxFlow(100),
}

// InboxFlow sends n messages through one route to a trivial target.
func InboxFlow(n int) string { return inboxFlow(n, `"message $i"`) }

// InboxSecretFlow is InboxFlow with $BENCH_API_TOKEN, a credential when
// the run's environment sets it, in every message: each message file is
// masked and its payload kept among the run's records
// (docs/inbox-files.md "Credentials").
func InboxSecretFlow(n int) string { return inboxFlow(n, `"message $i $BENCH_API_TOKEN"`) }

func inboxFlow(n int, payload string) string {
	return fmt.Sprintf(`channel work

workflow target {
  :
}

workflow default {
  work -> target
  i=0
  while [ "$i" -lt %d ]; do
    work <- echo %s
    i=$((i + 1))
  done
}
`, n, payload)
}

// WriteWorkspace writes a workspace of the workloads into dir: .jaiph,
// each of Workloads, inbox10000.jh (inbox100.jh with 10,000 messages),
// inbox100-secret.jh and inbox10000-secret.jh (InboxSecretFlow) and big.jh
// (Module).
func WriteWorkspace(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, ".jaiph"), 0o755); err != nil {
		return err
	}
	files := map[string]string{"big.jh": Module(),
		"inbox10000.jh": InboxFlow(10000), "inbox100-secret.jh": InboxSecretFlow(100),
		"inbox10000-secret.jh": InboxSecretFlow(10000)}
	for name, src := range Workloads {
		files[name] = src
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			return err
		}
	}
	return nil
}
