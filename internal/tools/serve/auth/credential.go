package auth

import (
	"net/http"
	"strings"
)

// CookieName is the cookie the web UI keeps the caller's token in, so a
// browser authenticates without JavaScript ever holding the token.
const CookieName = "jaiph_token"

// LoginCookie is the cookie serve sets when the web UI logs in with token.
// HttpOnly keeps it from scripts (an XSS cannot read it); SameSite=Strict
// keeps other sites from making the browser send it (CSRF); secure should be
// true whenever serve is reached over TLS. It has no expiry: it lasts the
// browser session, and a JWT in it expires on its own.
func LoginCookie(token string, secure bool) *http.Cookie {
	return &http.Cookie{
		Name:     CookieName,
		Value:    token,
		Path:     "/",
		HttpOnly: true,
		Secure:   secure,
		SameSite: http.SameSiteStrictMode,
	}
}

// credential returns the token r carries, or an *Error when it carries none
// or an unusable Authorization header. The header wins over the cookie: an
// API client that sends a header means it, whatever cookie jar it has.
func credential(r *http.Request) (string, *Error) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, tok, _ := strings.Cut(h, " ")
		// The scheme is case-insensitive (RFC 9110 section 11.1).
		if !strings.EqualFold(scheme, "Bearer") {
			return "", unauthorized("the Authorization header must use the Bearer scheme: `Authorization: Bearer <token>`", true)
		}
		tok = strings.TrimSpace(tok)
		if tok == "" {
			return "", unauthorized("the Authorization header holds no token: send `Authorization: Bearer <token>`", true)
		}
		return tok, nil
	}
	if c, err := r.Cookie(CookieName); err == nil && c.Value != "" {
		return c.Value, nil
	}
	return "", errNoCredential()
}
