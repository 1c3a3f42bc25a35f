package chain

// This file answers: how is a line chained, and how are chained lines
// appended?

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"os"
)

// The MAC before a file's first line: one per file, so that one file's
// chain never verifies as the other's.
const (
	SummaryDomain = "jaiph-summary-v1"
	JournalDomain = "jaiph-journal-v1"
)

// A sidecar entry is the hex MAC of its line, a flag and a newline. The
// flag says whether the line was the last of the lines its write appended
// (flagLast) or more followed in the same write (flagMore); it is MACed
// with the line, so that a reader knows which lines a kill may have cut
// (only the last write's) and nobody can move that boundary.
const (
	flagMore  = '+'
	flagLast  = '.'
	entrySize = 2*sha256.Size + 2
)

// chainer computes a file's MACs: MAC_i = HMAC-SHA256(key, MAC_{i-1} ||
// flag_i || line_i), line_i without its newline, MAC_0 the file's domain.
type chainer struct {
	h    hash.Hash
	prev []byte // MAC_{i-1}
	sum  [sha256.Size]byte
	in   []byte // MAC_{i-1} || flag || line: one Write
}

func newChainer(k *Key, prev []byte) *chainer {
	return &chainer{h: hmac.New(sha256.New, k.b), prev: prev}
}

// mac is the MAC of line (flag flag) after prev.
func (c *chainer) mac(prev []byte, flag byte, line []byte) []byte {
	c.in = append(append(append(c.in[:0], prev...), flag), line...)
	c.h.Reset()
	c.h.Write(c.in)
	return c.h.Sum(c.sum[:0])
}

// next chains line and returns its MAC (valid until the next call).
func (c *chainer) next(flag byte, line []byte) []byte {
	m := c.mac(c.prev, flag, line)
	c.prev = append(c.prev[:0], m...)
	return m
}

// File appends whole lines to a file, each write's MACs first to its
// sidecar: a line is never on disk before its MAC, so a kill leaves at
// most MACs without their lines (the last write's), never a line without
// one. A File is not safe for concurrent use: its writer serializes.
type File struct {
	f, side *os.File
	c       *chainer // nil: appended unchained (no key; no sidecar)
	lines   int      // lines chained so far
	fsync   bool     // sync the sidecar, then the file, after each write
	buf     []byte
	err     error
}

// Plain opens path for appending lines without a chain (a run that keeps
// no records: jaiph test).
func Plain(path string) (*File, error) {
	f, err := appendTo(path)
	if err != nil {
		return nil, err
	}
	return &File{f: f}, nil
}

func appendTo(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
}

// Append writes lines, one or more lines each ending in a newline, in one
// write, after their MACs in one write to the sidecar. The first error
// stops the file: later calls return it.
func (f *File) Append(lines []byte) error {
	if f.err != nil || len(lines) == 0 {
		return f.err
	}
	if f.c != nil {
		f.buf = f.buf[:0]
		for rest := lines; len(rest) > 0; {
			i := bytes.IndexByte(rest, '\n')
			if i < 0 {
				i = len(rest) // not a whole line: chained as one all the same
			}
			flag := byte(flagMore)
			if i >= len(rest)-1 {
				flag = flagLast
			}
			f.buf = appendHex(f.buf, f.c.next(flag, rest[:i]))
			f.buf = append(f.buf, flag, '\n')
			f.lines++
			rest = rest[min(i+1, len(rest)):]
		}
		if f.err = write(f.side, f.buf, f.fsync); f.err != nil {
			return f.err
		}
	}
	f.err = write(f.f, lines, f.fsync)
	return f.err
}

// hexPairs holds each byte's two hex digits.
var hexPairs = func() (t [512]byte) {
	const digits = "0123456789abcdef"
	for i := range 256 {
		t[2*i], t[2*i+1] = digits[i>>4], digits[i&15]
	}
	return t
}()

// appendHex is hex.AppendEncode with a digit pair per byte (a MAC per
// line: it showed in profiles).
func appendHex(dst, src []byte) []byte {
	for _, c := range src {
		dst = append(dst, hexPairs[2*int(c)], hexPairs[2*int(c)+1])
	}
	return dst
}

func write(f *os.File, b []byte, sync bool) error {
	_, err := f.Write(b)
	if err == nil && sync {
		err = f.Sync()
	}
	return err
}

// Mark is where the file's chain stands.
func (f *File) Mark() Mark {
	if f.c == nil {
		return Mark{}
	}
	m := Mark{Lines: f.lines}
	if f.lines > 0 {
		m.MAC = hex.EncodeToString(f.c.prev)
	}
	return m
}

// Err is the error that stopped the file, if any.
func (f *File) Err() error { return f.err }

// Chained tells whether the file's lines are chained.
func (f *File) Chained() bool { return f.c != nil }

// Close closes the file and its sidecar.
func (f *File) Close() error {
	err := f.f.Close()
	if f.side != nil {
		if serr := f.side.Close(); err == nil {
			err = serr
		}
	}
	return err
}
