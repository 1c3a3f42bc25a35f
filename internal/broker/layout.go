package broker

// This file answers: what lives on the broker, under which names?
//
//   stream JAIPH_WORK (work queue, jaiph.work.<run>.<key>) one message per delivery; one durable
//                                                      consumer "workers" that every worker pulls from
//   KV     JAIPH_<run>                                 the run's delivery ledger (d.<NNN>.<i>) and
//                                                      its start record (run: sources, start time)
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

// workSubject is the subject of a delivery's work message: one subject
// per delivery, so the watchdog can tell whether a queued delivery has a
// work message behind it.
func workSubject(run, key string) string { return workPrefix + run + "." + key }

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
	// LeaseMS is the run's lease (run.inbox_lease): how long a claim
	// lives without a heartbeat. Each run has its own; the consumer's
	// AckWait (consumerAckWait) only bounds how soon JetStream hands a
	// dead worker's message out again.
	LeaseMS int64 `json:"lease_ms,omitempty"`
	// Create says the run wrote no record for this message: the worker
	// that receives it under its own id creates the record with its
	// claim, or with its result (revision 0: the write fails when a
	// record exists, and the worker reads it). A fresh run's deliveries
	// are queued so: one replicated write less a delivery, and nothing
	// to wait for before the work message goes. Without it (a record the
	// run wrote names the message: a resumed run's, a redriven letter's,
	// one the watchdog queued again) the worker reads the record first.
	Create bool `json:"create,omitempty"`
}

// lease is the delivery's lease, 30 s when it names none.
func (d *delivery) lease() time.Duration {
	if d.LeaseMS > 0 {
		return time.Duration(d.LeaseMS) * time.Millisecond
	}
	return defaultLease
}

const defaultLease = 30 * time.Second

// consumerAckWait is the workers' consumer's AckWait, the same for every
// run. It is not a run's lease (that is the ledger's heartbeat against
// delivery.LeaseMS): one run's setting must never change another's. A
// worker renews a held message at a third of the shorter of the two. It is
// short because it is how long a message waits when the broker handed it
// to a pull whose worker died or stopped before it saw it (the ledger
// still says queued, and the message exists, so the watchdog rightly
// leaves it): with 30 s, a run whose worker was killed -9 took 32 s
// instead of 12. A redelivery to another worker while the first still
// holds a live claim costs one look at the ledger (its heartbeat is
// fresh: the message is put back until the run's lease could expire).
const consumerAckWait = 5 * time.Second

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
	// Inline are the events of a quick final attempt that published none
	// (publisher.finish): the orchestrator shows them with the result.
	Inline []wireEvent `json:"evs,omitempty"`
	// Numbers are the message numbers the orchestrator gave Sends,
	// recorded before it queued them, so a resumed orchestrator queues
	// the same messages again, not new ones.
	Numbers []string `json:"nums,omitempty"`
	// Epoch counts the times a resumed run queued a failed delivery
	// again; Claims and Failures count within an epoch.
	Epoch int   `json:"ep,omitempty"`
	Beat  int64 `json:"hb,omitempty"` // last heartbeat, unix ms
	// Msg is the message id of the delivery's current work message. A
	// worker holding another copy (one the watchdog replaced) drops it.
	Msg string `json:"m,omitempty"`
	// Released counts claims handed back by a stopping worker: they are
	// not lost workers (maxLost).
	Released int `json:"rel,omitempty"`
	// Ended are this epoch's attempts that ended with the delivery
	// queued again or claimed by another, in claim order (attempt i+1
	// is Ended[i]): an orchestrator whose watch never saw some of them
	// claimed or ended (a busy ledger keeps only a key's last revision)
	// still shows each, with its worker and how it ended.
	Ended []ended `json:"end,omitempty"`
	// Republished counts the work messages the watchdog published again
	// (a claim past its lease, a queued delivery with no message).
	Republished int `json:"rp,omitempty"`
	// Waiting says why no worker took the delivery yet (a worker of
	// another jaiph-go version saw it), for the orchestrator to show.
	Waiting string `json:"wt,omitempty"`
}

// ended is how an attempt ended that did not settle its delivery: failed
// with Status and retried, handed back as its worker stopped (Released),
// or, neither, its lease lost (queued again by the watchdog, or taken
// over by another worker).
type ended struct {
	Worker   string `json:"w,omitempty"`
	Status   *int   `json:"st,omitempty"`
	Released bool   `json:"rel,omitempty"`
}

