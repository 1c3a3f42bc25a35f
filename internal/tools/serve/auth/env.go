package auth

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// The environment variables FromEnv reads.
const (
	envToken    = "JAIPH_SERVE_TOKEN"
	envIssuer   = "JAIPH_SERVE_OIDC_ISSUER"
	envAudience = "JAIPH_SERVE_OIDC_AUDIENCE"
	envJWKSURI  = "JAIPH_SERVE_OIDC_JWKS_URI"
)

// Variables lists the environment variables holding credentials, so serve
// can strip them from the runs' environment. The OIDC settings are not
// secret, but a workflow has no business with serve's configuration either.
var Variables = []string{envToken, envIssuer, envAudience, envJWKSURI}

// fetchTimeout bounds every request to the identity provider, so a hung
// provider costs a request at most this long instead of forever.
const fetchTimeout = 10 * time.Second

// FromEnv builds the authenticator the environment configures: OIDC when
// JAIPH_SERVE_OIDC_ISSUER is set (even if JAIPH_SERVE_TOKEN is too), else
// the static token, else mode "none". getenv is os.Getenv in production.
//
// client makes the requests to the identity provider; nil means a default
// client. A client without a Timeout gets one (a copy is changed, not the
// caller's). ctx scopes those requests, which outlive the request that
// started them: cancel it only when serve stops.
//
// Nothing is fetched here, so serve starts while the identity provider is
// down: discovery happens on the first request and is retried on later ones
// until it succeeds. A malformed configuration (an issuer without an
// audience, a URL that is not one) is an error naming the variable.
func FromEnv(ctx context.Context, getenv func(string) string, client *http.Client) (Authenticator, error) {
	token := getenv(envToken)
	issuer, audience, jwks := getenv(envIssuer), getenv(envAudience), getenv(envJWKSURI)

	if issuer == "" {
		switch {
		case audience != "":
			return nil, fmt.Errorf("%s is set but %s is not: set both to authenticate with OIDC, or unset %s", envAudience, envIssuer, envAudience)
		case jwks != "":
			return nil, fmt.Errorf("%s is set but %s is not: the key set only verifies tokens of a known issuer; set %s", envJWKSURI, envIssuer, envIssuer)
		case token != "":
			if err := checkToken(token); err != nil {
				return nil, err
			}
			return newTokenAuth(token), nil
		}
		return noAuth{}, nil
	}

	if audience == "" {
		return nil, fmt.Errorf("%s is set but %s is not: set it to the audience (client id or API identifier) your identity provider puts in the tokens' aud claim", envIssuer, envAudience)
	}
	if err := checkURL(envIssuer, issuer); err != nil {
		return nil, err
	}
	if jwks != "" {
		if err := checkURL(envJWKSURI, jwks); err != nil {
			return nil, err
		}
	}
	return newOIDCAuth(ctx, issuer, audience, jwks, withTimeout(client)), nil
}

// checkToken refuses a static token that could not be sent back: a
// character outside printable ASCII, a space, or one of `" , ; \` cannot
// travel intact in an Authorization header or a cookie. The usual cause is a
// stray newline or CR from the file the variable was set from.
func checkToken(token string) error {
	for i := 0; i < len(token); i++ {
		c := token[i]
		if c <= ' ' || c >= 0x7f || c == '"' || c == ',' || c == ';' || c == '\\' {
			return fmt.Errorf("%s holds a character (at byte %d) that cannot travel in an HTTP header or cookie "+
				"(whitespace, a control or non-ASCII character, or one of \" , ; \\): "+
				"check for a trailing newline, or generate a token with `openssl rand -hex 32`", envToken, i)
		}
	}
	return nil
}

// checkURL requires an absolute http(s) URL, and https unless the host is
// loopback: keys fetched over plain HTTP could be swapped by anyone on the
// path, who could then sign their own tokens.
func checkURL(name, raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Errorf("%s must be an absolute https:// URL, not %q", name, raw)
	}
	if u.Scheme == "http" && !isLoopback(u.Hostname()) {
		return fmt.Errorf("%s must use https:// (plain http:// is only accepted for a loopback host, for testing), not %q", name, raw)
	}
	return nil
}

// withTimeout returns a client whose every request is bounded by
// fetchTimeout, copying client rather than changing the caller's.
func withTimeout(client *http.Client) *http.Client {
	if client == nil {
		return &http.Client{Timeout: fetchTimeout}
	}
	if client.Timeout == 0 {
		c := *client
		c.Timeout = fetchTimeout
		return &c
	}
	return client
}
