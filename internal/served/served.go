package served

import (
	"context"
	"errors"
	"io"
	"time"
)

// Statuses of a served run.
const (
	StatusQueued      = "queued" // on a broker: no worker has it yet
	StatusRunning     = "running"
	StatusSucceeded   = "succeeded"
	StatusFailed      = "failed"
	StatusCancelled   = "cancelled"
	StatusInterrupted = "interrupted" // its process stopped, and nothing continues it
)

// Terminal tells whether a status is final.
func Terminal(status string) bool {
	return status != StatusQueued && status != StatusRunning && status != ""
}

// Run is a served run's public object (GET /v1/runs/{id}).
type Run struct {
	RunID         string     `json:"run_id"`
	Workflow      string     `json:"workflow"`
	Status        string     `json:"status"`
	StartedAt     time.Time  `json:"started_at"`
	EndedAt       *time.Time `json:"ended_at"`
	ExitStatus    *int       `json:"exit_status"`
	Signal        string     `json:"signal,omitempty"`
	ResultText    string     `json:"result_text"`
	Output        string     `json:"output,omitempty"` // the workflow's stdout (at most 100 KB), credentials masked
	RunDir        string     `json:"run_dir,omitempty"`
	Principal     string     `json:"principal"`
	CorrelationID string     `json:"correlation_id"`
	// Integrity is the verdict on the run's summary and journal when it
	// ended (jaiph verify), on the machine that ran it.
	Integrity string `json:"integrity,omitempty"`
	// Worker names the process running the run (on a broker).
	Worker string `json:"worker,omitempty"`
	// Attempt counts the processes that took the run (on a broker, more
	// than one when a worker died and another continued it).
	Attempt int `json:"attempt,omitempty"`
	// Waiting is the receive the run waits in, nil when none.
	Waiting *Waiting `json:"waiting,omitempty"`
}

// Waiting is a run's receive step waiting for a message.
type Waiting struct {
	Channel   string     `json:"channel"`
	Key       string     `json:"key,omitempty"`
	Since     time.Time  `json:"since"`
	TimeoutAt *time.Time `json:"timeout_at,omitempty"`
}

// Start is a request for a run.
type Start struct {
	Workflow       string   // the served name
	Args           []string // $1, $2, …
	Principal      string
	CorrelationID  string
	IdempotencyKey string // "" none; scoped to Principal and Workflow
}

// Errors of a Backend.
var (
	ErrNotFound = errors.New("no such run")
	ErrConflict = errors.New("this Idempotency-Key started a run with other arguments")
	ErrTooMany  = errors.New("too many runs")
	ErrTampered = errors.New("the run's records do not verify")
	// ErrNotReceiving: the run does not receive on the channel (or has
	// not started its first step yet).
	ErrNotReceiving = errors.New("the run does not receive on this channel")
	ErrTerminal     = errors.New("the run has ended")
	ErrUnsupported  = errors.New("not supported by this backend yet")
)

// Artifact is one file a run published.
type Artifact struct {
	Path  string    `json:"path"`
	Size  int64     `json:"size"`
	MTime time.Time `json:"mtime"`
}

// File is an open artifact.
type File interface {
	io.ReadSeekCloser
	Size() int64
	ModTime() time.Time
}

// Backend keeps a service's runs.
type Backend interface {
	// Start admits and starts a run; fresh is false when the request's
	// idempotency key names an earlier run, which it returns (and starts
	// nothing). ErrConflict: the key with other arguments; ErrTooMany: at
	// the cap.
	Start(ctx context.Context, s Start) (r Run, fresh bool, err error)
	// Get is one run (ErrNotFound).
	Get(ctx context.Context, id string) (Run, error)
	// List is a page of runs, newest first, of principal (every
	// principal's when all), and how many there are.
	List(ctx context.Context, principal string, all bool, limit, offset int) ([]Run, int, error)
	// Cancel asks the run to stop as `kill` would; it returns at once.
	Cancel(ctx context.Context, id string) error
	// Follow opens the run's events: the lines of its summary in order,
	// and a signal at each change of the run (a new line, a new status).
	Follow(ctx context.Context, id string) (Follower, error)
	// Changed returns a channel closed at the run's next change (its
	// status, or a new event) after this call: take it before looking;
	// stop when no longer waiting.
	Changed(ctx context.Context, id string) (ch <-chan struct{}, stop func(), err error)
	// Signal puts a message on a channel the run receives on
	// (ErrNotReceiving, ErrTerminal; ErrUnsupported where the backend
	// cannot yet).
	Signal(ctx context.Context, id, channel, key, payload string) error
	// Waiting lists the runs that wait in a receive on channel for a
	// message with key (of every principal).
	Waiting(ctx context.Context, channel, key string) ([]Run, error)
	// Verify checks the run's records before its events are served
	// whole (ErrTampered).
	Verify(ctx context.Context, id string) error
	// Artifacts lists the files the run published; Open opens one (a
	// path that leaves the run's artifacts is ErrNotFound).
	Artifacts(ctx context.Context, id string) ([]Artifact, error)
	Open(ctx context.Context, id, path string) (File, error)
	// Close stops the backend: runs of this process are interrupted and
	// recorded (waiting up to the context's end).
	Close(ctx context.Context)
}

// Follower reads a run's event lines as they come.
type Follower interface {
	// Next returns the complete lines written since the last call.
	Next(ctx context.Context) ([][]byte, error)
	// Changed returns a channel closed at the run's next change after
	// this call: take it before looking, then wait on it.
	Changed() <-chan struct{}
	Close()
}

// Wait returns the run once it is terminal, or ctx's error.
func Wait(ctx context.Context, b Backend, id string) (Run, error) {
	for {
		changed, stop, err := b.Changed(ctx, id)
		if err != nil {
			return Run{}, err
		}
		r, err := b.Get(ctx, id)
		if err != nil || Terminal(r.Status) {
			stop()
			return r, err
		}
		select {
		case <-changed:
		case <-ctx.Done():
			stop()
			return r, ctx.Err()
		}
	}
}

// Workflow is one served workflow, as a backend that runs it elsewhere
// needs it.
type Workflow struct {
	Name     string // the served name
	Workflow string // the workflow in File
	File     string // the .jh file, absolute
}

// BrokerOptions are what `jaiph serve --inbox URL` asks of a broker
// backend.
type BrokerOptions struct {
	URL      string
	Replicas int
	// Execute: this process also takes runs (and deliveries) as a worker.
	Execute bool
	// Lease is how long a run's worker may go silent before another
	// continues the run (0: the backend's default).
	Lease   time.Duration
	Environ []string // the runs' environment (Execute)
	Dir     string   // the runs' working directory (Execute)
	Log     io.Writer
}

// BrokerFactory makes a broker backend (internal/broker registers one in
// the full build).
type BrokerFactory func(ctx context.Context, o BrokerOptions, workflows []Workflow) (Backend, error)

var brokerFactory BrokerFactory

// RegisterBroker installs the broker backend.
func RegisterBroker(f BrokerFactory) { brokerFactory = f }

// Broker is the installed broker backend's factory, nil in a build
// without one.
func Broker() BrokerFactory { return brokerFactory }