// lost is how many claims ended without a result or a hand-back.
func (r *record) lost() int { return r.Claims - r.Failures - r.Released }

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
	Event  []byte    `json:"e"` // a run_summary.jsonl line; none for a Part
	Part   *wirePart `json:"part,omitempty"`
	Out    []byte    `json:"out,omitempty"`
	Err    []byte    `json:"err,omitempty"`
	OutObj string    `json:"out_obj,omitempty"` // the artifact's name in artStore(run)
	ErrObj string    `json:"err_obj,omitempty"`
}

// wirePart is what a step still running wrote since the last part, sent
// as it is written (every partEvery) so that it reaches the run even if
// the worker dies before the step ends (its artifacts otherwise travel with
// its STEP_END).
type wirePart struct {
	ID  string `json:"id"` // the step's id, as on its STEP_START
	Out []byte `json:"out,omitempty"`
	Err []byte `json:"err,omitempty"`
}

// artStore is the run's object store for artifacts too large to travel
// inline (maxInline).
func artStore(run string) string { return "JAIPH_ART_" + run }

// maxInline is the largest artifact sent inside an event message; the
// batch stays under NATS's default 1 MiB maximum message size.
const maxInline = 256 << 10

// connect dials the broker and fails fast when it cannot be reached.
func connect(ctx context.Context, url, name string) (*nats.Conn, jetstream.JetStream, error) {
	// Pings every 10 s (the client's default is 2 minutes): a connection to
	// a node that froze or was cut off is given up within about 30 s and
	// the client moves to another node of the cluster.
	nc, err := nats.Connect(url, nats.Name(name), nats.Timeout(5*time.Second), nats.MaxReconnects(-1),
		nats.ReconnectWait(200*time.Millisecond), nats.RetryOnFailedConnect(false),
		nats.PingInterval(10*time.Second), nats.MaxPingsOutstanding(2))
	if err != nil {
		return nil, nil, fmt.Errorf("cannot reach the broker at %s: %v (is `jaiph broker` or a NATS server with JetStream running there?)", redactURL(url), err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, nil, err
	}
	if err := accountInfo(ctx, js); err != nil {
		nc.Close()
		if errors.Is(err, jetstream.ErrJetStreamNotEnabled) || errors.Is(err, jetstream.ErrJetStreamNotEnabledForAccount) {
			return nil, nil, fmt.Errorf("the NATS server at %s has no JetStream (start it with -js, or use `jaiph broker`)", redactURL(url))
		}
		if transient(err) {
			return nil, nil, fmt.Errorf("the broker at %s: JetStream did not answer within %s: %v (a cluster with too few nodes up to elect a leader?)",
				redactURL(url), connectPatience, err)
		}
		return nil, nil, fmt.Errorf("the broker at %s: %v", redactURL(url), err)
	}
	return nc, js, nil
}

// accountInfo asks for the account's JetStream info, the proof that
// JetStream answers. A cluster that has just lost or regained a node
// answers 503 (or not at all) until it has a meta leader: that is waited
// out for up to connectPatience; a server without JetStream is not.
func accountInfo(ctx context.Context, js jetstream.JetStream) error {
	stop := time.Now().Add(connectPatience)
	for {
		_, err := try(ctx, func(c context.Context) (*jetstream.AccountInfo, error) { return js.AccountInfo(c) })
		if err == nil || errors.Is(err, jetstream.ErrJetStreamNotEnabled) || errors.Is(err, jetstream.ErrJetStreamNotEnabledForAccount) ||
			!transient(err) || ctx.Err() != nil || time.Now().After(stop) {
			return err
		}
		sleep(ctx, retryEvery)
	}
}

// connectPatience is how long connect waits for a cluster's JetStream to
// elect its meta leader.
const connectPatience = 30 * time.Second

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

// ensureWork makes sure the work stream, the dead-letter stream and the
// workers' consumer exist. A stream that exists keeps its replicas, or
// gains some: a run or worker asking for fewer never shrinks the streams
// every other run shares (an R1 request once remapped a cluster's R3 work
// queue to one node). The consumer's AckWait is consumerAckWait, never a
// run's lease; no BackOff (it would replace AckWait; retries are delayed
// with NakWithDelay instead).
func ensureWork(ctx context.Context, js jetstream.JetStream, replicas int) (jetstream.Consumer, error) {
	if err := ensureStream(ctx, js, jetstream.StreamConfig{Name: workStream, Subjects: []string{workPrefix + ">"},
		Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage, Replicas: replicas}); err != nil {
		return nil, fmt.Errorf("work stream: %w", err)
	}
	if err := ensureStream(ctx, js, jetstream.StreamConfig{Name: deadStream, Subjects: []string{deadPrefix + ">"},
		Storage: jetstream.FileStorage, Replicas: replicas, MaxAge: 30 * 24 * time.Hour}); err != nil {
		return nil, fmt.Errorf("dead-letter stream: %w", err)
	}
	cfg := jetstream.ConsumerConfig{Durable: workersName, AckPolicy: jetstream.AckExplicitPolicy, AckWait: consumerAckWait,
		MaxDeliver: -1, MaxAckPending: -1}
	if c, err := js.Consumer(ctx, workStream, workersName); err == nil {
		if ci := c.CachedInfo(); ci != nil && ci.Config.AckWait == consumerAckWait {
			return c, nil
		}
	}
	c, err := js.CreateOrUpdateConsumer(ctx, workStream, cfg)
	if err != nil {
		return nil, fmt.Errorf("workers' consumer: %w", err)
	}
	return c, nil
}

// ensureStream creates a shared stream, or raises the replicas of one
// that exists with fewer; it never lowers them.
func ensureStream(ctx context.Context, js jetstream.JetStream, cfg jetstream.StreamConfig) error {
	st, err := js.Stream(ctx, cfg.Name)
	if err == nil {
		have := st.CachedInfo().Config
		if have.Replicas >= cfg.Replicas {
			return nil
		}
		have.Replicas = cfg.Replicas
		_, err = js.UpdateStream(ctx, have)
		return err
	}
	if !errors.Is(err, jetstream.ErrStreamNotFound) {
		return err
	}
	_, err = js.CreateStream(ctx, cfg)
	if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
		return nil // another process created it this instant
	}
	return err
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
// nothing is done twice. Each try has its own bound (tryTimeout): a request
// whose stream leader died holding it must not wait out the whole minute
// in one try (a worker once stalled 60 s and dropped events that way).
const (
	retryEvery = 200 * time.Millisecond
	retryTries = 300
	tryTimeout = 3 * time.Second
)

// try runs f with a context bounded by tryTimeout, or by the shorter
// bound a delivery set on ctx (withTryBound).
func try[T any](ctx context.Context, f func(context.Context) (T, error)) (T, error) {
	bound := tryTimeout
	if d, ok := ctx.Value(tryBoundKey{}).(time.Duration); ok && d > 0 {
		bound = min(bound, d)
	}
	c, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	return f(c)
}

type tryBoundKey struct{}

// withTryBound ties the tries made under ctx to a delivery's lease: a
// heartbeat or an event publish that waits longer than a third of the
// lease is tried again (on whichever node leads now) rather than waiting
// past the point where the claim could be taken over.
func withTryBound(ctx context.Context, lease time.Duration) context.Context {
	return context.WithValue(ctx, tryBoundKey{}, max(lease/3, 200*time.Millisecond))
}

// errGone is a ledger that no longer exists: its run completed and the
// orchestrator removed it, so a claim on it is lost like a taken-over one.
var errGone = fmt.Errorf("%w: the run's ledger is gone", jetstream.ErrKeyRevisionMismatch)

// errStreamGone is a publish no stream takes any more: its run completed
// (a worker's events), or the stream was deleted under the run.
var errStreamGone = errors.New("no stream on the broker takes it any more")

// update is kv.Update riding out a restart. A revision mismatch after a
// failed try may be our own write whose acknowledgement was lost: reading
// our value back (from the leader) tells.
func update(ctx context.Context, l *ledger, key string, val []byte, rev uint64) (uint64, error) {
	retried := false
	for n := 0; ; n++ {
		next, err := try(ctx, func(c context.Context) (uint64, error) { return l.kv.Update(c, key, val, rev) })
		if err != nil && !errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			if _, serr := try(ctx, func(c context.Context) (jetstream.KeyValueStatus, error) { return l.kv.Status(c) }); notFound(serr) {
				return 0, errGone
			}
		}
		switch {
		case err == nil:
			return next, nil
		case errors.Is(err, jetstream.ErrKeyRevisionMismatch):
			if retried {
				if e, gerr := l.get(ctx, key); gerr == nil && bytes.Equal(e.value, val) {
					return e.rev, nil
				}
			}
			return 0, err
		case ctx.Err() != nil || n >= retryTries:
			return 0, err
		}
		retried = true
		sleep(ctx, retryEvery)
	}
}

