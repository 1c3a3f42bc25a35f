package serve

import (
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// issuer is an in-process OIDC identity provider signing real RS256 JWTs.
type issuer struct {
	url string
	key *rsa.PrivateKey
}

func newIssuer(t *testing.T) *issuer {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	i := &issuer{key: key}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/.well-known/openid-configuration":
			json.NewEncoder(w).Encode(map[string]any{"issuer": i.url, "jwks_uri": i.url + "/keys"})
		case "/keys":
			json.NewEncoder(w).Encode(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: key.Public(), KeyID: "k1", Algorithm: "RS256", Use: "sig"}}})
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	i.url = srv.URL
	return i
}

// token is a JWT for sub with the scopes, valid for an hour (ttl < 0:
// expired).
func (i *issuer) token(t *testing.T, sub, scopes string, ttl time.Duration) string {
	t.Helper()
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: i.key}, (&jose.SignerOptions{}).WithType("JWT").WithHeader("kid", "k1"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	claims, _ := json.Marshal(map[string]any{"iss": i.url, "aud": "jaiph", "sub": sub, "scope": scopes,
		"iat": now.Add(-2 * time.Hour).Unix(), "exp": now.Add(ttl).Unix()})
	jws, err := s.Sign(claims)
	if err != nil {
		t.Fatal(err)
	}
	tok, _ := jws.CompactSerialize()
	return tok
}

// TestOIDCPrincipals: JWTs from the identity provider; a principal sees
// and cancels only its own runs, and each action needs its scope.
func TestOIDCPrincipals(t *testing.T) {
	iss := newIssuer(t)
	s := start(t, "", "JAIPH_SERVE_OIDC_ISSUER="+iss.url, "JAIPH_SERVE_OIDC_AUDIENCE=jaiph")
	all := "jaiph:invoke jaiph:inspect jaiph:cancel"
	alice, bob := iss.token(t, "alice", all, time.Hour), iss.token(t, "bob", all, time.Hour)

	code, _, b := s.do("POST", "/v1/workflows/greet/runs?wait=true", alice, `{"name":"a"}`)
	if code != 200 {
		t.Fatalf("alice: %d %s", code, b)
	}
	run := decode[Run](t, b)
	if run.Principal != "alice" {
		t.Errorf("principal %q", run.Principal)
	}
	for _, p := range []string{"/v1/runs/" + run.RunID, "/v1/runs/" + run.RunID + "/events", "/v1/runs/" + run.RunID + "/artifacts", "/v1/runs/" + run.RunID + "/artifacts/report.txt"} {
		code, _, b := s.do("GET", p, bob, "")
		wantError(t, "bob reads "+p, code, b, 404, "E_NOT_FOUND")
	}
	code, _, b = s.do("POST", "/v1/runs/"+run.RunID+"/cancel", bob, "")
	wantError(t, "bob cancels", code, b, 404, "E_NOT_FOUND")
	_, _, b = s.do("GET", "/v1/runs", bob, "")
	if total := decode[struct{ Total int }](t, b).Total; total != 0 {
		t.Errorf("bob sees %d runs", total)
	}
	_, _, b = s.do("GET", "/v1/runs", alice, "")
	if total := decode[struct{ Total int }](t, b).Total; total != 1 {
		t.Errorf("alice sees %d runs", total)
	}
	// The same Idempotency-Key is each principal's own.
	code, _, _ = s.do("POST", "/v1/workflows/greet/runs?wait=true", alice, `{"name":"k"}`, "Idempotency-Key", "shared")
	code2, _, _ := s.do("POST", "/v1/workflows/greet/runs?wait=true", bob, `{"name":"other"}`, "Idempotency-Key", "shared")
	if code != 200 || code2 != 200 {
		t.Errorf("shared key: alice %d, bob %d", code, code2)
	}
	// Scopes.
	inspectOnly := iss.token(t, "carol", "jaiph:inspect", time.Hour)
	code, _, b = s.do("POST", "/v1/workflows/greet/runs", inspectOnly, `{}`)
	wantError(t, "invoke without scope", code, b, 403, "E_FORBIDDEN")
	code, _, b = s.do("GET", "/v1/workflows", iss.token(t, "dave", "jaiph:invoke", time.Hour), "")
	wantError(t, "inspect without scope", code, b, 403, "E_FORBIDDEN")
	code, _, b = s.do("GET", "/api/runs", alice, "")
	wantError(t, "viewer without admin", code, b, 403, "E_FORBIDDEN")
	code, _, _ = s.do("GET", "/api/runs", iss.token(t, "root", all+" jaiph:admin", time.Hour), "")
	if code != 200 {
		t.Errorf("viewer with admin: %d", code)
	}
	// Refused tokens.
	code, _, b = s.do("GET", "/v1/runs", iss.token(t, "alice", all, -time.Minute), "")
	wantError(t, "expired", code, b, 401, "E_TOKEN_EXPIRED")
	other := newIssuer(t)
	code, _, b = s.do("GET", "/v1/runs", other.token(t, "alice", all, time.Hour), "")
	wantError(t, "foreign issuer", code, b, 401, "E_TOKEN_INVALID")
	code, _, b = s.do("GET", "/v1/runs", testToken, "")
	wantError(t, "not a JWT", code, b, 401, "E_TOKEN_INVALID")
	if strings.Contains(s.log.String(), alice) {
		t.Errorf("the log holds a token")
	}
}
