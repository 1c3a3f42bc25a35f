package inbox

// This file answers: where is the real payload of a message whose file in
// the run directory holds it masked (docs/inbox-files.md "Credentials"),
// and how do a delivery and a redrive get it back?
//
// A run directory may be published (jaiph report, jaiph serve, a CI job's
// upload), so a message file holds the payload with the run environment's
// credentials masked. A delivery must get the payload as sent, so the
// payload of each message that held a credential is also appended to one
// log among the run's records (outside the run directory, beside its
// journal): PayloadsFile. A message without a credential has no record
// there (its file is its payload), and a run whose environment holds no
// credential never creates the log.

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"

	"github.com/jaiph-go/jaiph/internal/redact"
)

// PayloadsFile is the log, among a run's records (runs.RecordsDir), of
// the real payloads of the messages whose files hold them masked. Each
// record is a header line and, unless it is a tombstone, the payload and
// a newline:
//
//	NNN LEN SUM\n<LEN bytes>\n   message NNN's payload; SUM: sumOf its file
//	NNN - -\n                    a tombstone: message NNN's file is its payload
//
// A number's last record wins (a resumed run numbers its messages from 1
// again and rewrites their files), and only while SUM matches the message
// file's content: a file rewritten since (by a resume, with a payload that
// held no credential) is its own payload. A record cut short by a kill
// ends the log; the next writer cuts it off before appending.
const PayloadsFile = "payloads"

// Mask makes fs write every message file with r's credentials masked
// (nil: as sent) and keep the real payload of each message that held one
// in PayloadsFile among the records that records names when Open is
// called (the runtime knows them only once the run has started). A run
// without records ("": a worker's delivery) keeps those payloads in
// memory: nothing reads its messages again after it ends. Without Mask
// (jaiph test, whose artifacts are raw too) files hold payloads as sent.
// Call it before Open.
func (fs *Files) Mask(r *redact.Redactor, records func() string) {
	fs.mask, fs.recordsOf = r, records
}

// payloads is the real payloads of a run's messages whose files hold
// them masked: PayloadsFile, or a map for a run without records.
type payloads struct {
	mu   sync.Mutex
	path string   // "": in memory (mem)
	f    *os.File // PayloadsFile, open for appending and reading; nil until the first record
	size int64    // where the next record goes
	// sameFS: the log is on the inbox's file system, whose syncfs makes
	// it durable with the batch's message files (sync_linux.go).
	sameFS bool
	broken error // a failed write that could not be cut back
	// index: by message number, where its last record is. 32 bytes an
	// entry, so 10,000 messages with credentials cost about 0.5 MB.
	index map[uint32]payloadLoc
	mem   map[uint32]string
}

// payloadLoc is where a message's payload is in the log.
type payloadLoc struct {
	off int64
	n   int32    // -1: a tombstone
	sum [16]byte // sumOf the message file it goes with
}

// openPayloads opens the payloads of a run whose records are in records
// ("": in memory). The existing log (a resumed or redriven run's) is read
// for its index, and a record a kill cut short at its end is cut off.
func openPayloads(records string) (*payloads, error) {
	p := &payloads{index: map[uint32]payloadLoc{}}
	if records == "" {
		p.mem = map[uint32]string{}
		return p, nil
	}
	p.path = records + string(os.PathSeparator) + PayloadsFile
	f, err := os.OpenFile(p.path, os.O_RDWR|os.O_APPEND, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return p, nil // created with the first record
	}
	if err != nil {
		return nil, err
	}
	p.f = f
	if err := p.load(); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", p.path, err)
	}
	return p, nil
}

// load reads the index of the log and cuts off a torn last record.
func (p *payloads) load() error {
	st, err := p.f.Stat()
	if err != nil {
		return err
	}
	r := bufio.NewReader(io.NewSectionReader(p.f, 0, st.Size()))
	var off int64 // the end of the last whole record
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			break
		}
		seq, n, sum, ok := parsePayloadHeader(strings.TrimSuffix(line, "\n"))
		if !ok {
			break
		}
		start := off + int64(len(line))
		if n >= 0 {
			if _, err := r.Discard(int(n)); err != nil {
				break
			}
			if b, err := r.ReadByte(); err != nil || b != '\n' {
				break
			}
		}
		p.index[seq] = payloadLoc{off: start, n: n, sum: sum}
		off = start + int64(max(n+1, 0))
	}
	if off < st.Size() {
		if err := p.f.Truncate(off); err != nil {
			return err
		}
	}
	p.size = off
	return nil
}

