package envflag

import "strings"

// True reports whether v spells true the way people write it in an
// environment: 1, true, yes or on, in any case, blanks around it ignored.
// Anything else, unset and empty included, is false.
func True(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}
