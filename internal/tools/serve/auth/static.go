package auth

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
)

// Authenticator tells serve who sent a request.
type Authenticator interface {
	// Mode is the mode FromEnv configured.
	Mode() Mode
	// Authenticate reads the request's credential and returns the caller,
	// or an *Error (401/503).
	Authenticate(r *http.Request) (Principal, *Error)
}

// tokenAuth accepts one static bearer token.
type tokenAuth struct {
	// sum is the token's SHA-256: comparing digests of fixed length keeps
	// subtle.ConstantTimeCompare from returning early on a length mismatch,
	// which would leak the token's length.
	sum [sha256.Size]byte
}

func newTokenAuth(token string) *tokenAuth {
	return &tokenAuth{sum: sha256.Sum256([]byte(token))}
}

func (a *tokenAuth) Mode() Mode { return ModeToken }

func (a *tokenAuth) Authenticate(r *http.Request) (Principal, *Error) {
	tok, aerr := credential(r)
	if aerr != nil {
		return Principal{}, aerr
	}
	got := sha256.Sum256([]byte(tok))
	if subtle.ConstantTimeCompare(got[:], a.sum[:]) != 1 {
		return Principal{}, unauthorized("wrong token: send the value of JAIPH_SERVE_TOKEN that serve was started with", true)
	}
	return operator, nil
}

// noAuth lets everyone in; CheckBind keeps it to loopback binds.
type noAuth struct{}

func (noAuth) Mode() Mode { return ModeNone }

func (noAuth) Authenticate(*http.Request) (Principal, *Error) { return anonymous, nil }
