package auth

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestFromEnvErrors(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		env  map[string]string
		want string // the variable the error must name
	}{
		{"audience without issuer", map[string]string{envAudience: "a"}, envIssuer},
		{"jwks without issuer", map[string]string{envJWKSURI: "https://idp.example/keys"}, envIssuer},
		{"issuer without audience", map[string]string{envIssuer: "https://idp.example"}, envAudience},
		{"issuer not a URL", map[string]string{envIssuer: "idp.example", envAudience: "a"}, envIssuer},
		{"issuer of another scheme", map[string]string{envIssuer: "ftp://idp.example", envAudience: "a"}, envIssuer},
		{"issuer over plain http", map[string]string{envIssuer: "http://idp.example", envAudience: "a"}, envIssuer},
		{"jwks relative", map[string]string{envIssuer: "https://idp.example", envAudience: "a", envJWKSURI: "/keys"}, envJWKSURI},
		{"jwks over plain http", map[string]string{envIssuer: "https://idp.example", envAudience: "a", envJWKSURI: "http://idp.example/keys"}, envJWKSURI},
		{"token with a trailing newline", map[string]string{envToken: "tok3n-value\n"}, envToken},
		{"token with a CR", map[string]string{envToken: "tok3n-value\r"}, envToken},
		{"token with a space", map[string]string{envToken: "tok3n value"}, envToken},
		{"token with a semicolon", map[string]string{envToken: "tok3n;value"}, envToken},
		{"token not ASCII", map[string]string{envToken: "tok3n-välue"}, envToken},
	}
	for _, c := range cases {
		a, err := FromEnv(context.Background(), env(c.env), nil)
		if err == nil {
			t.Errorf("%s: accepted, mode %s", c.name, a.Mode())
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %q does not name %s", c.name, err, c.want)
		}
		if strings.Contains(err.Error(), "tok3n") {
			t.Errorf("%s: %q quotes the token", c.name, err)
		}
	}
}

func TestFromEnvModes(t *testing.T) {
	t.Parallel()
	cases := []struct {
		env  map[string]string
		want Mode
	}{
		{map[string]string{}, ModeNone},
		{map[string]string{envToken: "tok"}, ModeToken},
		{map[string]string{envToken: "a+b/c=="}, ModeToken},
		{map[string]string{envIssuer: "https://idp.example", envAudience: "a"}, ModeOIDC},
		{map[string]string{envIssuer: "http://127.0.0.1:9/", envAudience: "a"}, ModeOIDC},
		{map[string]string{envIssuer: "http://localhost:9", envAudience: "a", envJWKSURI: "http://[::1]:9/keys"}, ModeOIDC},
		{map[string]string{envIssuer: "https://idp.example", envAudience: "a", envToken: "tok"}, ModeOIDC},
		// OIDC wins, so a token it ignores is not checked either.
		{map[string]string{envIssuer: "https://idp.example", envAudience: "a", envToken: "bad token\n"}, ModeOIDC},
	}
	for _, c := range cases {
		a, err := FromEnv(context.Background(), env(c.env), nil)
		if err != nil {
			t.Errorf("%v: %v", c.env, err)
			continue
		}
		if a.Mode() != c.want {
			t.Errorf("%v: mode %s, want %s", c.env, a.Mode(), c.want)
		}
	}
}

// Every variable FromEnv reads is in Variables, so serve strips all of them
// from the runs' environment.
func TestVariables(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	read := map[string]bool{}
	getenv := func(k string) string {
		mu.Lock()
		read[k] = true
		mu.Unlock()
		return map[string]string{envIssuer: "https://idp.example", envAudience: "a", envToken: "t"}[k]
	}
	if _, err := FromEnv(context.Background(), getenv, nil); err != nil {
		t.Fatal(err)
	}
	for k := range read {
		if !slices.Contains(Variables, k) {
			t.Errorf("FromEnv reads %s, which Variables lacks", k)
		}
	}
	for _, k := range []string{"JAIPH_SERVE_TOKEN", "JAIPH_SERVE_OIDC_ISSUER", "JAIPH_SERVE_OIDC_AUDIENCE", "JAIPH_SERVE_OIDC_JWKS_URI"} {
		if !slices.Contains(Variables, k) {
			t.Errorf("Variables lacks %s", k)
		}
	}
}
