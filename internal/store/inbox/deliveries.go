package inbox

// This file answers: how is what became of each delivery written down
// (inbox/.deliveries, dead letters), so that `jaiph inbox` (read.go) can
// tell each message's state from disk and `jaiph redrive` find its dead
// letters?

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/jaiph-go/jaiph/internal/atomicfile"
	"github.com/jaiph-go/jaiph/internal/event"
)

// Started records that attempt attempt of delivering message seq to the
// workflow target starts.
func (fs *Files) Started(seq, target string, attempt int) error {
	return fs.logDelivery(fmt.Sprintf("start %s %s %d\n", seq, target, attempt), false)
}

// Ended records how that attempt ended.
func (fs *Files) Ended(seq, target string, attempt, status int) error {
	return fs.logDelivery(fmt.Sprintf("end %s %s %d %d\n", seq, target, attempt, status), false)
}

// Dead stores message seq (of the channel named channel, its declared
// name) as a dead letter for target: its file is linked (or, where links
// fail, written atomically) as inbox/dead/NNN-<channel>.txt, then the
// `dead` line of .deliveries records target, attempts and last status,
// and its INBOX_DEAD event (at depth) is written. The line is the commit
// point, so a crash in between leaves only a file without a record, which
// readers ignore. With JAIPH_INBOX_FSYNC=true the line is durable before
// Dead returns.
func (fs *Files) Dead(seq, channel, sender, target string, attempts, status, depth int) error {
	name := MessageFile(seq, channel)
	dead := filepath.Join(fs.dir, deadDir)
	if err := os.MkdirAll(dead, 0o755); err != nil {
		return err
	}
	if err := os.Link(filepath.Join(fs.dir, name), filepath.Join(dead, name)); err != nil && !os.IsExist(err) {
		data, rerr := os.ReadFile(filepath.Join(fs.dir, name))
		if rerr != nil {
			return rerr
		}
		if err := atomicfile.Write(filepath.Join(dead, name), data, 0o644); err != nil {
			return err
		}
	}
	if err := fs.logDelivery(fmt.Sprintf("dead %s %s %d %d\n", seq, target, attempts, status), true); err != nil {
		return err
	}
	ref := Dir + "/" + deadDir + "/" + name
	fs.emit(&event.Event{Type: event.InboxDead, InboxSeq: seq, Channel: channel, Target: target, Sender: sender,
		Attempt: attempts, Status: &status, PayloadRef: &ref, Depth: depth, Time: time.Now()})
	return nil
}

// Commit makes the delivery log durable, whatever JAIPH_INBOX_FSYNC says:
// a redrive's commit point, before it removes a delivered letter's dead/
// file.
func (fs *Files) Commit() error {
	fs.logMu.Lock()
	defer fs.logMu.Unlock()
	if fs.deliveries == nil {
		return nil
	}
	return fs.deliveries.Sync()
}

// logDelivery appends one line to inbox/.deliveries (docs/inbox-files.md),
// in one write, so concurrent deliveries never tear a line and a kill -9
// keeps every line written. With durable set and JAIPH_INBOX_FSYNC=true it
// also syncs (a dead letter is durable before the drain moves on).
func (fs *Files) logDelivery(line string, durable bool) error {
	fs.logMu.Lock()
	defer fs.logMu.Unlock()
	if fs.deliveries == nil {
		f, err := os.OpenFile(filepath.Join(fs.dir, deliveriesFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		fs.deliveries = f
	}
	if _, err := fs.deliveries.WriteString(line); err != nil {
		return err
	}
	if durable && fs.fsync {
		return syncFiles(fs.dir, []string{fs.deliveries.Name(), filepath.Join(fs.dir, deadDir), fs.dir})
	}
	return nil
}