// parsePayloadHeader parses `NNN LEN SUM` or a tombstone's `NNN - -`.
func parsePayloadHeader(line string) (seq uint32, n int32, sum [16]byte, ok bool) {
	f := strings.Split(line, " ")
	num, err := strconv.ParseUint(f[0], 10, 32)
	if len(f) != 3 || err != nil {
		return 0, 0, sum, false
	}
	if f[1] == "-" && f[2] == "-" {
		return uint32(num), -1, sum, true
	}
	size, err := strconv.ParseInt(f[1], 10, 32)
	if err != nil || size < 0 || len(f[2]) != hex.EncodedLen(len(sum)) {
		return 0, 0, sum, false
	}
	if _, err := hex.Decode(sum[:], []byte(f[2])); err != nil {
		return 0, 0, sum, false
	}
	return uint32(num), int32(size), sum, true
}

// sumOf identifies a message file's content (the first 16 bytes of its
// sha256): a record stands for the file only while it holds what the
// record was written with.
func sumOf(file string) (sum [16]byte) {
	s := sha256.Sum256([]byte(file))
	copy(sum[:], s[:])
	return sum
}

// kept is one message of a commit as the log sees it: number seq, its
// real payload raw ("" when its file is its payload) and sumOf its file.
type kept struct {
	seq uint32
	raw string
	sum [16]byte
}

// wanted tells whether a commit of batch has anything for the log: a
// payload that held a credential, or a number that may have a record (a
// resumed run's, or this run's in memory). Most commits have neither.
func (p *payloads) wanted(batch []*pendingMessage) bool {
	for _, m := range batch {
		if m.raw != "" {
			return true
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.index) > 0 || len(p.mem) > 0
}

// keep records the real payloads of ks (and a tombstone for a message
// without one whose number has a record: a resumed run's), in one write,
// synced when durable. Nothing is written for messages that need nothing.
func (p *payloads) keep(ks []kept, durable bool) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mem != nil {
		for _, k := range ks {
			if k.raw != "" {
				p.mem[k.seq] = k.raw
			} else {
				delete(p.mem, k.seq)
			}
		}
		return nil
	}
	var buf []byte
	locs := make([]payloadLoc, 0, len(ks))
	var seqs []uint32
	for _, k := range ks {
		if k.raw == "" {
			if l, ok := p.index[k.seq]; !ok || l.n < 0 {
				continue // no record, or a tombstone already
			}
			buf = append(buf, Number(int(k.seq))+" - -\n"...)
			seqs, locs = append(seqs, k.seq), append(locs, payloadLoc{n: -1})
			continue
		}
		if len(k.raw) > math.MaxInt32 {
			return fmt.Errorf("message %s: a payload of %d bytes", Number(int(k.seq)), len(k.raw))
		}
		buf = append(buf, Number(int(k.seq))+" "+strconv.Itoa(len(k.raw))+" "...)
		buf = append(hex.AppendEncode(buf, k.sum[:]), '\n')
		seqs, locs = append(seqs, k.seq), append(locs, payloadLoc{off: p.size + int64(len(buf)), n: int32(len(k.raw)), sum: k.sum})
		buf = append(append(buf, k.raw...), '\n')
	}
	if len(buf) == 0 {
		return nil
	}
	if p.f == nil {
		f, err := os.OpenFile(p.path, os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return err
		}
		p.f = f
	}
	if p.broken != nil {
		return p.broken
	}
	if _, err := p.f.Write(buf); err != nil {
		// Cut off what the write left, so the next record goes where the
		// index says; when that fails too, no record can be added.
		if terr := p.f.Truncate(p.size); terr != nil {
			p.broken = fmt.Errorf("%s: %w (and cannot cut it back: %v)", p.path, err, terr)
		}
		return err
	}
	for i, seq := range seqs {
		p.index[seq] = locs[i]
	}
	p.size += int64(len(buf))
	if durable {
		return p.f.Sync()
	}
	return nil
}

// raw is the real payload of message seq whose file holds file, when the
// log has one for that file.
func (p *payloads) raw(seq uint32, file []byte) (string, bool, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.mem != nil {
		s, ok := p.mem[seq]
		return s, ok, nil
	}
	l, ok := p.index[seq]
	if !ok || l.n < 0 || l.sum != sumOf(string(file)) {
		return "", false, nil
	}
	buf := make([]byte, l.n)
	if _, err := p.f.ReadAt(buf, l.off); err != nil {
		return "", false, fmt.Errorf("%s: message %s: %w", p.path, Number(int(seq)), err)
	}
	return string(buf), true, nil
}

// file is the log's path once it exists ("" before its first record).
func (p *payloads) file() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.f == nil {
		return ""
	}
	return p.path
}

func (p *payloads) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.f != nil {
		p.f.Close()
		p.f = nil
	}
}
