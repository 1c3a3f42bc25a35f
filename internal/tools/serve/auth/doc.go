// Package auth answers one question for `jaiph serve`: who is calling, and
// may they invoke, inspect or cancel runs?
//
// It reads its configuration from the environment (never argv, where any
// user of the machine could read it from the process list) and verifies the
// credential each request carries:
//
//   - JAIPH_SERVE_OIDC_ISSUER and JAIPH_SERVE_OIDC_AUDIENCE (with
//     JAIPH_SERVE_OIDC_JWKS_URI optionally naming the key set, which skips
//     discovery): a JWT from that issuer, verified by
//     github.com/coreos/go-oidc/v3 with an allowlist of asymmetric
//     algorithms. The principal is its sub (else client_id); its scopes come
//     from the scope or scp claim. This mode wins when a static token is set
//     too.
//   - JAIPH_SERVE_TOKEN: one static bearer token; the principal is
//     "operator" with every scope.
//   - neither: mode "none". Serve must refuse to start unless
//     --allow-anonymous was given for a loopback address (CheckBind); then
//     every caller is "anonymous" with every scope.
//
// The credential is read from the Authorization: Bearer header, else from
// the jaiph_token cookie the web UI sets (LoginCookie). Query parameters are
// never read: URLs end up in logs, history and Referer headers.
//
// A refusal is an *Error: 401 E_UNAUTHORIZED (no credential, wrong static
// token, a token naming no caller), 401 E_TOKEN_EXPIRED, 401
// E_TOKEN_INVALID (any other failed check), or 503 E_AUTH_UNAVAILABLE (the
// identity provider or its key set could not be fetched; every fetch is
// bounded by a timeout). Its message says what to do and never quotes the
// credential.
//
// Serve must strip Variables from the environment its runs get, so no
// credential reaches a workflow.
package auth