// create is kv.Create riding out a restart; a key that exists after a
// failed try is ours.
func create(ctx context.Context, l *ledger, key string, val []byte) (uint64, error) {
	for n := 0; ; n++ {
		rev, err := try(ctx, func(c context.Context) (uint64, error) { return l.kv.Create(c, key, val) })
		if errors.Is(err, jetstream.ErrKeyExists) {
			// The server says "exists" also while our own earlier try is
			// still in flight on a leader that may lose it (a partition):
			// it exists only when the leader has it.
			e, gerr := l.get(ctx, key)
			if gerr == nil {
				return e.rev, nil
			}
			err = fmt.Errorf("the record %s is not on the ledger's leader yet", key)
		}
		switch {
		case err == nil:
			return rev, nil
		case ctx.Err() != nil || n >= retryTries:
			return 0, err
		}
		sleep(ctx, retryEvery)
	}
}

// ledger is a run's ledger bucket. Reads go to the bucket's stream leader
// (leaderGet): a replicated bucket answers the client's default "direct"
// get from any replica, and one that lags misses a record created a
// moment ago (no read-after-write; nats-server issue 6557): a worker once
// took such a miss for a run that no longer exists and dropped the
// delivery.
type ledger struct {
	kv     jetstream.KeyValue
	nc     *nats.Conn
	bucket string
}

