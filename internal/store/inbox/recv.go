package inbox

// This file answers: where do the messages of a received channel wait
// (docs/inbox-files.md "Received channels"), how are they stored by the
// run itself or by `jaiph send` from another process, and how does a
// receive take one?
//
// A received channel (`x = <- CHANNEL`, docs/language.md#receives) has
// a directory of its own, inbox/recv/<channel>/, created when the run
// starts: its existence is how `jaiph send` knows that the run receives
// on that channel. A message waits there as NNNNNN[.KEY].txt (numbered
// in arrival order; the key with the bytes outside [A-Za-z0-9_-]
// %-escaped), written to .tmp/ and linked into place under the
// channel's lock, so a reader never sees half a message and numbers
// never repeat across writers. A receive takes the first one (with its
// key, when it asks for one) by renaming it into taken/: each message is
// received once.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/internal/redact"
)

const (
	recvDir   = "recv"
	takenDir  = "taken"
	lockName  = ".lock"
	recvPerms = 0o755
)

// ErrTimeout is what WaitReceived returns when the timeout passed first.
var ErrTimeout = errors.New("timed out")

// ReceivedDir is the directory of received channel channel (its declared
// name) in runDir.
func ReceivedDir(runDir, channel string) string {
	return filepath.Join(runDir, Dir, recvDir, channel)
}

// ReceivesOn tells whether the run in runDir receives on channel (its
// directory was made when the run started).
func ReceivesOn(runDir, channel string) bool {
	if channel == "" || strings.ContainsAny(channel, "/\\") || channel[0] == '.' {
		return false
	}
	st, err := os.Stat(ReceivedDir(runDir, channel))
	return err == nil && st.IsDir()
}

// ReceivedChannels lists the channels the run in runDir receives on.
func ReceivedChannels(runDir string) []string {
	ents, _ := os.ReadDir(filepath.Join(runDir, Dir, recvDir))
	var out []string
	for _, e := range ents {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, e.Name())
		}
	}
	return out
}

// DeclareReceived makes the directories of the channels a run receives on.
func DeclareReceived(runDir string, channels []string) error {
	for _, ch := range channels {
		d := ReceivedDir(runDir, ch)
		for _, sub := range []string{tmpDir, takenDir} {
			if err := os.MkdirAll(filepath.Join(d, sub), recvPerms); err != nil {
				return err
			}
		}
	}
	return nil
}

// escapeKey keeps [A-Za-z0-9_-] and %-escapes every other byte.
func escapeKey(k string) string {
	var b strings.Builder
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// receivedName is the file name of message n with key.
func receivedName(n int, key string) string {
	if key == "" {
		return fmt.Sprintf("%06d.txt", n)
	}
	return fmt.Sprintf("%06d.%s.txt", n, escapeKey(key))
}

// parseReceivedName reads a message file's number and escaped key.
func parseReceivedName(name string) (int, string, bool) {
	base, ok := strings.CutSuffix(name, ".txt")
	if !ok {
		return 0, "", false
	}
	num, key, _ := strings.Cut(base, ".")
	n, err := strconv.Atoi(num)
	return n, key, err == nil && n > 0
}

// Received is a run's side of its received channels: the run's own
// sends to them and its receives.
type Received struct {
	runDir  string
	mask    *redact.Redactor // nil: files hold payloads as sent
	records string           // the run's records: real payloads of masked files ("": none)
}

// NewReceived returns the received channels of the run in runDir; mask
// masks credentials in the files it writes (and in the files of
// messages sent from outside, once received), whose real payloads are
// kept under records (the run's RecordsDir; "" keeps them nowhere).
func NewReceived(runDir string, mask *redact.Redactor, records string) *Received {
	return &Received{runDir: runDir, mask: mask, records: records}
}

// privatePath is where the real payload of a masked message file is kept.
func (r *Received) privatePath(channel, name string) string {
	return filepath.Join(r.records, recvDir, channel, name)
}

// Put stores a message of the run itself on received channel channel.
func (r *Received) Put(channel, key, payload string) error {
	stored := payload
	if r.mask != nil {
		stored = r.mask.String(payload)
	}
	_, err := PutReceived(r.runDir, channel, key, stored, func(name string) error {
		if stored == payload || r.records == "" {
			return nil
		}
		p := r.privatePath(channel, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			return err
		}
		return os.WriteFile(p, []byte(payload), 0o600)
	})
	return err
}

// PutReceived stores payload as the next message of received channel
// channel of the run in runDir (the run's own send, or `jaiph send`);
// before the message appears, before(name) may keep what goes with it.
// It returns the message file's name.
func PutReceived(runDir, channel, key, payload string, before func(name string) error) (string, error) {
	d := ReceivedDir(runDir, channel)
	tmp, err := os.CreateTemp(filepath.Join(d, tmpDir), "msg-*")
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.WriteString(payload); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return "", err
	}
	if err := tmp.Close(); err != nil {
		return "", err
	}
	unlock, err := lockDir(filepath.Join(d, lockName))
	if err != nil {
		return "", err
	}
	defer unlock()
	// The channel's directory first, then taken/: a message a receive
	// moves meanwhile is seen in one of them.
	n := max(lastNumber(d), lastNumber(filepath.Join(d, takenDir))) + 1
	for {
		name := receivedName(n, key)
		if before != nil {
			if err := before(name); err != nil {
				return "", err
			}
		}
		err := os.Link(tmp.Name(), filepath.Join(d, name))
		if errors.Is(err, fs.ErrExist) {
			n++
			continue
		}
		if err != nil {
			return "", err
		}
		syncDir(d)
		return name, nil
	}
}

