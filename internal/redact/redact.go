package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"sort"
	"strings"
)

// Mask replaces each secret.
const Mask = "***"

// MinLen is the shortest value redacted: a shorter one ("1", "on", "dev")
// would mask ordinary words everywhere. Shorter values are not secrets
// anyone should rely on.
const MinLen = 6

// A credential's name contains one of passWords anywhere, has one of
// nameParts as a whole _-separated part (GITHUB_TOKEN, MY_SECRET_VALUE,
// PRIVATE_KEY_PEM, but not TOKENIZER_DIR) or ends in _KEY (OPENAI_API_KEY,
// AWS_SECRET_ACCESS_KEY, SIGNING_KEY).
var (
	passWords = []string{"PASSWORD", "PASSWD", "PASSPHRASE"}
	nameParts = map[string]bool{"TOKEN": true, "TOKENS": true, "SECRET": true, "SECRETS": true,
		"CREDENTIAL": true, "CREDENTIALS": true, "PRIVATE": true, "APIKEY": true, "PAT": true}
)

// SecretName tells whether an environment variable's name looks like it
// holds a credential (case-insensitive).
func SecretName(name string) bool {
	n := strings.ToUpper(name)
	for _, w := range passWords {
		if strings.Contains(n, w) {
			return true
		}
	}
	if strings.HasSuffix(n, "_KEY") {
		return true
	}
	for _, part := range strings.Split(n, "_") {
		if nameParts[part] {
			return true
		}
	}
	return false
}

// Redactor replaces known secret values. A nil *Redactor replaces
// nothing, at no cost: the common case of an environment without secrets.
type Redactor struct {
	needles [][]byte // longest first
}

// FromEnv builds the Redactor of a KEY=VALUE environment: the values of
// secret-looking variables and of those JAIPH_REDACT names (comma
// separated). It returns nil when there is nothing to hide.
func FromEnv(environ []string) *Redactor {
	extra := map[string]bool{}
	for _, kv := range environ {
		if v, ok := strings.CutPrefix(kv, "JAIPH_REDACT="); ok {
			for _, n := range strings.Split(v, ",") {
				if n = strings.TrimSpace(n); n != "" {
					extra[n] = true
				}
			}
		}
	}
	var values []string
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && len(v) >= MinLen && (extra[k] || SecretName(k)) {
			values = append(values, v)
		}
	}
	return New(values...)
}

// New builds a Redactor of the given secret values (those shorter than
// MinLen are ignored); nil when none is left.
func New(values ...string) *Redactor {
	seen := map[string]bool{}
	var needles [][]byte
	add := func(s string) {
		if len(s) >= MinLen && !seen[s] {
			seen[s] = true
			needles = append(needles, []byte(s))
		}
	}
	for _, v := range values {
		if len(v) < MinLen {
			continue
		}
		b := []byte(v)
		add(v)
		// Unpadded base64 is a prefix of the padded form, so it covers both.
		add(base64.RawStdEncoding.EncodeToString(b))
		add(base64.RawURLEncoding.EncodeToString(b))
		add(hex.EncodeToString(b))
		add(strings.ToUpper(hex.EncodeToString(b)))
		add(url.QueryEscape(v))
		add(url.PathEscape(v))
	}
	if len(needles) == 0 {
		return nil
	}
	sort.SliceStable(needles, func(i, j int) bool { return len(needles[i]) > len(needles[j]) })
	return &Redactor{needles: needles}
}

// String returns s with every secret masked.
func (r *Redactor) String(s string) string {
	if r == nil || s == "" {
		return s
	}
	out, _, changed := r.replaceUpTo([]byte(s), len(s))
	if !changed {
		return s
	}
	return string(out)
}

// Bytes returns b with every secret masked (b itself when none occurs).
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil {
		return b
	}
	out, _, _ := r.replaceUpTo(b, len(b))
	return out
}

// Strings masks each element of ss in place and tells whether any changed.
func (r *Redactor) Strings(ss []string) bool {
	changed := false
	for i, s := range ss {
		if t := r.String(s); t != s {
			ss[i], changed = t, true
		}
	}
	return changed
}

// replaceUpTo masks the matches in b that start before limit (the
// leftmost first, the longest at a position) and returns b[:end] masked,
// end (≥ limit: a match that straddles limit is masked whole) and whether
// anything was masked (when not, the result is b[:end] itself).
func (r *Redactor) replaceUpTo(b []byte, limit int) ([]byte, int, bool) {
	pos := make([]int, len(r.needles)) // next match of each needle at or after i, -1: none
	for k, n := range r.needles {
		pos[k] = bytes.Index(b, n)
	}
	var out []byte
	i := 0
	for {
		best := -1
		for k, p := range pos {
			if p >= 0 && p < limit && (best < 0 || p < pos[best]) { // longest first: ties keep the earlier k
				best = k
			}
		}
		if best < 0 {
			break
		}
		start := pos[best]
		if out == nil {
			out = make([]byte, 0, len(b))
		}
		out = append(append(out, b[i:start]...), Mask...)
		i = start + len(r.needles[best])
		for k, p := range pos {
			if p >= 0 && p < i {
				if q := bytes.Index(b[i:], r.needles[k]); q >= 0 {
					pos[k] = i + q
				} else {
					pos[k] = -1
				}
			}
		}
	}
	end := max(i, limit)
	if out == nil {
		return b[:end], end, false
	}
	return append(out, b[i:end]...), end, true
}
