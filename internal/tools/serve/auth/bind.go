package auth

import (
	"fmt"
	"net"
	"strings"
)

// CheckBind refuses to serve without authentication unless the operator
// asked for it (--allow-anonymous) and only this machine can connect (host
// is a loopback address). host is the listen address's host part; "",
// "0.0.0.0" and "::" listen on every interface and so are not loopback.
// With authentication configured it always allows the bind.
func CheckBind(mode Mode, allowAnonymous bool, host string) error {
	if mode != ModeNone {
		return nil
	}
	const hint = "set JAIPH_SERVE_TOKEN, or JAIPH_SERVE_OIDC_ISSUER and JAIPH_SERVE_OIDC_AUDIENCE, " +
		"or pass --allow-anonymous and bind 127.0.0.1 to serve this machine only"
	if !allowAnonymous {
		return fmt.Errorf("jaiph serve has no authentication configured and would let anyone run workflows: %s", hint)
	}
	if !isLoopback(host) {
		return fmt.Errorf("--allow-anonymous only permits a loopback bind (127.0.0.1, ::1 or localhost), not %q: %s", host, hint)
	}
	return nil
}

func isLoopback(host string) bool {
	// Accept "[::1]" as well as "::1": both spellings reach callers.
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
