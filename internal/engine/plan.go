package engine

// This file answers: where does a program run, in the Docker sandbox or in
// this process? The answer is a value (Run) that only Plan and InProcess
// make, and only a Run executes: a caller cannot skip the decision and run
// a workflow that asks for the sandbox on the host.

import (
	"context"
	"errors"

	"github.com/jaiph-go/jaiph/internal/sandbox"
)

// Run is a program placed: in the sandbox its settings ask for, or in this
// process.
type Run struct {
	*Program
	box sandbox.Box // nil: in this process
}

var errSandboxPrepare = errors.New("E_DOCKER_UNSUPPORTED this run goes into the Docker sandbox; it has no runtime on the host")

// Plan decides where the program runs for a run with environ (its
// settings over the process's, JAIPH_DOCKER_* and runtime.docker_* of the
// entry's config). When the run asks for the Docker sandbox it readies the
// sandbox, and refuses the run when it cannot (E_DOCKER_*): a sandbox that
// was asked for never becomes a run on the host. It runs nothing of the
// program, so it comes before the module locals are evaluated.
func (p *Program) Plan(ctx context.Context, environ []string) (*Run, error) {
	box, err := openSandbox(ctx, p, environ)
	if err != nil {
		return nil, err
	}
	return &Run{Program: p, box: box}, nil
}

// InProcess places the program in this process without asking its
// settings, for a caller that has decided already: the jaiph inside the
// sandbox (ServeSandbox), a worker whose --sandbox flag decides for its
// deliveries (internal/broker), a test.
func (p *Program) InProcess() *Run { return &Run{Program: p} }
