package auth

import (
	"encoding/json"
	"errors"
	"strings"
)

// tokenClaims are the claims, beyond go-oidc's checked ones, that make a
// principal.
type tokenClaims struct {
	Subject  string          `json:"sub"`
	ClientID string          `json:"client_id"` // RFC 9068: the client a client-credentials token was issued to
	Scope    json.RawMessage `json:"scope"`     // RFC 8693/9068: space-separated string
	Scp      json.RawMessage `json:"scp"`       // Azure AD, Okta: a list (or a string)
}

// principal makes the caller from verified claims: sub, else client_id
// (machine tokens often have no sub), with the scopes of both scope and
// scp. It returns an *Error when neither names a caller.
func principalFrom(c tokenClaims) (Principal, *Error) {
	id := c.Subject
	if id == "" {
		id = c.ClientID
	}
	if id == "" {
		return Principal{}, unauthorized("the token names no caller (it has neither a sub nor a client_id claim): "+
			"ask the identity provider for a token that has one", true)
	}
	p := Principal{ID: id, Kind: ModeOIDC, scopes: map[Scope]bool{}}
	for _, raw := range []json.RawMessage{c.Scope, c.Scp} {
		names, err := scopeNames(raw)
		if err != nil {
			return Principal{}, tokenInvalid("the token's scope or scp claim is neither a string nor a list of strings", err)
		}
		for _, n := range names {
			if s := Scope(n); knownScope(s) {
				p.scopes[s] = true
			}
		}
	}
	return p, nil
}

// scopeNames reads a scope claim written either as a space-separated string
// or as a list of strings; both spellings occur for both claim names.
func scopeNames(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return strings.Fields(s), nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, errors.New("scope claim of an unexpected JSON type")
	}
	var out []string
	for _, e := range list {
		out = append(out, strings.Fields(e)...)
	}
	return out, nil
}
