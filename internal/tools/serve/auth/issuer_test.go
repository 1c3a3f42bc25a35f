package auth

import (
	"context"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// The audience every test authenticator expects.
const testAudience = "jaiph-serve-test"

// signingKeys are generated once: RSA generation costs ~100 ms under -race.
type signingKeys struct {
	rsa      *rsa.PrivateKey
	ec       *ecdsa.PrivateKey
	ed       ed25519.PrivateKey
	stranger *rsa.PrivateKey // in no key set
}

var testKeys = sync.OnceValue(func() signingKeys {
	r, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	s, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		panic(err)
	}
	e, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	_, d, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	return signingKeys{rsa: r, ec: e, ed: d, stranger: s}
})

// issuer is an in-process OIDC identity provider: a discovery document and
// a JWKS holding the RSA, ECDSA P-256 and Ed25519 keys of testKeys.
type issuer struct {
	srv *httptest.Server
	url string

	discoveryDown atomic.Bool // answer 500 to discovery
	jwksDown      atomic.Bool // answer 500 to the JWKS
	discoveryHits atomic.Int32
	jwksHits      atomic.Int32
	// docIssuer, when set, is the issuer the discovery document names
	// instead of url.
	docIssuer string
}

func newIssuer(t *testing.T) *issuer {
	t.Helper()
	i := &issuer{}
	i.srv = httptest.NewUnstartedServer(i)
	i.srv.Start()
	i.url = i.srv.URL
	t.Cleanup(i.srv.Close)
	return i
}

// restart serves i again on the address it had, after i.srv.Close:
// the issuer URL, which tokens name, stays the same.
func (i *issuer) restart(t *testing.T) {
	t.Helper()
	l, err := net.Listen("tcp", i.srv.Listener.Addr().String())
	if err != nil {
		t.Fatalf("listen again on the issuer's address: %v", err)
	}
	i.srv = httptest.NewUnstartedServer(i)
	i.srv.Listener.Close()
	i.srv.Listener = l
	i.srv.Start()
	t.Cleanup(i.srv.Close)
}

func (i *issuer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/.well-known/openid-configuration":
		i.discoveryHits.Add(1)
		if i.discoveryDown.Load() {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		iss := i.url
		if i.docIssuer != "" {
			iss = i.docIssuer
		}
		writeJSON(w, map[string]any{
			"issuer":                                iss,
			"jwks_uri":                              i.url + "/keys",
			"id_token_signing_alg_values_supported": []string{"RS256", "ES256", "EdDSA"},
		})
	case "/keys":
		i.jwksHits.Add(1)
		if i.jwksDown.Load() {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		k := testKeys()
		writeJSON(w, jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
			{Key: k.rsa.Public(), KeyID: "rsa-1", Algorithm: "RS256", Use: "sig"},
			{Key: k.ec.Public(), KeyID: "ec-1", Algorithm: "ES256", Use: "sig"},
			{Key: k.ed.Public(), KeyID: "ed-1", Algorithm: "EdDSA", Use: "sig"},
		}})
	default:
		http.NotFound(w, r)
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// claims are valid claims from i for sub, changed by the edits.
func (i *issuer) claims(sub string, edits ...func(map[string]any)) map[string]any {
	now := time.Now()
	c := map[string]any{
		"iss": i.url,
		"aud": testAudience,
		"sub": sub,
		"iat": now.Unix(),
		"exp": now.Add(time.Hour).Unix(),
	}
	if sub == "" {
		delete(c, "sub")
	}
	for _, e := range edits {
		e(c)
	}
	return c
}

func set(k string, v any) func(map[string]any) { return func(c map[string]any) { c[k] = v } }
func unset(k string) func(map[string]any)      { return func(c map[string]any) { delete(c, k) } }

// sign makes a real JWT: claims signed with key under alg, kid in its header.
func sign(t *testing.T, alg jose.SignatureAlgorithm, kid string, key any, claims map[string]any) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType("JWT")
	if kid != "" {
		opts = opts.WithHeader("kid", kid)
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: alg, Key: key}, opts)
	if err != nil {
		t.Fatalf("signer %s: %v", alg, err)
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	jws, err := s.Sign(payload)
	if err != nil {
		t.Fatalf("sign: %v", err)
	}
	tok, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// handMade is a JWT assembled without a signer: header and claims as given,
// sig as the signature segment. It is how tokens no library would sign
// (alg none, ES256K) are made.
func handMade(t *testing.T, header, claims map[string]any, sig string) string {
	t.Helper()
	h, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	c, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding.EncodeToString
	return enc(h) + "." + enc(c) + "." + sig
}

// env is a getenv over a map, so tests set no process environment and can
// run in parallel.
func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// oidcEnv configures OIDC against i.
func oidcEnv(i *issuer) map[string]string {
	return map[string]string{envIssuer: i.url, envAudience: testAudience}
}

func mustFromEnv(t *testing.T, m map[string]string) Authenticator {
	t.Helper()
	a, err := FromEnv(context.Background(), env(m), nil)
	if err != nil {
		t.Fatalf("FromEnv: %v", err)
	}
	return a
}

// bearer is a request carrying tok in its Authorization header.
func bearer(tok string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/api/runs", nil)
	if tok != "" {
		r.Header.Set("Authorization", "Bearer "+tok)
	}
	return r
}
