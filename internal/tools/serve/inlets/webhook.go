package inlets

// This file answers: is a delivery genuine, and what does it ask for? A
// webhook's secret is the sender's authentication: a body whose HMAC does
// not match is refused before it is read as JSON; a genuine one goes
// through the rules in order, and the first whose conditions hold decides.

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// ErrBadSignature: the delivery is unsigned or not signed with the secret.
var ErrBadSignature = errors.New("bad signature")

// Verify checks body's signature in header (a request's header lookup)
// against the webhook's secret, in constant time.
func (w *Webhook) Verify(header func(string) string, body []byte) error {
	got := strings.TrimSpace(header(w.Header))
	if got == "" {
		return fmt.Errorf("%w: no %s header (sign the delivery with the webhook's secret)", ErrBadSignature, w.Header)
	}
	hexSig, prefixed := strings.CutPrefix(got, "sha256=")
	if w.Scheme == SchemeGitHub && !prefixed {
		return fmt.Errorf("%w: %s is not sha256=<hex>", ErrBadSignature, w.Header)
	}
	sig, err := hex.DecodeString(hexSig)
	if err != nil {
		return fmt.Errorf("%w: %s is not hexadecimal", ErrBadSignature, w.Header)
	}
	if len(w.secret) == 0 { // Secrets was not called: nothing verifies
		return fmt.Errorf("%w: the webhook has no secret", ErrBadSignature)
	}
	if !hmac.Equal(sig, Sign(w.secret, body)) {
		return fmt.Errorf("%w: %s does not match the body (is the secret the sender's?)", ErrBadSignature, w.Header)
	}
	return nil
}

// Sign is the HMAC-SHA256 of body with secret.
func Sign(secret, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write(body)
	return m.Sum(nil)
}

// SetSecret gives the webhook its secret (tests; Secrets reads it from the
// environment).
func (w *Webhook) SetSecret(secret []byte) { w.secret = secret }

// ParsePayload decodes a delivery's body: one JSON value, numbers kept as
// written.
func ParsePayload(body []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("the body is not JSON: %v", err)
	}
	if dec.More() {
		return nil, errors.New("the body is more than one JSON value")
	}
	return v, nil
}

// Verdict is what a delivery asks for (POST /hooks/{name}/replay shows
// it).
type Verdict struct {
	Inlet    string            `json:"inlet"`
	Action   string            `json:"action"`            // start, ignore, send, or none: no rule matched
	Rule     int               `json:"rule,omitempty"`    // the matching rule, from 1
	RuleAt   string            `json:"rule_at,omitempty"` // its place in the file
	Workflow string            `json:"workflow,omitempty"`
	Args     map[string]string `json:"args,omitempty"`
	Channel  string            `json:"channel,omitempty"`
	Key      string            `json:"key,omitempty"` // send: the key taken from the payload
	Reason   string            `json:"reason"`
	// Unprocessable: the rule matched but the payload lacks what it takes
	// (422).
	Unprocessable bool `json:"unprocessable,omitempty"`
}

// Route is the verdict on payload with the request's header lookup.
func (w *Webhook) Route(payload any, header func(string) string) Verdict {
	v := Verdict{Inlet: w.Name, Action: "none"}
	var why []string
rules:
	for i, r := range w.Rules {
		for h, want := range r.Headers {
			if got := header(h); got != want {
				why = append(why, fmt.Sprintf("rule %d: %s is %q, not %q", i+1, h, got, want))
				continue rules
			}
		}
		for _, c := range r.Payload {
			got, ok := lookup(payload, c.Pointer)
			if !ok || !equal(got, c.Value) {
				why = append(why, fmt.Sprintf("rule %d: %s does not match", i+1, c.Pointer))
				continue rules
			}
		}
		v.Action, v.Rule, v.RuleAt = r.Action, i+1, r.Pos
		switch r.Action {
		case ActionIgnore:
			v.Reason = fmt.Sprintf("rule %d ignores it", i+1)
		case ActionStart:
			v.Workflow, v.Args = r.Workflow, map[string]string{}
			for name, p := range r.Args {
				val, ok := lookup(payload, p)
				s, isText := text(val)
				if !ok || !isText {
					v.Unprocessable = true
					v.Reason = fmt.Sprintf("rule %d matches, but argument %q: the payload has no string or number at %s", i+1, name, p)
					return v
				}
				v.Args[name] = s
			}
			v.Reason = fmt.Sprintf("rule %d starts %s", i+1, r.Workflow)
		case ActionSend:
			v.Channel = r.Channel
			val, ok := lookup(payload, r.Key)
			s, isText := text(val)
			if !ok || !isText {
				v.Unprocessable = true
				v.Reason = fmt.Sprintf("rule %d matches, but the payload has no string or number at %s (the key)", i+1, r.Key)
				return v
			}
			v.Key = s
			v.Reason = fmt.Sprintf("rule %d sends it to %s of the runs waiting with key %q", i+1, r.Channel, s)
		}
		return v
	}
	v.Reason = "no rule matches (nothing is done): " + strings.Join(why, "; ")
	return v
}
