package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/jaiph-go/jaiph/internal/engine"
)

// Load compiles an entry file; Plan places it (here: in this process, as
// the file does not ask for the sandbox); Prepare evaluates its
// environment and module locals and returns a runtime whose Run calls the
// default workflow.
func Example() {
	dir, _ := os.MkdirTemp("", "engine-example")
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "hello.jh")
	_ = os.WriteFile(file, []byte("local greeting = \"hello\"\n\nworkflow default {\n  echo \"$greeting $1\" > out.txt\n}\n"), 0o644)

	prog, err := engine.Load(file)
	if err != nil {
		fmt.Println("compile error:", err)
		return
	}
	ctx := context.Background()
	run, err := prog.Plan(ctx, os.Environ())
	if err != nil {
		fmt.Println(err)
		return
	}
	rt, _, err := run.Prepare(ctx, engine.RunOptions{Environ: os.Environ(), Args: []string{"world"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rt.Close()
	status, _ := rt.Run(ctx, []string{"world"})
	out, _ := os.ReadFile(filepath.Join(prog.Workspace, "out.txt"))
	fmt.Printf("status %d, out.txt: %s", status, out)
	// Output: status 0, out.txt: hello world
}

// A compile problem comes back as the first diagnostic, located in the file.
func ExampleLoad_diagnostic() {
	dir, _ := os.MkdirTemp("", "engine-example")
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "broken.jh")
	_ = os.WriteFile(file, []byte("workflow default {\n  run missing\n}\n"), 0o644)
	_, err := engine.Load(file)
	fmt.Println(filepath.Base(err.Error()))
	// Output: broken.jh:2:3 E_VALIDATE unknown local workflow or function reference "missing"
}
