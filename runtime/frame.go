package runtime

import (
	"context"
	"io"
	"sync"
	"sync/atomic"

	"github.com/jaiph-go/jaiph/lowered"
)

// This file answers: what does a running managed call know about itself
// (frame), and what did its caller ask for (callSpec)?

// frame is the state of one executing managed call, carried in the context
// of its interpreter runner so builtins know who is calling.
type frame struct {
	rt        *Runtime
	body      *lowered.Body // nil for the virtual caller of the root step
	id        string
	jid       string    // the call's identity in the journal (journal.go)
	stackLen  int       // open steps including this one
	out       *artifact // the step's own .out artifact
	errOut    *artifact // and its .err artifact
	rvPath    string    // JAIPH_RETURN_VALUE_FILE of this call
	noErrExit bool
	// readOnly is set for rules and everything they call (readonly.go);
	// test mocks of rules run unrestricted, like the reference's mock
	// scripts.
	readOnly bool
	// retValue is the value return, when retSet (the script may also write
	// JAIPH_RETURN_VALUE_FILE itself; that file is the fallback).
	retMu    sync.Mutex
	retValue string
	retSet   bool
	// inbox is the nearest orchestrator's queue (nil outside any);
	// ownsInbox marks the orchestrator itself.
	inbox     *inbox
	ownsInbox bool

	// env is the environment of the run, set only on the virtual root caller.
	env mapEnviron

	caller *frame
	// callees counts the calls made by this one whose bodies' jobs still
	// run: what they print may go to this call's artifacts (a forwarded
	// stdout), so those stay open until the jobs end (runBody).
	callees pendingCount

	// occ counts this call's calls per (callee, arguments), for their
	// journal identities.
	occMu sync.Mutex
	occ   map[uint64]uint32
	// divergedHere: a call this one made ran live on resume where the
	// journal had no success, so its later calls run live (journal.go);
	// delivery marks the delivery of a message, where that stops.
	divergedHere atomic.Bool
	delivery     bool
	// inflight counts the managed calls this one is making now
	// (run.step_idle_kill watches only a call that makes none).
	inflight atomic.Int32
}

// pendingCount is a WaitGroup that can also tell whether it is zero.
type pendingCount struct {
	wg sync.WaitGroup
	n  atomic.Int64
}

func (c *pendingCount) add() { c.n.Add(1); c.wg.Add(1) }

func (c *pendingCount) done() { c.n.Add(-1); c.wg.Done() }

func (c *pendingCount) wait() { c.wg.Wait() }

func (c *pendingCount) busy() bool { return c.n.Load() > 0 }

type frameKey struct{}

func (f *frame) setReturn(v string) {
	f.retMu.Lock()
	f.retValue, f.retSet = v, true
	f.retMu.Unlock()
}

func (f *frame) returned() (string, bool) {
	f.retMu.Lock()
	defer f.retMu.Unlock()
	return f.retValue, f.retSet
}

func frameOf(ctx context.Context) *frame {
	f, _ := ctx.Value(frameKey{}).(*frame)
	return f
}

// callSpec describes one managed call from the caller's side.
type callSpec struct {
	body      *lowered.Body
	args      []string
	stdin     io.Reader
	stdout    io.Writer // the statement's stdout in the caller
	stderr    io.Writer
	env       mapEnviron // caller's variables
	ownEnv    bool       // env is a fresh copy the callee may keep
	dir       string
	capture   bool // x = run …: never forward stdout
	noErrExit bool
	// forward is set when the caller redirected the statement's stdout.
	forward bool
	// setEnv are exported into the callee's environment (dispatch).
	setEnv [][2]string
	// replayed, when set, is set to whether the call was replayed from
	// the journal (resume) instead of run.
	replayed *bool
}

type callFlags struct {
	capture bool
	always  bool // print the captured value even when the call failed
}
