package engine

// This file answers: what does `jaiph redrive RUN_DIR [--message SEQ]` do
// (docs/inbox-files.md "Redrive")?

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/internal/store/inbox"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/runtime"
)

// RedriveOptions are what `jaiph redrive` takes from its caller.
type RedriveOptions struct {
	RunDir  string
	Message string // only this message number ("" for every dead letter)
	Force   bool   // redrive although the sources changed since the run
	Environ []string
	Inbox   Inbox     // --inbox (a URL with the credentials run.json leaves out), --replicas
	Stdout  io.Writer // one line per letter
	Stderr  io.Writer // the targets' stderr of failed attempts
}

// Redrive delivers the dead letters of a finished run once each, in the
// same run directory, and returns whether all were delivered. The error is
// a refusal (nothing was delivered) or a failure to record a delivery.
func Redrive(ctx context.Context, o RedriveOptions) (bool, error) {
	if err := o.Inbox.check(); err != nil {
		return false, err
	}
	o.Environ = o.Inbox.apply(o.Environ)
	meta, err := runs.ReadMeta(o.RunDir)
	if err != nil {
		return false, err
	}
	if runs.Locked(o.RunDir) {
		return false, fmt.Errorf("%s is still running; redrive it when it has ended", o.RunDir)
	}
	letters, err := inbox.Letters(o.RunDir)
	if err != nil {
		return false, err
	}
	todo := pending(letters, o.Message)
	if len(todo) == 0 {
		inbox.RemoveDelivered(o.RunDir, letters)
		if o.Message != "" {
			return false, fmt.Errorf("nothing to redrive: message %s is not a dead letter of %s", o.Message, o.RunDir)
		}
		return false, fmt.Errorf("nothing to redrive: %s has no dead letters", o.RunDir)
	}
	store := keyStore("", o.Environ)
	if !o.Force {
		if changed := meta.Changed(); len(changed) > 0 {
			return false, fmt.Errorf("%s changed since the run; redrive anyway with --force", changed[0])
		}
		if err := trusted(o.RunDir, store, "redrives"); err != nil {
			return false, err
		}
	}
	last, err := lastMessage(o.RunDir)
	if err != nil {
		return false, err
	}
	p, err := Load(meta.Entry)
	if err != nil {
		return false, err
	}
	environ := meta.Environ(o.Environ)
	run, err := p.Plan(ctx, environ)
	if err != nil {
		return false, err
	}
	if run.box != nil {
		return false, errSandboxRedrive
	}
	rt, _, files, err := run.prepare(ctx, RunOptions{Environ: environ, Args: meta.Args, StrayStderr: o.Stderr, KeyDir: store.Dir, Notices: o.Stderr})
	if err != nil {
		return false, err
	}
	defer rt.Close()
	if err := rt.Reopen(o.RunDir); err != nil {
		if errors.Is(err, runtime.ErrRunLive) {
			err = fmt.Errorf("%s is still running; redrive it when it has ended", o.RunDir)
		}
		return false, err
	}
	// The redrive's messages are numbered after the run's, and its inbox
	// files are the run's (the delivery log, the letters' files).
	files.Continue(last)
	opened := files.Open(rt.RunDir(), rt.Emit)
	all := true
	for _, l := range todo {
		// An inbox that cannot be opened fails each letter: it stays dead.
		d, err := runtime.Redelivery{Status: 1}, opened
		if opened == nil {
			d, err = rt.Redeliver(ctx, runtime.Letter{Seq: l.Seq, Channel: l.Channel, Sender: l.Sender, Target: l.Target,
				Attempt: l.Attempts + 1}, files, o.Stderr)
		}
		status := d.Status
		switch {
		case status == 0 && err != nil && d.Sent == 0:
			return false, err // not recorded: the next redrive decides again
		case status == 0:
			fmt.Fprintf(o.Stdout, "%s %s -> %s: delivered (attempt %d)\n", l.Seq, l.Channel, l.Target, l.Attempts+1)
			switch {
			case d.Sent == 0:
			case d.FollowUp == 0 && err == nil:
				fmt.Fprintf(o.Stdout, "  and the %s it sent: delivered\n", plural(d.Sent, "message"))
			default:
				all = false
				fmt.Fprintf(o.Stdout, "  and the %s it sent: not all delivered; see jaiph inbox %s\n", plural(d.Sent, "message"), o.RunDir)
				if err != nil && !errors.Is(err, context.Canceled) {
					fmt.Fprintf(o.Stderr, "jaiph: %v\n", err)
				}
			}
		default:
			all = false
			fmt.Fprintf(o.Stdout, "%s %s -> %s: failed (attempt %d, exit %d); still a dead letter\n", l.Seq, l.Channel, l.Target, l.Attempts+1, status)
			if err != nil && !errors.Is(err, context.Canceled) {
				fmt.Fprintf(o.Stderr, "jaiph: %v\n", err)
			}
		}
		if in := runtime.Interruption(ctx); in != nil {
			return false, in // "interrupted by SIGINT"; the letter stays dead
		}
	}
	if letters, err = inbox.Letters(o.RunDir); err != nil {
		return false, err
	}
	inbox.RemoveDelivered(o.RunDir, letters)
	return all, runs.MarkRedriven(runs.RecordsDir(o.RunDir), time.Now())
}

// plural is "1 message" or "3 messages".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// pending picks the letters not yet delivered (only message seq when
// given).
func pending(letters []inbox.Letter, seq string) []inbox.Letter {
	var out []inbox.Letter
	for _, l := range letters {
		if !l.Done && (seq == "" || strings.TrimLeft(l.Seq, "0") == strings.TrimLeft(seq, "0")) {
			out = append(out, l)
		}
	}
	return out
}

// lastMessage is the run's highest message number (inbox/.seq is not
// written when a run is killed).
func lastMessage(runDir string) (int, error) {
	in, err := inbox.Read(runDir)
	if err != nil {
		return 0, err
	}
	last := 0
	for _, m := range in.Messages {
		n, _ := strconv.Atoi(m.Seq)
		last = max(last, n)
	}
	return last, nil
}
