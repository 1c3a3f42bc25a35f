package broker

// This file answers: what lives on the broker, under which names?
//
//   stream JAIPH_WORK (work queue, jaiph.work.<run>)   one message per delivery; one durable
//                                                      consumer "workers" that every worker pulls from
//   KV     JAIPH_<run>                                 the run's delivery ledger (d.<NNN>.<i>) and
//                                                      its state record (run)
//   stream JAIPH_EV_<run> (jaiph.ev.<run>.>)           events and artifacts of remote steps
//   object store JAIPH_SRC                             the runs' sources, by content hash

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

const (
	// deadStream keeps the work messages no worker could read (malformed,
	// or of a run whose ledger is gone), with the reason in a header.
	deadStream  = "JAIPH_DLQ"
	deadPrefix  = "jaiph.dlq."
	workStream  = "JAIPH_WORK"
	workPrefix  = "jaiph.work."
	workersName = "workers"
	sourceStore = "JAIPH_SRC"
)

func ledgerName(run string) string  { return "JAIPH_" + run }
func eventStream(run string) string { return "JAIPH_EV_" + run }
func eventSubject(run, key string) string {
	return "jaiph.ev." + run + "." + strings.ReplaceAll(key, ".", "_")
}

// deliveryKey names one delivery in the ledger: message NNN to the route's
// i-th target.
func deliveryKey(seq string, i int) string { return fmt.Sprintf("d.%s.%d", seq, i) }

// delivery is the work message: everything a worker needs to run one
// target, the payload included (it travels as data, never as code).
type delivery struct {
	Run          string `json:"run"`
	Key          string `json:"key"`
	Seq          string `json:"seq"`
	Channel      string `json:"channel"` // the channel symbol
	Sender       string `json:"sender"`
	Target       string `json:"target"`
	Orchestrator string `json:"orchestrator"`
	Payload      string `json:"payload"`
	Sources      string `json:"sources"` // the content hash of the run's sources (JAIPH_SRC)
	Entry        string `json:"entry"`   // the entry file, relative to the sources' root
	Version      string `json:"version"` // the jaiph-go that published it
	Retries      int    `json:"retries"`
	BackoffMS    int64  `json:"backoff_ms"`
}

// Ledger states of a delivery.
const (
	stQueued  = "queued"
	stClaimed = "claimed"
	stDone    = "done"
	stFailed  = "failed" // the last attempt failed without run.inbox_retries: the drain stops
	stDead    = "dead"   // a dead letter: every attempt failed, or its workers kept dying
)

// record is a delivery's ledger value.
type record struct {
	State    string `json:"s"`
	Target   string `json:"t"`
	Worker   string `json:"w,omitempty"`
	Claims   int    `json:"n,omitempty"` // claims so far (attempts started)
	Failures int    `json:"f,omitempty"` // attempts that ended with a failure
	Status   *int   `json:"st,omitempty"`
	Why      string `json:"why,omitempty"`
	// Sends are the messages the target sent; stored with the result,
	// so they exist exactly when the delivery completed, once.
	Sends []sent `json:"sends,omitempty"`
	// Events is the sequence of the attempt's last event on the event
	// stream: the orchestrator shows the result after that event.
	Events uint64 `json:"ev,omitempty"`
	// Numbers are the message numbers the orchestrator gave Sends,
	// recorded before it queued them, so a resumed orchestrator queues
	// the same messages again, not new ones.
	Numbers []string `json:"nums,omitempty"`
	// Epoch counts the times a resumed run queued a failed delivery
	// again; Claims and Failures count within an epoch.
	Epoch int   `json:"ep,omitempty"`
	Beat  int64 `json:"hb,omitempty"` // last heartbeat, unix ms
}

func (r *record) terminal() bool {
	return r.State == stDone || r.State == stFailed || r.State == stDead
}

// sent is a message a delivered target sent.
type sent struct {
	Channel string `json:"c"`
	Sender  string `json:"s"`
	Content string `json:"p"`
}

func decodeRecord(b []byte) (*record, error) {
	var r record
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	return &r, nil
}

