package auth

import (
	"context"
	"errors"

	"github.com/coreos/go-oidc/v3/oidc"
)

// keySet is go-oidc's remote key set (cached, re-fetched when a token names
// a kid it does not hold, which is how key rotation is picked up), plus a
// note of fetch failures. go-oidc's verifier flattens the key set's error
// into a string, so without this note a JWKS endpoint that is down would be
// indistinguishable from a bad signature: 401 instead of 503.
type keySet struct {
	remote *oidc.RemoteKeySet
}

// fetchNote is where keySet records a failed key fetch for the request
// whose context carries it.
type fetchNote struct{ err error }

type fetchNoteKey struct{}

func (k keySet) VerifySignature(ctx context.Context, jwt string) ([]byte, error) {
	payload, err := k.remote.VerifySignature(ctx, jwt)
	// RemoteKeySet wraps (%w) only the error of fetching keys ("fetching
	// keys ..."); a signature no key verifies is a plain errors.New.
	// TestJWKSDown and TestOIDC's unknown-kid case fail if that changes.
	if err != nil && errors.Unwrap(err) != nil {
		if n, ok := ctx.Value(fetchNoteKey{}).(*fetchNote); ok {
			n.err = err
		}
	}
	return payload, err
}
