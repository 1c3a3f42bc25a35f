package broker

// This file answers: how do a run's sends reach the broker without the
// body waiting, send after send, for the broker's acknowledgements?

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// pipeBacklog is how many deliveries wait for the broker before Send
// waits for room.
const pipeBacklog = 256

// pipeJob is a fresh delivery to put on the broker: its work message,
// with no ledger record (delivery.Create: the worker that takes it
// creates the record with its claim or its result).
type pipeJob struct {
	k    *known
	d    delivery
	work []byte
	ack  jetstream.PubAckFuture // the work message's acknowledgement to come
	sent time.Time              // when it was published
}

func (j *pipeJob) id() string { return j.d.Run + "." + j.d.Key }

// pipeline writes a run's fresh deliveries to the broker in the
// background, in the order the body sent them (one worker with one slot
// takes them in that order), each published without waiting for the
// acknowledgement of the one before; the client writes them, and the
// broker answers them, in batches. Its first error stays: the next Send
// returns it and the drain ends with it (what was written stays written;
// jaiph resume queues the rest from the run directory, as after a kill).
type pipeline struct {
	q       *queue
	order   chan *pipeJob // to the publisher, in send order
	acks    chan *pipeJob // to the acknowledger, in send order
	ctx     context.Context
	cancel  context.CancelFunc
	workers sync.WaitGroup
	closing sync.RWMutex // queue holds it to read, stop to close order

	mu      sync.Mutex
	idle    *sync.Cond // busy fell to 0
	busy    int        // deliveries handed over and not acknowledged yet
	stopped bool
	err     error
	failed  chan struct{} // closed with the first error
}

func newPipeline(q *queue) *pipeline {
	ctx, cancel := context.WithCancel(context.Background())
	p := &pipeline{q: q, order: make(chan *pipeJob, pipeBacklog), acks: make(chan *pipeJob, pipeBacklog),
		ctx: ctx, cancel: cancel, failed: make(chan struct{})}
	p.idle = sync.NewCond(&p.mu)
	p.workers.Add(2)
	go p.send()
	go p.acknowledge()
	return p
}

// queue hands a delivery to the pipeline; it waits only when the backlog
// is full. The pipeline never takes q.mu, so Send may hold it here.
func (p *pipeline) queue(k *known, d delivery) error {
	p.closing.RLock()
	defer p.closing.RUnlock()
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return fmt.Errorf("cannot queue message %s to %s: the run's queue is closed", d.Seq, d.Target)
	}
	p.busy++
	p.mu.Unlock()
	d.Create = true
	p.order <- &pipeJob{k: k, d: d}
	return nil
}

// send publishes the work messages in send order without waiting for
// their acknowledgements (acknowledge does).
func (p *pipeline) send() {
	defer p.workers.Done()
	defer close(p.acks)
	for j := range p.order {
		if p.error() == nil {
			j.work, _ = json.Marshal(j.d)
			m := nats.NewMsg(workSubject(p.q.run, j.d.Key))
			m.Data = j.work
			m.Header.Set(jetstream.MsgIDHeader, j.id())
			// An error here (the connection is away) is retried by
			// acknowledge, as a lost acknowledgement is.
			j.ack, _ = p.q.t.js.PublishMsgAsync(m)
			j.sent = time.Now()
		}
		p.acks <- j
	}
}

// acknowledge waits for each work message's acknowledgement in turn; one
// that fails or does not come within a try of its publish is published
// again the way every write rides out a restart (its message id makes a
// copy the broker stored a duplicate it drops). The try counts from the
// publish, not from the wait: acknowledgements lost together (a node cut
// off) time out together, not one try after another.
func (p *pipeline) acknowledge() {
	defer p.workers.Done()
	for j := range p.acks {
		if j.work != nil && p.error() == nil {
			var err error
			if !acked(p.ctx, j.ack, j.sent.Add(tryTimeout)) {
				if _, perr := publish(p.ctx, p.q.t.js, workSubject(p.q.run, j.d.Key), j.work, j.id()); perr != nil {
					err = fmt.Errorf("cannot queue the delivery of message %s to %s: %w", j.d.Seq, j.d.Target, perr)
				}
			}
			if err == nil {
				j.k.work = j.work // read by the watchdog only once published is set
				j.k.published.Store(true)
			} else {
				p.fail(err)
			}
		}
		p.mu.Lock()
		if p.busy--; p.busy == 0 {
			p.idle.Broadcast()
		}
		p.mu.Unlock()
	}
}

// acked tells whether f (nil: never sent) was acknowledged by deadline.
func acked(ctx context.Context, f jetstream.PubAckFuture, deadline time.Time) bool {
	if f == nil {
		return false
	}
	select {
	case <-f.Ok():
		return true
	default:
	}
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	select {
	case <-f.Ok():
		return true
	case <-f.Err():
	case <-t.C:
	case <-ctx.Done():
	}
	return false
}

func (p *pipeline) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.err == nil {
		p.err = err
		close(p.failed)
	}
}

// error is the pipeline's first error (nil: none yet).
func (p *pipeline) error() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// wait blocks until every delivery handed over is acknowledged (or
// failed) and returns the first error.
func (p *pipeline) wait() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.busy > 0 {
		p.idle.Wait()
	}
	return p.err
}

// stop ends the pipeline (a second stop does nothing): with abandon, what
// is still being written is given up (a run that failed or was
// interrupted; its resume queues it from the run directory), otherwise
// it is written first.
func (p *pipeline) stop(abandon bool) {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return
	}
	p.stopped = true
	p.mu.Unlock()
	if abandon {
		p.cancel()
	}
	p.closing.Lock()
	close(p.order)
	p.closing.Unlock()
	p.workers.Wait()
	p.cancel()
}