func openLedger(nc *nats.Conn, kv jetstream.KeyValue, run string) *ledger {
	return &ledger{kv: kv, nc: nc, bucket: ledgerName(run)}
}

// entry is a ledger value and its revision.
type entry struct {
	value []byte
	rev   uint64
}

// errNoRecord is a key the leader does not have.
var errNoRecord = jetstream.ErrKeyNotFound

// get reads key from the leader, riding out a restart.
func (l *ledger) get(ctx context.Context, key string) (entry, error) {
	for n := 0; ; n++ {
		e, err := try(ctx, func(c context.Context) (entry, error) { return l.leaderGet(c, key) })
		if err == nil || errors.Is(err, errNoRecord) || notFound(err) || ctx.Err() != nil || n >= retryTries {
			return e, err
		}
		sleep(ctx, retryEvery)
	}
}

// leaderGet asks the stream leader for key's last value
// ($JS.API.STREAM.MSG.GET, not the direct get any replica answers).
func (l *ledger) leaderGet(ctx context.Context, key string) (entry, error) {
	_, e, err := l.leaderRead(ctx, map[string]any{"last_by_subj": "$KV." + l.bucket + "." + key})
	return e, err
}

// leaderNext reads from the leader the first entry at or after seq whose
// key matches filter (a key with wildcards): its key, or errNoRecord when
// there is none. A deleted key's entry is one (its value nil, its
// revision for the next look): the caller skips it. No consumer is made.
func (l *ledger) leaderNext(ctx context.Context, filter string, seq uint64) (string, entry, error) {
	key, e, err := l.leaderRead(ctx, map[string]any{"seq": seq, "next_by_subj": "$KV." + l.bucket + "." + filter})
	if errors.Is(err, errDeleted) {
		err = nil
	}
	return key, e, err
}

// drop removes key from the bucket without a trace: its messages are
// purged from the bucket's stream, where a KV delete (or purge) leaves a
// marker that every listing, watch and walk of its prefix still reads.
// For marks that come and go once per run (active.*, waiting.*): with
// markers, the watchdog's listing of active.* read one message per run
// ever served at every pass (10,000 runs once waiting: hundreds of
// milliseconds of the broker every few seconds). Nobody watches these
// keys, so no watcher misses the deletion.
func (l *ledger) drop(ctx context.Context, key string) error {
	return purgeKV(ctx, l.nc, l.bucket, key)
}

