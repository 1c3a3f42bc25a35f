package inlets

// This file answers: how does a mistake in the file get a line and a
// column? encoding/json's errors carry no position for an unknown key or a
// wrong type, so the file is read token by token into a tree that keeps
// every value's offset, and the checks walk that tree.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// node is one JSON value and where it starts.
type node struct {
	off  int64
	kind byte // 'o' object, 'a' array, 's' string, 'n' number, 'b' bool, 'z' null
	keys []string
	vals []*node // an object's values (in keys' order) or an array's elements
	koff []int64 // each key's offset
	str  string  // a string, or a number's text
	b    bool
}

// kindName is what a mistake calls the kind.
func (n *node) kindName() string {
	return map[byte]string{'o': "an object", 'a': "an array", 's': "a string", 'n': "a number", 'b': "a boolean", 'z': "null"}[n.kind]
}

// parseTree reads one JSON document.
func parseTree(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	p := &reader{dec: dec, data: data}
	n, err := p.node()
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &posError{off: dec.InputOffset(), msg: "more than one JSON value: the file is one object"}
	}
	return n, nil
}

// reader reads the tree; data is what dec reads, to find where a token
// starts.
type reader struct {
	dec  *json.Decoder
	data []byte
}

func (p *reader) node() (*node, error) {
	dec := p.dec
	start := p.next()
	tok, err := dec.Token()
	if err != nil {
		return nil, p.syntaxError(err)
	}
	n := &node{off: start}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n.kind = 'o'
			for dec.More() {
				koff := p.next()
				k, err := dec.Token()
				if err != nil {
					return nil, p.syntaxError(err)
				}
				v, err := p.node()
				if err != nil {
					return nil, err
				}
				n.keys, n.vals, n.koff = append(n.keys, k.(string)), append(n.vals, v), append(n.koff, koff)
			}
		case '[':
			n.kind = 'a'
			for dec.More() {
				v, err := p.node()
				if err != nil {
					return nil, err
				}
				n.vals = append(n.vals, v)
			}
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, p.syntaxError(err)
		}
	case string:
		n.kind, n.str = 's', t
	case json.Number:
		n.kind, n.str = 'n', t.String()
	case bool:
		n.kind, n.b = 'b', t
	case nil:
		n.kind = 'z'
	}
	return n, nil
}

// skipSpaceOffset is where the next token starts: InputOffset is the end
// of the last one, before the separator and blanks that follow it.
func (p *reader) next() int64 {
	off := p.dec.InputOffset()
	for off < int64(len(p.data)) {
		switch p.data[off] {
		case ' ', '\t', '\n', '\r', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

func (p *reader) syntaxError(err error) error {
	dec := p.dec
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &posError{off: se.Offset, msg: "not JSON: " + se.Error()}
	}
	if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
		return &posError{off: int64(len(p.data)), msg: "the file ends inside a value: close every { and ["}
	}
	return &posError{off: dec.InputOffset(), msg: "not JSON: " + err.Error()}
}

// posError is a mistake at a byte offset of the file; Locate names the
// file, line and column.
type posError struct {
	off int64
	msg string
}

func (e *posError) Error() string { return fmt.Sprintf("offset %d: %s", e.off, e.msg) }

// position is "FILE:LINE:COL" of off in data (columns count bytes, from 1).
func position(file string, data []byte, off int64) string {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return fmt.Sprintf("%s:%d:%d", file, line, col)
}
