// Command benchws writes the benchmark workloads' workspace into a
// directory, to measure them by hand (docs/performance.md):
//
//	go run ./internal/benchdata/benchws .bench/ws
package main

import (
	"fmt"
	"os"

	"github.com/jaiph-go/jaiph/internal/benchdata"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: benchws DIR")
		os.Exit(2)
	}
	if err := benchdata.WriteWorkspace(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "benchws:", err)
		os.Exit(1)
	}
}
