package auth

import (
	"crypto/x509"
	"encoding/pem"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// marker is put in claim values that must never appear in an error message.
const marker = "LEAKMARKER"

func TestOIDC(t *testing.T) {
	t.Parallel()
	i := newIssuer(t)
	a := mustFromEnv(t, oidcEnv(i))
	if a.Mode() != ModeOIDC {
		t.Fatalf("Mode() = %q, want oidc", a.Mode())
	}
	k := testKeys()
	rs := func(c map[string]any) string { return sign(t, jose.RS256, "rsa-1", k.rsa, c) }

	// The RSA public key as PEM, which an algorithm-confusion attack uses
	// as the HMAC secret: a verifier that takes alg from the token would
	// verify HS256 with the "key" it holds for kid rsa-1.
	der, err := x509.MarshalPKIXPublicKey(k.rsa.Public())
	if err != nil {
		t.Fatal(err)
	}
	rsaPEM := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})

	valid := rs(i.claims("alice", set("scope", "jaiph:invoke")))
	parts := strings.Split(valid, ".")

	cases := []struct {
		name      string
		token     string
		wantID    string
		wantScope []Scope
		wantCode  string
	}{
		{name: "RS256 scope string", wantID: "alice", wantScope: []Scope{ScopeInspect, ScopeInvoke},
			token: rs(i.claims("alice", set("scope", "openid jaiph:invoke jaiph:inspect profile")))},
		{name: "ES256 scp array", wantID: "bob", wantScope: []Scope{ScopeCancel, ScopeInspect},
			token: sign(t, jose.ES256, "ec-1", k.ec, i.claims("bob", set("scp", []string{"jaiph:cancel", "jaiph:inspect", "other"})))},
		{name: "EdDSA scp string", wantID: "carol", wantScope: []Scope{ScopeCancel, ScopeInspect, ScopeInvoke},
			token: sign(t, jose.EdDSA, "ed-1", k.ed, i.claims("carol", set("scp", "jaiph:invoke jaiph:inspect jaiph:cancel")))},
		{name: "scope and scp together", wantID: "dave", wantScope: []Scope{ScopeCancel, ScopeInvoke},
			token: rs(i.claims("dave", set("scope", "jaiph:invoke"), set("scp", []string{"jaiph:cancel"})))},
		{name: "no scopes", wantID: "erin", wantScope: nil,
			token: rs(i.claims("erin"))},
		{name: "audience among several", wantID: "frank", wantScope: []Scope{ScopeInvoke},
			token: rs(i.claims("frank", set("aud", []string{"other-api", testAudience}), set("scope", "jaiph:invoke")))},
		{name: "client_id fallback", wantID: "ci-bot", wantScope: []Scope{ScopeInvoke},
			token: rs(i.claims("", set("client_id", "ci-bot"), set("scope", "jaiph:invoke")))},
		{name: "no kid", wantID: "gina", wantScope: []Scope{ScopeInspect},
			token: sign(t, jose.RS256, "", k.rsa, i.claims("gina", set("scope", "jaiph:inspect")))},

		{name: "neither sub nor client_id", wantCode: CodeUnauthorized,
			token: rs(i.claims("", set("scope", "jaiph:invoke")))},
		{name: "expired", wantCode: CodeTokenExpired,
			token: rs(i.claims("alice", set("exp", time.Now().Add(-time.Minute).Unix())))},
		{name: "no exp", wantCode: CodeTokenInvalid,
			token: rs(i.claims("alice", unset("exp")))},
		{name: "nbf in the future", wantCode: CodeTokenInvalid,
			token: rs(i.claims("alice", set("nbf", time.Now().Add(time.Hour).Unix())))},
		{name: "foreign issuer", wantCode: CodeTokenInvalid,
			token: rs(i.claims("alice", set("iss", "https://"+marker+".example")))},
		{name: "wrong audience", wantCode: CodeTokenInvalid,
			token: rs(i.claims("alice", set("aud", "aud-"+marker)))},
		{name: "unknown kid", wantCode: CodeTokenInvalid,
			token: sign(t, jose.RS256, "rsa-2", k.stranger, i.claims("alice"))},
		{name: "known kid, other key", wantCode: CodeTokenInvalid,
			token: sign(t, jose.RS256, "rsa-1", k.stranger, i.claims("alice"))},
		{name: "no kid, other key", wantCode: CodeTokenInvalid,
			token: sign(t, jose.RS256, "", k.stranger, i.claims("alice"))},
		{name: "alg none", wantCode: CodeTokenInvalid,
			token: handMade(t, map[string]any{"alg": "none", "typ": "JWT"}, i.claims("alice", set("scope", "jaiph:invoke")), "")},
		{name: "HS256 keyed with the RSA public key", wantCode: CodeTokenInvalid,
			token: sign(t, jose.HS256, "rsa-1", rsaPEM, i.claims("alice", set("scope", "jaiph:invoke")))},
		{name: "HS256 keyed with the RSA public key DER", wantCode: CodeTokenInvalid,
			token: sign(t, jose.HS256, "rsa-1", der, i.claims("alice"))},
		{name: "ES256K", wantCode: CodeTokenInvalid,
			token: handMade(t, map[string]any{"alg": "ES256K", "kid": "ec-1"}, i.claims("alice"), strings.Repeat("A", 86))},
		{name: "payload swapped under a valid signature", wantCode: CodeTokenInvalid,
			token: parts[0] + "." + strings.Split(rs(i.claims("mallory", set("scope", "jaiph:cancel"))), ".")[1] + "." + parts[2]},
		{name: "signature stripped", wantCode: CodeTokenInvalid,
			token: parts[0] + "." + parts[1] + "."},
		{name: "scope of the wrong type", wantCode: CodeTokenInvalid,
			token: rs(i.claims("alice", set("scope", 42)))},
		{name: "garbage", wantCode: CodeTokenInvalid, token: "garbage"},
		{name: "three garbage segments", wantCode: CodeTokenInvalid, token: "a.b.c"},
		{name: "JWS JSON serialization", wantCode: CodeTokenInvalid,
			token: `{"payload":"` + parts[1] + `","protected":"` + parts[0] + `","signature":"` + parts[2] + `"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p, aerr := a.Authenticate(bearer(c.token))
			if c.wantCode != "" {
				if aerr == nil {
					t.Fatalf("accepted as %q, want %s", p.ID, c.wantCode)
				}
				t.Logf("cause: %v", aerr.Unwrap())
				checkRefusal(t, aerr, http.StatusUnauthorized, c.wantCode, c.token)
				return
			}
			if aerr != nil {
				t.Fatalf("refused: %v (cause: %v)", aerr, aerr.Unwrap())
			}
			if p.ID != c.wantID || p.Kind != ModeOIDC {
				t.Errorf("principal %q (%s), want %q (oidc)", p.ID, p.Kind, c.wantID)
			}
			if got := p.Scopes(); !reflect.DeepEqual(got, c.wantScope) {
				t.Errorf("scopes %v, want %v", got, c.wantScope)
			}
			for _, s := range allScopes {
				want := false
				for _, w := range c.wantScope {
					want = want || w == s
				}
				if p.Can(s) != want {
					t.Errorf("Can(%s) = %v, want %v", s, p.Can(s), want)
				}
			}
		})
	}
}

// checkRefusal checks aerr's status and code, and that its message and
// WWW-Authenticate value hold neither the token nor a marked claim value.
func checkRefusal(t *testing.T, aerr *Error, status int, code, token string) {
	t.Helper()
	if aerr.Status != status || aerr.Code != code {
		t.Fatalf("got %d %s (%s), want %d %s", aerr.Status, aerr.Code, aerr.Message, status, code)
	}
	if aerr.Message == "" {
		t.Error("empty message")
	}
	for _, s := range []string{aerr.Message, aerr.Error(), aerr.WWWAuthenticate()} {
		if (len(token) >= 8 && strings.Contains(s, token)) || strings.Contains(s, marker) {
			t.Errorf("error text leaks the token or a claim value: %q", s)
		}
	}
	www := aerr.WWWAuthenticate()
	if status == http.StatusUnauthorized && !strings.HasPrefix(www, "Bearer ") {
		t.Errorf("WWW-Authenticate %q, want a Bearer challenge", www)
	}
	if status != http.StatusUnauthorized && www != "" {
		t.Errorf("WWW-Authenticate %q on a %d", www, status)
	}
}

// The server starts while the identity provider is down, answers 503 while
// it stays down, and accepts tokens once it is back, without a restart.
func TestIssuerDownAtStart(t *testing.T) {
	t.Parallel()
	i := newIssuer(t)
	tok := sign(t, jose.ES256, "ec-1", testKeys().ec, i.claims("alice", set("scope", "jaiph:inspect")))
	i.srv.Close()

	a := mustFromEnv(t, oidcEnv(i))
	for n := 0; n < 2; n++ {
		_, aerr := a.Authenticate(bearer(tok))
		if aerr == nil {
			t.Fatal("accepted a token while the issuer is unreachable")
		}
		checkRefusal(t, aerr, http.StatusServiceUnavailable, CodeAuthUnavailable, tok)
		if aerr.Unwrap() == nil {
			t.Error("no cause kept for the log")
		}
	}

	i.restart(t)
	for n := 0; n < 3; n++ {
		p, aerr := a.Authenticate(bearer(tok))
		if aerr != nil {
			t.Fatalf("after the issuer came back: %v (cause: %v)", aerr, aerr.Unwrap())
		}
		if p.ID != "alice" || !p.Can(ScopeInspect) {
			t.Fatalf("principal %+v", p)
		}
	}
	// A discovery that succeeded is kept: one fetch, not one per request.
	if n := i.discoveryHits.Load(); n != 1 {
		t.Errorf("discovery fetched %d times after coming back, want 1", n)
	}
}

// A discovery answered with an error status is retried like an unreachable
// one.
func TestDiscoveryFailsThenRecovers(t *testing.T) {
	t.Parallel()
	i := newIssuer(t)
	i.discoveryDown.Store(true)
	a := mustFromEnv(t, oidcEnv(i))
	tok := sign(t, jose.RS256, "rsa-1", testKeys().rsa, i.claims("alice"))

	_, aerr := a.Authenticate(bearer(tok))
	if aerr == nil {
		t.Fatal("accepted a token without discovery")
	}
	checkRefusal(t, aerr, http.StatusServiceUnavailable, CodeAuthUnavailable, tok)

	i.discoveryDown.Store(false)
	if _, aerr := a.Authenticate(bearer(tok)); aerr != nil {
		t.Fatalf("after discovery recovered: %v", aerr)
	}
}

// Keys that cannot be fetched are the identity provider's fault (503), not
// the caller's (401), and are fetched again once they can be.
func TestJWKSDown(t *testing.T) {
	t.Parallel()
	i := newIssuer(t)
	i.jwksDown.Store(true)
	a := mustFromEnv(t, oidcEnv(i))
	tok := sign(t, jose.RS256, "rsa-1", testKeys().rsa, i.claims("alice"))

	_, aerr := a.Authenticate(bearer(tok))
	if aerr == nil {
		t.Fatal("accepted a token without keys")
	}
	checkRefusal(t, aerr, http.StatusServiceUnavailable, CodeAuthUnavailable, tok)
	if strings.Contains(aerr.Message, "down") {
		t.Errorf("message quotes the provider's response body: %q", aerr.Message)
	}

	i.jwksDown.Store(false)
	if _, aerr := a.Authenticate(bearer(tok)); aerr != nil {
		t.Fatalf("after the key set recovered: %v", aerr)
	}
}

// JAIPH_SERVE_OIDC_JWKS_URI names the keys directly: no discovery.
func TestExplicitJWKSURI(t *testing.T) {
	t.Parallel()
	i := newIssuer(t)
	i.discoveryDown.Store(true)
	m := oidcEnv(i)
	m[envJWKSURI] = i.url + "/keys"
	a := mustFromEnv(t, m)

	tok := sign(t, jose.RS256, "rsa-1", testKeys().rsa, i.claims("alice", set("scp", []string{"jaiph:cancel"})))
	p, aerr := a.Authenticate(bearer(tok))
	if aerr != nil {
		t.Fatalf("refused: %v (cause: %v)", aerr, aerr.Unwrap())
	}
	if p.ID != "alice" || !p.Can(ScopeCancel) || p.Can(ScopeInvoke) {
		t.Errorf("principal %+v", p)
	}
	if n := i.discoveryHits.Load(); n != 0 {
		t.Errorf("discovery fetched %d times, want 0", n)
	}

	// With the key set's address closed, keys fetched before still verify
	// (go-oidc caches them) ...
	i.srv.Close()
	tok2 := sign(t, jose.ES256, "ec-1", testKeys().ec, i.claims("bob"))
	if _, aerr := a.Authenticate(bearer(tok2)); aerr != nil {
		t.Fatalf("cached key refused while the key set is down: %v", aerr)
	}
	// ... and an authenticator that never fetched them answers 503, not 401.
	_, aerr = mustFromEnv(t, m).Authenticate(bearer(tok2))
	if aerr == nil {
		t.Fatal("accepted a token whose key was never fetched")
	}
	checkRefusal(t, aerr, http.StatusServiceUnavailable, CodeAuthUnavailable, tok2)
}

// A hung identity provider costs a request the timeout, not forever.
func TestHungIdentityProvider(t *testing.T) {
	t.Parallel()
	for _, explicit := range []bool{false, true} {
		name := map[bool]string{false: "discovery", true: "jwks"}[explicit]
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			release := make(chan struct{})
			srv := newHangingServer(t, release)
			m := map[string]string{envIssuer: srv, envAudience: testAudience}
			if explicit {
				m[envJWKSURI] = srv + "/keys"
			}
			a, err := FromEnv(t.Context(), env(m), &http.Client{Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			a.(*oidcAuth).timeout = 200 * time.Millisecond

			tok := sign(t, jose.RS256, "rsa-1", testKeys().rsa, map[string]any{
				"iss": srv, "aud": testAudience, "sub": "alice", "exp": time.Now().Add(time.Hour).Unix(),
			})
			start := time.Now()
			_, aerr := a.Authenticate(bearer(tok))
			if aerr == nil {
				t.Fatal("accepted a token from a hung provider")
			}
			checkRefusal(t, aerr, http.StatusServiceUnavailable, CodeAuthUnavailable, tok)
			if d := time.Since(start); d > 3*time.Second {
				t.Errorf("took %v with a 200ms timeout", d)
			}
		})
	}
}

// newHangingServer answers nothing until release is closed (at cleanup).
func newHangingServer(t *testing.T, release chan struct{}) string {
	t.Helper()
	i := newIssuer(t) // its Close is registered first, so it runs after release
	i.srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	t.Cleanup(func() { close(release) })
	return i.url
}

// The discovery document must name the issuer it was fetched for.
func TestDiscoveryIssuerMismatch(t *testing.T) {
	t.Parallel()
	i := newIssuer(t)
	i.docIssuer = "https://elsewhere.example"
	a := mustFromEnv(t, oidcEnv(i))
	tok := sign(t, jose.RS256, "rsa-1", testKeys().rsa, i.claims("alice"))
	_, aerr := a.Authenticate(bearer(tok))
	if aerr == nil {
		t.Fatal("accepted a token from a provider whose document names another issuer")
	}
	checkRefusal(t, aerr, http.StatusServiceUnavailable, CodeAuthUnavailable, tok)
	if !strings.Contains(aerr.Message, envIssuer) {
		t.Errorf("message does not say which variable to fix: %q", aerr.Message)
	}
}

// Requests arriving together before discovery share one.
func TestConcurrentFirstRequests(t *testing.T) {
	t.Parallel()
	i := newIssuer(t)
	a := mustFromEnv(t, oidcEnv(i))
	tok := sign(t, jose.ES256, "ec-1", testKeys().ec, i.claims("alice"))

	var wg sync.WaitGroup
	errs := make(chan *Error, 16)
	for n := 0; n < 16; n++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, aerr := a.Authenticate(bearer(tok)); aerr != nil {
				errs <- aerr
			}
		}()
	}
	wg.Wait()
	close(errs)
	for aerr := range errs {
		t.Errorf("refused: %v", aerr)
	}
	if n := i.discoveryHits.Load(); n != 1 {
		t.Errorf("discovery fetched %d times, want 1", n)
	}
}

// The web UI's cookie carries a JWT as well as a static token.
func TestOIDCCookie(t *testing.T) {
	t.Parallel()
	i := newIssuer(t)
	a := mustFromEnv(t, oidcEnv(i))
	r := bearer("")
	r.AddCookie(LoginCookie(sign(t, jose.RS256, "rsa-1", testKeys().rsa, i.claims("alice")), true))
	if p, aerr := a.Authenticate(r); aerr != nil || p.ID != "alice" {
		t.Fatalf("cookie: %+v, %v", p, aerr)
	}
	if _, aerr := a.Authenticate(bearer("")); aerr == nil || aerr.Code != CodeUnauthorized {
		t.Fatalf("no credential: %v, want %s", aerr, CodeUnauthorized)
	}
}

// With both configured, OIDC decides and the static token is not accepted.
func TestOIDCOverToken(t *testing.T) {
	t.Parallel()
	i := newIssuer(t)
	m := oidcEnv(i)
	m[envToken] = "static-operator-token"
	a := mustFromEnv(t, m)
	if a.Mode() != ModeOIDC {
		t.Fatalf("Mode() = %q, want oidc", a.Mode())
	}
	_, aerr := a.Authenticate(bearer("static-operator-token"))
	if aerr == nil {
		t.Fatal("the static token was accepted in OIDC mode")
	}
	checkRefusal(t, aerr, http.StatusUnauthorized, CodeTokenInvalid, "static-operator-token")
	if p, aerr := a.Authenticate(bearer(sign(t, jose.RS256, "rsa-1", testKeys().rsa, i.claims("alice")))); aerr != nil || p.ID != "alice" {
		t.Fatalf("JWT: %+v, %v", p, aerr)
	}
}
