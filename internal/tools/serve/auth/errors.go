package auth

import "net/http"

// The codes an *Error carries, which serve puts in its JSON error bodies so
// clients can branch on them without parsing messages.
const (
	CodeUnauthorized    = "E_UNAUTHORIZED"     // 401: no credential, wrong static token, no principal in the token
	CodeTokenExpired    = "E_TOKEN_EXPIRED"    // 401: a JWT past its exp
	CodeTokenInvalid    = "E_TOKEN_INVALID"    // 401: a JWT failing any other check
	CodeAuthUnavailable = "E_AUTH_UNAVAILABLE" // 503: the identity provider could not be asked
)

// Error is why a request was not authenticated. Message is for the human at
// the other end: it says what is wrong and what to do, and never holds the
// credential or a claim value (other than sub).
type Error struct {
	Status  int    // HTTP status: 401 or 503
	Code    string // one of the Code constants
	Message string

	// cause is the underlying error (go-oidc's, an HTTP client's) for the
	// server's own log. It is kept out of Message because it may quote
	// claim values or an identity provider's response body.
	cause error
	// badToken marks a credential that was presented but refused, which
	// RFC 6750 reports as error="invalid_token" in WWW-Authenticate.
	badToken bool
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// Unwrap gives the underlying error, if any, for logging.
func (e *Error) Unwrap() error { return e.cause }

// WWWAuthenticate is the WWW-Authenticate header value a 401 answer must
// carry (RFC 6750), or "" for other statuses.
func (e *Error) WWWAuthenticate() string {
	if e.Status != http.StatusUnauthorized {
		return ""
	}
	if e.badToken {
		return `Bearer realm="jaiph", error="invalid_token"`
	}
	return `Bearer realm="jaiph"`
}

func unauthorized(msg string, badToken bool) *Error {
	return &Error{Status: http.StatusUnauthorized, Code: CodeUnauthorized, Message: msg, badToken: badToken}
}

func tokenInvalid(msg string, cause error) *Error {
	return &Error{Status: http.StatusUnauthorized, Code: CodeTokenInvalid, Message: msg, cause: cause, badToken: true}
}

func tokenExpired(cause error) *Error {
	return &Error{
		Status: http.StatusUnauthorized, Code: CodeTokenExpired, cause: cause, badToken: true,
		Message: "the token has expired; get a new one from the identity provider and retry",
	}
}

func unavailable(msg string, cause error) *Error {
	return &Error{Status: http.StatusServiceUnavailable, Code: CodeAuthUnavailable, Message: msg, cause: cause}
}

// errNoCredential is the answer to a request that carries nothing.
func errNoCredential() *Error {
	return unauthorized("no credential: send `Authorization: Bearer <token>` (or log in to the web UI)", false)
}
