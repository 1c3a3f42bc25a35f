package auth

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
)

// allowedAlgs are the signature algorithms a token may use: asymmetric
// ones only. "none" would need no key; HMAC would let anyone holding the
// issuer's public key (which is public) sign tokens if it were ever used as
// a secret; ES256K is not something identity providers sign with. Set
// explicitly so neither go-oidc's defaults nor a discovery document can
// widen it.
var allowedAlgs = []string{
	oidc.RS256, oidc.RS384, oidc.RS512,
	oidc.PS256, oidc.PS384, oidc.PS512,
	oidc.ES256, oidc.ES384, oidc.ES512,
	oidc.EdDSA,
}

// oidcAuth verifies JWTs from one issuer for one audience.
type oidcAuth struct {
	issuer, audience string
	// base carries the HTTP client for go-oidc (which configures through
	// context values) and the lifetime of fetches shared by requests.
	base context.Context
	// timeout bounds each request's wait for the identity provider.
	timeout time.Duration

	mu sync.Mutex
	// verifier is set once the key set's URL is known: at once when
	// JAIPH_SERVE_OIDC_JWKS_URI gives it, else after discovery succeeds.
	verifier *oidc.IDTokenVerifier
	// pending is the discovery under way, which concurrent requests share
	// instead of each asking the identity provider.
	pending *discovery
}

type discovery struct {
	done     chan struct{}
	verifier *oidc.IDTokenVerifier
	err      error
}

func newOIDCAuth(ctx context.Context, issuer, audience, jwksURI string, client *http.Client) *oidcAuth {
	a := &oidcAuth{
		issuer:   issuer,
		audience: audience,
		base:     oidc.ClientContext(ctx, client),
		timeout:  fetchTimeout,
	}
	if jwksURI != "" {
		a.verifier = a.newVerifier(jwksURI)
	}
	return a
}

func (a *oidcAuth) Mode() Mode { return ModeOIDC }

func (a *oidcAuth) newVerifier(jwksURI string) *oidc.IDTokenVerifier {
	keys := keySet{remote: oidc.NewRemoteKeySet(a.base, jwksURI)}
	return oidc.NewVerifier(a.issuer, keys, &oidc.Config{
		ClientID:             a.audience,
		SupportedSigningAlgs: allowedAlgs,
	})
}

func (a *oidcAuth) Authenticate(r *http.Request) (Principal, *Error) {
	tok, aerr := credential(r)
	if aerr != nil {
		return Principal{}, aerr
	}
	// Only the compact form is a bearer JWT; go-jose would also parse the
	// JSON serialization, which no identity provider issues as a token.
	if strings.Count(tok, ".") != 2 {
		return Principal{}, tokenInvalid(fmt.Sprintf("the bearer token is not a JWT (header.payload.signature): "+
			"send an access token issued by %s for audience %q", a.issuer, a.audience), nil)
	}

	ctx, cancel := context.WithTimeout(r.Context(), a.timeout)
	defer cancel()
	v, err := a.getVerifier(ctx)
	if err != nil {
		return Principal{}, a.discoveryError(err)
	}

	note := &fetchNote{}
	idt, err := v.Verify(context.WithValue(ctx, fetchNoteKey{}, note), tok)
	if err != nil {
		if note.err != nil {
			return Principal{}, unavailable(fmt.Sprintf("could not fetch the signing keys of the identity provider %s "+
				"(will retry on the next request): check that it is up and reachable from this server", a.issuer), note.err)
		}
		var expired *oidc.TokenExpiredError
		if errors.As(err, &expired) {
			// go-oidc reads a missing exp as the zero time, long expired;
			// "expired" would send the caller to fetch a new token that
			// would fail the same way.
			if expired.Expiry.IsZero() {
				return Principal{}, tokenInvalid("the token has no exp claim: tokens must expire; "+
					"configure the identity provider to set one", err)
			}
			return Principal{}, tokenExpired(err)
		}
		return Principal{}, tokenInvalid(fmt.Sprintf("the token was refused (signature, algorithm, key id, issuer, "+
			"audience or not-before time): send an access token issued by %s for audience %q", a.issuer, a.audience), err)
	}

	var c tokenClaims
	if err := idt.Claims(&c); err != nil {
		return Principal{}, tokenInvalid("the token's claims could not be read: a sub, client_id, scope or scp claim has an unexpected type", err)
	}
	return principalFrom(c)
}

// getVerifier returns the verifier, discovering the key set's URL first if
// no request has managed to yet. A failed discovery is not cached: the next
// request tries again, so serve recovers once the identity provider does.
func (a *oidcAuth) getVerifier(ctx context.Context) (*oidc.IDTokenVerifier, error) {
	a.mu.Lock()
	if a.verifier != nil {
		v := a.verifier
		a.mu.Unlock()
		return v, nil
	}
	d := a.pending
	if d == nil {
		d = &discovery{done: make(chan struct{})}
		a.pending = d
		go a.discover(d)
	}
	a.mu.Unlock()

	// The discovery runs on base, not ctx: a caller that hangs up must not
	// fail the discovery for the others waiting on it.
	select {
	case <-d.done:
		return d.verifier, d.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (a *oidcAuth) discover(d *discovery) {
	ctx, cancel := context.WithTimeout(a.base, a.timeout)
	defer cancel()
	v, err := a.fetchVerifier(ctx)

	a.mu.Lock()
	if err == nil {
		a.verifier = v
	}
	a.pending = nil
	a.mu.Unlock()

	d.verifier, d.err = v, err
	close(d.done)
}

// fetchVerifier reads <issuer>/.well-known/openid-configuration for the key
// set's URL. go-oidc checks that the document names the same issuer.
func (a *oidcAuth) fetchVerifier(ctx context.Context) (*oidc.IDTokenVerifier, error) {
	p, err := oidc.NewProvider(ctx, a.issuer)
	if err != nil {
		return nil, err
	}
	var meta struct {
		JWKSURI string `json:"jwks_uri"`
	}
	if err := p.Claims(&meta); err != nil {
		return nil, err
	}
	if meta.JWKSURI == "" {
		return nil, errNoJWKSURI
	}
	// The same rule as for JAIPH_SERVE_OIDC_JWKS_URI: keys over plain HTTP
	// could be swapped in transit.
	if err := checkURL("the discovery document's jwks_uri", meta.JWKSURI); err != nil {
		return nil, err
	}
	return a.newVerifier(meta.JWKSURI), nil
}

var errNoJWKSURI = errors.New("the discovery document has no jwks_uri")

// discoveryError says why the identity provider could not be asked, and
// what to do about it.
func (a *oidcAuth) discoveryError(err error) *Error {
	var mismatch *oidc.IssuerMismatchError
	switch {
	case errors.As(err, &mismatch):
		return unavailable(fmt.Sprintf("the discovery document at %s names the issuer %q, not %q: "+
			"set %s to exactly the issuer the identity provider puts in its tokens", a.issuer, mismatch.Discovered, a.issuer, envIssuer), err)
	case errors.Is(err, errNoJWKSURI):
		return unavailable(fmt.Sprintf("the discovery document of %s names no key set (jwks_uri): set %s", a.issuer, envJWKSURI), err)
	}
	return unavailable(fmt.Sprintf("could not read the discovery document of the identity provider %s "+
		"(will retry on the next request): check that it is up and reachable from this server, and that %s is right, "+
		"or set %s to skip discovery", a.issuer, envIssuer, envJWKSURI), err)
}
