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

// SecretName tells whether an environment variable's name looks like it
// holds a credential (case-insensitive): it contains PASSWORD, PASSWD or
// PASSPHRASE anywhere, ends in _KEY (OPENAI_API_KEY, AWS_SECRET_ACCESS_KEY,
// SIGNING_KEY) or has TOKEN(S), SECRET(S), CREDENTIAL(S), PRIVATE, APIKEY
// or PAT as a whole _-separated part (GITHUB_TOKEN, MY_SECRET_VALUE,
// PRIVATE_KEY_PEM, but not TOKENIZER_DIR). It runs for every variable of
// every run's environment, so it allocates nothing for upper-case names.
func SecretName(name string) bool {
	n := name
	for i := 0; i < len(name); i++ {
		if 'a' <= name[i] && name[i] <= 'z' {
			n = strings.ToUpper(name)
			break
		}
	}
	if strings.Contains(n, "PASS") &&
		(strings.Contains(n, "PASSWORD") || strings.Contains(n, "PASSWD") || strings.Contains(n, "PASSPHRASE")) {
		return true
	}
	if strings.HasSuffix(n, "_KEY") {
		return true
	}
	for rest := n; rest != ""; {
		var part string
		part, rest, _ = strings.Cut(rest, "_")
		switch part {
		case "TOKEN", "TOKENS", "SECRET", "SECRETS", "CREDENTIAL", "CREDENTIALS", "PRIVATE", "APIKEY", "PAT":
			return true
		}
	}
	return false
}

// Redactor replaces known secret values. A nil *Redactor replaces
// nothing, at no cost: the common case of an environment without secrets.
type Redactor struct {
	needles [][]byte // longest first
	strs    []string // the same, for the no-match test of String
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
		for _, f := range encodedForms(v) {
			add(f)
		}
	}
	if len(needles) == 0 {
		return nil
	}
	sort.SliceStable(needles, func(i, j int) bool { return len(needles[i]) > len(needles[j]) })
	r := &Redactor{needles: needles}
	for _, n := range needles {
		r.strs = append(r.strs, string(n))
	}
	return r
}

// String returns s with every secret masked.
func (r *Redactor) String(s string) string {
	if r == nil || len(s) < MinLen || !r.occursIn(s) {
		return s // most strings: no copy
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

// occursIn tells whether any secret occurs in s.
func (r *Redactor) occursIn(s string) bool {
	for _, n := range r.strs {
		if strings.Contains(s, n) {
			return true
		}
	}
	return false
}