// lastNumber is the highest message number in dir (0 for none).
func lastNumber(dir string) int {
	ents, _ := os.ReadDir(dir)
	last := 0
	for _, e := range ents {
		if n, _, ok := parseReceivedName(e.Name()); ok && n > last {
			last = n
		}
	}
	return last
}

func syncDir(d string) {
	if f, err := os.Open(d); err == nil {
		f.Sync()
		f.Close()
	}
}

// Take takes the first message of channel (with key when hasKey) and
// returns its payload and file name; ok is false when there is none yet.
func (r *Received) Take(channel, key string, hasKey bool) (payload, name string, ok bool, err error) {
	d := ReceivedDir(r.runDir, channel)
	ents, err := os.ReadDir(d)
	if err != nil {
		return "", "", false, err
	}
	type msg struct {
		n    int
		name string
	}
	var msgs []msg
	want := escapeKey(key)
	for _, e := range ents {
		n, k, good := parseReceivedName(e.Name())
		if good && !e.IsDir() && (!hasKey || k == want) {
			msgs = append(msgs, msg{n, e.Name()})
		}
	}
	sort.Slice(msgs, func(i, j int) bool { return msgs[i].n < msgs[j].n })
	for _, m := range msgs {
		dst := filepath.Join(d, takenDir, m.name)
		if err := os.Rename(filepath.Join(d, m.name), dst); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue // another receive took it
			}
			return "", "", false, err
		}
		data, err := os.ReadFile(dst)
		if err != nil {
			return "", "", false, err
		}
		payload := string(data)
		if r.records != "" {
			if real, err := os.ReadFile(r.privatePath(channel, m.name)); err == nil {
				return string(real), m.name, true, nil
			}
		}
		// A message sent from outside holds its payload as sent: mask the
		// file now, keeping the real payload among the records.
		if r.mask != nil {
			if masked := r.mask.String(payload); masked != payload {
				if r.records != "" {
					p := r.privatePath(channel, m.name)
					if os.MkdirAll(filepath.Dir(p), 0o700) == nil {
						os.WriteFile(p, data, 0o600)
					}
				}
				os.WriteFile(dst, []byte(masked), 0o644)
			}
		}
		return payload, m.name, true, nil
	}
	return "", "", false, nil
}

// Read returns the payload of message name of channel, which a receive
// took (a resumed run's replay of that receive).
func (r *Received) Read(channel, name string) (string, error) {
	if strings.ContainsAny(name, "/\\") {
		return "", fmt.Errorf("bad message name %q", name)
	}
	if r.records != "" {
		if real, err := os.ReadFile(r.privatePath(channel, name)); err == nil {
			return string(real), nil
		}
	}
	data, err := os.ReadFile(filepath.Join(ReceivedDir(r.runDir, channel), takenDir, name))
	return string(data), err
}

// Wait blocks until Take gets a message of channel (with key when hasKey),
// the timeout (0: none) passes (ErrTimeout) or ctx ends (its error), and
// returns its payload and file name. It is woken by the message file's
// arrival (inotify on Linux; elsewhere it looks again every 100 ms).
func (r *Received) Wait(ctx context.Context, channel, key string, hasKey bool, timeout time.Duration) (string, string, error) {
	var deadline time.Time
	if timeout > 0 {
		deadline = time.Now().Add(timeout)
	}
	w, err := newDirWatch(ReceivedDir(r.runDir, channel))
	if err != nil {
		return "", "", err
	}
	defer w.close()
	for {
		// Watching first, then looking: a message that arrives between
		// the two wakes the wait below.
		p, name, ok, err := r.Take(channel, key, hasKey)
		if err != nil || ok {
			return p, name, err
		}
		left := time.Duration(-1)
		if !deadline.IsZero() {
			if left = time.Until(deadline); left <= 0 {
				return "", "", ErrTimeout
			}
		}
		if err := w.wait(ctx, left); err != nil {
			return "", "", err
		}
	}
}

// Received returns the received channels of the run in runDir, masked as
// fs masks its message files (Mask), their real payloads among the run's
// records.
func (fs *Files) Received(runDir string) *Received {
	records := ""
	if fs.recordsOf != nil {
		records = fs.recordsOf()
	}
	return NewReceived(runDir, fs.mask, records)
}

// Declare makes the directories of the channels the run receives on.
func (r *Received) Declare(channels []string) error { return DeclareReceived(r.runDir, channels) }
