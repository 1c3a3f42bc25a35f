package auth

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
)

func TestToken(t *testing.T) {
	t.Parallel()
	const tok = "s3cr3t-operator-token"
	a := mustFromEnv(t, map[string]string{envToken: tok})
	if a.Mode() != ModeToken {
		t.Fatalf("Mode() = %q, want token", a.Mode())
	}
	withCookie := func(r *http.Request, v string) *http.Request {
		r.AddCookie(&http.Cookie{Name: CookieName, Value: v})
		return r
	}
	withHeader := func(v string) *http.Request {
		r := bearer("")
		r.Header.Set("Authorization", v)
		return r
	}
	cases := []struct {
		name    string
		req     *http.Request
		wantErr bool
		bad     bool // refused with error="invalid_token"
	}{
		{name: "right token", req: bearer(tok)},
		{name: "lower-case scheme", req: withHeader("bearer " + tok)},
		{name: "right cookie", req: withCookie(bearer(""), tok)},
		{name: "missing", req: bearer(""), wantErr: true},
		{name: "empty cookie", req: withCookie(bearer(""), ""), wantErr: true},
		{name: "wrong token", req: bearer("not-the-token"), wantErr: true, bad: true},
		{name: "prefix of the token", req: bearer(tok[:len(tok)-1]), wantErr: true, bad: true},
		{name: "token and more", req: bearer(tok + "x"), wantErr: true, bad: true},
		{name: "wrong cookie", req: withCookie(bearer(""), "not-the-token"), wantErr: true, bad: true},
		{name: "wrong header beats right cookie", req: withCookie(bearer("not-the-token"), tok), wantErr: true, bad: true},
		{name: "Basic scheme", req: withHeader("Basic " + tok), wantErr: true, bad: true},
		{name: "scheme only", req: withHeader("Bearer"), wantErr: true, bad: true},
		{name: "scheme and space", req: withHeader("Bearer   "), wantErr: true, bad: true},
		{name: "token in the query is not read", req: httptest.NewRequest(http.MethodGet, "/api/runs?access_token="+tok, nil), wantErr: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p, aerr := a.Authenticate(c.req)
			if !c.wantErr {
				if aerr != nil {
					t.Fatalf("refused: %v", aerr)
				}
				if p.ID != "operator" || p.Kind != ModeToken {
					t.Errorf("principal %q (%s), want operator (token)", p.ID, p.Kind)
				}
				if got := p.Scopes(); !reflect.DeepEqual(got, []Scope{ScopeAdmin, ScopeCancel, ScopeInspect, ScopeInvoke, ScopeSignal}) {
					t.Errorf("scopes %v, want all", got)
				}
				return
			}
			if aerr == nil {
				t.Fatalf("accepted as %q", p.ID)
			}
			checkRefusal(t, aerr, http.StatusUnauthorized, CodeUnauthorized, tok)
			if got := strings.Contains(aerr.WWWAuthenticate(), `error="invalid_token"`); got != c.bad {
				t.Errorf("WWW-Authenticate %q: invalid_token %v, want %v", aerr.WWWAuthenticate(), got, c.bad)
			}
		})
	}
}

func TestAnonymous(t *testing.T) {
	t.Parallel()
	a := mustFromEnv(t, map[string]string{"JAIPH_OTHER": "x"})
	if a.Mode() != ModeNone {
		t.Fatalf("Mode() = %q, want none", a.Mode())
	}
	p, aerr := a.Authenticate(bearer("anything"))
	if aerr != nil {
		t.Fatalf("refused: %v", aerr)
	}
	if p.ID != "anonymous" || p.Kind != ModeNone {
		t.Errorf("principal %q (%s), want anonymous (none)", p.ID, p.Kind)
	}
	for _, s := range allScopes {
		if !p.Can(s) {
			t.Errorf("anonymous cannot %s", s)
		}
	}
	if (Principal{}).Can(ScopeInspect) {
		t.Error("the zero Principal holds a scope")
	}
}

// The cookie LoginCookie makes, as a browser sends it back, logs in.
func TestLoginCookie(t *testing.T) {
	t.Parallel()
	const tok = "s3cr3t-operator-token"
	for _, secure := range []bool{false, true} {
		c := LoginCookie(tok, secure)
		if c.Name != CookieName || CookieName != "jaiph_token" || c.Value != tok || c.Path != "/" ||
			!c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Secure != secure {
			t.Errorf("LoginCookie(secure=%v) = %+v", secure, c)
		}
		w := httptest.NewRecorder()
		http.SetCookie(w, c)
		h := w.Header().Get("Set-Cookie")
		for _, want := range []string{"jaiph_token=" + tok, "Path=/", "HttpOnly", "SameSite=Strict"} {
			if !strings.Contains(h, want) {
				t.Errorf("Set-Cookie %q lacks %q", h, want)
			}
		}
		if strings.Contains(h, "Secure") != secure {
			t.Errorf("Set-Cookie %q: Secure should be %v", h, secure)
		}

		r := bearer("")
		for _, back := range w.Result().Cookies() {
			r.AddCookie(&http.Cookie{Name: back.Name, Value: back.Value})
		}
		a := mustFromEnv(t, map[string]string{envToken: tok})
		if p, aerr := a.Authenticate(r); aerr != nil || p.ID != "operator" {
			t.Errorf("cookie sent back: %+v, %v", p, aerr)
		}
	}
}
