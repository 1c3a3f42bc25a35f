package auth

import (
	"strings"
	"testing"
)

func TestCheckBind(t *testing.T) {
	t.Parallel()
	cases := []struct {
		mode  Mode
		anon  bool
		host  string
		allow bool
	}{
		{ModeToken, false, "0.0.0.0", true},
		{ModeOIDC, false, "", true},
		{ModeOIDC, true, "::", true},
		{ModeNone, false, "127.0.0.1", false},
		{ModeNone, false, "0.0.0.0", false},
		{ModeNone, true, "127.0.0.1", true},
		{ModeNone, true, "127.1.2.3", true},
		{ModeNone, true, "::1", true},
		{ModeNone, true, "[::1]", true},
		{ModeNone, true, "localhost", true},
		{ModeNone, true, "LocalHost", true},
		{ModeNone, true, "", false},
		{ModeNone, true, "0.0.0.0", false},
		{ModeNone, true, "::", false},
		{ModeNone, true, "192.168.1.10", false},
		{ModeNone, true, "128.0.0.1", false},
		{ModeNone, true, "localhost.example.com", false},
		{ModeNone, true, "example.com", false},
	}
	for _, c := range cases {
		err := CheckBind(c.mode, c.anon, c.host)
		if (err == nil) != c.allow {
			t.Errorf("CheckBind(%s, %v, %q) = %v, want allowed %v", c.mode, c.anon, c.host, err, c.allow)
			continue
		}
		if err != nil {
			for _, hint := range []string{"JAIPH_SERVE_TOKEN", "JAIPH_SERVE_OIDC_ISSUER", "--allow-anonymous", "127.0.0.1"} {
				if !strings.Contains(err.Error(), hint) {
					t.Errorf("CheckBind(%s, %v, %q): %q lacks the hint %q", c.mode, c.anon, c.host, err, hint)
				}
			}
		}
	}
}
