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
func InboxFlow(n int) string {
	return fmt.Sprintf(`channel work

workflow target {
  :
}

workflow default {
  work -> target
  i=0
  while [ "$i" -lt %d ]; do
    work <- echo "message $i"
    i=$((i + 1))
  done
}
`, n)
}

// WriteWorkspace writes a workspace of the workloads into dir: .jaiph,
// each of Workloads, inbox10000.jh (inbox100.jh with 10,000 messages) and
// big.jh (Module).
func WriteWorkspace(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, ".jaiph"), 0o755); err != nil {
		return err
	}
	files := map[string]string{"big.jh": Module(),
		"inbox10000.jh": InboxFlow(10000)}
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