// purgeKV purges from bucket's stream every message of the keys key
// matches (it may hold wildcards), leaving no marker.
func purgeKV(ctx context.Context, nc *nats.Conn, bucket, key string) error {
	req, _ := json.Marshal(map[string]string{"filter": "$KV." + bucket + "." + key})
	msg, err := try(ctx, func(c context.Context) (*nats.Msg, error) {
		return nc.RequestWithContext(c, "$JS.API.STREAM.PURGE.KV_"+bucket, req)
	})
	if err != nil {
		return err
	}
	var resp struct {
		Error *jetstream.APIError `json:"error"`
	}
	if err := json.Unmarshal(msg.Data, &resp); err != nil {
		return fmt.Errorf("the bucket %s answered %q: %w", bucket, msg.Data, err)
	}
	if resp.Error != nil {
		return resp.Error
	}
	return nil
}

// errDeleted is an entry that marks its key deleted or purged.
var errDeleted = errors.New("deleted")

func (l *ledger) leaderRead(ctx context.Context, q map[string]any) (string, entry, error) {
	req, _ := json.Marshal(q)
	msg, err := l.nc.RequestWithContext(ctx, "$JS.API.STREAM.MSG.GET.KV_"+l.bucket, req)
	if err != nil {
		return "", entry{}, err
	}
	var resp struct {
		Message *struct {
			Subject string `json:"subject"`
			Seq     uint64 `json:"seq"`
			Hdrs    []byte `json:"hdrs"`
			Data    []byte `json:"data"`
		} `json:"message"`
		Error *jetstream.APIError `json:"error"`
	}
	if err := json.Unmarshal(msg.Data, &resp); err != nil {
		return "", entry{}, fmt.Errorf("the ledger's leader answered %q: %w", msg.Data, err)
	}
	if resp.Error != nil {
		if resp.Error.ErrorCode == jetstream.JSErrCodeMessageNotFound {
			return "", entry{}, errNoRecord
		}
		return "", entry{}, resp.Error
	}
	if resp.Message == nil {
		return "", entry{}, fmt.Errorf("the ledger's leader answered %q", msg.Data)
	}
	key := strings.TrimPrefix(resp.Message.Subject, "$KV."+l.bucket+".")
	if bytes.Contains(resp.Message.Hdrs, []byte("KV-Operation: DEL")) || bytes.Contains(resp.Message.Hdrs, []byte("KV-Operation: PURGE")) {
		if _, ok := q["next_by_subj"]; ok {
			return key, entry{rev: resp.Message.Seq}, errDeleted
		}
		return key, entry{}, errNoRecord
	}
	return key, entry{value: resp.Message.Data, rev: resp.Message.Seq}, nil
}

// publish publishes with a message id (a retry the broker already stored
// is dropped as a duplicate) riding out a restart.
func publish(ctx context.Context, js jetstream.JetStream, subject string, data []byte, id string) (*jetstream.PubAck, error) {
	for n := 0; ; n++ {
		ack, err := try(ctx, func(c context.Context) (*jetstream.PubAck, error) {
			return js.Publish(c, subject, data, jetstream.WithMsgID(id))
		})
		if err == nil || ctx.Err() != nil || n >= retryTries {
			return ack, err
		}
		if _, serr := try(ctx, func(c context.Context) (string, error) { return js.StreamNameBySubject(c, subject) }); notFound(serr) {
			return nil, errStreamGone
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

// retrySetup runs f until it succeeds, fails for good, or ctx ends: a
// cluster that just elected its leaders answers "no responders" or times
// out for a moment (a run once failed at start with "cannot publish the
// run's sources to the broker: no responders available for request").
func retrySetup(ctx context.Context, f func(context.Context) error) error {
	for {
		c, cancel := context.WithTimeout(ctx, 10*time.Second) // a whole step, a put of sources included
		err := f(c)
		cancel()
		if err == nil || !transient(err) || ctx.Err() != nil {
			return err
		}
		sleep(ctx, retryEvery)
	}
}

// transient tells an error that a moment later may not repeat.
func transient(err error) bool {
	var apiErr *jetstream.APIError
	return errors.Is(err, nats.ErrNoResponders) || errors.Is(err, nats.ErrTimeout) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, nats.ErrConnectionReconnecting) ||
		errors.As(err, &apiErr) && apiErr.Code == 503 // JetStream not ready yet (no leader)
}

// notFound tells an error saying the stream (or bucket) does not exist.
func notFound(err error) bool {
	var apiErr *jetstream.APIError
	return errors.Is(err, jetstream.ErrBucketNotFound) || errors.Is(err, jetstream.ErrStreamNotFound) ||
		errors.As(err, &apiErr) && apiErr.ErrorCode == jetstream.JSErrCodeStreamNotFound
}
