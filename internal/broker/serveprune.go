package broker

// This file answers: what of `jaiph serve --inbox` does retention
// remove, and what must it keep?

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/jaiph-go/jaiph/internal/served"
)

// pruneServed removes the served runs that ended before cutoff: their
// record, their copied summary and journal, and their published files.
// It returns the ids removed (or, with dryRun, that would be), and adds
// to refs the sources of the served runs kept (a queued or running run's
// sources must stay).
func pruneServed(ctx context.Context, js jetstream.JetStream, cutoff time.Time, dryRun bool, refs map[string]bool) ([]string, error) {
	kv, err := js.KeyValue(ctx, serveBucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the bucket %s: %w", serveBucket, err)
	}
	lister, err := kv.ListKeysFiltered(ctx, "run.*")
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for k := range lister.Keys() {
		e, err := kv.Get(ctx, k)
		if err != nil {
			continue
		}
		var r serveRecord
		if json.Unmarshal(e.Value(), &r) != nil {
			continue
		}
		if !served.Terminal(r.Status) || r.EndedAt == nil || !r.EndedAt.Before(cutoff) {
			refs[r.Sources] = true
			continue
		}
		if !dryRun {
			if err := removeServed(ctx, js, kv, r.RunID); err != nil {
				errs = append(errs, err)
				refs[r.Sources] = true
				continue
			}
		}
		removed = append(removed, r.RunID)
	}
	sort.Strings(removed)
	return removed, errors.Join(errs...)
}

// removeServed removes one served run's state: files first, the record
// last (a removal cut short leaves a record a later prune finds again).
func removeServed(ctx context.Context, js jetstream.JetStream, kv jetstream.KeyValue, id string) error {
	if st, err := js.Stream(ctx, serveRec); err == nil {
		if err := st.Purge(ctx, jetstream.WithPurgeSubject(serveRecPfx+id+".>")); err != nil {
			return fmt.Errorf("purging the records of served run %s: %w", id, err)
		}
	}
	if obs, err := js.ObjectStore(ctx, serveArtStore); err == nil {
		list, err := obs.List(ctx)
		if err != nil && !errors.Is(err, jetstream.ErrNoObjectsFound) {
			return fmt.Errorf("listing the files of served run %s: %w", id, err)
		}
		for _, o := range list {
			if strings.HasPrefix(o.Name, id+"/") || o.Name == snapshotName(id) {
				if err := obs.Delete(ctx, o.Name); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
					return fmt.Errorf("deleting %s of served run %s: %w", o.Name, id, err)
				}
			}
		}
	}
	// Purged from the bucket's stream, not deleted as keys: a KV delete
	// or purge leaves a marker per key that every later listing reads.
	// (waiting.*.<id>: a mark from before marks held their key.)
	for _, k := range []string{activeKey(id), timerKey(id), "msg." + id + ".>", "msgs." + id + ".*", "waiting.*.*." + id, "waiting.*." + id, serveRunKey(id)} {
		if err := purgeKV(ctx, js.Conn(), serveBucket, k); err != nil {
			return fmt.Errorf("deleting the record of served run %s: %w", id, err)
		}
	}
	return nil
}
