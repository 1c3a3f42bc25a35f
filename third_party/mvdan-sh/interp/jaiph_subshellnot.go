package interp

import "github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"

// isPipeline says cmd is a pipeline of more than one command (jaiph-go
// patch): bash runs its elements in children of their own, so an error in
// one does not end the subshell holding the pipeline.
func isPipeline(cmd syntax.Command) bool {
	b, ok := cmd.(*syntax.BinaryCmd)
	return ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll)
}
