package auth

import "sort"

// Scope is one permission a caller may hold.
type Scope string

// The scopes serve checks. OIDC tokens carry them in their scope or scp
// claim; the static token and anonymous mode hold all of them.
const (
	ScopeInvoke  Scope = "jaiph:invoke"
	ScopeInspect Scope = "jaiph:inspect"
	ScopeCancel  Scope = "jaiph:cancel"
	// ScopeAdmin sees every principal's runs and the run viewer.
	ScopeAdmin Scope = "jaiph:admin"
	// ScopeSignal sends messages to the channels runs receive on.
	ScopeSignal Scope = "jaiph:signal"
)

// allScopes is every scope this package knows; claims naming anything else
// are ignored rather than refused, since identity providers put unrelated
// scopes (openid, profile, ...) in the same claim.
var allScopes = []Scope{ScopeInvoke, ScopeInspect, ScopeCancel, ScopeAdmin, ScopeSignal}

func knownScope(s Scope) bool {
	for _, k := range allScopes {
		if k == s {
			return true
		}
	}
	return false
}

// Mode is how serve authenticates its callers.
type Mode string

// The modes FromEnv can configure.
const (
	ModeNone  Mode = "none"
	ModeToken Mode = "token"
	ModeOIDC  Mode = "oidc"
)

// Principal is an authenticated caller.
type Principal struct {
	// ID is the token's sub (else its client_id) in OIDC mode, "operator"
	// for the static token, "anonymous" without authentication.
	ID string
	// Kind is the mode that authenticated the caller.
	Kind Mode

	// all grants every scope, so the operator and anonymous principals need
	// no set (and gain any scope added later).
	all    bool
	scopes map[Scope]bool
}

// Can reports whether p holds scope s.
func (p Principal) Can(s Scope) bool {
	return p.all || p.scopes[s]
}

// Scopes lists the scopes p holds, sorted, for a "who am I" answer or a log
// line.
func (p Principal) Scopes() []Scope {
	var out []Scope
	for _, s := range allScopes {
		if p.Can(s) {
			out = append(out, s)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// The fixed principals of the two modes without per-caller identities.
var (
	operator  = Principal{ID: "operator", Kind: ModeToken, all: true}
	anonymous = Principal{ID: "anonymous", Kind: ModeNone, all: true}
)