func (r *record) encode() []byte {
	b, _ := json.Marshal(r)
	return b
}

// wireBatch is one message of the event stream: the events a delivery's
// target produced since the previous message, in order, each STEP_END
// with the step's artifacts (inline, or in the run's artifact store when
// large).
type wireBatch struct {
	Key     string      `json:"key"`
	Worker  string      `json:"worker"`
	Attempt int         `json:"attempt"`
	Events  []wireEvent `json:"events"`
}

type wireEvent struct {
	Event  []byte `json:"e"` // a run_summary.jsonl line
	Out    []byte `json:"out,omitempty"`
	Err    []byte `json:"err,omitempty"`
	OutObj string `json:"out_obj,omitempty"` // the artifact's name in artStore(run)
	ErrObj string `json:"err_obj,omitempty"`
}

// artStore is the run's object store for artifacts too large to travel
// inline (maxInline).
func artStore(run string) string { return "JAIPH_ART_" + run }

// maxInline is the largest artifact sent inside an event message; the
// batch stays under NATS's default 1 MiB maximum message size.
const maxInline = 256 << 10

// connect dials the broker and fails fast when it cannot be reached.
func connect(ctx context.Context, url, name string) (*nats.Conn, jetstream.JetStream, error) {
	nc, err := nats.Connect(url, nats.Name(name), nats.Timeout(5*time.Second), nats.MaxReconnects(-1),
		nats.ReconnectWait(200*time.Millisecond), nats.RetryOnFailedConnect(false))
	if err != nil {
		return nil, nil, fmt.Errorf("cannot reach the broker at %s: %v (is `jaiph broker` or a NATS server with JetStream running there?)", redactURL(url), err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	if _, err := js.AccountInfo(ctx); err != nil {
		nc.Close()
		if errors.Is(err, jetstream.ErrJetStreamNotEnabled) || errors.Is(err, jetstream.ErrJetStreamNotEnabledForAccount) {
			return nil, nil, fmt.Errorf("the NATS server at %s has no JetStream (start it with -js, or use `jaiph broker`)", redactURL(url))
		}
		return nil, nil, fmt.Errorf("the broker at %s: %v", redactURL(url), err)
	}
	return nc, js, nil
}

// redactURL drops credentials from a NATS URL before it is printed.
func redactURL(u string) string {
	if at := strings.LastIndex(u, "@"); at >= 0 {
		if i := strings.Index(u, "://"); i >= 0 && i < at {
			return u[:i+3] + "***@" + u[at+1:]
		}
	}
	return u
}

// setupPatience bounds the requests that create a run's or a worker's
// streams, buckets and consumer. A replicated stream exists once its
// replicas elected a leader, which on a loaded cluster takes longer than
// the client's 5 s default (a worker gave up on a three-node cluster at
// load 8); nothing waits on these requests but the start of the run or
// worker, and a broker that is not there fails at connect, at once.
const setupPatience = 60 * time.Second

// ensureWork creates the work stream and the workers' consumer, whose
// AckWait is the lease (no BackOff: it would replace AckWait; retries are
// delayed with NakWithDelay instead).
func ensureWork(ctx context.Context, js jetstream.JetStream, lease time.Duration, replicas int) (jetstream.Consumer, error) {
	_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: workStream, Subjects: []string{workPrefix + ">"},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Replicas: replicas})
	if err != nil {
		return nil, fmt.Errorf("work stream: %w", err)
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: deadStream, Subjects: []string{deadPrefix + ">"},
		Storage: jetstream.FileStorage, Replicas: replicas, MaxAge: 30 * 24 * time.Hour}); err != nil {
		return nil, fmt.Errorf("dead-letter stream: %w", err)
	}
	c, err := js.CreateOrUpdateConsumer(ctx, workStream, jetstream.ConsumerConfig{Durable: workersName,
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: lease, MaxDeliver: -1, MaxAckPending: -1})
	if err != nil {
		return nil, fmt.Errorf("workers' consumer: %w", err)
	}
	return c, nil
}

