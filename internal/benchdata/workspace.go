package benchdata

import (
	"os"
	"path/filepath"
	"strings"
)

// Workloads are the flows of docs/performance.md's goals, by file name
// (cmd/jaiph/bench_test.go has the same flows as time benchmarks).
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
	"inbox100.jh": `channel work

workflow target {
  :
}

workflow default {
  work -> target
  i=0
  while [ "$i" -lt 100 ]; do
    work <- echo "message $i"
    i=$((i + 1))
  done
}
`,
}

// WriteWorkspace writes a workspace of the workloads into dir: .jaiph,
// each of Workloads, inbox10000.jh (inbox100.jh with 10,000 messages) and
// big.jh (Module).
func WriteWorkspace(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, ".jaiph"), 0o755); err != nil {
		return err
	}
	files := map[string]string{"big.jh": Module(),
		"inbox10000.jh": strings.Replace(Workloads["inbox100.jh"], `-lt 100 ]`, `-lt 10000 ]`, 1)}
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
