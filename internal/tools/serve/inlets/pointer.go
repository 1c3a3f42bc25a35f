package inlets

// This file answers: how is a value taken out of a payload? By a JSON
// Pointer (RFC 6901: "/pull_request/head/ref", "~1" for "/", "~0" for
// "~"), the standard way to name a place in a JSON document, so that the
// file needs no expression language: a pointer selects data and can
// compute nothing.

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// checkPointer refuses what is not a pointer to a place inside a document.
func checkPointer(p string) error {
	if !strings.HasPrefix(p, "/") {
		return errors.New("a JSON Pointer begins with \"/\" (e.g. \"/pull_request/head/ref\")")
	}
	for i := 0; i < len(p); i++ {
		if p[i] == '~' && (i+1 == len(p) || p[i+1] != '0' && p[i+1] != '1') {
			return errors.New("in a JSON Pointer \"~\" is written \"~0\" and \"/\" inside a name \"~1\"")
		}
	}
	return nil
}

// lookup is the value at pointer p in doc (decoded with UseNumber).
func lookup(doc any, p string) (any, bool) {
	if p == "" {
		return doc, true
	}
	cur := doc
	for _, tok := range strings.Split(p[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[tok]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(v) || tok != strconv.Itoa(i) {
				return nil, false
			}
			cur = v[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// text is a payload value as an argument: a string as it is, a number as
// it was written; anything else is not an argument.
func text(v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return v, true
	case json.Number:
		return v.String(), true
	}
	return "", false
}

// equal tells whether a payload value equals a condition's value (numbers
// by value: 1 and 1.0 are equal).
func equal(v any, want *node) bool {
	switch want.kind {
	case 's':
		s, ok := v.(string)
		return ok && s == want.str
	case 'n':
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		a, err1 := strconv.ParseFloat(n.String(), 64)
		b, err2 := strconv.ParseFloat(want.str, 64)
		return err1 == nil && err2 == nil && a == b
	case 'b':
		b, ok := v.(bool)
		return ok && b == want.b
	case 'z':
		return v == nil
	}
	return false
}

// canonicalHeader is a header's name as Go's HTTP server keys it
// ("x-github-event" → "X-Github-Event"); net/textproto's would link the
// network stack into the default build.
func canonicalHeader(h string) string {
	b := []byte(strings.ToLower(h))
	upper := true
	for i, c := range b {
		if upper && 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
		upper = c == '-'
	}
	return string(b)
}