// settingDuration reads a duration setting, or def.
func settingDuration(v string, def time.Duration) time.Duration {
	if d, err := time.ParseDuration(strings.TrimSpace(v)); err == nil && d > 0 {
		return d
	}
	if n := atoi(v); n > 0 { // plain seconds, as docker_timeout takes them
		return time.Duration(n) * time.Second
	}
	return def
}

func atoi(s string) int {
	n := 0
	s = strings.TrimSpace(s)
	if s == "" {
		return 0
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// The broker may restart (or a cluster lose its leader) while a run goes
// on: the clients reconnect by themselves, and these wrappers retry what
// failed meanwhile, for up to a minute, so nothing acknowledged is lost and
// nothing is done twice.
const (
	retryEvery = 200 * time.Millisecond
	retryTries = 300
)

// errGone is a ledger that no longer exists: its run completed and the
// orchestrator removed it, so a claim on it is lost like a taken-over one.
var errGone = fmt.Errorf("%w: the run's ledger is gone", jetstream.ErrKeyRevisionMismatch)

// update is kv.Update riding out a restart. A revision mismatch after a
// failed try may be our own write whose acknowledgement was lost: reading
// our value back tells.
func update(ctx context.Context, kv jetstream.KeyValue, key string, val []byte, rev uint64) (uint64, error) {
	retried := false
	for try := 0; ; try++ {
		n, err := kv.Update(ctx, key, val, rev)
		if err != nil && !errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			if _, serr := kv.Status(ctx); notFound(serr) {
				return 0, errGone
			}
		}
		switch {
		case err == nil:
			return n, nil
		case errors.Is(err, jetstream.ErrKeyRevisionMismatch):
			if retried {
				if e, gerr := kv.Get(ctx, key); gerr == nil && bytes.Equal(e.Value(), val) {
					return e.Revision(), nil
				}
			}
			return 0, err
		case ctx.Err() != nil || try >= retryTries:
			return 0, err
		}
		retried = true
		sleep(ctx, retryEvery)
	}
}

// create is kv.Create riding out a restart; a key that exists after a
// failed try is ours.
func create(ctx context.Context, kv jetstream.KeyValue, key string, val []byte) error {
	for try := 0; ; try++ {
		_, err := kv.Create(ctx, key, val)
		switch {
		case err == nil || errors.Is(err, jetstream.ErrKeyExists):
			return nil
		case ctx.Err() != nil || try >= retryTries:
			return err
		}
		sleep(ctx, retryEvery)
	}
}

// get is kv.Get riding out a restart.
func get(ctx context.Context, kv jetstream.KeyValue, key string) (jetstream.KeyValueEntry, error) {
	for try := 0; ; try++ {
		e, err := kv.Get(ctx, key)
		if err == nil || errors.Is(err, jetstream.ErrKeyNotFound) || ctx.Err() != nil || try >= retryTries {
			return e, err
		}
		sleep(ctx, retryEvery)
	}
}

// publish publishes with a message id (a retry the broker already stored
// is dropped as a duplicate) riding out a restart.
func publish(ctx context.Context, js jetstream.JetStream, subject string, data []byte, id string) (*jetstream.PubAck, error) {
	for try := 0; ; try++ {
		ack, err := js.Publish(ctx, subject, data, jetstream.WithMsgID(id))
		if err == nil || ctx.Err() != nil || try >= retryTries {
			return ack, err
		}
		if _, serr := js.StreamNameBySubject(ctx, subject); notFound(serr) {
			return nil, errGone // no stream takes it any more: its run completed
		}
		sleep(ctx, retryEvery)
	}
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// notFound tells an error saying the stream (or bucket) does not exist.
func notFound(err error) bool {
	var apiErr *jetstream.APIError
	return errors.Is(err, jetstream.ErrBucketNotFound) || errors.Is(err, jetstream.ErrStreamNotFound) ||
		errors.As(err, &apiErr) && apiErr.ErrorCode == jetstream.JSErrCodeStreamNotFound
}
